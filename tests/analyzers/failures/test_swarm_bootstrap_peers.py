"""A swarm runtime's peer-to-peer daemon that reaches none of its initial peers.

hivemind (under Petals and swarm trainers) raises the daemon's message when it cannot join
the swarm; the link to the peers failed, so the label is the communication layer's, with the
host's network and the peer list beside it. The daemon's start timeout names no peer and is
not read as this rule. Fixtures are tracebacks in the runtime's real shape with their own
values. docs/labelling.md#a-swarm-daemon-that-reaches-no-bootstrap-peer
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

NO_BOOTSTRAP_PEER = """\
Nov 03 17:02:30.410 [INFO] Running Petals 2.2.0
Nov 03 17:02:30.902 [INFO] Using DHT prefix: Llama-2-70b-hf
Traceback (most recent call last):
  File "/opt/conda/lib/python3.10/site-packages/hivemind/dht/dht.py", line 88, in __init__
    self.run_in_background(await_ready=await_ready)
  File "/opt/conda/lib/python3.10/concurrent/futures/_base.py", line 401, in __get_result
    raise self._exception
hivemind.p2p.p2p_daemon_bindings.utils.P2PDaemonError: Daemon failed to start: 2024/11/03 17:02:41 failed to connect to bootstrap peers
>> Shutting down trainer...
Terminated
"""

DAEMON_START_TIMEOUT = """\
Traceback (most recent call last):
  File "/opt/conda/lib/python3.10/site-packages/hivemind/p2p/p2p_daemon.py", line 240, in create
    await self._ping_daemon()
hivemind.p2p.p2p_daemon_bindings.utils.P2PDaemonError: Daemon failed to start in 15.0 seconds
"""


def test_no_bootstrap_peer_reached_is_the_link_to_the_swarm() -> None:
    diagnosis = diagnose_text("server.log", NO_BOOTSTRAP_PEER)
    assert_reads(
        diagnosis,
        "hccl",
        first_error="failed to connect to bootstrap peers",
        rule="hccl.p2p_bootstrap_unreachable",
    )
    alternatives = {a.category for a in diagnosis.alternatives}
    assert {"driver_env", "config"} <= alternatives
    assert any("nc -vz" in text for text in diagnosis.next_actions)


def test_a_daemon_start_timeout_is_not_read_as_unreachable_peers() -> None:
    diagnosis = diagnose_text("server.log", DAEMON_START_TIMEOUT)
    assert "hccl.p2p_bootstrap_unreachable" not in rules_of(diagnosis)
