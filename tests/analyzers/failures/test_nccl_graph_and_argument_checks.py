"""NCCL's checks of the communicator's rings and of the collectives' arguments.

A ring that does not close on itself means the ranks computed different graphs while the
communicator was built: NCCL's WARN is the first error ahead of torch's `internal error`,
`hccl` with `config` and `driver_env` beside it (docs/labelling.md#rings-that-ranks-built-differently).
NCCL releases before 2.5 checked the collectives' arguments across ranks themselves and
stopped with `Mismatched collective detected`: ranks in different collectives, `hccl`, and the
rank the line names is no culprit. Older releases worded the same check as a warning that the
program may be hanging through a collective mismatch around a rank: the same reading, with
`hang` beside it. An IB plugin's completion error printed without NCCL's
header or an error word is the link failure it reports
(docs/labelling.md#network-links-that-fail-under-a-collective). Values of our own in the real
shapes.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

RING_THEN_TORCH = """\
17: vm-0A1B:80211:80977 [1] graph/rings.cc:38 NCCL WARN Error : ring 3 does not loop back to start (24 != 17)
17: vm-0A1B:80211:80977 [1] NCCL INFO graph/connect.cc:311 -> 3
17: vm-0A1B:80211:80977 [1] NCCL INFO init.cc:763 -> 3
17:     work = group.allreduce([tensor], opts)
17: RuntimeError: NCCL error in: /opt/pytorch/torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:911, internal error, NCCL version 2.10.3
17: ncclInternalError: Internal check failed. This is either a bug in NCCL or due to memory corruption
19: RuntimeError: NCCL error in: /opt/pytorch/torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:911, internal error, NCCL version 2.10.3
"""


def test_a_ring_that_does_not_close_comes_before_torchs_internal_error() -> None:
    diagnosis = diagnose_text("slurm.out", RING_THEN_TORCH)
    assert_reads(
        diagnosis,
        "hccl",
        first_error="does not loop back to start (24 != 17)",
        rule="hccl.nccl_ring_graph_inconsistent",
        beside=("config",),
    )


def test_a_ring_that_lacks_a_rank_is_the_same_failure() -> None:
    text = (
        "dgx-b3:6120:6388 [5] graph/rings.cc:45 NCCL WARN Error : ring 1 does not contain rank 6\n"
    )
    diagnosis = diagnose_text("rank5.log", text)
    assert_reads(
        diagnosis,
        "hccl",
        first_error="does not contain rank 6",
        rule="hccl.nccl_ring_graph_inconsistent",
    )


def test_the_rings_nccl_lists_at_info_are_no_failure() -> None:
    text = (
        "dgx-b3:6120:6388 [5] NCCL INFO Channel 00/02 :    0   3   6   7  14  15\n"
        "dgx-b3:6120:6388 [5] NCCL INFO Channel 01/02 :    0   3   6   7  14  15\n"
    )
    diagnosis = diagnose_text("rank5.log", text)
    assert "hccl.nccl_ring_graph_inconsistent" not in rules_of(diagnosis)


OLD_MISMATCH = """\
NCCL version 2.4.8+cuda10.0
node-4:2201:2270 [1] init.cc:1247 NCCL WARN Mismatched collective detected, please check your collective calls at and around rank 12. You can use NCCL_DEBUG=INFO and NCCL_DEBUG_SUBSYS=COLL to see the collective logs
"""


def test_nccls_own_mismatch_check_is_ranks_in_different_collectives() -> None:
    diagnosis = diagnose_text("train.log", OLD_MISMATCH)
    assert_reads(
        diagnosis,
        "hccl",
        first_error="Mismatched collective detected",
        rule="hccl.collective_mismatch",
    )
    assert diagnosis.culprit_ranks == []


OLD_MAY_HANG = (
    "trainer-2:5120:5120 [0] init.cc:1259 NCCL WARN Your program may be hanging, this may be "
    "caused by a collective mismatch around rank 3. Please check your collective calls at and "
    "around this rank. You can use NCCL_DEBUG=INFO and NCCL_DEBUG_SUBSYS=COLL to see the "
    "collective logs\n"
)


def test_nccls_older_may_be_hanging_warning_is_the_same_check() -> None:
    diagnosis = diagnose_text("train.log", OLD_MAY_HANG)
    assert_reads(
        diagnosis,
        "hccl",
        first_error="Your program may be hanging, this may be caused by a collective mismatch",
        rule="hccl.nccl_collective_mismatch_may_hang",
        beside=("hang",),
    )
    assert diagnosis.culprit_ranks == []


def test_a_hang_warning_that_names_no_collective_mismatch_is_not_this_check() -> None:
    text = "trainer-2:5120:5120 [0] NCCL WARN Your program may be hanging\n"
    diagnosis = diagnose_text("train.log", text)
    assert "hccl.nccl_collective_mismatch_may_hang" not in rules_of(diagnosis)


def test_an_ib_plugins_bare_completion_error_is_the_link_failure() -> None:
    text = (
        "node-a:2311:2347 [5] NCCL INFO ncclCommInitRank comm 0x7bf8870 rank 13 nranks 16 cudaDev 5 "
        "busId 97000 commId 0xa1ffb74daef8a940 - Init COMPLETE\n"
        "NET/IBP:Got completion from peer 10.31.7.4<41022> with status=12 opcode=32512 len=32510 "
        "vendor err 129 (Send)\n"
    )
    diagnosis = diagnose_text("node-a.log", text)
    assert_reads(
        diagnosis,
        "hccl",
        first_error="NET/IBP:Got completion from peer",
        rule="hccl.nccl_net_completion_error",
    )
