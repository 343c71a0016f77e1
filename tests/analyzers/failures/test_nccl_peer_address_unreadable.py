"""A peer address NCCL cannot read is read as NCCL builds that differ between nodes.

docs/labelling.md#a-peer-address-that-is-no-address: NCCL's socket layer refusing an address
whose family is neither IPv4 nor IPv6 is the first error, ahead of the `internal error` torch
raises after it, and the label is `config` with `hccl` as the alternative. A connect to a
well-formed address that fails stays `hccl`. Values of our own in the real shapes.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

UNREADABLE = """\
ncclSocketInit: connecting to address with family 0 is neither AF_INET(2) nor AF_INET6(10)
torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:1691, internal error - please report this issue to the NCCL developers, NCCL version 2.18.1
"""


def test_an_address_with_no_family_is_the_first_error_and_reads_config() -> None:
    diagnosis = diagnose_text("node3_rank12.log", UNREADABLE)
    assert_reads(
        diagnosis,
        "config",
        first_error="is neither AF_INET(2) nor AF_INET6(10)",
        rule="cfg.nccl_peer_address_unreadable",
    )


REFUSED = """\
node-3:4102:4170 [4] misc/socket.cc:483 NCCL WARN socketStartConnect: Connect to 10.8.1.3<40112> failed : Connection refused
torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:1691, unhandled system error (run with NCCL_DEBUG=INFO for details), NCCL version 2.18.1
"""


def test_a_refused_connect_to_a_readable_address_stays_hccl() -> None:
    diagnosis = diagnose_text("node3_rank12.log", REFUSED)
    assert diagnosis.category == "hccl"
    assert "cfg.nccl_peer_address_unreadable" not in rules_of(diagnosis)
