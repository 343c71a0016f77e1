"""The label of a first error whose own line names no failure kind.

A CANN error-manager line with a generic code (`EE9999 ... get error: phyid:0 ... is
err:0x7010003`) can be the earliest cause of a block while the line that says which
layer failed is the wrapper right above it (`HCCL function error: hcclCommInitRootInfoConfig
..., error code is 15`). The block's own lines then label the failure: the most telling
line of the same block that carries a category (a line that went below an unread line leading
its block, `analyzers.classify.record_leads`, still counts). When no line of the block carries one,
the weak hints of `analyzers.causal.fallback` (exception class, codes, keywords) may still agree;
when they do not, the words of an error line (never a warning or a line its writer logged at
a quiet level) may still be close enough to one label's signature examples
(`analyzers.classify.word_vote`), the weakest reading of all, whose confidence
`report.confidence` keeps below the calibrated band.
An exception that ended a helper thread (`Exception in thread X:` above its traceback) and that
nothing above labels is read as the stall it left (`hang`): the rank's main thread went on until it
needed what the thread made, and waited.
A signature marked `settled` labels its line `other` on purpose (a failure kind outside the
taxonomy, such as a non-finite gradient): its words must not be re-read by the hints.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from analyzers.causal import fallback
from analyzers.causal.chain import CausalChain
from analyzers.classify.hints import is_chatter
from analyzers.classify.matches import Classified
from analyzers.classify.signature import Signature
from analyzers.classify.taxonomy import TAXONOMY
from analyzers.classify.tiers import FRAME_SOURCE, TIER_WRAPPER, TRACEBACK_SOURCE
from analyzers.classify.word_vote import WordReading, read_words
from analyzers.core.report import UNLABELLED
from analyzers.core.types import EventKind, FileScan
from analyzers.formats.base import QUIET_LEVELS

_QUIET = QUIET_LEVELS | {"WARNING", "WARN", "NOTICE", "TRACE"}
_QUIET_FIELD = re.compile(r"\b(?:INFO|DEBUG|TRACE|NOTICE|WARN|WARNING)\b")
_HEADER_SPAN = 48  # where a line's time, writer and level fields stand
THREAD_STALL = "hang"  # what an unlabelled exception that ended a helper thread leaves behind


@dataclass(frozen=True, slots=True)
class Reading:
    """The first error's label, and the words that gave it when nothing else did."""

    category: str
    subsystem: str
    words: WordReading | None = None
    thread_stall: bool = False  # the stall an unlabelled exception left by ending a thread


def first_error_label(chain: CausalChain, scans: Sequence[FileScan] = ()) -> tuple[str, str]:
    """(category, subsystem) for the chain's first error."""
    reading = first_error_reading(chain, scans)
    return reading.category, reading.subsystem


def first_error_reading(chain: CausalChain, scans: Sequence[FileScan] = ()) -> Reading:
    """The label of the chain's first error: its rule's, its block's, the hints', or the
    learned words' (`words` then says which words, so the confidence can stay low)."""
    first = chain.first
    best = first.best if first else None
    if best is not None and (telling := _telling_from_bundle(chain, best.signature)):
        return telling
    if best is not None and (best.category != UNLABELLED or best.signature.settled):
        return Reading(best.category, best.subsystem)
    block = [
        item
        for item in chain.nearby
        if item is not first
        and (item.tier >= TIER_WRAPPER or item.reports_lead)
        and item.best is not None
        and item.best.category != UNLABELLED
    ]
    if block:
        telling = max(block, key=lambda item: (item.tier, item.best.weight if item.best else 0))
        assert telling.best is not None
        return Reading(telling.best.category, telling.best.subsystem)
    if hinted := fallback.guess(chain, scans):
        return Reading(*hinted)
    if _ended_a_helper_thread(chain, scans):
        return Reading(THREAD_STALL, "framework", thread_stall=True)
    if learned := unread_words(chain):
        return Reading(learned.category, TAXONOMY[learned.category][0], learned)
    return Reading(UNLABELLED, best.subsystem if best else "none")


def _ended_a_helper_thread(chain: CausalChain, scans: Sequence[FileScan]) -> bool:
    """The first error is an exception threading's hook printed (`Exception in thread X:`
    above the traceback): it ended a thread other than the main one, which went on until it
    needed what that thread made and then waited. With nothing else to label the exception and
    other ranks failing after it (their collectives waited for this rank), the rank's failure
    is that stall (docs/labelling.md#a-helper-thread-that-died-while-its-rank-went-on)."""
    first = chain.first
    if first is None or first.order >= len(scans):
        return False
    records = scans[first.order].facts.get("tracebacks") or ()
    if not any(r["line"] == first.event.line and r.get("thread") for r in records):
        return False
    # the stall is shown only by other ranks that failed while they waited for this one
    return any(
        item.best is not None and item.rank is not None and item.rank != first.rank
        for item in chain.cascades
    )


def _telling_from_bundle(chain: CausalChain, signature: Signature) -> Reading | None:
    """The label of a line the first error's rule takes its label from (`label_from_bundle`)
    when the bundle holds one, earlier or later: the first error stays where it is, and that
    line says why it failed (a refused checkpoint write, then a full disk reported by another
    writer of the same output)."""
    if not signature.label_from_bundle:
        return None
    lines = [*chain.top, *chain.supporting, *chain.cascades, *chain.nearby, *chain.own_failures]
    for item in lines:
        if item.best is not None and item.best.id in signature.label_from_bundle:
            return Reading(item.best.category, item.best.subsystem)
    return None


def unread_words(chain: CausalChain) -> WordReading | None:
    """What the learned words say of a first error no rule reads, when its line is one a
    writer meant as a failure: an error line or the exception that ends a traceback, not a
    warning, a frame, a line logged at a quiet level or one that says the job goes on."""
    first = chain.first
    if first is None or not _unread(first) or not _reports_a_failure(first):
        return None
    return read_words(first.event.message or first.event.text)


def _unread(first: Classified) -> bool:
    """No rule reads the line at all: a rule that labels it `other`, even a catch-all one
    whose `other` the block or the hints may still refine, has answered, and the words do
    not overturn it (a launcher's record of a SIGTERM says nothing of what failed)."""
    return first.best is None


def _reports_a_failure(first: Classified) -> bool:
    event = first.event
    if event.source == TRACEBACK_SOURCE:
        return True
    if event.kind != EventKind.ERROR or event.source == FRAME_SOURCE:
        return False
    if event.level is not None and event.level.upper() in _QUIET:
        return False
    if _QUIET_FIELD.search(event.text[:_HEADER_SPAN]):
        return False  # a header the formats do not parse (`... - INFO - ...`) still says so
    return not is_chatter(event.message or event.text)
