"""NCCL failures that MoE libraries report through their own CUDA extension.

Libraries that run the expert exchange with NCCL calls of their own (FastMoE) check each call
with a macro that prints the source place and NCCL's result number only (`NCCL Error at
<file>:<line> value <N>`); with NCCL_DEBUG on, NCCL's argument checker has already said which
argument it refused (`NCCL WARN <Call> : comm argument is NULL`). The checker's line is the
first error and the macro's its wrapper, both the collective layer's (`hccl`), with `config`
beside a communicator that was never created.
docs/labelling.md#nccl-failures-named-by-the-call. Values of our own in the real shapes.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

NULL_COMM = """\
epoch 0 step 0 building experts
wk-3:52110:52110 [0] misc/argcheck.cc:30 NCCL WARN CommUserRank : comm argument is NULL
wk-3:52110:52110 [0] NCCL INFO init.cc:1490 -> 4

wk-3:52110:52110 [0] misc/argcheck.cc:30 NCCL WARN Recv : comm argument is NULL
wk-3:52110:52110 [0] NCCL INFO enqueue.cc:1380 -> 4
NCCL Error at /srv/build/moe_ext/cuda/expert_exchange.cpp:31 value 4
"""


def test_a_null_communicator_is_the_first_error_before_the_library_macro() -> None:
    diagnosis = diagnose_text("train.log", NULL_COMM)
    assert_reads(
        diagnosis,
        "hccl",
        first_error="NCCL WARN CommUserRank : comm argument is NULL",
        rule="hccl.nccl_argument_check",
        beside=("config",),
    )


def test_the_library_macro_alone_is_read_as_an_nccl_failure() -> None:
    text = "\n".join(
        line for line in NULL_COMM.splitlines() if "NCCL WARN" not in line and "->" not in line
    )
    diagnosis = diagnose_text("train.log", text + "\n")
    assert_reads(
        diagnosis, "hccl", first_error="expert_exchange.cpp:31 value 4", rule="hccl.nccl_error"
    )


def test_nccl_return_code_traces_are_not_refusals() -> None:
    diagnosis = diagnose_text(
        "train.log",
        "wk-3:52110:52110 [0] NCCL INFO init.cc:1490 -> 4\n"
        "wk-3:52110:52110 [0] NCCL INFO comm 0x55aa10 rank 0 nranks 2 - Init COMPLETE\n",
    )
    assert "hccl.nccl_argument_check" not in rules_of(diagnosis)


def test_a_root_outside_the_communicator_is_refused_too() -> None:
    diagnosis = diagnose_text(
        "rank1.log",
        "gpu-5:812:812 [1] misc/argcheck.cc:56 NCCL WARN Broadcast : invalid root 4 "
        "(root should be in the 0..3 range)\n",
    )
    assert diagnosis.category == "hccl"
    assert "hccl.nccl_argument_check" in rules_of(diagnosis)
