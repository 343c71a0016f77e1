"""Other labels the evidence supports, so a report shows its doubt instead of hiding it.

A diagnosis names one label; where a careful reader could defend another, the report lists
up to two under `diagnosis.alternatives` ("could also be driver_env: Operator kernel binaries
not installed"). Candidates, most telling first:

- the first error's other matches and its codes that name another label;
- the neighbours the labelling guide gives for the rules the first error matched (`also` on
  a signature, e.g. missing kernel binaries -> operator; docs/labelling.md), the deciding
  rule's first, and those it gives only under a condition (`also_if`) when the bundle shows
  the condition's evidence (an AI CPU exception is a collective's only beside a collective's
  lines; a lost GPU is a hang only when a rank stalled or a watchdog says so);
- the label of the first error's own line when a rank-pattern verdict overrode it; a verdict
  that names its own neighbours (`Verdict.neighbours`: a rank that said it was leaving is no
  process death) offers those in place of the first error's rule's;
- other lines of the same block and other ranks' top lines that carry another label,
  including a line that stepped aside for the first error (`yields_to`) unless that line only
  opens the report the first error details (`headline`: a device report's opening words
  wrapped above a collective's task timeout name no core), and the neighbours
  the guide names for those lines' rules (a synchronize's `reason=[fftsplus timeout]` next
  to its 507048 line: the device task or a stall) and for the codes that gave those lines
  their label (a block whose runtime-result line carries 107003: the stream layer);
- the labels the fallback's hints carry past the bar a winner needs for the first error's
  words, its block and its frames (`knowledge/fallback.yaml`): the runner-up of the vote, or
  both sides of a tie that left the line unlabelled, what a reader who weighs the same words
  differently picks. They are the weakest evidence, a share of the chosen label's confidence;
- the label the learned words lean to (`classify.word_vote`) for a first error no rule
  labels, where the block or the hints gave another: as weak as a hint, with the words and
  the signature whose examples they resemble as its evidence.

Each score is that evidence's own strength, kept below the chosen label's confidence (at
least half of it, so a doubtful answer still shows where else the doubt points). `other`
("none of the above") is offered only where the guide names it for a rule or where it is the
first error's own label: any stray line with no better label would otherwise claim it.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import replace
from itertools import chain as chain_iter
from typing import TYPE_CHECKING

from analyzers.causal import fallback
from analyzers.causal.chain import CausalChain
from analyzers.causal.labels import unread_words
from analyzers.classify.matches import Classified
from analyzers.classify.tiers import TIER_WRAPPER
from analyzers.core.phrases import say
from analyzers.core.report import UNLABELLED, Alternative
from analyzers.core.types import Correlation, ErrorRef, EventKind, FileScan, RankStatus

if TYPE_CHECKING:
    from analyzers.causal.verdict import Verdict
    from analyzers.classify.matches import Match
    from analyzers.classify.signature import NeighbourEvidence, Signature

MAX_ALTERNATIVES = 2
BELOW_CHOSEN = 0.05  # an alternative never scores as high as the label chosen
GUIDE_SHARE = 0.6  # a documented neighbour: most of the chosen label's own support
LINE_TRUST = 0.8  # another line's label, as much as a symptom's weight is trusted
LITERAL_SHARE = 0.3  # what a code-labelled line says of itself, below the code's reading
LISTED_CODE_SHARE = 0.68  # a code whose own entry names the label (code-backed x LINE_TRUST)
INFERRED_CODE_SHARE = 0.4
HINT_SHARE = 0.3  # a weak hint's label, as little as a line's literal reading
_SEARCHED = (EventKind.ERROR, EventKind.WARNING)


class _Shown:
    """What the bundle shows, asked once per kind of evidence a conditional neighbour needs."""

    def __init__(
        self, chain: CausalChain, scans: Sequence[FileScan], correlation: Correlation | None
    ) -> None:
        self._chain, self._scans = chain, scans
        self._stalled = correlation is not None and any(
            rank.status == RankStatus.HUNG for rank in correlation.ranks
        )
        self._answers: dict[str, bool] = {}

    def neighbours(self, signature: Signature) -> tuple[str, ...]:
        """The rule's neighbours: its `also`, then each `also_if` whose evidence is shown."""
        shown = (label for label, evidence in signature.also_if if self.shows(evidence))
        return (*signature.also, *shown)

    def shows(self, evidence: NeighbourEvidence) -> bool:
        if evidence.name not in self._answers:
            stalled = evidence.ranks_stalled and self._stalled
            self._answers[evidence.name] = stalled or _shows(evidence, self._chain, self._scans)
        return self._answers[evidence.name]


