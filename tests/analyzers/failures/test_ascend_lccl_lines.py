"""ATB's single-node collective library (LCCL) writing its own failures in ATB's log.

docs/labelling.md#collective-libraries-of-other-accelerators: LCCL's refusal of a rank count over
PCIe links is a limit of the collective library, `hccl`, the first error ahead of the peer access
and `init common failed!` lines it causes, with `config` beside it. Values of our own in the
shape ATB prints.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

RANKS_OVER_PCIE = """\
[2026-01-14 08:02:11.100200] [info] [41207] [lcal_runner.cpp:26] AllReduceLcclRunner:0 LcalRunner::LcalRunner 7 called, rank : 5/8 commMode: 1 commDomain: 0 magicNumberDisabled: 0
[2026-01-14 08:02:11.100410] [info] [41207] [lcal_comm.cpp:370] rank 5/8 running devId:5uid: 0
[2026-01-14 08:02:11.100488] [debug] [41207] [lcal_comm.cpp:430] 5 <-----> 1, halGetPairDevicesInfo: *value = 1
[2026-01-14 08:02:11.100533] [error] [41207] [lcal_comm.cpp:441] do not support pcie > 2 rank! rankSize_ = 8
[2026-01-14 08:02:11.100560] [error] [41207] [lcal_comm.cpp:239] EnablePeerAccess failed!
[2026-01-14 08:02:11.100571] [error] [41207] [lcal_comm.cpp:373] init common failed!
"""

CHATTER = """\
[2026-01-14 08:02:11.100200] [info] [41207] [lcal_runner.cpp:26] AllGatherLcclRunner:0 LcalRunner::LcalRunner 7 called, rank : 0/2 commMode: 1 commDomain: 0 magicNumberDisabled: 0
[2026-01-14 08:02:11.100410] [info] [41207] [lcal_comm.cpp:370] rank 0/2 running devId:0uid: 0
[2026-01-14 08:02:11.100488] [debug] [41207] [lcal_comm.cpp:430] 0 <-----> 1, halGetPairDevicesInfo: *value = 1
"""

NPU_DRIVER_PEER = """\
EL9999[PID: 5120] 2026-01-14-08:02:11.000.100 (EL9999):  [drv api] halDeviceEnableP2P failed: drv devId=3, phyIdSrc=1, drvRetCode=17![FUNC:EnableP2P][FILE:npu_driver.cc][LINE:4088]
"""


def test_the_rank_count_refused_over_pcie_is_the_first_error_with_the_layout_beside_it() -> None:
    diagnosis = diagnose_text("log/atb_41207.log", RANKS_OVER_PCIE)
    assert_reads(
        diagnosis,
        "hccl",
        first_error="do not support pcie > 2 rank",
        rule="hccl.lccl_pcie_rank_limit",
        beside=("config",),
    )


def test_the_librarys_info_and_debug_lines_are_no_failure() -> None:
    diagnosis = diagnose_text("log/atb_41207.log", CHATTER)
    assert diagnosis.first_error is None


def test_the_npu_drivers_own_peer_refusal_keeps_its_reading() -> None:
    diagnosis = diagnose_text("plog/plog-5120.log", NPU_DRIVER_PEER)
    assert diagnosis.category == "driver_env"
    assert "hccl.lccl_pcie_rank_limit" not in rules_of(diagnosis)
