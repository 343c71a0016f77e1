"""A first error no signature knows gets a label only when its weak hints agree."""

import io
from pathlib import Path

import pytest

from analyzers.causal.first_error import find_first_error
from analyzers.causal.labels import first_error_label
from analyzers.classify.events import classify_scans
from analyzers.classify.hints import defensible, is_chatter, load_hints, vote
from analyzers.classify.rules import load_knowledge
from analyzers.classify.tiers import classify_event
from analyzers.core.types import Event, EventKind, FileInfo, FileKind, FileScan
from analyzers.core.yamlcheck import KnowledgeError
from analyzers.formats.codes import extract_codes
from analyzers.scan.member import scan_file

KNOWLEDGE = load_knowledge()
HINTS = load_hints()


@pytest.mark.parametrize(("text", "category"), HINTS.examples)
def test_every_example_of_the_hints_file_gets_its_category(text: str, category: str) -> None:
    assert (vote(text) or "other") == category


def events(*lines: tuple[str, EventKind, str | None]) -> list[Event]:
    return [
        Event("job/worker.log", n, text, kind, text, source=source, codes=extract_codes(text))
        for n, (text, kind, source) in enumerate(lines, start=1)
    ]


def label(found: list[Event]) -> tuple[str, str]:
    scan = FileScan(FileInfo("job/worker.log", FileKind.RANK_LOG, None), found, {})
    items = [classify_event(e, 0, KNOWLEDGE) for e in found if e.kind == EventKind.ERROR]
    return first_error_label(find_first_error(items), [scan])


def test_the_traceback_frame_above_an_unknown_exception_tells_the_phase() -> None:
    frame = 'File "/srv/engine/model_loader/weight_loader.py", line 88, in load_weights'
    found = events(
        (frame, EventKind.WARNING, "traceback_frame"),
        ("KeyError: 'blocks.7.ffn.w_scale_inv'", EventKind.ERROR, "traceback"),
    )
    assert label(found) == ("weight_load", "framework")


def test_a_bare_assert_under_a_per_parameter_loader_frame_is_weight_loading() -> None:
    """vLLM/SGLang parameter classes name their loaders load_<kind>_weight; a bare
    AssertionError raised there is a checkpoint tensor that does not fit the parameter."""
    frame = 'File "/opt/app/runtime/models/parameter.py", line 214, in load_row_parallel_weight'
    found = events(
        (frame, EventKind.WARNING, "traceback_frame"),
        ("AssertionError", EventKind.ERROR, "traceback"),
    )
    assert label(found) == ("weight_load", "framework")


# docs/labelling.md, "Config, driver_env or weight_load": an unknown exception raised while the
# job reads its own settings is the job's configuration.
def test_an_unknown_exception_raised_while_the_job_reads_its_settings_is_config() -> None:
    frame = 'File "/srv/serve/launch.py", line 41, in parse_runtime_config'
    found = events(
        (frame, EventKind.WARNING, "traceback_frame"),
        (
            "ValueError: invalid literal for int() with base 10: 'auto'",
            EventKind.ERROR,
            "traceback",
        ),
    )
    assert label(found) == ("config", "framework")


def test_the_same_exception_raised_while_reading_a_sample_is_not_config() -> None:
    frame = 'File "/srv/serve/data.py", line 77, in __getitem__'
    found = events(
        (frame, EventKind.WARNING, "traceback_frame"),
        (
            "ValueError: invalid literal for int() with base 10: 'auto'",
            EventKind.ERROR,
            "traceback",
        ),
    )
    assert label(found)[0] == "other"


# docs/labelling.md, "A compiler backend that fails inside Triton's own modules": a plain
# Python error raised in Triton's backend or runtime code under torch.compile is the torch and
# Triton releases not fitting each other.
def test_a_plain_error_raised_inside_triton_backend_code_is_config() -> None:
    frame = 'File "/opt/env/site-packages/triton/backends/driver.py", line 52, in make_attrs'
    found = events(
        (frame, EventKind.WARNING, "traceback_frame"),
        ("TypeError: 'NoneType' object is not subscriptable", EventKind.ERROR, "traceback"),
    )
    assert label(found) == ("config", "framework")


