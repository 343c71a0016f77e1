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
    assert "hccl.comm_interface_not_found" not in {evidence.rule for evidence in diagnosis.evidence}
    assert diagnosis.confidence < 0.6
