"""torch's CUDA check answering `invalid argument` with nothing nearby naming the call.

docs/labelling.md#a-cuda-runtime-answer-that-names-no-call
"""

from __future__ import annotations

from tests.analyzers.excerpts import alternative_labels, assert_reads, diagnose_text

# A sharded fine-tuning run with parameter offload: two ranks stop in the wrapper's lazy
# set-up with the runtime's bare answer and torch's usual hint lines after it.
SHARDED_OFFLOAD_INVALID_ARGUMENT = """\
[rank0]:   File "/opt/venv/lib/python3.11/site-packages/torch/distributed/fsdp/_runtime_utils.py", line 148, in _lazy_init
[rank0]:     _share_state_and_init_handle_attrs(state, root_module)
[rank0]: RuntimeError: CUDA error: invalid argument
[rank0]: CUDA kernel errors might be asynchronously reported at some other API call, so the stacktrace below might be incorrect.
[rank0]: For debugging consider passing CUDA_LAUNCH_BLOCKING=1
[rank2]: RuntimeError: CUDA error: invalid argument
E1107 03:12:40.118000 5120 torch/distributed/elastic/multiprocessing/api.py:874] failed (exitcode: 1) local_rank: 0 (pid: 5187) of binary: /opt/venv/bin/python
"""

# NCCL said why before torch wrapped its answer: the warning decides, not the bare line.
NCCL_RANK_BEFORE_WRAPPER = """\
gpu-a:20915:20915 [1] init.cc:1711 NCCL WARN Invalid rank requested : 11/8
RuntimeError: CUDA error: invalid argument
"""


def test_a_bare_invalid_argument_is_the_first_error_with_config_beside_it() -> None:
    diagnosis = diagnose_text("logs/train.log", SHARDED_OFFLOAD_INVALID_ARGUMENT)
    assert_reads(
        diagnosis, "other", first_error="[rank0]: RuntimeError: CUDA error: invalid argument"
    )
    assert "other.cuda_invalid_argument_bare" in {e.rule for e in diagnosis.evidence}
    assert "config" in alternative_labels(diagnosis)
    assert diagnosis.confidence < 0.5


def test_an_nccl_warning_before_the_bare_answer_decides() -> None:
    diagnosis = diagnose_text("logs/train.log", NCCL_RANK_BEFORE_WRAPPER)
    assert_reads(diagnosis, "config", first_error="Invalid rank requested")