# docs/labelling.md#a-local-variable-read-before-any-branch-set-it: an attribute of None is a
# value the code never set, so the words `no attribute` do not vote for a release mismatch
# there; the exception class alone stays below the bar, while the place it was raised still
# decides when it names one.
def test_an_attribute_of_none_alone_gives_the_hints_no_winner() -> None:
    found = events(
        (
            "AttributeError: 'NoneType' object has no attribute 'metadata'",
            EventKind.ERROR,
            "traceback",
        ),
    )
    assert label(found)[0] == "other"


def test_an_attribute_of_none_inside_triton_backend_code_is_still_config() -> None:
    frame = 'File "/opt/env/site-packages/triton/backends/driver.py", line 52, in make_attrs'
    found = events(
        (frame, EventKind.WARNING, "traceback_frame"),
        ("AttributeError: 'NoneType' object has no attribute 'arch'", EventKind.ERROR, "traceback"),
    )
    assert label(found) == ("config", "framework")


def test_a_triton_backend_module_named_by_the_import_machinery_is_config() -> None:
    # the frames are importlib's own: the failed module is named only in the message
    frame = 'File "<frozen importlib._bootstrap_external>", line 1355, in _get_parent_path'
    found = events(
        (frame, EventKind.WARNING, "traceback_frame"),
        ("KeyError: 'triton.backends.nvidia.compiler'", EventKind.ERROR, "traceback"),
    )
    assert label(found) == ("config", "framework")


# The code generator and the language core it calls while lowering a kernel are Triton's own
# too: a plain error raised there is a kernel written against another Triton release.
def test_a_plain_error_raised_inside_tritons_code_generator_is_config() -> None:
    frame = 'File "/opt/env/site-packages/triton/language/core.py", line 301, in <listcomp>'
    found = events(
        (frame, EventKind.WARNING, "traceback_frame"),
        (
            "AttributeError: 'NoneType' object has no attribute 'to_ir'",
            EventKind.ERROR,
            "traceback",
        ),
    )
    assert label(found) == ("config", "framework")


def test_a_plain_error_raised_in_the_pre_3_compiler_module_is_config() -> None:
    frame = 'File "/opt/env/site-packages/triton/compiler.py", line 870, in visit_Call'
    found = events(
        (frame, EventKind.WARNING, "traceback_frame"),
        ("TypeError: 'NoneType' object is not subscriptable", EventKind.ERROR, "traceback"),
    )
    assert label(found) == ("config", "framework")


def test_the_same_error_raised_in_the_languages_semantic_checks_is_not_config() -> None:
    # semantic.py checks the kernel's own operands: the kernel's mistake, not a release gap
    frame = 'File "/opt/env/site-packages/triton/language/semantic.py", line 212, in add'
    found = events(
        (frame, EventKind.WARNING, "traceback_frame"),
        ("TypeError: 'NoneType' object is not subscriptable", EventKind.ERROR, "traceback"),
    )
    assert label(found)[0] == "other"


def test_the_same_error_raised_in_the_kernel_authors_own_module_is_not_config() -> None:
    frame = 'File "/srv/kernels/triton_ops/fused_norm.py", line 52, in make_attrs'
    found = events(
        (frame, EventKind.WARNING, "traceback_frame"),
        ("TypeError: 'NoneType' object is not subscriptable", EventKind.ERROR, "traceback"),
    )
    assert label(found)[0] == "other"


# docs/labelling.md, "An error inside the backward of torch's autograd collectives": before
# torch 2.3 that backward indexes the gathered gradients by the global rank, which overruns a
# sub-group smaller than the world.
def test_an_index_error_inside_the_autograd_collectives_backward_is_the_torch_release() -> None:
    frame = 'File "/opt/env/lib/python3.10/site-packages/torch/distributed/nn/functional.py", line 331, in backward'
    found = events(
        (frame, EventKind.WARNING, "traceback_frame"),
        ("IndexError: tuple index out of range", EventKind.ERROR, "traceback"),
    )
    assert label(found) == ("config", "framework")


