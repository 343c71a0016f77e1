"""How sure a diagnosis with a first error is: a number that `make eval` checks against how
often answers of that confidence are right (answers at 0.8 or more must be right at least 95%
of the time on every labelled set).

A label only the learned words gave (`classify.word_vote`: no rule, no line of the block and
no hint spoke) never rises to `WORDS_CEILING`, below the band a reader is told to trust.

The first error's signature weight, scaled by how far its tier can be trusted, rises a little
when other lines agree and falls when a line as telling names another label. A code lends its
weight only when its own table entry names the label: a category read from a code family or a
documented range (EZxxxx -> operator layer, 561xxx -> aclnn) is too coarse to vouch for it.
"""

from __future__ import annotations

from analyzers.causal.chain import CausalChain
from analyzers.causal.verdict import Verdict
from analyzers.classify.matches import Classified
from analyzers.classify.tiers import (
    ROLE_TIERS,
    TIER_CASCADE,
    TIER_CAUSE,
    TIER_GENERIC,
    TIER_SYMPTOM,
    TIER_UNKNOWN,
    TIER_UNMATCHED,
    TIER_WRAPPED_CAUSE,
    TIER_WRAPPER,
)
from analyzers.core.report import UNLABELLED

# How far a line's tier lets the rules trust it, before the signature's own weight.
TIER_TRUST = {
    TIER_CAUSE: 1.0,
    TIER_WRAPPED_CAUSE: 0.9,
    TIER_SYMPTOM: 0.8,
    TIER_WRAPPER: 0.65,
    TIER_UNKNOWN: 0.3,
    TIER_CASCADE: 0.4,
    TIER_GENERIC: 0.25,
    TIER_UNMATCHED: 0.2,  # cited only because nothing else was
}
MAX_CONFIDENCE = 0.97
CODE_BACKED_WEIGHT = 0.85
OTHER_CONFIDENCE = 0.25
CONTESTED_PENALTY = 0.1  # a line at the first error's tier names another label
# a label from the learned words alone: under the calibrated band's 0.6 floor, whatever rule
# (a catch-all's `other`) the line matched
WORDS_CEILING = 0.45
THREAD_STALL_CONFIDENCE = 0.4  # below the calibrated band, above an unread line's


def confidence_of(
    chain: CausalChain,
    category: str,
    verdict: Verdict | None,
    *,
    by_words: bool = False,
    thread_stall: bool = False,
) -> float:
    """The first error's weight scaled by how much its tier can be trusted, a little more
    when other lines agree; a rank-pattern verdict brings its own figure, a label only
    the learned words gave (`by_words`) stays below `WORDS_CEILING`, and the stall an
    unlabelled exception left by ending a helper thread (`thread_stall`) is read at
    `THREAD_STALL_CONFIDENCE`: the thread's end is certain, what it starved is inferred."""
    first = chain.first
    assert first is not None
    if verdict:
        return verdict.confidence
    weight = first.best.weight / 100 if first.best else 0.3
    if any(info.category == category and not info.inferred for info in first.codes):
        weight = max(weight, CODE_BACKED_WEIGHT)  # a listed code that names the label
    score = weight * TIER_TRUST.get(_tier_read(chain), 0.3)
    agreeing = [s for s in chain.supporting if s.category == category]
    score += 0.05 * min(len(agreeing), 2)
    if _contested(chain, category):
        score -= CONTESTED_PENALTY
    if category == UNLABELLED:
        score = min(score, OTHER_CONFIDENCE)
    if by_words:
        score = min(score, WORDS_CEILING)
    if thread_stall:
        score = THREAD_STALL_CONFIDENCE
    return round(max(0.0, min(score, MAX_CONFIDENCE)), 2)  # the report's range is 0..1


def _contested(chain: CausalChain, category: str) -> bool:
    """Another line as telling as the first error (same tier) names another label. A helper
    process's echo that its main process went away (`_echo`) names no reading. A
    launcher's record of how a rank ended (`failed (exitcode: 1) local_rank: 0`) reads as
    the rank's own failure only when the rank logged none (`causal.first_error`
    promotes it then); left at its tier, it sums up an error the rank printed itself, which
    speaks for that rank in the chain, so it offers no reading of its own."""
    return any(
        item.category not in (None, UNLABELLED, category)
        and item is not chain.first
        and not _exit_summary(item)
        and not _echo(item)
        for item in chain.top
    )


def _echo(item: Classified) -> bool:
    """A helper's note that the process it served went away: it says nothing of why."""
    return item.best is not None and item.best.signature.echoes_end


def _exit_summary(item: Classified) -> bool:
    """A launcher's exit record of a rank that logged its own error (not promoted)."""
    return item.best is not None and item.best.signature.cause_if_silent and item.tier < TIER_CAUSE


def _tier_read(chain: CausalChain) -> int:
    """The first error's tier, or the tier of a later line of the same rule in the top of the
    chain: a warning cited ahead of the error its rule also reads (causal.warned_first: a store
    that warns per address and then gives up, a scaler that warns and then raises) is the
    earliest record of that one failure and as telling as the error that restates it. So is a
    warning that leads an error of another rule listing it under `warned_by` (a connect with no
    route ahead of c10d's summary that no address of the store answered). And a line that
    stepped aside for the first error, its rule naming the first's as the reason it came about
    however far away (`yields_to_bundle`, `yields_to_earlier`: a verdict that no device was
    found, after the driver's warning of why), tells the same failure at its own role's tier."""
    first = chain.first
    assert first is not None
    if first.best is None:
        return first.tier
    rule = first.best.signature.id
    same = [
        item.tier
        for item in chain.top
        if item is not first
        and item.best is not None
        and (item.best.signature.id == rule or rule in item.best.signature.warned_by)
    ]
    stepped_aside = [
        ROLE_TIERS[item.best.role]
        for item in chain.cascades
        if item.demoted
        and item.best is not None
        and rule in (*item.best.signature.yields_to_bundle, *item.best.signature.yields_to_earlier)
    ]
    return max([first.tier, *same, *stepped_aside])
