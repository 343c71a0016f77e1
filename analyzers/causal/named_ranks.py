"""The ranks the first error's own report names: a line that names a rank for its own
failure (not a launcher's summary of an error logged elsewhere), the same report printed over a
few lines, the rank most writers of a fingerprint check name, a report right under the first
error.

These are the most trusted culprits, read before any comparison of the ranks::

    [Rank 0]: Ranks 1, 3 failed to pass monitoredBarrier in 30000 ms
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence

from analyzers.causal.chain import CausalChain
from analyzers.classify.matches import Classified, Match
from analyzers.classify.tiers import TIER_CAUSE


def names_its_culprits(match: Match, item: Classified) -> bool:
    """A line reporting how a rank ended names it only when it stands for the rank's own
    failure; as a summary of an error logged elsewhere it says nothing about who started."""
    if not match.culprits:
        return False
    return not match.signature.cause_if_silent or item.tier >= TIER_CAUSE


_SAME_REPORT_LINES = 4  # how far below the first error a line of the same report stands


def reported_with(
    top: Sequence[Classified], first: Classified, named: Sequence[int]
) -> Sequence[int]:
    """The ranks of a report its writer printed over a few lines, one rank at a time and then
    as one list (a monitored barrier told to wait for every rank logs `Rank 5 failed to pass
    monitoredBarrier`, `Rank 6 ...`, then `Ranks 5, 6 ...`): the lines right under the first
    error, from the same writer and read by the same rule, name the same finding."""
    kinds = {m.signature.id for m in first.matches if names_its_culprits(m, first)}
    ranks = set(named)
    for item in top:
        if item is first or item.event.file != first.event.file or item.rank != first.rank:
            continue
        if not 0 < item.event.line - first.event.line <= _SAME_REPORT_LINES:
            continue
        for match in item.matches:
            if match.signature.id in kinds and names_its_culprits(match, item):
                ranks.update(match.culprits)
    return sorted(ranks) if len(ranks) > len(named) else named


def agreed_on(top: Sequence[Classified], first: Classified) -> list[int]:
    """The rank most writers name, when several ranks' lines of the first error's kind each
    name another rank (a fingerprint check run on every rank: the odd rank names one peer,
    every peer names the odd rank). One writer, or a tie, agrees on nothing."""
    kinds = {m.signature.id for m in first.matches if names_its_culprits(m, first)}
    named_by: dict[int, set[int]] = {}
    for item in top:
        if item.rank is None or any(
            m.group_rank not in (None, item.rank) for m in item.matches
        ):  # a sub-group's writer numbers its peers in that group, not in the world
            continue
        for match in item.matches:
            if match.signature.id in kinds and names_its_culprits(match, item):
                named_by.setdefault(item.rank, set()).update(set(match.culprits) - {item.rank})
    votes = Counter(rank for named in named_by.values() for rank in named)
    best = votes.most_common(2)
    if len(named_by) < 2 or not best or best[0][1] < 2:
        return []
    if len(best) > 1 and best[1][1] == best[0][1]:
        return []
    return [best[0][0], *_running_as(top, best[0][0], set(named_by))]


# `Rank A is running collective: <A's fingerprint>, but Rank B is running collective: <B's>`
_RUNNING = re.compile(
    r"Rank (?P<own_rank>\d+) is running collective: (?P<own>.*?), but Rank (?P<peer_rank>\d+) "
    r"is running collective: (?P<peer>.*?)\)?\.?(?:Collectives differ|$)"
)


def _running_as(top: Sequence[Classified], odd: int, writers: set[int]) -> list[int]:
    """Writers whose own collective is the one the majority quotes for the odd rank: each
    rank names only the first peer whose fingerprint differs from its own, so a second rank
    that ran the odd rank's collective (both ranks of a node whose setting differs) is named
    by nobody, yet its own fingerprint says it was with the odd rank. Only a minority of the
    writers can be added this way."""
    own: dict[int, str] = {}
    quoted: set[str] = set()
    for item in top:
        found = _RUNNING.search(item.event.message or item.event.text)
        if found is None or item.rank is None or int(found["own_rank"]) != item.rank:
            continue
        own[item.rank] = found["own"].rstrip(")")
        if int(found["peer_rank"]) == odd:
            quoted.add(found["peer"].rstrip(")"))
    alike = sorted(r for r, mine in own.items() if r != odd and mine in quoted and r in writers)
    if not alike or 2 * (len(alike) + 1) >= len(own):
        return []
    return alike


def block_named(chain: CausalChain) -> list[int]:
    """Ranks a report printed right under the first error names (a desync report lists the
    ranks that fell out of step below the timeout headline of the rank that waited)."""
    first = chain.first
    assert first is not None
    for item in chain.nearby:
        if item is first or item.tier < first.tier or item.category != first.category:
            continue
        named = next((m.culprits for m in item.matches if m.culprits), ())
        if named and item.event.line > first.event.line:
            return sorted(set(named))
    return []