def _shows(evidence: NeighbourEvidence, chain: CausalChain, scans: Sequence[FileScan]) -> bool:
    """A cited or nearby line labelled with one of the evidence's labels (by its rule or a
    code), or an error or warning line anywhere in the bundle its regex finds."""
    first = [chain.first] if chain.first is not None else []
    items = [*first, *chain.nearby, *chain.top, *chain.supporting, *chain.cascades]
    wanted = set(evidence.labels)
    for item in items:
        if item.best is not None and item.best.category in wanted:
            return True
        if any(info.category in wanted for info in item.codes):
            return True
    regex = evidence.regex
    if regex is None:
        return False
    texts = (item.event.message or item.event.text for item in items)
    if any(regex.search(text) for text in texts):
        return True
    events = (event for scan in scans for event in scan.events if event.kind in _SEARCHED)
    return any(regex.search(event.message or event.text) for event in events)


def alternatives(
    chain: CausalChain,
    category: str,
    confidence: float,
    line_category: str | None = None,
    scans: Sequence[FileScan] = (),
    correlation: Correlation | None = None,
    verdict: Verdict | None = None,
    *,
    waited_on: bool = False,
) -> list[Alternative]:
    """Up to two (label, evidence, score) other than `category`, best first; `scans` is the
    bundle, where a conditional neighbour's evidence and the first error's frames are read, and
    `correlation` says whether a rank stalled (evidence a neighbour can ask for). A `verdict`
    that names its neighbours speaks for the job in place of the first error's rule.
    `waited_on` says the label is the stall the first error's rank left, so the other ranks'
    failures while they waited for it (their collective timeouts) are a reading too."""
    ceiling = max(round(max(confidence - BELOW_CHOSEN, confidence / 2), 2), 0.0)
    picked: dict[str, Alternative] = {}
    shown = _Shown(chain, scans, correlation)
    ruled = verdict if verdict is not None and verdict.neighbours is not None else None
    found = _candidates(chain, confidence, line_category, shown, scans, ruled)
    if waited_on:
        found = chain_iter(found, ((alt, False) for alt in _waiting_peers(chain)))
    for candidate, named in found:
        if candidate.category in (category, "healthy"):
            continue
        if candidate.category == UNLABELLED and not named:
            continue
        candidate.score = round(min(candidate.score, ceiling), 2)
        candidate.ref = candidate.ref or _first_ref(chain)
        known = picked.get(candidate.category)
        if known is None or candidate.score > known.score:
            picked[candidate.category] = candidate  # the strongest evidence per label
    ranked = [alt for alt in sorted(picked.values(), key=lambda alt: -alt.score) if alt.score > 0]
    if ruled is not None:
        return ranked[:MAX_ALTERNATIVES]
    return _keep_guide_neighbour(ranked[:MAX_ALTERNATIVES], ranked, chain, shown)


def _keep_guide_neighbour(
    shown: list[Alternative], ranked: list[Alternative], chain: CausalChain, bundle: _Shown
) -> list[Alternative]:
    """The guide names a neighbour for the rule that decided (`also`) because readers who
    disagree pick it: it keeps a place even when other lines outscore it. A code on the
    first error whose own entry names neighbours speaks for the line more narrowly than the
    rule does (107020 on a synchronize names a stall or a collective): one of those already
    shown is such a neighbour, and the rule's does not displace it."""
    first = chain.first
    if first is None or first.best is None or len(shown) < MAX_ALTERNATIVES:
        return shown
    named = bundle.neighbours(first.best.signature)
    code_named = {label for info in first.codes if info.category for label in info.also}
    if not named or any(alt.category in named or alt.category in code_named for alt in shown):
        return shown
    neighbour = next((alt for alt in ranked if alt.category in named), None)
    return shown if neighbour is None else [shown[0], neighbour]


