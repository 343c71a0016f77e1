"""A store client whose connect attempts time out (errno 110).

torch's c10d client warns on each failed connect to the rendezvous store with the system's
reason and retries until its own timeout, then sums the attempts up in an error that names the
endpoint and no reason. An attempt that times out means nothing answered at that address (a
host that drops the packets, an address on no reachable network, a malformed host that
resolved to a meaningless address): like a missing route, no retry mends it, unlike a refusal
(errno 111) while the store is not yet listening. The first such warning is the first error,
`hccl` with the address the job was given (`config`) and the network (`driver_env`) beside it.
docs/labelling.md#a-rendezvous-host-with-no-address. Values are our own.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

# A TorchX-style launch prefixes each replica's lines with its role, replica and local rank.
TORCHX_TIMED_OUT = """\
trainer/0 [1]:[W socket.cpp:558] [c10d] The client socket has failed to connect to [::ffff:10.44.0.9]:41377 (errno: 110 - Connection timed out).
trainer/0 [0]:[W socket.cpp:558] [c10d] The client socket has failed to connect to [::ffff:10.44.0.9]:41377 (errno: 110 - Connection timed out).
trainer/0 [1]:[E socket.cpp:610] [c10d] The client socket has failed to connect to any network address of (10.44.0.9, 41377).
trainer/0 [0]:[E socket.cpp:610] [c10d] The client socket has failed to connect to any network address of (10.44.0.9, 41377).
"""

# An issue paste indented as a Markdown code block, ending on the raised summary.
INDENTED_TIMED_OUT = """\
    [W socket.cpp:663] [c10d] The client socket has failed to connect to [::ffff:172.16.8.40]:25001 (errno: 110 - Connection timed out).
    [W socket.cpp:663] [c10d] The client socket has failed to connect to 172.16.8.40:25001 (errno: 110 - Connection timed out).

    RuntimeError: The client socket has failed to connect to any network address of (172.16.8.40, 25001). The client socket has failed to connect to 172.16.8.40:25001 (errno: 110 - Connection timed out).
"""

# The normal start-up race: refused while the store was not listening, then the job ran.
REFUSED_THEN_RUNNING = """\
[W socket.cpp:558] [c10d] The client socket has failed to connect to [::ffff:10.44.0.9]:41377 (errno: 111 - Connection refused).
2026-12-07 08:00:12,114 [rank1] INFO epoch 0 step 20 loss 1.87
"""

RULE = "hccl.store_no_route"


def test_connect_attempts_that_time_out_are_the_first_error() -> None:
    diagnosis = diagnose_text("train.log", TORCHX_TIMED_OUT)
    assert_reads(
        diagnosis,
        "hccl",
        first_error="errno: 110 - Connection timed out",
        rule=RULE,
        beside=("config", "driver_env"),
    )


def test_an_indented_paste_of_the_same_timeouts_reads_the_same() -> None:
    diagnosis = diagnose_text("train.log", INDENTED_TIMED_OUT)
    assert_reads(
        diagnosis,
        "hccl",
        first_error="[::ffff:172.16.8.40]:25001 (errno: 110",
        rule=RULE,
        beside=("config",),
    )


def test_a_refused_connect_during_start_up_is_no_timed_out_store() -> None:
    diagnosis = diagnose_text("train.log", REFUSED_THEN_RUNNING)
    assert RULE not in rules_of(diagnosis)
