"""An agent that loses the node hosting its c10d store: its ranks report their peers gone
first, then the agent fails to close the rendezvous because the store's server end is gone
(`Failed to recv, got 0 bytes. Connection was likely closed.` raised into
`RendezvousConnectionError`). Both are the same loss; the ranks' lost peers come first.
A rendezvous connection error with no lost peer before it is still the first error
(docs/labelling.md, "A node that drops out")."""

from __future__ import annotations

from pathlib import Path

from analyzers import AnalyzeOptions, analyze
from tests.analyzers.job_bundles import CLOSED, bundle

RECV = (
    "torch.distributed.DistNetworkError: Failed to recv, got 0 bytes. Connection was likely "
    "closed. Did the remote server shutdown or crash?"
)
WRAPPER = (
    "torch.distributed.elastic.rendezvous.api.RendezvousConnectionError: The connection to "
    "the C10d store has failed. See inner exception for details."
)


def agent_tail() -> list[str]:
    return [
        "Traceback (most recent call last):",
        '  File "/usr/lib/python3/site-packages/torch/distributed/elastic/rendezvous/c10d_rendezvous_backend.py", line 114, in _call_store',
        "    return getattr(self._store, store_op)(*args, **kwargs)",
        RECV,
        "",
        "The above exception was the direct cause of the following exception:",
        "",
        "Traceback (most recent call last):",
        '  File "/usr/bin/torchrun", line 8, in <module>',
        "    raise RendezvousConnectionError(",
        WRAPPER,
    ]


def launcher(lost: bool) -> str:
    lines = [
        f"[default{r}]:2026-12-04 18:01:20,1{r}0 [rank{r + 2}] INFO  norm passed" for r in (0, 1)
    ]
    if lost:
        lines += [f"[default{r}]:[rank{r + 2}]: RuntimeError: {CLOSED}" for r in (0, 1)]
    return "\n".join(lines + agent_tail()) + "\n"


def test_the_ranks_lost_peers_come_before_the_agents_lost_store(tmp_path: Path) -> None:
    path = bundle(tmp_path, [], 4, {"node1/launcher.log": launcher(True)})
    first = analyze(path, AnalyzeOptions(workers=1)).diagnosis.first_error
    assert first is not None
    assert "Connection closed by peer" in first.text


def test_a_lost_store_with_no_lost_peer_before_it_is_the_first_error(tmp_path: Path) -> None:
    path = bundle(tmp_path, [], 4, {"node1/launcher.log": launcher(False)})
    first = analyze(path, AnalyzeOptions(workers=1)).diagnosis.first_error
    assert first is not None
    assert "Connection was likely closed" in first.text or "RendezvousConnectionError" in first.text
