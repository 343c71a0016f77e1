"""The driver refuses what a link set-up asked of it, before HCCL's own lines say so.

Three refusals printed while a point-to-point transfer library (HIXL / LLM-DataDist) or a
communicator builds its links, each a setting of the job, not the network:
- the device manager cannot map the host device id it was handed (65535, the value an unset
  super-device id turns into) and HCCP cannot look the peer's virtual NIC address up by it:
  the rank table lacks the super-device id an HCCS link needs, so the link waits until it
  times out (docs/labelling.md#hccl-refuses-the-jobs-settings-at-set-up);
- the driver's memory manager refuses to make a shareable (IPC) handle for a registered
  buffer whose address does not sit on the page size it needs, and HCCL's registration then
  fails up its call stack (docs/labelling.md#memory-shared-with-or-registered-for-another-process);
- the error manager's screen form of a rank-table check that failed (EI0014,
  `Ranktable_Check_Failed`), read as the plog's `[RanktableCheck]` refusal is.
"""

from __future__ import annotations

from tests.analyzers.excerpts import (
    assert_reads,
    diagnose_files,
    diagnose_text,
    rules_of,
)

# An HCCS link whose rank table names no super-device id: the driver cannot map id 65535.
# The waiting process's timeout line carries an earlier clock than the service's refusal.
UNSET_SUPER_DEVICE_ID = {
    "plog/plog-5120_20260310081500100.log": """\
[ERROR] HCCL(5120,python3):2026-03-10-08:17:02.401.220 [hccl_socket_manager.cc:816][5301][Wait][LinkEstablish]wait socket establish timeout, role[0] rank[0] timeout[120 s]
""",
    "device-3/device-771_20260310081500200.log": """\
[ERROR] DRV(771,hccp_service.bin):2026-03-10-08:19:40.112.050 [devdrv_pcie.c:1064][devmng][drvGetDeviceDevIDByHostDevID 1064] invalid host device id 65535
[ERROR] DRV(771,hccp_service.bin):2026-03-10-08:19:40.112.071 [devdrv_info.c:628][devmng][devdrv_get_vnic_ip_by_sdid 628] Host devid transform to local devid failed. (devid=65535; ret=2)
[ERROR] HCCP(771,hccp_service.bin):2026-03-10-08:19:40.112.090 [rs.c:1847]tid:760,rs_get_vnic_ip_info(1847) : phy_id:3 devdrv_get_vnic_ip_by_sdid fail! sdid:0xffffffff ret:1
[ERROR] HCCP(771,hccp_service.bin):2026-03-10-08:19:40.112.104 [ra_adp.c:1422]tid:760,ra_rs_get_vnic_ip_infos(1422) : rs get vnic ip infos failed, ret 1
""",
}

# The same wait with no driver refusal anywhere: a link that timed out, read as before.
WAIT_ALONE = """\
[ERROR] HCCL(5120,python3):2026-03-10-08:17:02.401.220 [hccl_socket_manager.cc:816][5301][Wait][LinkEstablish]wait socket establish timeout, role[0] rank[0] timeout[120 s]
"""

# A buffer registered for an HCCS transfer whose start is not on a 2 MB boundary.
UNALIGNED_SHARED_BUFFER = {
    "plog/plog-9301_20260311101000100.log": """\
[ERROR] DRV(9301,python3):2026-03-11-10:12:05.330.110 [drv_log_user.c:621][ascend][curpid:9301,9340][drv][devmm][share_log_read_in_single_module]Invalid para. (va=0x12c240a10400; page_size=2097152; devid=1; export=0; import=0) Create_para_check fail. (va=0x12c240a10400) Ipc node attr pack fail. (ret=-22; vptr=0x12c240a10400; len=4194304)
[ERROR] DRV(9301,python3):2026-03-11-10:12:05.330.127 [devmm_svm.c:1451][ascend][curpid:9301,9340][drv][devmm][halShmemCreateHandle]<errno:22, 8> Share memory create device error. (ret=8; vptr=0x12c240a10400)
[ERROR] HCCL(9301,python3):2026-03-11-10:12:05.330.604 [hccl_mem.cc:53] [9340][HcclMemRegIpc]localbuffer init failed 15.
[ERROR] HCCL(9301,python3):2026-03-11-10:12:05.330.622 [hccl_one_sided_service.cc:792] [9340][RegisterBoundMems]call trace: hcclRet -> 15
[ERROR] HCCL(9301,python3):2026-03-11-10:12:05.330.801 [one_sided_service_adapt.cc:586] [9340][HcclCommPrepare]call trace: hcclRet -> 15
""",
}

RANKTABLE_CHECK_HEADLINE = """\
Ranktable_Check_Failed(EI0014): The ranktable information check failed, Reason:[The device id is used repeatedly].
[ERROR] GE(4410,python3):2026-03-12-09:00:11.204.300 [adxl_engine_impl.cc:205] 4431 Failed to connect, remote engine:10.8.1.20:26000
"""


def test_unset_super_device_id_is_the_rank_table_not_the_wait() -> None:
    diagnosis = diagnose_files(UNSET_SUPER_DEVICE_ID)
    assert_reads(
        diagnosis,
        "config",
        first_error="invalid host device id 65535",
        rule="cfg.hccs_link_super_device_id_unset",
        beside=("hccl",),
    )


def test_a_link_wait_with_no_driver_refusal_stays_a_wait() -> None:
    diagnosis = diagnose_text("plog/plog-5120_20260310081500100.log", WAIT_ALONE)
    assert diagnosis.category == "hccl"
    assert "cfg.hccs_link_super_device_id_unset" not in rules_of(diagnosis)


def test_unaligned_buffer_refused_by_the_driver_leads_hccl_registration_failure() -> None:
    diagnosis = diagnose_files(UNALIGNED_SHARED_BUFFER)
    assert_reads(diagnosis, "config", first_error="Invalid para. (va=", beside=("hccl",))


def test_ranktable_check_headline_is_the_settings_refusal() -> None:
    diagnosis = diagnose_text("stdout.txt", RANKTABLE_CHECK_HEADLINE)
    assert_reads(
        diagnosis, "config", first_error="Ranktable_Check_Failed(EI0014)", beside=("hccl",)
    )
