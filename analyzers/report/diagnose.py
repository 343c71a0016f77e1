"""Turn the scans and the rank correlation into the incident's diagnosis.

Steps: classify every error/warning line against the signatures, find the first causal
error and the culprit ranks (`analyzers.causal.first_error`), let the rank-pattern rules decide jobs
without an error line or correct the line's label (`analyzers.report.multirank`), then write the
root cause, pick next actions, cite the evidence and fingerprint the failure. The
diagnosis tree (`tree_path`) is walked afterwards by `analyzers.tree.walk`.
"""

from __future__ import annotations

from collections.abc import Sequence

from analyzers.causal.alternatives import alternatives
from analyzers.causal.chain import CausalChain
from analyzers.causal.first_error import find_first_error, unread_errors_chain
from analyzers.causal.labels import first_error_reading
from analyzers.causal.stalled import STALLED
from analyzers.causal.verdict import Verdict
from analyzers.classify.errorcodes import CodeInfo, normalise_code
from analyzers.classify.events import classify_scans
from analyzers.classify.matches import Classified
from analyzers.classify.process_ends import ended_on_error
from analyzers.classify.rules import Knowledge, load_knowledge
from analyzers.classify.tiers import TIER_UNKNOWN
from analyzers.core.phrases import Said, sentence
from analyzers.core.report import UNLABELLED, Diagnosis
from analyzers.core.types import Correlation, FileScan
from analyzers.report import multirank, quiet_jobs
from analyzers.report.advice_facts import (
    advise,
    env_of,
    operator_of,
    situation_of,
    values_of,
    with_slowdown,
)
from analyzers.report.advise import Situation
from analyzers.report.citations import evidence_codes, evidence_of, unknown_codes
from analyzers.report.confidence import confidence_of
from analyzers.report.culprit_note import chain_note, verdict_note
from analyzers.report.fingerprint import fingerprint
from analyzers.report.narrate import Story, followers, main_code, quote, root_cause, title
from analyzers.report.outside_stops import cut_off_advancing, only_outside_stops, stall_before_stop
from analyzers.report.rank_ends import mark_dead
from analyzers.timeline.attempts import Attempts


def diagnose(
    scans: Sequence[FileScan],
    correlation: Correlation,
    world_size: int | None,
    stack: str | None = None,
) -> Diagnosis:
    """The diagnosis of one bundle (everything but the tree path); `stack` is the
    accelerator the bundle shows, which decides stack-specific advice."""
    knowledge = load_knowledge()
    items = classify_scans(scans, knowledge, stack)
    chain = find_first_error(items, correlation, scans)
    if chain.first is None or _finished_anyway(chain, correlation, scans):
        verdict = quiet_jobs.without_errors(correlation, scans)
        unread = _unread_errors(chain, verdict, items, correlation, scans)
        if unread is not None:
            return _from_first_error(unread, correlation, scans, knowledge, world_size, stack)
        return _from_ranks(verdict, chain, correlation, scans, knowledge, stack)
    stall = stall_before_stop(chain, correlation, scans)
    if stall:
        return _from_ranks(stall, chain, correlation, scans, knowledge, stack)
    return _from_first_error(chain, correlation, scans, knowledge, world_size, stack)


def _unread_errors(
    chain: CausalChain,
    verdict: Verdict,
    items: Sequence[Classified],
    correlation: Correlation,
    scans: Sequence[FileScan],
) -> CausalChain | None:
    """The chain of the error lines no rule reads, when neither a line nor the ranks say
    anything: a job that printed `paddle flags error: ...` and exited is better cited from that
    line, at low confidence, than reported as having no error line. A rank pattern (a healthy
    run, a hang, a missing rank) outranks such lines."""
    if chain.first is not None or verdict.rule != quiet_jobs.NOTHING:
        return None
    unread = unread_errors_chain(items, correlation, scans)
    return unread if unread.first is not None else None


