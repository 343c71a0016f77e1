"""NCCL's report that its bootstrap found no network interface, logged at WARN.

docs/labelling.md#a-rendezvous-host-with-no-address: NCCL has no error level; it writes the
failed interface lookup (`Bootstrap : no socket interface found`, a socket it could not create
or bind) as a `NCCL WARN` line. That line is the failure itself, not advice, so it keeps the
weight of its reading when the paste kept nothing after it but a traceback cut before its
exception. A console where NCCL only names the interface it chose holds no such failure.
Values of our own in the real shapes.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

NO_INTERFACE_CUT = """\
node-b7:41022:41022 [0] bootstrap.cc:48 NCCL WARN Bootstrap : no socket interface found
node-b7:41022:41022 [0] NCCL INFO init.cc:84 -> 3
node-b7:41022:41022 [0] NCCL INFO init.cc:103 -> 3
[rank0]: Traceback (most recent call last):
[rank0]:   File "/srv/det/launch.py", line 31, in <module>
[rank0]:     runner.fit(cfg)
[rank0]:   File "/srv/det/engine/runner.py", line 118, in fit
[rank0]:     self.loader = self.build_loader(split="train")
[rank0]:   File "/srv/det/engine/runner.py", line 77, in build_loader
"""

BIND_REFUSED = """\
cn-12:40511:40511 [0] misc/socket.cc:379 NCCL WARN Call to bind failed : Cannot assign requested address
cn-12:40511:40511 [0] NCCL INFO bootstrap.cc:98 -> 2
"""

INTERFACE_CHOSEN = """\
node-b7:41022:41022 [0] NCCL INFO Bootstrap : Using eth0:10.0.4.7<0>
node-b7:41022:41022 [0] NCCL INFO NET/Plugin : No plugin found (libnccl-net.so)
[rank0]: Traceback (most recent call last):
[rank0]:   File "/srv/det/launch.py", line 31, in <module>
[rank0]:     runner.fit(cfg)
[rank0]:   File "/srv/det/engine/runner.py", line 77, in build_loader
"""


def test_the_interface_warning_keeps_its_weight_before_a_cut_traceback() -> None:
    diagnosis = diagnose_text("train.log", NO_INTERFACE_CUT)
    assert_reads(
        diagnosis,
        "hccl",
        first_error="NCCL WARN Bootstrap : no socket interface found",
        rule="hccl.comm_interface_not_found",
        beside=["config", "driver_env"],
    )
    assert diagnosis.confidence >= 0.6


def test_a_refused_bind_is_read_the_same_way() -> None:
    diagnosis = diagnose_text("rank0.log", BIND_REFUSED)
    assert_reads(diagnosis, "hccl", first_error="Call to bind failed")
    assert diagnosis.confidence >= 0.6


def test_an_interface_named_in_use_is_no_failure() -> None:
    diagnosis = diagnose_text("train.log", INTERFACE_CHOSEN)
    assert "hccl.comm_interface_not_found" not in {
        evidence.rule for evidence in diagnosis.evidence
    }
    assert diagnosis.confidence < 0.6


# The same holds for NCCL's topology reader: a PCI path it cannot resolve under /sys stops the
# communicator's construction (the `-> 2` return codes that follow are INFO, never the cause).
TOPOLOGY_UNREAD = """\
WS-7731:2204:2204 [0] NCCL INFO Bootstrap : Using [0]lo:127.0.0.1<0>
WS-7731:2204:2301 [0] graph/xml.cc:332 NCCL WARN Could not find real path of /sys/class/pci_bus/0000:0a/../../0000:0a:00.0
WS-7731:2204:2301 [0] NCCL INFO graph/xml.cc:469 -> 2
WS-7731:2204:2301 [0] NCCL INFO graph/topo.cc:523 -> 2
WS-7731:2204:2301 [0] NCCL INFO init.cc:581 -> 2
"""

FALLBACK_ORDER = """\
WS-7731:2204:2301 [0] graph/search.cc:765 NCCL WARN Could not find a path for pattern 4, falling back to simple order
WS-7731:2204:2301 [0] NCCL INFO Channel 00/02 :    0   1
"""


def test_an_unreadable_topology_warning_keeps_its_weight() -> None:
    diagnosis = diagnose_text("train.log", TOPOLOGY_UNREAD)
    assert_reads(
        diagnosis,
        "driver_env",
        first_error="Could not find real path of /sys/class/pci_bus",
        rule="env.nccl_topology_unreadable",
    )
    assert diagnosis.confidence >= 0.6


def test_a_search_that_falls_back_is_not_the_topology_failure() -> None:
    diagnosis = diagnose_text("train.log", FALLBACK_ORDER)
    assert "env.nccl_topology_unreadable" not in {evidence.rule for evidence in diagnosis.evidence}
