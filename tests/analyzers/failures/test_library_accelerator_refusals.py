"""A library that says it has nothing for this accelerator is a platform limit of the release.

Two wordings of one refusal, raised before any kernel runs. DeepSpeed builds its extension ops
through the accelerator's op builder, and the NPU builder answers the ops it lacks with an
exception of its own (`This op had not been implemented on NPU backend.`, raised from
`op_builder/npu/no_impl.py` when the hybrid engine asks for its inference kernels). A library
that checks the device at import lists the vendors it runs on (`X currently only works on
NVIDIA, AMD and Intel GPUs.`). The call is right and the library release has no path for this
device: `config`, with `operator` (the op that is missing) and `driver_env` (a machine without
a supported device) beside it. docs/labelling.md#operator-installation-or-platform-limit.
Values of our own in the real shapes.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_files, diagnose_text, rules_of

RULE = "cfg.library_lacks_accelerator"


HYBRID_ENGINE = """\
Traceback (most recent call last):
  File "/srv/rlhf/step3/main.py", line 401, in <module>
    main()
  File "/srv/rlhf/step3/rlhf_engine.py", line 77, in _init_actor
    actor_engine, *_ = deepspeed.initialize(model=actor_model, config=ds_config)
  File "/opt/py310/lib/python3.10/site-packages/deepspeed/model_implementations/transformers/ds_transformer.py", line 58, in __init__
    inference_module = builder.load()
  File "/opt/py310/lib/python3.10/site-packages/deepspeed/ops/op_builder/npu/no_impl.py", line 21, in load
    raise ValueError("This op had not been implemented on NPU backend.")
ValueError: This op had not been implemented on NPU backend.
"""


def test_an_op_builder_with_nothing_for_the_npu_is_the_release() -> None:
    diagnosis = diagnose_files({"train.log": HYBRID_ENGINE})
    assert_reads(diagnosis, "config", first_error="had not been implemented on NPU backend")
    assert diagnosis.first_error.text.startswith("ValueError")
    assert RULE in rules_of(diagnosis)
    assert "operator" in {a.category for a in diagnosis.alternatives}


def test_a_library_that_lists_the_vendors_it_runs_on() -> None:
    diagnosis = diagnose_text(
        "import.log",
        "NotImplementedError: FastTune currently only works on NVIDIA and AMD GPUs.\n",
    )
    assert diagnosis.category == "config"
    assert RULE in rules_of(diagnosis)
    assert "driver_env" in {a.category for a in diagnosis.alternatives}


def test_a_library_that_logs_its_fallback_has_not_failed() -> None:
    diagnosis = diagnose_text(
        "train.log",
        "[WARNING] fused_lamb has not been implemented on NPU backend, using the torch path\n"
        "INFO fast kernels only work on NVIDIA GPUs; running the reference kernels on npu:0\n",
    )
    assert RULE not in rules_of(diagnosis)


def test_an_op_the_dispatcher_lacks_keeps_its_own_reading() -> None:
    diagnosis = diagnose_text(
        "train.log",
        "NotImplementedError: The operator 'aten::_linalg_eigh' is not currently implemented "
        "for the NPU device.\n",
    )
    assert RULE not in rules_of(diagnosis)
