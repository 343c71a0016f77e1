"""Short refusals that LLM serving stacks on Ascend print on their own, outside vLLM.

Each case is a rule of docs/labelling.md, with an example and a counterexample:

- #a-compiler-worker-that-outlives-its-process: the TBE compiler's worker reporting that its
  main process disappeared is `device_fault` when nothing else is logged, with `oom` offered;
  the main process's own allocator failure before it stays the first error;
- #config-driver_env-or-weight_load: a file check refusing a symbolic-link path is `config`,
  with `weight_load` offered; a log that only follows a link is no failure;
- #an-operator-name-decides-nothing: a concatenation's per-tensor dimension check naming two
  tensors by position is the op refusing its inputs, `operator`, with `shape_mismatch`
  offered; MindIE's restated ATB setup failure reads as the ATB op's refusal;
- gloo's per-attempt connect log with `SO_ERROR: Connection refused` is the collective
  layer's (`hccl`); its `connected` line is not;
- a traceback frame pasted on one line with its `raise XError("...")`, cut from its traceback,
  is the error when the exception line was lost, and yields to that line when it follows.

Fixtures follow the shapes these stacks print; values are made up.
"""

from __future__ import annotations

from analyzers.core.report import Diagnosis
from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

WORKER_ALONE = """\
[INFO] model runner: loading 61 layers
[ERROR] TBE Subprocess[task_distribute] raise error[], main process disappeared!
"""

WORKER_AFTER_OOM = """\
RuntimeError: NPU out of memory. Tried to allocate 2.50 GiB (NPU 0; 60.97 GiB total capacity; 58.10 GiB already allocated)
[ERROR] TBE Subprocess[task_distribute] raise error[], main process disappeared!
"""

SYMLINK_REFUSED = """\
Traceback (most recent call last):
  File "/opt/serving/run.py", line 40, in <module>
    runner.load()
ValueError: The file path should not be a symbolic link: /models/demo/model-00002-of-00004.safetensors
"""

SYMLINK_FOLLOWED = """\
INFO resolved symbolic link /models/demo -> /data/blobs/demo
INFO model loaded in 41 s
"""

CAT_DIMS_DISAGREE = """\
RuntimeError: call aclnnCat failed, detail:EZ1001: [PID: 77] 2026-05-06-07:08:09.101.112 dimnum of tensor 2 is [3], should be equal to tensor 0 [4].
"""

SETUP_RESTATED = """\
[2026-05-06 07:08:09.101+0800] [77] [281470000000077] [llm] [ERROR] [model_runner.py:212] : Setup fail, enable log: export ASDOPS_LOG_LEVEL=ERROR, export ASDOPS_LOG_TO_STDOUT=1 to find the first error.
"""

GLOO_REFUSED = """\
E0506 07:08:09.101112 4410 pair.cc:712] failed to connect, willRetry=0, retry=3, retryLimit=3, rank=2, size=4, local=[10.0.0.7]:40112, remote=[10.0.0.5]:29600, error=SO_ERROR: Connection refused
"""

GLOO_CONNECTED = """\
I0506 07:08:09.101112 4410 pair.cc:690] connected, retry=1, rank=2, size=4, remote=[10.0.0.5]:29600
"""


def alternative_labels(diagnosis: Diagnosis) -> set[str]:
    return {alt.category for alt in diagnosis.alternatives}


def test_a_compiler_worker_left_alone_reports_the_process_gone() -> None:
    diagnosis = diagnose_text("mindie/log/debug/mindie-llm.log", WORKER_ALONE)
    assert_reads(diagnosis, "device_fault", first_error="main process disappeared", beside=("oom",))


def test_the_main_process_own_failure_comes_before_the_worker_echo() -> None:
    diagnosis = diagnose_text("mindie/log/debug/mindie-llm.log", WORKER_AFTER_OOM)
    assert_reads(diagnosis, "oom", first_error="out of memory")


