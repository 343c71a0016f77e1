"""Start-up refusals of torch's distributed wrappers and of the default process group.

All of them name no device, peer or link: the job's set-up does not fit what it calls.

- The default process group created a second time (a script's own init plus a framework's):
  `config`; the `raise` source line quoted above the exception is not the error.
- FSDP refusing to flatten a unit whose parameters mix frozen and trainable ones: `config`,
  like its refusal of mixed dtypes.
- DDP refusing parameters that are not materialised yet, logged bare before the raise
  (docs/labelling.md#ddps-reducer-refuses-a-step): `config`, and the bare line is the first
  error, not the last frame of a traceback cut after it.
- FSDP asserting a precondition on its mixed-precision or sharding options, printed bare
  (docs/labelling.md#fsdp-asserts-a-precondition-on-its-options): `config`.
- FSDP asserting that a forward recorded the autograd node its post-backward hook needs, after
  an evaluation pass under inference mode (docs/labelling.md#an-fsdp-forward-that-records-no-autograd-graph):
  `config`, `other` beside it, bare or with its class.

The excerpts follow the shapes of a launcher's stderr and a trainer's logging, with paths and
values of our own.
"""

from __future__ import annotations

from tests.analyzers.excerpts import alternative_labels, assert_reads, diagnose_text

INIT_TWICE = """\
Traceback (most recent call last):
  File "tools/train_det.py", line 97, in <module>
    main()
  File "/opt/envs/det/lib/python3.8/site-packages/detlib/runner/dist.py", line 41, in setup_dist
    dist.init_process_group(backend="nccl", **kwargs)
  File "/opt/envs/det/lib/python3.8/site-packages/torch/distributed/distributed_c10d.py", line 402, in init_process_group
    raise RuntimeError("trying to initialize the default process group "
RuntimeError: trying to initialize the default process group twice!
"""


def test_a_second_default_group_is_config_and_the_raise_line_is_not_the_error() -> None:
    diagnosis = diagnose_text("train.log", INIT_TWICE)
    assert diagnosis.category == "config", diagnosis.root_cause
    assert diagnosis.first_error is not None
    assert diagnosis.first_error.text.startswith("RuntimeError: trying to initialize")


def test_a_log_line_about_an_existing_group_is_no_failure() -> None:
    text = "INFO: default process group already exists, reusing it (world_size=4)\n"
    assert diagnose_text("train.log", text).first_error is None


MIXED_REQUIRES_GRAD = """\
[rank1]:   File "/opt/venv/lib/python3.10/site-packages/torch/distributed/fsdp/_flat_param.py", line 712, in _validate_tensors_to_flatten
[rank1]:     raise ValueError(
[rank1]: ValueError: Must flatten tensors with uniform requires_grad when use_orig_params=False
"""


def test_fsdp_refusing_frozen_and_trainable_weights_in_one_unit_is_config() -> None:
    diagnosis = diagnose_text("rank1.err", MIXED_REQUIRES_GRAD)
    assert_reads(diagnosis, "config", first_error="uniform requires_grad")


def test_the_older_flat_parameter_wording_reads_the_same() -> None:
    text = "ValueError: `FlatParameter` requires uniform `requires_grad`\n"
    diagnosis = diagnose_text("train.log", text)
    assert diagnosis.category == "config", diagnosis.root_cause


UNMATERIALISED = """\
2026-03-14 08:02:11,904 [INFO] (trainer) Preparing the model for 4 processes
Modules with uninitialized parameters can't be used with `DistributedDataParallel`. Run a dummy forward pass to correctly initialize the modules
Traceback (most recent call last):
  File "/srv/tune/train.py", line 880, in <module>
    main()
  File "/opt/envs/tune/lib/python3.11/site-packages/accelerate/accelerator.py", line 1210, in _prepare_one
    return self.prepare_model(obj, device_placement=device_placement)
"""


def test_ddp_refusing_unmaterialised_parameters_is_config_and_the_bare_line_leads() -> None:
    # docs/labelling.md#ddps-reducer-refuses-a-step
    diagnosis = diagnose_text("train.log", UNMATERIALISED)
    assert_reads(
        diagnosis, "config", first_error="Modules with uninitialized parameters", beside=("other",)
    )