def test_the_same_index_error_in_the_jobs_own_backward_stays_unlabelled() -> None:
    frame = 'File "/srv/train/ops/seq_gather.py", line 58, in backward'
    found = events(
        (frame, EventKind.WARNING, "traceback_frame"),
        ("IndexError: tuple index out of range", EventKind.ERROR, "traceback"),
    )
    assert label(found)[0] == "other"


# docs/labelling.md, "Quantized weights a sharding wrapper cannot take": an exception with no
# words of its own raised while ZeRO-1/2 builds its gradient partitions is the model's set-up
# and the ZeRO stage not fitting.
def test_a_bare_key_error_in_zeros_partition_bookkeeping_is_config() -> None:
    frame = 'File "/srv/venv/lib/python3.10/site-packages/deepspeed/runtime/zero/stage_1_and_2.py", line 702, in get_first_param_index'
    found = events(
        (frame, EventKind.WARNING, "traceback_frame"),
        ("KeyError: 0", EventKind.ERROR, "traceback"),
    )
    assert label(found) == ("config", "framework")


def test_the_same_key_error_in_the_jobs_own_lookup_stays_unlabelled() -> None:
    frame = 'File "/srv/train/data/bucket_index.py", line 40, in first_index'
    found = events(
        (frame, EventKind.WARNING, "traceback_frame"),
        ("KeyError: 0", EventKind.ERROR, "traceback"),
    )
    assert label(found)[0] == "other"


# docs/labelling.md, "A device mesh that refuses the layout it is asked to build": a bare
# exception raised while FSDP sets up a hybrid strategy's groups from its mesh (or DeviceMesh
# hands out a dimension's group) is a rank the mesh does not hold.
def test_a_bare_index_error_in_fsdps_hybrid_group_setup_is_config() -> None:
    frame = 'File "/usr/lib/python3/dist-packages/torch/distributed/fsdp/_init_utils.py", line 127, in _init_process_group_state'
    found = events(
        (frame, EventKind.WARNING, "traceback_frame"),
        ("IndexError: list index out of range", EventKind.ERROR, "traceback"),
    )
    assert label(found) == ("config", "framework")


def test_a_bare_index_error_in_device_mesh_get_group_is_config() -> None:
    frame = 'File "/opt/env/lib/python3.11/site-packages/torch/distributed/device_mesh.py", line 812, in get_group'
    found = events(
        (frame, EventKind.WARNING, "traceback_frame"),
        ("IndexError: list index out of range", EventKind.ERROR, "traceback"),
    )
    assert label(found) == ("config", "framework")


def test_the_same_index_error_in_the_jobs_mesh_helper_stays_unlabelled() -> None:
    frame = 'File "/srv/mm/train/mesh_utils.py", line 40, in get_group'
    found = events(
        (frame, EventKind.WARNING, "traceback_frame"),
        ("IndexError: list index out of range", EventKind.ERROR, "traceback"),
    )
    assert label(found)[0] == "other"


def test_a_listed_code_in_the_block_labels_unknown_wording() -> None:
    found = events(
        ("RuntimeError: graph launch failed, error code is 207018", EventKind.ERROR, None)
    )
    assert label(found) == ("oom", "memory")


def test_a_listed_code_outvotes_the_family_label_of_a_catch_all_code() -> None:
    """EZ9999 is the operator family's catch-all inner error, labelled only by its family; the
    communication library's EI0006 beside it is listed with a label of its own."""
    found = events(("RuntimeError: the widget stalled [EZ9999][EI0006]", EventKind.ERROR, None))
    assert label(found)[0] == "hccl"


def test_a_code_read_only_by_its_class_digit_labels_nothing() -> None:
    """207099 is listed nowhere: the documented class rule (2xxxxx, resources or hardware
    fit) names no failure kind, and its neighbour 207001 (memory) says nothing about it."""
    found = events(
        ("RuntimeError: graph launch failed, error code is 207099", EventKind.ERROR, None)
    )
    assert label(found)[0] == "other"