def _candidates(
    chain: CausalChain,
    confidence: float,
    line_category: str | None,
    shown: _Shown,
    scans: Sequence[FileScan],
    ruled: Verdict | None = None,
) -> Iterator[tuple[Alternative, bool]]:
    """Each candidate with whether the guide or the first error's own line names its label
    (only such a candidate may offer `other`). Under a verdict that names its own neighbours
    (`ruled`), those stand for the first error's rules' neighbours."""
    first = chain.first
    if first is None:
        return
    if ruled is not None and ruled.neighbours is not None:
        said = ruled.reason
        for label in ruled.neighbours:
            yield Alternative(label, said.en, confidence * GUIDE_SHARE, said.zh), True
    if line_category:
        yield _from_line(first, line_category, confidence), True
    for match in first.matches[1:]:
        yield _by_rule(match.category, match.signature, match.weight / 100 * LINE_TRUST), False
    yield from _from_codes(first)
    if ruled is None:  # a verdict's own neighbours stand for the rules'
        yield from _rules_neighbours(first, shown, confidence)
    if first.best is not None:
        for alt in _literal_reading(first.best):
            yield alt, True
    yield from _from_other_lines(chain, shown, scans, confidence)


def _from_codes(first: Classified) -> Iterator[tuple[Alternative, bool]]:
    """The labels the first error's codes carry, and the neighbours the guide names for them."""
    for info in first.codes:
        if info.category:  # a family or range rule vouches for less than a listed entry
            share = INFERRED_CODE_SHARE if info.inferred else LISTED_CODE_SHARE
            alt = Alternative(
                info.category,
                f"code {info.label}: {info.meaning}",
                share,
                f"错误码 {info.label}：{info.meaning_zh}" if info.meaning_zh else None,
            )
            yield alt, False
            for label in info.also:  # the neighbours the guide names for the code's label
                yield replace(alt, category=label, score=share * GUIDE_SHARE), True


def _rules_neighbours(
    first: Classified, shown: _Shown, confidence: float
) -> Iterator[tuple[Alternative, bool]]:
    """The deciding rule's neighbours, then the other matches'."""
    spoken = _code_speaks(first)
    for match in first.matches:
        share = GUIDE_SHARE if match is first.matches[0] else GUIDE_SHARE * match.weight / 100
        for label in shown.neighbours(match.signature):
            if spoken and match.signature.category_from_code and label in match.signature.also:
                continue  # the code's own entry speaks for the line
            yield _by_rule(label, match.signature, confidence * share), True


def _from_other_lines(
    chain: CausalChain, shown: _Shown, scans: Sequence[FileScan], confidence: float
) -> Iterator[tuple[Alternative, bool]]:
    """Readings of the lines around the first error, the bundle's hints, learned words."""
    first = chain.first
    assert first is not None
    # a line that yielded to an earlier one of its file is cited among the cascades, however
    # far from the first error's block it stands
    far = [item for item in chain.cascades if _yielded(item, first)]
    for alt in _other_lines([*chain.nearby, *chain.top, *chain.supporting, *far], first, shown):
        yield alt, False
    if first.best is None or not shown.neighbours(first.best.signature):
        for alt in _hinted(chain, scans, confidence):
            yield alt, False
    if learned := unread_words(chain):
        said = say(
            "alternatives.learned",
            label=learned.category,
            words=", ".join(learned.words),
            rule=learned.signature,
        )
        yield Alternative(learned.category, said.en, confidence * HINT_SHARE, said.zh), False


def _first_ref(chain: CausalChain) -> ErrorRef | None:
    """Every candidate not read from another line is read from the first error: its rules,
    its codes, its words and the hints they carry."""
    return chain.first.event.ref() if chain.first is not None else None


def _code_speaks(first: Classified) -> bool:
    """Whether a code the first error carries is listed with neighbours of its own. A rule
    that takes its label from the code it carries (a synchronize that returned N) names the
    generic neighbours for codes that say nothing of what failed; a listed entry that names
    its neighbours (107027: a capture refused the call, `config` beside it) says more, and the
    rule's generic ones (a core failure) do not fit it
    (docs/labelling.md#code-only-synchronize-failures)."""
    return any(info.category and not info.inferred and info.also for info in first.codes)