def test_a_dummy_forward_reported_by_the_job_is_no_failure() -> None:
    text = "INFO: ran a dummy forward pass to initialize 3 lazy modules before wrapping\n"
    assert diagnose_text("train.log", text).first_error is None


FSDP_PRECISION = """\
Expects full precision but got torch.float32
  File "/srv/llm/main.py", line 61, in <module>
    main(cfg)
  File "/opt/venv/lib/python3.10/site-packages/trainkit/dist.py", line 288, in wrap_fsdp
    model = FullyShardedDataParallel(
  File "/opt/venv/lib/python3.10/site-packages/torch/distributed/fsdp/fully_sharded_data_parallel.py", line 1040, in __init__
    self._materialize_module(module, param_init_fn, device_from_device_id)
"""


def test_fsdps_precision_precondition_is_config_and_the_finding_leads() -> None:
    # docs/labelling.md#fsdp-asserts-a-precondition-on-its-options
    diagnosis = diagnose_text("train.log", FSDP_PRECISION)
    assert diagnosis.category == "config", diagnosis.root_cause
    assert diagnosis.first_error is not None
    assert diagnosis.first_error.text.startswith("Expects full precision")
    assert "other" in alternative_labels(diagnosis)


def test_a_line_reporting_the_mixed_precision_dtypes_is_no_failure() -> None:
    text = "INFO: FSDP mixed precision param_dtype=torch.bfloat16 reduce_dtype=torch.float32\n"
    assert diagnose_text("train.log", text).first_error is None


# Two ranks printing into one output: their frames interleave around FSDP's assertion that
# the forward recorded the autograd node its post-backward hook needs
# (docs/labelling.md#an-fsdp-forward-that-records-no-autograd-graph).
FSDP_FORWARD_WITHOUT_GRAPH = """\
    return launch_fn(*args, **kwargs)
  File "/srv/lm/pretrain/run.py", line 88, in main
    _register_post_backward_hook(state, handle)
    _p_assert(
  File "/opt/env/lib/python3.10/site-packages/torch/distributed/fsdp/_runtime_utils.py", line 1440, in _register_post_backward_hook
  File "/opt/env/lib/python3.10/site-packages/torch/distributed/utils.py", line 150, in _p_assert
    fit(runner, state, loaders)
  File "/srv/lm/pretrain/run.py", line 141, in fit
    args, kwargs = _pre_forward(
  File "/opt/env/lib/python3.10/site-packages/torch/distributed/fsdp/_runtime_utils.py", line 440, in _pre_forward
    raise AssertionError(s)
AssertionError: The `grad_fn` is needed to access the `AccumulateGrad` and register the post-backward hook
    out = model(tokens)
  File "/opt/env/lib/python3.10/site-packages/torch/nn/modules/module.py", line 1520, in _wrapped_call_impl
"""

FSDP_FORWARD_WITHOUT_GRAPH_BARE = """\
Validating ...
Validating ...
Training ...
The `grad_fn` is needed to access the `AccumulateGrad` and register the post-backward hook
Training ...
The `grad_fn` is needed to access the `AccumulateGrad` and register the post-backward hook
  File "/opt/env/lib/python3.10/multiprocessing/spawn.py", line 120, in spawn_main
    exitcode = _main(fd, parent_sentinel)
"""


def test_an_fsdp_forward_with_no_autograd_graph_is_the_loop_not_the_wrapper() -> None:
    for name, text in (
        ("pretrain.log", FSDP_FORWARD_WITHOUT_GRAPH),
        ("stdout.log", FSDP_FORWARD_WITHOUT_GRAPH_BARE),
    ):
        diagnosis = diagnose_text(name, text)
        assert diagnosis.category == "config", (name, diagnosis.root_cause)
        assert diagnosis.first_error is not None
        assert "register the post-backward hook" in diagnosis.first_error.text, name
        assert "other" in alternative_labels(diagnosis), name
        assert any("torch.no_grad()" in action for action in diagnosis.next_actions), name