def test_hints_that_disagree_leave_the_error_unlabelled() -> None:
    text = "RuntimeError: stream 3 lost its peer"  # stream_sync 2, hccl 2: a tie
    assert vote(text) is None
    found = events((text, EventKind.ERROR, None))
    assert label(found)[0] == "other"


def test_a_category_the_hints_cannot_vote_for_is_rejected(tmp_path: Path) -> None:
    bad = tmp_path / "fallback.yaml"
    bad.write_text(
        "min_score: 3\ncode_weight: 3\nunvoted: [other, hang]\nexception_types: {}\n"
        "keywords:\n  hang:\n    - ['stuck', 2]\n"
    )
    with pytest.raises(KnowledgeError, match="'hang' is not a category hints can vote for"):
        load_hints.__wrapped__(bad)


def test_a_keyword_row_without_a_weight_is_rejected(tmp_path: Path) -> None:
    bad = tmp_path / "fallback.yaml"
    bad.write_text(
        "min_score: 3\ncode_weight: 3\nunvoted: [other]\nexception_types: {}\n"
        "keywords:\n  oom:\n    - 'memory'\n"
    )
    with pytest.raises(KnowledgeError, match="each row must be \\[regex, weight\\]"):
        load_hints.__wrapped__(bad)


# docs/labelling.md, the object collectives: the job's own __getstate__ that refuses inside
# broadcast_object_list says nothing about a collective; the library frame that called it does.
GETSTATE_REFUSED = """\
model run failed: KV cache handle for layer 0 is pinned to this process and cannot be serialized
[rank0]: Traceback (most recent call last):
[rank0]:   File "/home/user/serve/infer.py", line 152, in main
[rank0]:     dist.broadcast_object_list(cfg, src=0)
[rank0]:   File "/opt/venv/lib/python3.11/site-packages/torch/distributed/distributed_c10d.py", line 3405, in _object_to_tensor
[rank0]:     _pickler(f).dump(obj)
[rank0]:   File "/home/user/serve/infer.py", line 65, in __getstate__
[rank0]:     raise RuntimeError(f"KV cache handle for layer {self.layer} is pinned")
[rank0]: RuntimeError: KV cache handle for layer 0 is pinned to this process and cannot be serialized
"""


def scanned_label(text: str) -> tuple[str, str]:
    """The first error's label as the pipeline classifies the file: rules held to the frames
    that raised a line (`raised_in`) are checked against its traceback too."""
    scan = scan_file(io.BytesIO(text.encode()), FileInfo("log_0.log", FileKind.RANK_LOG, 0))
    items = [i for i in classify_scans([scan], KNOWLEDGE) if i.event.kind == EventKind.ERROR]
    return first_error_label(find_first_error(items), [scan])


def test_an_exception_the_pickler_met_in_the_jobs_code_is_the_object_collective() -> None:
    assert scanned_label(GETSTATE_REFUSED) == ("hccl", "communication")


def test_the_same_exception_raised_in_the_jobs_own_code_alone_stays_unlabelled() -> None:
    own_code = "\n".join(
        line
        for line in GETSTATE_REFUSED.splitlines()
        if "site-packages" not in line and "_pickler" not in line
    )
    assert scanned_label(own_code)[0] == "other"


# docs/labelling.md, a number that Python could not read: the statement printed under the
# innermost frame says where the text came from. A rank started with a typo in one variable
# refuses it at import, before it ever joins the process group.
ENV_NUMBER_REFUSED = """\
starting rank 5 pid 41207
Traceback (most recent call last):
  File "/srv/jobs/moe/infer.py", line 41, in <module>
    CAPACITY = float(os.environ.get("MOE_CAPACITY_FACTOR", "1.25"))
               ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
ValueError: could not convert string to float: '1.5x'
"""


def test_a_number_refused_while_reading_an_environment_variable_is_config() -> None:
    assert scanned_label(ENV_NUMBER_REFUSED) == ("config", "framework")