def _finished_anyway(
    chain: CausalChain, correlation: Correlation, scans: Sequence[FileScan] = ()
) -> bool:
    """Every rank logged success, and the first error is an unknown exception, one its
    rank carried on after, or one of an attempt the launcher replaced by a run that finished
    (the ranks' checkpoints are read from the last attempt). An unknown or consequence line
    does not count as survived when its rank's process then ended on an error (the launcher
    records its own failing exit, or torch's hook printed its uncaught exception): the rank
    ran something after its success line, a collective its peers had left, and that failed."""
    ranks = correlation.ranks
    done = bool(ranks) and all(quiet_jobs.finished(rank) for rank in ranks)
    first = chain.first
    if not done or first is None:
        return False
    if first.recovered or _replaced(first, scans):
        return True
    return first.tier <= TIER_UNKNOWN and not ended_on_error(scans, first.rank)


def _replaced(first: Classified, scans: Sequence[FileScan]) -> bool:
    attempts = Attempts(scans)
    if not attempts.restarted:
        return False
    number = attempts.of(first.event.file, first.event.line)
    return number is not None and number < attempts.last


# --- with a first error --------------------------------------------------------------------


def _from_first_error(
    chain: CausalChain,
    correlation: Correlation,
    scans: Sequence[FileScan],
    knowledge: Knowledge,
    world_size: int | None,
    stack: str | None,
) -> Diagnosis:
    first = chain.first
    assert first is not None
    reading = first_error_reading(chain, scans)
    category, subsystem = reading.category, reading.subsystem
    # an exception that ended a helper thread has no reading of its own: the stall is inferred
    line_category = UNLABELLED if reading.thread_stall else category
    verdict = multirank.correct(chain, category, correlation, scans)
    culprits = list(verdict.culprits) if verdict else chain.culprit_ranks
    if verdict:
        category, subsystem = verdict.category, verdict.subsystem
    codes = evidence_codes(chain, knowledge)
    stalled_by_thread = reading.thread_stall and not verdict  # a ranks' verdict speaks instead
    confidence = confidence_of(
        chain, category, verdict, by_words=reading.words is not None, thread_stall=stalled_by_thread
    )
    note = chain_note(chain, verdict, culprits)
    diagnosis = Diagnosis(
        category=category,
        subsystem=subsystem,
        confidence=confidence,
        first_error=first.event.ref(),
        error_codes=[info.label for info in codes] + unknown_codes(chain, codes),
        culprit_ranks=culprits,
        last_common_checkpoint=correlation.last_common_checkpoint,
        evidence=evidence_of(chain),
        alternatives=alternatives(
            chain,
            category,
            confidence,
            line_category,
            scans,
            correlation,
            verdict,
            waited_on=stalled_by_thread,
        ),
    )
    _say_culprit_note(diagnosis, note)
    story = _story(chain, verdict, diagnosis, codes, correlation, note)
    said = root_cause(story)
    diagnosis.root_cause, diagnosis.root_cause_zh = said.en, said.zh
    situation = situation_of(chain, diagnosis, codes, scans, world_size, stack, verdict)
    advise(diagnosis, knowledge, with_slowdown(situation, correlation, knowledge.actions))
    _fingerprint(diagnosis, chain)
    _mark_dead(chain, verdict, correlation)
    return diagnosis


def _mark_dead(chain: CausalChain, verdict: Verdict | None, correlation: Correlation) -> None:
    """Silent ranks this reading takes for gone rather than stuck: those a silent death blames
    (their peers lost them, a node that went down together), and the quiet ranks a stop from
    outside cut off while they were still advancing (an agent stopped on one node)."""
    if verdict is not None and verdict.rule == multirank.SILENT_DEATH:
        mark_dead(correlation, verdict.culprits)
    elif only_outside_stops(chain) and cut_off_advancing(chain, correlation):
        mark_dead(correlation, [r.rank for r in correlation.ranks if r.status in STALLED])


def _story(
    chain: CausalChain,
    verdict: Verdict | None,
    diagnosis: Diagnosis,
    codes: Sequence[CodeInfo],
    correlation: Correlation,
    note: Said | None,
) -> Story:
    first = chain.first
    assert first is not None
    culprits = diagnosis.culprit_ranks
    return Story(
        title=title(first.best.signature if first.best else None),
        culprits=culprits,
        rank=first.rank,
        operator=operator_of(chain),
        code=_line_code(chain) or main_code(_own_codes(chain, codes), diagnosis.category),
        where=f"{first.event.file}:{first.event.line}",
        quote=quote(first.event.message or first.event.text),
        followers=followers(chain, culprits),
        verdict_reason=verdict.reason if verdict else None,
        checkpoint=_common_checkpoint_named(correlation),
        culprit_note=note,
    )


