"""HCCL registers each buffer a link will carry with the device's RoCE NIC while it builds the
link (a one-sided service, a transfer library's channel). HCCP's RDMA agent logs the NIC's
refusal of the memory region (`ra_hdc_typical_mr_reg : [reg][ra_hdc_typical_mr]ra hdc message
process failed ret(-13)`), HCCL's adapter restates it with the address and size
(`hrtRaRegGlobalMr ... ra reg global mr fail`), and the call traces follow. The first refusal
leads; the label is `hccl`, with the program's registration (`config`: a range past the
allocation, a memory kind the NIC cannot take) and the host's set-up beside it
(docs/labelling.md, "Memory shared with or registered for another process").

Fixtures follow the plog layout; pids, tids, addresses and times are made up.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

HCCP_REFUSAL = (
    "[ERROR] HCCP(40112,python3):2026-06-01-09:10:11.200.100 [ra_hdc_rdma.c:609]tid:40190,"
    "ra_hdc_typical_mr_reg : [reg][ra_hdc_typical_mr]ra hdc message process failed ret(-13) "
    "phy_id(5)\n"
)
HCCL_RESTATED = (
    "[ERROR] HCCL(40112,python3):2026-06-01-09:10:11.200.140 [adapter_hccp.cc:332] [40190]"
    "[hrtRaRegGlobalMr]errNo[0x0000000005000013] ra reg global mr fail. return[128102], params: "
    "addr[0x12c0c4000000], size[67108864 Byte], access[7]\n"
)
CALL_TRACE = (
    "[ERROR] HCCL(40112,python3):2026-06-01-09:10:11.200.150 [local_rdma_rma_buffer_impl.cc:120] "
    "[40190][Init]call trace: hcclRet -> 19\n"
)


def test_the_agents_refusal_leads_hccls_restatement_and_the_call_trace() -> None:
    diagnosis = diagnose_text(
        "plog/plog-40112_20260601091000000.log", HCCP_REFUSAL + HCCL_RESTATED + CALL_TRACE
    )
    assert_reads(diagnosis, "hccl", first_error="ra_hdc_typical_mr_reg", beside=("config",))


def test_hccls_restatement_alone_is_the_first_error() -> None:
    diagnosis = diagnose_text("plog/plog-40112_20260601091000000.log", HCCL_RESTATED + CALL_TRACE)
    assert_reads(diagnosis, "hccl", first_error="ra reg global mr fail")


def test_a_region_registered_is_no_failure() -> None:
    text = (
        "[INFO] HCCL(40112,python3):2026-06-01-09:10:11.200.140 [adapter_hccp.cc:340] [40190]"
        "[hrtRaRegGlobalMr]ra reg global mr success, addr[0x12c0c4000000], size[67108864 Byte]\n"
    )
    diagnosis = diagnose_text("plog/plog-40112_20260601091000000.log", text)
    assert diagnosis.first_error is None or "mr success" not in diagnosis.first_error.text
