"""Find the first causal error across all files and ranks, and the ranks that caused it.

A failed job prints a cascade: one root error, then peers time out or lose the connection,
a later synchronize reports the device error, the launcher summarises, Python re-raises.
The first causal error is the earliest line of the highest tier present (see
`analyzers.classify`), after timeouts that another rank's own failure explains have been
demoted. "Earliest" is by line within one file (one writer's order is the truth even when
its C++ and Python clocks disagree) and by time across files, after the per-rank clock
offsets from the correlation; files without times come after timed ones.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC

from analyzers.classify import (
    TIER_CASCADE,
    TIER_CAUSE,
    TIER_GENERIC,
    TIER_SYMPTOM,
    TIER_UNKNOWN,
    TIER_WRAPPED_CAUSE,
    TIER_WRAPPER,
    Classified,
)
from analyzers.types import Correlation, FileKind, FileScan, RankStatus

MIN_ERROR_TIER = TIER_GENERIC  # below: unknown warnings and noise, never a first error
OWN_FAILURE_TIERS = (TIER_CAUSE, TIER_WRAPPED_CAUSE, TIER_UNKNOWN)
WAITING_TIERS = (TIER_SYMPTOM, TIER_WRAPPER)
CLOCK_TOLERANCE_S = 2.0  # ranks' clocks and write buffering disagree by about this much
NEAR_LINES = 30  # lines of one block around the first error that support it
MAX_SUPPORTING = 8
MAX_CASCADES = 8
_KIND_PRIORITY = {FileKind.RANK_LOG: 0, FileKind.PLOG: 1, FileKind.DEVICE_LOG: 1}


@dataclass(slots=True)
class CausalChain:
    """The first causal error, the lines that back it, and the ones it explains."""

    first: Classified | None
    top: list[Classified] = field(default_factory=list)  # every line at the first's tier
    supporting: list[Classified] = field(default_factory=list)
    cascades: list[Classified] = field(default_factory=list)
    nearby: list[Classified] = field(default_factory=list)  # the first error's block
    culprit_ranks: list[int] = field(default_factory=list)
    consequence_ranks: list[int] = field(default_factory=list)  # ranks with only cascades


def find_first_error(
    items: Sequence[Classified],
    correlation: Correlation | None = None,
    scans: Sequence[FileScan] = (),
) -> CausalChain:
    """The causal chain of the bundle's classified error/warning events."""
    offsets = correlation.clock_offsets if correlation else {}
    errors = [item for item in items if item.tier >= MIN_ERROR_TIER]
    demote_explained_waits(errors, offsets)
    ordered = causal_order(errors, offsets)
    if not ordered:
        return CausalChain(first=None)
    best_tier = max(item.tier for item in ordered)
    top = [item for item in ordered if item.tier == best_tier]
    chain = CausalChain(first=top[0], top=top)
    chain.nearby = [item for item in ordered if _near(item, chain.first)]
    if chain.first.rank is None:
        chain.first.rank = _block_rank(chain.nearby)
    chain.supporting = _supporting(chain.first, ordered, chain.nearby)
    chain.cascades = _cascades(ordered, chain)
    chain.culprit_ranks = culprit_ranks(chain, correlation, scans)
    chain.consequence_ranks = _consequence_ranks(ordered, chain)
    return chain


# --- demotion ------------------------------------------------------------------------------


def demote_explained_waits(items: Sequence[Classified], offsets: Mapping[int, float]) -> None:
    """A timeout or wrapper on one rank is a cascade when another rank failed on its own
    first (or at an unknown time): the waiting rank was waiting for that one."""
    earliest = _earliest_own_failure(items, offsets)
    for item in items:
        if item.tier in WAITING_TIERS and item.rank is not None:
            moment = epoch(item, offsets)
            if any(_explains(when, moment) for rank, when in earliest.items() if rank != item.rank):
                item.tier, item.demoted = TIER_CASCADE, True


def _earliest_own_failure(
    items: Sequence[Classified], offsets: Mapping[int, float]
) -> dict[int, float | None]:
    """Per rank, the time of its earliest own failure (None: one without time)."""
    earliest: dict[int, float | None] = {}
    for item in items:
        if item.tier in OWN_FAILURE_TIERS and item.rank is not None:
            moment = epoch(item, offsets)
            known = earliest.get(item.rank, float("inf"))
            earliest[item.rank] = None if moment is None or known is None else min(known, moment)
    return earliest


