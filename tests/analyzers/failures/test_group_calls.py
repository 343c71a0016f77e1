"""A group of point-to-point calls closed that was never opened.

HCCL and NCCL batch send/recv pairs between a group-start and a group-end call. When a rank
reaches the group end with no group open (pipeline stages that exchange shapes or tensors in a
different pattern than they set up), the library refuses the call and says so in one line with
no error word: `HcclGroupEnd: not in a group call ...`, NCCL's `WARN ncclGroupEnd: not in a
group call.` The line is the failure of a communication call, so the label is `hccl` and the
line is the first error.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

# The one line a pipeline-parallel run on Ascend printed before its process stopped.
HCCL_GROUP_END = "HcclGroupEnd: not in a group call. Didn't call HcclGroupStart before\n"

# NCCL's debug output of a CUDA job with the same mistake, in NCCL's host:pid:tid prefix.
NCCL_GROUP_END = """\
gpu-node3:41822:41822 [1] NCCL INFO Channel 00/0 : 1[1] -> 2[2] via P2P/CUMEM
gpu-node3:41822:41822 [1] NCCL WARN ncclGroupEnd: not in a group call.
"""


def test_an_hccl_group_end_without_a_start_is_a_communication_failure() -> None:
    diagnosis = diagnose_text("job/stdout.log", HCCL_GROUP_END)
    assert_reads(diagnosis, "hccl", first_error="HcclGroupEnd: not in a group call")


def test_an_nccl_group_end_without_a_start_reads_the_same() -> None:
    diagnosis = diagnose_text("job/train.log", NCCL_GROUP_END)
    assert_reads(diagnosis, "hccl", first_error="ncclGroupEnd: not in a group call")
