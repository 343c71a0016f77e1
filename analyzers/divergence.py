"""Which ranks left the sequence of checkpoints the others followed, and a sentence saying so.

A rank that stops early or runs ahead is not divergent: that is progress, judged elsewhere.
Divergence is a rank logging a different checkpoint at the same position, the sign of ranks
taking different code paths (a skipped collective, a branch on rank-local data).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence

from analyzers.types import Checkpoint


def divergence(timeline: Mapping[int, Sequence[Checkpoint]]) -> tuple[list[int], str | None]:
    """Ranks whose sequence leaves the majority's: position by position the ranks still on
    the common path vote; a rank that logged something else there has diverged. Ranks that
    merely stop earlier or go further have not."""
    on_path = sorted(timeline)
    left: dict[int, int] = {}
    position = 0
    while True:
        voters = [r for r in on_path if len(timeline[r]) > position]
        if len(voters) < 2:
            break
        expected = _majority_text(timeline, voters, position)
        for rank in voters:
            if timeline[rank][position].text != expected:
                left[rank] = position
        on_path = [r for r in on_path if r not in left]
        position += 1
    return sorted(left), _divergence_sentence(timeline, left, on_path)


def _majority_text(timeline: Mapping[int, Sequence[Checkpoint]], voters: list[int], at: int) -> str:
    votes = Counter(timeline[r][at].text for r in voters)
    best = max(votes.values())
    return next(timeline[r][at].text for r in voters if votes[timeline[r][at].text] == best)


def _divergence_sentence(
    timeline: Mapping[int, Sequence[Checkpoint]], left: Mapping[int, int], on_path: list[int]
) -> str | None:
    if not left:
        return None
    rank = min(left, key=lambda r: (left[r], r))
    position = left[rank]
    own = timeline[rank][position]
    peers = [r for r in on_path if len(timeline[r]) > position] or [
        r for r in timeline if r not in left and len(timeline[r]) > position
    ]
    where = _after(timeline[rank], position)
    sentence = f"rank {rank} left the common sequence {where}: it logged '{own.qualified}'"
    if peers:
        theirs = timeline[peers[0]][position].qualified
        sentence += f" where {_ranks_phrase(peers)} logged '{theirs}'"
    others = sorted(set(left) - {rank})
    if others:
        sentence += f"; also diverged: {_ranks_phrase(others)}"
    return sentence + "."


def _after(checkpoints: Sequence[Checkpoint], position: int) -> str:
    if position == 0:
        return "at its first checkpoint"
    return f"after '{checkpoints[position - 1].qualified}' (checkpoint {position})"


def _ranks_phrase(ranks: Sequence[int]) -> str:
    shown = ", ".join(str(r) for r in ranks[:8])
    more = f" and {len(ranks) - 8} more" if len(ranks) > 8 else ""
    return f"rank{'s' if len(ranks) > 1 else ''} {shown}{more}"