def _explains(owner_time: float | None, waiter_time: float | None) -> bool:
    if owner_time is None or waiter_time is None:
        return True
    return owner_time <= waiter_time + CLOCK_TOLERANCE_S


# --- ordering ------------------------------------------------------------------------------


def epoch(item: Classified, offsets: Mapping[int, float]) -> float | None:
    """Seconds on the reference rank's clock, or None for a line without time."""
    moment = item.event.timestamp
    if moment is None:
        return None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    offset = offsets.get(item.rank, 0.0) if item.rank is not None else 0.0
    return moment.timestamp() - offset


def causal_order(items: Sequence[Classified], offsets: Mapping[int, float]) -> list[Classified]:
    """Events ordered file by file (by each file's earliest top-tier line), lines in order."""
    if not items:
        return []
    best_tier = max(item.tier for item in items)
    file_keys = {}
    for item in sorted(items, key=lambda i: i.event.line):
        if item.tier == best_tier:
            file_keys.setdefault(item.order, _file_key(item, offsets))
    last = (2, 0.0, 0, 0, 0)
    return sorted(items, key=lambda i: (file_keys.get(i.order, last), i.order, i.event.line))


def _file_key(item: Classified, offsets: Mapping[int, float]) -> tuple[int, float, int, int, int]:
    seconds = epoch(item, offsets)
    weight = item.best.weight if item.best else 0
    untimed = 1 if seconds is None else 0
    return (untimed, seconds or 0.0, -weight, _KIND_PRIORITY.get(item.kind, 2), item.order)


# --- supporting lines and cascades ---------------------------------------------------------


def _block_rank(block: Sequence[Classified]) -> int | None:
    """The rank of an error block whose headline has none (a CANN line inside a rank's
    exception text): the one rank the block's other lines name, if they agree."""
    ranks = {item.rank for item in block if item.rank is not None}
    return ranks.pop() if len(ranks) == 1 else None


def _near(item: Classified, first: Classified) -> bool:
    return item.order == first.order and abs(item.event.line - first.event.line) <= NEAR_LINES


def _supporting(
    first: Classified, ordered: Sequence[Classified], nearby: Sequence[Classified]
) -> list[Classified]:
    """Lines of the same block that wrap or detail the first error, then lines of other
    files that report the same failure (other ranks, the Python side of a plog error)."""
    near = [
        item
        for item in nearby
        if item is not first and item.tier >= TIER_WRAPPER and item.best is not None
    ]
    elsewhere = [
        item
        for item in ordered
        if item is not first
        and item.order != first.order
        and item.tier >= TIER_WRAPPER
        and item.category == first.category
    ]
    return _one_per_text(near + elsewhere)[:MAX_SUPPORTING]


def _cascades(ordered: Sequence[Classified], chain: CausalChain) -> list[Classified]:
    """The first consequence line per file (demoted timeouts first), for citing."""
    taken = {id(item) for item in [chain.first, *chain.supporting]}
    pool = [
        item
        for item in ordered
        if id(item) not in taken and item.best is not None and item.tier <= TIER_CASCADE
    ]
    pool.sort(key=lambda item: (not item.demoted, -item.tier))
    seen: set[int] = set()
    picked = []
    for item in pool:
        if item.order not in seen:
            seen.add(item.order)
            picked.append(item)
    return picked[:MAX_CASCADES]


def _consequence_ranks(ordered: Sequence[Classified], chain: CausalChain) -> list[int]:
    """Ranks whose error lines are all consequences (not the culprits, not the reporter)."""
    own = {i.rank for i in ordered if i.tier > TIER_CASCADE}
    later = {i.rank for i in ordered if i.tier <= TIER_CASCADE and i.best is not None}
    first_rank = chain.first.rank if chain.first else None
    ranks = later - own - set(chain.culprit_ranks) - {first_rank, None}
    return sorted(r for r in ranks if r is not None)


def _one_per_text(items: Iterable[Classified]) -> list[Classified]:
    seen: set[str] = set()
    kept = []
    for item in items:
        text = item.event.message or item.event.text
        if text not in seen:
            seen.add(text)
            kept.append(item)
    return kept


# --- culprits ------------------------------------------------------------------------------


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
