"""A cause NCCL prints at WARN, then the proxy failure its own thread restates it with.

docs/labelling.md#a-reason-nccls-thread-warned-of-before-its-proxy-restated-it: NCCL has no
error level, so every failure it reports is a `NCCL WARN` line, whether or not its words say
"failed". When the line that names the cause carries no such word (`socketFinalizeAccept: wrong
type 4 != 3`) and the proxy service on the same thread (`host:pid:tid`) then reports `[Proxy
Service N] Failed to execute operation Connect`, the cause is the first error and the label is
its reading. Counterexamples: the proxy line alone is still the first error, a cause warned on
another thread leaves it in its place, and a WARN line no rule reads as a cause (a missing
optional plug-in) stays behind it.

The fixtures are written in NCCL's debug-log shape with our own hosts, pids and ranks.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

TYPE_THEN_PROXY = """\
trn-a:30411:30460 [1] NCCL INFO Channel 01/0 : 3[1] -> 2[0] via P2P/IPC/read
trn-a:30412:30463 [2] NCCL INFO Connected all trees

trn-a:30411:30477 [1] misc/socket.cc:441 NCCL WARN socketFinalizeAccept: wrong type 3 != 4
trn-a:30411:30477 [1] NCCL INFO misc/socket.cc:561 -> 3
trn-a:30411:30477 [1] NCCL INFO transport/net_socket.cc:375 -> 3
trn-a:30411:30477 [1] NCCL INFO proxy.cc:1306 -> 3

trn-a:30411:30477 [1] proxy.cc:1519 NCCL WARN [Proxy Service 1] Failed to execute operation Connect from rank 1, retcode 3
"""


def test_the_warned_cause_leads_the_proxy_failure_after_it() -> None:
    diagnosis = diagnose_text("node0.log", TYPE_THEN_PROXY)
    assert_reads(
        diagnosis,
        "hccl",
        first_error="socketFinalizeAccept: wrong type 3 != 4",
        rule="hccl.nccl_socket_type_mismatch",
        beside=("driver_env",),
    )


def test_the_proxy_failure_alone_is_still_the_first_error() -> None:
    text = "\n".join(line for line in TYPE_THEN_PROXY.splitlines() if "wrong type" not in line)
    diagnosis = diagnose_text("node0.log", text + "\n")
    assert diagnosis.first_error is not None
    assert "Failed to execute operation Connect from rank 1" in diagnosis.first_error.text


def test_a_plugin_note_at_warn_stays_behind_the_proxy_failure() -> None:
    text = (
        "trn-a:30411:30411 [1] NCCL WARN NET/Plugin : No plugin found (libnccl-net.so)\n"
        "trn-a:30411:30477 [1] proxy.cc:1519 NCCL WARN [Proxy Service 1] Failed to execute"
        " operation Connect from rank 1, retcode 3\n"
    )
    diagnosis = diagnose_text("node0.log", text)
    assert diagnosis.first_error is not None
    assert "Failed to execute operation Connect" in diagnosis.first_error.text


def test_a_cause_warned_on_another_thread_leaves_the_proxy_failure_first() -> None:
    text = TYPE_THEN_PROXY.replace(
        "trn-a:30411:30477 [1] misc/socket.cc", "trn-a:30588:30601 [3] misc/socket.cc"
    )
    diagnosis = diagnose_text("node0.log", text)
    assert diagnosis.first_error is not None
    assert "Failed to execute operation Connect from rank 1" in diagnosis.first_error.text