def test_the_same_number_refused_while_reading_a_sample_stays_other() -> None:
    sample = ENV_NUMBER_REFUSED.replace(
        'CAPACITY = float(os.environ.get("MOE_CAPACITY_FACTOR", "1.25"))',
        'score = float(row["score"])',
    ).replace("<module>", "__getitem__")
    assert scanned_label(sample)[0] == "other"


# A launch script that pins each worker to the CPU of its local rank, on a machine with fewer
# CPUs than workers: the kernel refuses the set with a bare errno, and only the statement above
# the exception says what was asked for.
AFFINITY_REFUSED = """\
Traceback (most recent call last):
  File "/srv/jobs/moe/infer.py", line 47, in <module>
    os.sched_setaffinity(0, {local_rank})
OSError: [Errno 22] Invalid argument
"""


def test_a_cpu_set_the_kernel_refuses_is_the_launch_placement() -> None:
    assert scanned_label(AFFINITY_REFUSED) == ("config", "framework")


def test_the_same_errno_from_another_call_stays_unlabelled() -> None:
    other_call = AFFINITY_REFUSED.replace("os.sched_setaffinity(0, {local_rank})", "fd.seek(-1)")
    assert scanned_label(other_call)[0] == "other"


@pytest.mark.parametrize("text", HINTS.chatter.examples)
def test_every_chatter_example_is_chatter(text: str) -> None:
    assert is_chatter(text)


@pytest.mark.parametrize("text", HINTS.chatter.counterexamples)
def test_no_chatter_counterexample_is_chatter(text: str) -> None:
    assert not is_chatter(text)


def test_a_runner_up_that_reaches_the_winners_bar_is_defensible() -> None:
    """The vote names the missing module; the checkpoint's words are a reading as well."""
    line = "ModuleNotFoundError: No module named 'torch_npu' while loading state_dict"
    assert vote(line) == "driver_env"
    assert [label for label, _ in defensible(line)] == ["driver_env", "weight_load"]


def test_a_line_no_rule_labelled_offers_labels_below_the_winners_bar() -> None:
    line = "ValueError: request 2 could not be scheduled"
    assert vote(line) is None
    assert defensible(line) == []
    assert defensible(line, unlabelled=True) == [("config", 1)]


# docs/labelling.md, "An engine's own all-reduce that fails a CUDA call": the frame that builds
# the IPC workspace an engine's all-reduce shares between ranks places a bare CUDA answer in
# the collective's set-up; the same answer under a model kernel's frame stays unlabelled.
IPC_WORKSPACE_REFUSED = """\
Traceback (most recent call last):
  File "/opt/venv/lib/python3.12/site-packages/kernels/comm/cuda_ipc.py", line 190, in create_shared_buffer
    handle = cudart.cudaIpcGetMemHandle(pointer)
RuntimeError: CUDART error: invalid resource handle
"""


def test_a_cuda_answer_under_the_ipc_workspace_frame_is_the_collective() -> None:
    assert scanned_label(IPC_WORKSPACE_REFUSED) == ("hccl", "communication")


def test_the_same_answer_under_a_model_kernel_frame_stays_unlabelled() -> None:
    model_kernel = IPC_WORKSPACE_REFUSED.replace("comm/cuda_ipc.py", "ops/rope.py").replace(
        "create_shared_buffer", "apply_rotary"
    )
    assert scanned_label(model_kernel)[0] == "other"


# A torch process-group record names its collective as `OpType=`; the words vote for the
# collective alone, while the runtime's own spelling of an operator's type still votes for it.
def test_a_collective_named_by_its_op_type_is_no_operator() -> None:
    line = (
        "RuntimeError: ranks disagree: Rank 2 runs CollectiveFingerPrint(OpType=BROADCAST, "
        "TensorShape=[4]), but Rank 0 runs CollectiveFingerPrint(OpType=_ALLGATHER_BASE)."
    )
    assert [label for label, _ in defensible(line)] == ["hccl"]


def test_an_operator_type_in_the_runtimes_words_still_votes_operator() -> None:
    line = "EZ9999: the kernel launch failed for opType [GroupedMatmul] on stream 3"
    assert vote(line) == "operator"


