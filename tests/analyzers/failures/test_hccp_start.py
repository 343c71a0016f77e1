"""HCCL's device-side process that cannot start because a leftover process holds the device.

docs/labelling.md#a-device-held-by-a-leftover-process
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

# A fine-tune restarted while the previous run's processes still hold the cards.
LEFTOVER = """\
[rank3]: Traceback (most recent call last):
[rank3]:   File "/srv/ft/train.py", line 140, in <module>
[rank3]:     dist.barrier()
[rank3]: RuntimeError: createHCCLComm:torch_npu/csrc/distributed/ProcessGroupHCCL.cpp:2167 HCCL function error: HcclCommInitRootInfoConfig(numRanks, &rootInfo, rank, config, &(comm->hcclComm_)), error code is 7
[rank3]: [ERROR] 2026-05-06-07:08:09 (PID:4410, Device:3, RankID:3) ERR02200 DIST call hccl api failed.
[rank3]: EJ0001: [PID: 4410] 2026-05-06-07:08:09.101.202 Failed to initialize the HCCP process. Reason: Maybe the last training process is running.
[rank3]:         Solution: Wait for 10s after killing the last training process and try again.
"""

# HCCP refusing a port: another HCCP reason, not a leftover process.
PORT_BIND = """\
EJ0003: [PID: 4410] 2026-05-06-07:08:09.101.202 Failed to bind the IP port. Reason: The IP address and port have been bound already.
"""


def test_a_leftover_process_reads_hccl_with_driver_env_beside_it_unconfidently() -> None:
    diagnosis = diagnose_text("logs/rank3.log", LEFTOVER)
    assert_reads(
        diagnosis,
        "hccl",
        first_error="Failed to initialize the HCCP process",
        beside=("driver_env",),
    )
    assert diagnosis.confidence < 0.8


def test_hccps_port_refusal_is_not_read_as_a_leftover_process() -> None:
    diagnosis = diagnose_text("logs/rank3.log", PORT_BIND)
    assert "hccl.hccp_init_failed" not in {e.rule for e in diagnosis.evidence}