def _common_checkpoint_named(correlation: Correlation) -> str | None:
    """The last checkpoint every rank reached, as the sentence names it: layer-qualified
    (`layer 1 / norm passed`), since every layer prints the same sub-module lines and the
    bare text would not say which layer's; a line that names its own place reads the same."""
    common = correlation.last_common
    if common is None:
        return None
    return common.qualified or common.text


def _line_code(chain: CausalChain) -> CodeInfo | None:
    """The runtime or aclnn return code the first error's own line prints, if any: the
    sentence quotes that line, so a code printed on it is the one to explain, even when a line
    of its block (a later launch's 561103 under a refused kernel registration's 107000) points
    more plainly at the label. An error-manager code on the line (EZ9999) names no failure of
    its own and leaves the choice to the block."""
    first = chain.first
    assert first is not None
    return next((info for info in first.codes if info.table == "acl"), None)


def _own_codes(chain: CausalChain, codes: Sequence[CodeInfo]) -> list[CodeInfo]:
    """The codes the root-cause sentence may explain: those printed by the first error and
    its block when they print any (a code from another file's line would be read as this
    failure's meaning), else every code of the cited lines."""
    printed: set[str] = set()
    for item in [chain.first, *chain.nearby]:
        assert item is not None
        printed |= {normalise_code(raw) for raw in item.event.codes}
        printed |= {info.label for info in item.codes}
    if not printed:
        return list(codes)
    return [info for info in codes if info.label in printed or info.code in printed]


def _say_culprit_note(diagnosis: Diagnosis, note: Said | None) -> None:
    diagnosis.culprit_reason = note.en if note else None
    diagnosis.culprit_reason_zh = note.zh if note else None


def _fingerprint(diagnosis: Diagnosis, chain: CausalChain) -> None:
    first = chain.first
    assert first is not None
    others = [item.event.message or item.event.text for item in chain.supporting]
    ids = [m.id for m in first.matches[:1]] + [s.best.id for s in chain.supporting if s.best]
    codes = [info.label for info in first.codes]
    diagnosis.fingerprint, diagnosis.fingerprint_template = fingerprint(
        diagnosis.category, first.event.message or first.event.text, others, ids, codes
    )


# --- decided by the ranks alone ------------------------------------------------------------


def _from_ranks(
    verdict: Verdict,
    chain: CausalChain,
    correlation: Correlation,
    scans: Sequence[FileScan],
    knowledge: Knowledge,
    stack: str | None,
) -> Diagnosis:
    diagnosis = Diagnosis(
        category=verdict.category,
        subsystem=verdict.subsystem,
        confidence=verdict.confidence,
        culprit_ranks=list(verdict.culprits),
        last_common_checkpoint=correlation.last_common_checkpoint,
        evidence=evidence_of(chain) if chain.first and verdict.category != "healthy" else [],
        alternatives=alternatives(
            chain, verdict.category, verdict.confidence, scans=scans, correlation=correlation
        ),
    )
    said = sentence(verdict.reason)
    diagnosis.root_cause, diagnosis.root_cause_zh = said.en, said.zh
    _say_culprit_note(diagnosis, verdict_note(verdict))
    situation = Situation(
        category=verdict.category,
        env=env_of(scans),
        file_kinds=frozenset(str(scan.info.kind) for scan in scans),
        multi_rank=(correlation.world_size or 0) > 1,
        values=values_of(diagnosis, None),
        accelerator=stack,
    )
    advise(diagnosis, knowledge, with_slowdown(situation, correlation, knowledge.actions))
    key = f"{verdict.rule} after {correlation.last_common_checkpoint or 'start'}"
    diagnosis.fingerprint, diagnosis.fingerprint_template = fingerprint(verdict.category, key)
    return diagnosis