# A call quoted with its arguments names the stream it was given; that word is no report about
# the stream layer, while a line about a stream still votes for it.
def test_a_stream_passed_to_a_quoted_call_offers_no_stream_layer() -> None:
    line = (
        "[E:onnxruntime:, sequential_executor.cc:516 ExecuteKernel] Non-zero status code returned "
        "while running Resize node. Status Message: CANN error executing "
        "aclopCompileAndExecute(opname.c_str(), in.size(), out.data(), attr, NULL, Stream(ctx))"
    )
    assert "stream_sync" not in [label for label, _ in defensible(line, unlabelled=True)]


def test_a_stream_the_words_report_on_still_votes_for_the_stream_layer() -> None:
    line = "RuntimeError: the copy stream 2 timed out before it could synchronize"
    assert "stream_sync" in [label for label, _ in defensible(line, unlabelled=True)]


def test_two_features_a_library_will_not_run_together_vote_for_the_options() -> None:
    """A refusal of a feature pair is the way the job was set up: switching one off, or a
    release that handles both, fixes it, so the words alone lead to `config`."""
    assert (
        vote("AssertionError: gradient sync skipping is incompatible with sharded grads")
        == "config"
    )
    assert vote("ValueError: sequence packing is not compatible with sliding-window attention") == (
        "config"
    )


@pytest.mark.parametrize(
    ("text", "category"),
    [
        ("RuntimeError: CUDA driver version is incompatible with the runtime", "driver_env"),
        (
            "ValueError: operand shapes are incompatible with each other: (3, 4) and (5,)",
            "shape_mismatch",
        ),
        ("RuntimeError: the checkpoint dtype is incompatible with the model", "other"),
    ],
)
def test_incompatibility_said_of_a_version_a_shape_or_a_dtype_is_no_feature_pair(
    text: str, category: str
) -> None:
    assert (vote(text) or "other") == category


def test_two_shapes_said_not_to_be_compatible_vote_for_the_shapes() -> None:
    """A norm or projection that names its input's and its weight's shapes and says they do
    not fit: a one-dimensional weight prints as `(2048,)`, and `not compatible` is a word of
    disagreement as `incompatible` is."""
    line = "ValueError: input (shape=(96, 2, 512)) and gamma (shape=(2048,)) are not compatible"
    assert vote(line) == "shape_mismatch"


def test_features_said_not_to_be_compatible_still_vote_for_the_options() -> None:
    line = "ValueError: optimizer offload is not compatible with fp8 parameter gather"
    assert vote(line) == "config"


def test_a_name_missing_from_a_registry_that_lists_its_entries_votes_for_the_options() -> None:
    """The registry says what it holds: the name asked for belongs to another release or to
    options this set-up does not have."""
    line = (
        "KeyError: \"Scheduler 'cosine_v2' is not registered. Registered schedulers: ['cosine']\""
    )
    assert vote(line) == "config"


def test_a_registration_notice_that_lists_nothing_missing_does_not_vote_for_the_options() -> None:
    assert vote("INFO registered schedulers: cosine, linear") is None


def test_an_op_that_refuses_its_input_layout_votes_for_the_operator() -> None:
    """A GEMM or kernel stating the format or layout its operand must have is the op's own
    contract with its inputs."""
    line = "RuntimeError: grouped GEMM on block-scaled weights requires the swizzled scale layout"
    assert vote(line) == "operator"


def test_a_layout_word_without_an_op_does_not_vote_for_the_operator() -> None:
    line = "ValueError: the dataset requires the jsonl format"
    assert vote(line) != "operator"


def test_a_transfer_client_that_lost_its_peer_votes_for_the_transport() -> None:
    """A KV-transfer or RPC client whose other end went away: the transfer between ranks."""
    assert vote("RuntimeError: the store client has been closed, please re-connect") == "hccl"


