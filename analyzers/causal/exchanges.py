"""The one rank that every unmatched pair of a logged ring exchange holds.

Ranks of a ring or pipeline exchange that log both ends of it on one line (`sending kv to
rank 3, waiting for kv from rank 1`, `timeline.marked_lines`) say who should meet whom: a
rank's send meets the peer it names when that peer waits for it, its wait when that peer
sends to it. A rank that sends to the wrong peer leaves two pairs unmatched, its own send
(the peer waits for someone else) and the wait of the rank that expected it; a rank that
waits for the wrong peer likewise. Everyone then times out and the waits alone run in a
cycle that singles no one out (docs/labelling.md, "A wait that names its peer"). The rank
every unmatched pair holds is the culprit; pairs that share no one rank, or too few ranks
stating both ends, name no one.

A pipeline hand-off printed one end a line (`recv hidden from rank 0`, then `send hidden to
rank 2` once the receive returned) is read the same way: a rank's send is the one its last
such line states, its wait the receive it is still in. No rank states both at once there, so
the ranks stating either end are counted instead.
"""

from __future__ import annotations

from analyzers.causal.chain import Blame
from analyzers.core.phrases import say
from analyzers.core.types import Correlation

MIN_STATED = 3  # ranks stating both ends: with two, each pair is the whole exchange


def unmatched_exchange(correlation: Correlation | None) -> Blame | None:
    """The rank every unmatched send/wait pair holds, with its own statement that did not meet."""
    if correlation is None:
        return None
    sends, waits = correlation.sending_to, correlation.waiting_on
    if len(set(sends) & set(waits)) < MIN_STATED:
        return None
    return _held_by_all(sends, waits)


def unmatched_handoff(correlation: Correlation | None) -> Blame | None:
    """The same for a hand-off whose ranks print each end on a line of its own: the sends
    their last such lines state and the receives they are still in."""
    if correlation is None or not correlation.sent_alone:
        return None
    sends, waits = correlation.sent_alone, correlation.waiting_on
    if len(set(sends) | set(waits)) < MIN_STATED:
        return None
    return _held_by_all(sends, waits)


def _held_by_all(sends: dict[int, int], waits: dict[int, int]) -> Blame | None:
    unmatched: list[tuple[frozenset[int], int, str, int, int]] = []
    for rank, peer in sends.items():
        if peer != rank and peer in waits and waits[peer] != rank:
            unmatched.append((frozenset((rank, peer)), rank, "sent", peer, waits[peer]))
    for rank, peer in waits.items():
        if peer != rank and peer in sends and sends[peer] != rank:
            unmatched.append((frozenset((rank, peer)), rank, "waited", peer, sends[peer]))
    if len(unmatched) < 2:
        return None
    common = frozenset.intersection(*(pair for pair, *_ in unmatched))
    if len(common) != 1:
        return None
    (culprit,) = common
    own = [u for u in unmatched if u[1] == culprit]
    if not own:
        return None
    _, _, how, peer, other = own[0]
    return Blame([culprit], say(f"blame.exchange_{how}", peer=peer, other=other))
