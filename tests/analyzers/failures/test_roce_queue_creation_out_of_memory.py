"""The device's RoCE service cannot create a completion or queue pair for lack of memory.

docs/labelling.md#kv-transfer-engines-that-do-not-start: a KV-transfer link over RoCE has
the device-side HCCP service create its verbs objects first. When the device's own system
memory (page tables, queues) is used up, for instance by a large host memory pool registered
with the NIC, the creation is refused with errno 12 (`ibv_cmd_create_cq failed, ret 12`),
and HCCP's and HCCL's failed connection lines follow. The refusal is the first error and the
label `oom`, with the driver (`driver_env`), the pool size (`config`) and the link (`hccl`)
beside it. Another errno is no memory shortage.
Lines of our own in the plog format; values are made up.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

QUEUE_REFUSED = (
    "[ERROR] ROCE(3310,hccp_service.bin):2026-03-02-10:11:12.100.200 [rdma_verbs.c:412]"
    "tid:3312,ibv_cmd_create_cq failed, ret 12\n"
    "[ERROR] HCCP(3310,hccp_service.bin):2026-03-02-10:11:12.100.260 [ra_rdev.c:220]"
    "tid:3312,create cq failed ret -259\n"
    "[ERROR] HCCP(3310,hccp_service.bin):2026-03-02-10:11:12.100.300 [ra_rdev.c:288]"
    "tid:3312,qp create failed ret[-259]\n"
    "[ERROR] HCCL(3288,python3):2026-03-02-10:11:13.050.100 [hccl_one_sided_service.cc:699] "
    "[3301][ConnectByThread] Connect failed. userrank[1], ret[13].\n"
    "[ERROR] HCCL(3288,python3):2026-03-02-10:11:13.050.180 [one_sided_service_adapt.cc:586] "
    "[3301][HcclCommPrepare]call trace: hcclRet -> 13\n"
)


def test_a_queue_refused_for_memory_is_the_first_error() -> None:
    diagnosis = diagnose_text("plog-3288.log", QUEUE_REFUSED)
    assert_reads(
        diagnosis,
        "oom",
        first_error="ibv_cmd_create_cq failed, ret 12",
        rule="oom.roce_queue_creation_no_memory",
        beside=["driver_env"],
    )


def test_a_queue_refused_for_another_reason_is_no_memory_shortage() -> None:
    diagnosis = diagnose_text(
        "plog-3288.log", QUEUE_REFUSED.replace("failed, ret 12", "failed, ret 22")
    )
    assert "oom.roce_queue_creation_no_memory" not in rules_of(diagnosis)
    assert diagnosis.category != "oom"