def test_a_socket_reset_under_the_tensor_rebuild_frame_stays_a_dead_sender() -> None:
    """The connection words of a loader worker that died with a batch queued must not outvote
    the rebuild frame: a reset or refused connection is no transport's lost peer there."""
    frame = (
        '  File "/venv/lib/python3.11/site-packages/torch/multiprocessing/reductions.py", '
        "line 541, in rebuild_storage_fd"
    )
    line = "ConnectionResetError: [Errno 104] Connection reset by peer"
    assert vote(line, frames=[frame]) == "device_fault"


def test_a_settings_models_value_error_under_its_headline_votes_for_the_options() -> None:
    """pydantic prints the refused field's reason under a `validation error for` headline."""
    own = "  Value error, LoRA is only supported for decoder models [type=value_error]"
    headline = "pydantic_core._pydantic_core.ValidationError: 1 validation error for ModelConfig"
    assert vote(own, [headline]) == "config"


def test_a_driver_xid_behind_the_syslog_kernel_tag_is_the_device() -> None:
    """`kernel:` is the operating system's tag on a syslog line, not a compute kernel."""
    assert vote("kernel: NVRM: Xid (PCI:0000:3b:00): 79, GPU has fallen off the bus.") == (
        "device_fault"
    )


# C++'s call operator is a function's name: native logs print it as the place that wrote the
# line (a lambda in the graph engine's subprocess manager, torch_npu's `(function
# operator())`). It names no operator of the job, while the word itself still votes.
def test_the_call_operator_named_as_a_writer_does_not_vote_for_the_operator() -> None:
    line = (
        "[ERROR] GE(5120,python):2026-03-02-09:14:55.201.337 [subprocess_manager.cc:181]5177 "
        "operator(): ErrorNo: 4294967295(failed) process table full"
    )
    assert vote(line) != "operator"
    assert vote("RuntimeError: the operator rejected its second input") == "operator"


# docs/labelling.md#an-attribute-a-model-part-does-not-hold: torch's Module raising from its
# `__getattr__` is code asking a model part for something this build of it does not have, the
# `has no attribute` reading, even when the paste cuts the exception's words off.
def test_a_cut_attribute_error_from_a_modules_getattr_is_config() -> None:
    frame = (
        'File "/usr/local/lib/python3.12/dist-packages/torch/nn/modules/module.py", '
        "line 1940, in __getattr__"
    )
    found = events(
        (frame, EventKind.WARNING, "traceback_frame"),
        ("AttributeError: 'MoEGroupedMl", EventKind.ERROR, "traceback"),
    )
    assert label(found) == ("config", "framework")


def test_the_same_cut_attribute_error_in_the_jobs_own_class_stays_unlabelled() -> None:
    frame = 'File "/srv/train/model/router.py", line 212, in __getattr__'
    found = events(
        (frame, EventKind.WARNING, "traceback_frame"),
        ("AttributeError: 'MoEGroupedMl", EventKind.ERROR, "traceback"),
    )
    assert label(found)[0] == "other"


# The graph engine names the engine that holds an op's kernels (`AiCoreEngine`) and the
# operator package keeps them under an `ai_core` folder; neither says a core stopped, so the
# words do not vote for the device's label. A core that did stop keeps its vote.
def test_the_ai_core_engine_and_package_folder_are_no_core_fault() -> None:
    engine = "Op type GatherV2 of ops kernel [AiCoreEngine] could not be placed on node gather_v2_4"
    folder = "kernel /opt/cann/opp/built-in/op_impl/ai_core/tbe/kernel/gather_v2.o was not loaded"
    # the kernel the lines speak of still votes for the op
    assert vote(engine) == "operator"
    assert vote(folder) == "operator"
    assert "aicore_timeout" not in dict(defensible(engine, unlabelled=True))
    assert "aicore_timeout" not in dict(defensible(folder, unlabelled=True))


def test_a_core_that_stopped_still_votes_for_the_device() -> None:
    assert vote("the AI Core of device 3 stopped on an exception in node gather_v2_4") == (
        "aicore_timeout"
    )
    assert vote("ai_core_dispatcher.c:1012 slot 3 stopped") == "aicore_timeout"
