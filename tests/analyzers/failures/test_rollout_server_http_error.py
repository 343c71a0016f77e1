"""A rollout server that answered an RL trainer's request with an error status.

docs/labelling.md#a-rollout-server-that-answers-the-trainer-with-an-error-status: the trainer
only learns the status, so alone its line is the first error and the label is `other`, with a
server that died (`device_fault`) and a refused request (`config`) beside it; the teardown and
torch_npu's summary after it only follow. A status the client logs and retries is no failure.

Paths, times and the step count are made up.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

TRAINER_SIDE = """\
[rank0]:   File "/opt/swift/trainers/rlhf_trainer/vllm_client.py", line 179, in infer
[rank0]:     raise RuntimeError(f'Multiple errors: {all_errors}')
[rank0]: RuntimeError: Multiple errors: [Exception('Server 2 failed: 503, Service Unavailable')]
[I0301 04:10:11.000000001 compiler_depend.ts:1256] [PG group_name_1 Rank 0] ProcessGroupHCCL destructor entered.
[ERROR] 2026-03-01-04:10:15 (PID:4100, Device:0, RankID:-1) ERR99999 UNKNOWN applicaiton exception
"""


def test_a_rollout_server_error_status_is_the_first_error() -> None:
    diagnosis = diagnose_text("train/rank0.log", TRAINER_SIDE)
    assert_reads(diagnosis, "other", first_error="Server 2 failed: 503", beside=("device_fault",))


def test_a_status_the_client_retries_is_no_failure() -> None:
    text = "[INFO:swift] rollout request failed with status 503, retrying in 5s\n"
    diagnosis = diagnose_text("train/rank0.log", text)
    assert diagnosis.first_error is None
