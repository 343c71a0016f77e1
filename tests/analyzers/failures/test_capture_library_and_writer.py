"""Graph-capture failures whose reading depends on who printed them.

An NCCL that cannot be recorded into a CUDA graph says so in its own warning before the engine
raises `invalid usage`: the library build (or the driver under it) does not fit, `config`
(docs/labelling.md#operator-installation-or-platform-limit), and the exception many traceback
lines below is its report. SageMaker's distributed libraries write their own log lines
(`[time: C file.py:N] [rank] ...`, C for critical); a failure they log is read at its level,
so a job whose only failure is such a line has a first error instead of reading as a hang.
Values of our own in the real shapes.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

NOT_CAPTURABLE = """\
(Worker pid=7311) INFO 03-02 10:11:12 model_runner.py:980] Capturing the model for CUDA graphs.
gpu-a3:7300:7300 [0] misc/strongstream.cc:53 NCCL WARN NCCL cannot be captured in a graph if either it wasn't built with CUDA runtime >= 11.3 or if the installed CUDA driver < R465.
(Worker pid=7311) ERROR 03-02 10:11:13 multiproc_worker_utils.py:226] Exception in worker Worker while processing method initialize_cache: NCCL error: invalid usage (run with NCCL_DEBUG=WARN for details), Traceback (most recent call last):
(Worker pid=7311) ERROR 03-02 10:11:13 multiproc_worker_utils.py:226]   File "/srv/engine/worker.py", line 88, in initialize_cache
(Worker pid=7311) ERROR 03-02 10:11:13 multiproc_worker_utils.py:226]     self._warm_up_model()
[rank0]:   File "/srv/engine/runner.py", line 301, in capture
[rank0]:     hidden = self.model(tokens)
[rank0]:   File "/srv/engine/layers.py", line 51, in forward
[rank0]:     out = all_reduce(out)
[rank0]:   File "/srv/engine/comm.py", line 40, in all_reduce
[rank0]:     self.lib.ncclAllReduce(buf, buf, count, dtype, op, comm, stream)
[rank0]:   File "/srv/engine/nccl_lib.py", line 120, in ncclAllReduce
[rank0]:     self.check(self.fn(*args))
[rank0]:   File "/srv/engine/nccl_lib.py", line 99, in check
[rank0]:     raise RuntimeError(f"NCCL error: {text}")
[rank0]: RuntimeError: NCCL error: invalid usage (run with NCCL_DEBUG=WARN for details)
"""


def test_nccl_refusing_a_capture_is_its_build_and_the_first_error() -> None:
    diagnosis = diagnose_text("engine.log", NOT_CAPTURABLE)
    assert_reads(
        diagnosis,
        "config",
        first_error="NCCL cannot be captured in a graph",
        rule="cfg.nccl_build_not_capturable",
    )


def test_invalid_usage_without_the_capture_refusal_stays_the_collective_layer() -> None:
    text = "\n".join(
        line for line in NOT_CAPTURABLE.splitlines() if "cannot be captured" not in line
    )
    diagnosis = diagnose_text("engine.log", text + "\n")
    assert diagnosis.category == "hccl"
    assert "cfg.nccl_build_not_capturable" not in rules_of(diagnosis)


SAGEMAKER_ASSERT = """\
[1,5]<stdout>:[2026-12-04 19:46:18.002: I smp/torch/state.py:88] [5] step 12 started
[1,5]<stdout>:[2026-12-04 19:46:19.112: C smp/torch/worker.py:110] [5] Hit an exception for 12/0 on thread 1: ready INTERNAL ASSERT FAILED at "../c10/cuda/GraphState.h":40, please report a bug to PyTorch. Unknown state 777
[1,5]<stdout>:[2026-12-04 19:46:19.114: C smp/torch/worker.py:115] [5]   File "/opt/smp/torch/worker.py", line 515, in thread_compute
[1,5]<stdout>:    self.run_backward(req)
"""


def test_a_critical_line_of_a_sagemaker_library_is_the_first_error() -> None:
    diagnosis = diagnose_text("rank5.log", SAGEMAKER_ASSERT)
    assert diagnosis.category != "hang"
    assert diagnosis.first_error is not None
    assert "INTERNAL ASSERT FAILED" in diagnosis.first_error.text
    assert diagnosis.first_error.rank == 5


def test_an_info_line_of_a_sagemaker_library_is_no_failure() -> None:
    text = "[1,5]<stdout>:[2026-12-04 19:46:18.002: I smp/torch/state.py:88] [5] step 12 failed over to the spare queue\n"
    diagnosis = diagnose_text("rank5.log", text)
    assert diagnosis.first_error is None