def test_a_symbolic_link_refused_by_a_file_check_is_the_job_setup() -> None:
    diagnosis = diagnose_text("run/worker.log", SYMLINK_REFUSED)
    assert_reads(diagnosis, "config", first_error="symbolic link", beside=("weight_load",))


def test_a_followed_link_is_no_failure() -> None:
    diagnosis = diagnose_text("run/worker.log", SYMLINK_FOLLOWED)
    assert diagnosis.first_error is None


def test_a_concatenation_dimension_check_is_the_op_refusing_its_inputs() -> None:
    diagnosis = diagnose_text("run/worker.log", CAT_DIMS_DISAGREE)
    assert_reads(
        diagnosis, "operator", first_error="dimnum of tensor 2", beside=("shape_mismatch",)
    )


def test_a_restated_atb_setup_failure_is_the_op_refusing_its_inputs() -> None:
    diagnosis = diagnose_text("mindie/log/debug/mindie-llm.log", SETUP_RESTATED)
    assert_reads(diagnosis, "operator", first_error="Setup fail")


def test_gloo_refused_connect_attempts_are_the_collective_layer() -> None:
    diagnosis = diagnose_text("run/worker.log", GLOO_REFUSED)
    assert_reads(diagnosis, "hccl", first_error="SO_ERROR: Connection refused")


def test_a_gloo_connected_line_is_no_failure() -> None:
    diagnosis = diagnose_text("run/worker.log", GLOO_CONNECTED)
    assert diagnosis.first_error is None


RAISE_JOINED_ALONE = """\
  File "/srv/app/serve.py", line 88, in <module>    raise TypeError("the request's media field takes only text or image parts")
"""

RAISE_JOINED_THEN_EXCEPTION = RAISE_JOINED_ALONE + (
    "TypeError: the request's media field takes only text or image parts\n"
)


def test_a_frame_joined_with_its_raise_is_the_error_when_the_exception_line_is_lost() -> None:
    diagnosis = diagnose_text("run/worker.log", RAISE_JOINED_ALONE)
    assert diagnosis.category != "hang"
    assert diagnosis.first_error is not None
    assert 'raise TypeError("the request' in diagnosis.first_error.text


def test_the_exception_line_after_a_joined_raise_stays_the_error() -> None:
    diagnosis = diagnose_text("run/worker.log", RAISE_JOINED_THEN_EXCEPTION)
    assert diagnosis.first_error is not None
    assert diagnosis.first_error.text.startswith("TypeError: the request")


# The same family of file checks guards the files a tool writes: a quantisation or conversion
# script refuses an output folder that already holds the file it would create, and torch_npu's
# exit wrapper follows. docs/labelling.md#config-driver_env-or-weight_load
OUTPUT_ALREADY_THERE = """\
  File "/opt/atb-models/atb_llm/utils/file_utils.py", line 141, in check_file_safety
FileExistsError: The file is expected not to exist, but it already does. Please check the input path:/data/demo-w8a8/quant_model_description.json.
[ERROR] 2026-02-03-04:05:06 (PID:812, Device:0, RankID:-1) ERR99999 UNKNOWN application exception
"""


def test_an_output_file_a_check_expected_absent_is_the_job_setup() -> None:
    diagnosis = diagnose_text("quant.log", OUTPUT_ALREADY_THERE)
    assert_reads(
        diagnosis,
        "config",
        first_error="expected not to exist, but it already does",
        rule="cfg.output_path_exists_refused",
        beside=("weight_load",),
    )
    assert diagnosis.confidence >= 0.5


def test_an_output_file_written_is_no_failure() -> None:
    """Counterexample: a tool saying it wrote or will overwrite the file refuses nothing."""
    text = "INFO the file /data/demo-w8a8/config.json already exists and will be overwritten\n"
    diagnosis = diagnose_text("quant.log", text)
    assert "cfg.output_path_exists_refused" not in rules_of(diagnosis)
