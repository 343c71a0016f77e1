"""The ranks that started a failure, once its first causal error is known.

In order of trust: ranks the first error's own line names (a launcher's local ranks mapped
to global ones), ranks a report right under it names (a desync report), the ranks whose
own lines hit the same failure, and, when the first error is only a wait, the ranks the
rank comparison singles out (killed, missing, divergent, the few ahead or behind).
"""

from __future__ import annotations

from collections.abc import Sequence

from analyzers.causal_chain import OWN_FAILURE_TIERS, CausalChain
from analyzers.classify import Classified
from analyzers.types import Correlation, FileScan, RankStatus


def culprit_ranks(
    chain: CausalChain, correlation: Correlation | None, scans: Sequence[FileScan]
) -> list[int]:
    """Ranks whose own behaviour started the failure, not the peers that waited on them."""
    first = chain.first
    if first is None:
        return []
    named = next((m.culprits for m in first.matches if m.culprits), ())
    if named:
        return _global_ranks(named, first, scans)
    reported = _block_named(chain)
    if reported:
        return reported
    if first.tier in OWN_FAILURE_TIERS:
        return _own_ranks(chain)
    singled = _singled_out(correlation, stated_world_size(scans) is not None)
    return singled or _first_to_exit(scans)


def _block_named(chain: CausalChain) -> list[int]:
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


def _own_ranks(chain: CausalChain) -> list[int]:
    """Ranks that hit the first error's failure themselves; when the first error's file has
    no rank (a plog), the ranks whose own lines report the same failure."""
    first = chain.first
    assert first is not None
    same = [i for i in chain.top if i.rank is not None and i.category == first.category]
    if not same and first.rank is None:
        same = [i for i in chain.supporting if i.rank is not None and not i.demoted]
    return sorted({i.rank for i in same if i.rank is not None})


def _global_ranks(named: Sequence[int], first: Classified, scans: Sequence[FileScan]) -> list[int]:
    """Ranks a line names; a launcher names local ranks, mapped through its failure report."""
    if not any(m.signature.culprit == "local_rank" for m in first.matches):
        return sorted(set(named))
    records = [r for scan in scans for r in scan.facts.get("elastic_failures") or ()]
    ranks = set()
    for local in named:
        known = {r.get("rank") for r in records if r.get("local_rank") == local} - {None}
        ranks.add(known.pop() if len(known) == 1 else local)
    return sorted(ranks)


def stated_world_size(scans: Sequence[FileScan]) -> int | None:
    """The world size a launcher line or env dump states (not one guessed from ranks seen)."""
    for scan in scans:
        stated = scan.facts.get("world_size") or (scan.facts.get("env") or {}).get("WORLD_SIZE")
        if str(stated or "").strip().isdigit():
            return int(stated)
    return None


def _singled_out(correlation: Correlation | None, size_stated: bool) -> list[int]:
    """When the first error is a wait, blame the ranks the comparison singles out: killed
    or missing ranks (only when the world size is stated, else an excerpt of one rank
    would blame all the others), then ranks that left the common path, then the few
    ranks ahead of or behind the pack (one skipped a collective, or never reached it)."""
    if correlation is None:
        return []
    dead = [r.rank for r in correlation.ranks if r.status == RankStatus.KILLED]
    missing = correlation.missing_ranks if size_stated else []
    outliers = sorted(set(correlation.ahead_ranks) | set(correlation.behind_ranks))
    few = len(outliers) * 2 < len(correlation.ranks)
    for ranks in (dead, missing, correlation.divergent_ranks, outliers if few else []):
        if ranks and len(ranks) < len(correlation.ranks):
            return sorted(ranks)
    return []


def _first_to_exit(scans: Sequence[FileScan]) -> list[int]:
    """Last resort: the rank torch elastic calls "Root Cause". It is only the first child
    to exit, so it counts only when nothing else points anywhere."""
    ranks = {
        record.get("rank")
        for scan in scans
        for record in scan.facts.get("elastic_failures") or ()
        if record.get("root_cause")
    } - {None}
    return sorted(ranks) if len(ranks) == 1 else []
