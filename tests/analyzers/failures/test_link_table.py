"""HCCL's LINK_ERROR_INFO table: the row of a failed link is the failure, the advice is not.

Section: docs/labelling.md#a-link-table-row-says-which-link-failed. The older plog form
(`comm_base.cc`) prints the table and its list of possible reasons with no socket-timeout
line before it, so the row has to be read; where the timeout line comes first it stays first.
"""

from __future__ import annotations

from analyzers.classify.rules import load_knowledge
from analyzers.report.advise import Situation, next_actions
from tests.analyzers.excerpts import assert_reads, diagnose_files, diagnose_text, rules_of

BOOK = load_knowledge().actions

# Two servers; this end could not open its link to rank 6 and gives up with the table.
OLD_FORM_TABLE = """\
[EVENT] HCCP(9120,train):2026-04-02-10:12:01.100.050 [ra_host.c:1672]tid:9133,ra_socket_white_list_add(1672) : Input parameters: phy_id[2], local_ip[10.7.3.12], num[1]
[ERROR] HCCL(9120,train):2026-04-02-10:14:01.100.410 [comm_base.cc:967][9133]   _________________________LINK_ERROR_INFO___________________________
[ERROR] HCCL(9120,train):2026-04-02-10:14:01.100.422 [comm_base.cc:968][9133]   |  comm error, device[2] num[1]
[ERROR] HCCL(9120,train):2026-04-02-10:14:01.100.430 [comm_base.cc:969][9133]   |  dest_ip(rank_id)  |  src_ip(rank_id)   |   Role   |   Status   |
[ERROR] HCCL(9120,train):2026-04-02-10:14:01.100.436 [comm_base.cc:970][9133]   |--------------------|--------------------|----------|------------|
[ERROR] HCCL(9120,train):2026-04-02-10:14:01.100.449 [comm_base.cc:1018][9133]   |  10.7.3.11(6)   |   10.7.3.12(2)   |  client  | no connect |
[ERROR] HCCL(9120,train):2026-04-02-10:14:01.100.455 [comm_base.cc:983][9133]   ___________________________________________________________________
[ERROR] HCCL(9120,train):2026-04-02-10:14:01.100.460 [comm_base.cc:984][9133]the connection failure between this device and target device may be due to the following reasons:
[ERROR] HCCL(9120,train):2026-04-02-10:14:01.100.466 [comm_base.cc:985][9133]1. the connection between this device and the target device is abnormal.
"""

# Newer form: the socket manager's own timeout line comes before its table.
NEW_FORM_TABLE = """\
[ERROR] HCCL(4410,python):2026-05-20-08:01:10.500.100 [hccl_socket_manager.cc:816] [4460][Wait][LinkEstablish]wait socket establish timeout, role[0] rank[1] timeout[120 s]
[ERROR] HCCL(4410,python):2026-05-20-08:01:10.500.900 [hccl_socket_manager.cc:642] [4460] _________________________LINK_ERROR_INFO___________________________
[ERROR] HCCL(4410,python):2026-05-20-08:01:10.500.920 [hccl_socket_manager.cc:599] [4460] | 10.7.5.2(0) | 16666 | 10.7.5.3(1) | 0 | client | time out | DISABLE |
"""

# The peer the table names had already failed on its own.
PEER_OWN_FAILURE = """\
Traceback (most recent call last):
  File "/srv/job/train.py", line 88, in <module>
    model = build(cfg).npu()
RuntimeError: NPU out of memory. Tried to allocate 2.00 GiB (NPU 6; 60.97 GiB total capacity; 59.10 GiB already allocated; 59.10 GiB current active; 0.95 GiB free; 59.60 GiB reserved in total by PyTorch)
"""


def test_the_failed_row_is_the_first_error_not_the_advice() -> None:
    diagnosis = diagnose_text("plog/plog-9120_20260402101201.log", OLD_FORM_TABLE)
    assert_reads(diagnosis, "hccl", first_error="no connect")
    assert "may be due to the following reasons" not in diagnosis.first_error.text
    assert "hccl.link_table_failed_row" in rules_of(diagnosis)


def test_an_earlier_socket_timeout_line_stays_first() -> None:
    diagnosis = diagnose_text("plog/plog-4410_20260520080110.log", NEW_FORM_TABLE)
    assert_reads(diagnosis, "hccl", first_error="wait socket establish timeout")


def test_the_named_peer_own_failure_comes_first() -> None:
    diagnosis = diagnose_files(
        {
            "plog/plog-9120_20260402101201.log": OLD_FORM_TABLE,
            "rank_6.log": PEER_OWN_FAILURE,
        }
    )
    assert_reads(diagnosis, "oom", first_error="NPU out of memory")


def test_a_failed_link_gets_advice_about_that_link() -> None:
    actions = next_actions(
        BOOK, Situation(category="hccl", signature_ids=["hccl.link_table_failed_row"])
    )
    assert "TLS" in actions[0]
    assert "peer" in actions[0]


def test_a_non_contiguous_tensor_gets_told_to_make_it_contiguous() -> None:
    advised = next_actions(
        BOOK, Situation(category="hccl", signature_ids=["hccl.noncontiguous_collective_tensor"])
    )
    assert ".contiguous()" in advised[0]
    other = next_actions(BOOK, Situation(category="hccl", signature_ids=["hccl.socket_timeout"]))
    assert not any(".contiguous()" in text for text in other)