def _hinted(
    chain: CausalChain, scans: Sequence[FileScan], confidence: float
) -> Iterator[Alternative]:
    """The labels the fallback's hints support for the first error's words, scored by their
    share of the leading label's votes: a reading the words leave open. Asked only when the
    deciding rule names no neighbour of its own (the guide's `also` says where its doubt
    points) or no rule labelled the line. Beside a rule's label only the label the words
    lead with counts (the vote would have picked it, so a reader of the words would too): a
    runner-up to the rule's own label is the words agreeing with the rule. Beside an answer
    no rule gave, every label the words vote for, however weakly, is as defensible."""
    first = chain.first
    best = first.best if first is not None else None
    unlabelled = best is None or (best.category == UNLABELLED and not best.signature.settled)
    for label, votes, leader in fallback.readings(chain, scans, unlabelled=unlabelled):
        if not unlabelled and votes < leader:
            continue
        said = say("alternatives.hinted", label=label, votes=votes, leader=leader)
        yield Alternative(label, said.en, confidence * HINT_SHARE * votes / leader, said.zh)


def _literal_reading(best: Match) -> Iterator[Alternative]:
    """A rule whose label comes from the code it carries (a synchronize's wait, a runtime
    call's result) still says what kind of line it is; when the code moved the label away,
    that literal reading is the neighbour a reader who sets the code aside picks
    (docs/labelling.md#code-only-synchronize-failures). A catch-all rule whose own label is
    `other` (a wrapper or an error-manager line labelled only by its code) names no layer of
    its own, so it has no literal reading to offer."""
    signature = best.signature
    if signature.label_from_bundle and (signature.settled or signature.category != UNLABELLED):
        # a line elsewhere in the bundle may have given the label; the rule's own reading of
        # its line is then the neighbour (skipped by the caller when it is the label itself)
        yield _by_rule(signature.category, signature, LITERAL_SHARE)
        return
    if signature.category == UNLABELLED:
        return
    if signature.category_from_code and best.category != signature.category:
        yield _by_rule(signature.category, signature, LITERAL_SHARE)


def _by_rule(label: str, signature: Signature, score: float) -> Alternative:
    """A label supported by a rule: its title is the evidence, in both languages."""
    return Alternative(label, signature.title, score, signature.title_zh)


def _from_line(first: Classified, label: str, confidence: float) -> Alternative:
    if first.best is not None:
        return _by_rule(label, first.best.signature, confidence * GUIDE_SHARE)
    return Alternative(
        label, "the first error's own line", confidence * GUIDE_SHARE, "首个错误所在的行"
    )


def _other_lines(
    items: Sequence[Classified], first: Classified, shown: _Shown
) -> Iterator[Alternative]:
    for item in items:
        best = item.best
        if (
            item is first
            or best is None
            or (item.tier < TIER_WRAPPER and not _yielded(item, first))
            or (best.signature.headline and _yielded(item, first))
        ):
            continue
        text = item.event.message or item.event.text
        score = best.weight / 100 * LINE_TRUST * 0.8
        ref = item.event.ref()
        yield Alternative(best.category, _short(text), score, _short(text), ref)
        for label in shown.neighbours(best.signature):  # the guide's for that line's rule
            yield replace(_by_rule(label, best.signature, score * GUIDE_SHARE), ref=ref)
        for info in item.codes:  # and for the code that gave that line its label
            if info.category == best.category:
                for label in info.also:
                    yield Alternative(
                        label,
                        f"code {info.label}: {info.meaning}",
                        score * GUIDE_SHARE,
                        f"错误码 {info.label}：{info.meaning_zh}" if info.meaning_zh else None,
                        ref,
                    )


def _waiting_peers(chain: CausalChain) -> Iterator[Alternative]:
    """The labelled failures of the other ranks that followed the first error (a stalled rank's
    peers timing out in the collective it never joined)."""
    first = chain.first
    for item in chain.cascades:
        best = item.best
        if first is None or best is None or best.category == UNLABELLED or item.rank == first.rank:
            continue
        text = item.event.message or item.event.text
        score = best.weight / 100 * LINE_TRUST * 0.8
        yield Alternative(best.category, _short(text), score, _short(text), item.event.ref())


def _yielded(item: Classified, first: Classified) -> bool:
    """The line stepped aside for the first error (`yields_to`, `yields_to_earlier`,
    `yields_to_bundle`): what it says, less precisely, is still a label a reader could defend (a
    device start failure under its reason, a dead worker after its collective timed out, the
    driver's Xid that gives a job's illegal address to the job's own kernel)."""
    best, chosen = item.best, first.best
    if best is None or chosen is None or not item.demoted:
        return False
    signature = best.signature
    return chosen.id in (
        *signature.yields_to,
        *signature.yields_to_earlier,
        *signature.yields_to_bundle,
    )


def _short(text: str, limit: int = 120) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"
