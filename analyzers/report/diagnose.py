"""Turn the scans and the rank correlation into the incident's diagnosis.

Steps: classify every error/warning line against the signatures, find the first causal
error and the culprit ranks (`analyzers.causal.first_error`), let the rank-pattern rules decide jobs
without an error line or correct the line's label (`analyzers.report.multirank`), then write the
root cause, pick next actions, cite the evidence and fingerprint the failure. The
diagnosis tree (`tree_path`) is walked afterwards by `analyzers.tree.walk`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from analyzers.causal.alternatives import alternatives
from analyzers.causal.chain import CLOCK_TOLERANCE_S, epoch
from analyzers.causal.dumped_stacks import dumped_without_error, timer_dump_only
from analyzers.causal.first_error import CausalChain, find_first_error, unread_errors_chain
from analyzers.causal.killed_together import aborted_together, killed_together, stopped_together
from analyzers.causal.labels import first_error_reading
from analyzers.causal.stalled import STALLED, stalled, stalled_among
from analyzers.classify.errorcodes import CodeInfo, normalise_code
from analyzers.classify.events import (
    TIER_UNKNOWN,
    Classified,
    classify_scans,
    ended_on_error,
)
from analyzers.classify.rules import Knowledge, load_knowledge
from analyzers.core.phrases import Said, sentence
from analyzers.core.types import Correlation, Diagnosis, Evidence, FileScan, RankStatus
from analyzers.report import multirank
from analyzers.report.advise import Situation, next_actions, stack_of
from analyzers.report.confidence import confidence_of
from analyzers.report.culprit_note import chain_note, verdict_note
from analyzers.report.fingerprint import fingerprint
from analyzers.report.multirank import Verdict
from analyzers.report.narrate import Story, followers, main_code, quote, root_cause, title
from analyzers.report.rank_ends import mark_dead
from analyzers.timeline.attempts import Attempts
from analyzers.timeline.slowdown import seconds, slowdown


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
        verdict = multirank.without_errors(correlation, scans)
        unread = _unread_errors(chain, verdict, items, correlation, scans)
        if unread is not None:
            return _from_first_error(unread, correlation, scans, knowledge, world_size, stack)
        return _from_ranks(verdict, chain, correlation, scans, knowledge, stack)
    stall = (
        _stalled_before_stop(chain, correlation, scans)
        or _ended_by_dump_timer(chain, correlation, scans)
        or _lost_to_dumped_peers(chain, correlation, scans)
        or _aborted_before_stop(chain, correlation, scans)
    )
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
    if chain.first is not None or verdict.rule != multirank.NOTHING:
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
    done = bool(ranks) and all(multirank.finished(rank) for rank in ranks)
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


def _stalled_before_stop(
    chain: CausalChain, correlation: Correlation, scans: Sequence[FileScan]
) -> Verdict | None:
    """The hang verdict when the job was stopped from outside and the ranks' checkpoints single
    out who stalled: the stop ended a job that had already stopped advancing, so it is not the
    cause."""
    together = not killed_together(correlation, scans) and stopped_together(
        _chain_items(chain), correlation, scans
    )
    if not (_only_outside_stops(chain) or killed_together(correlation, scans) or together):
        return None
    if (_only_outside_stops(chain) or together) and _cut_off_advancing(chain, correlation):
        return None
    verdict = stalled(correlation, scans)
    return verdict if verdict and verdict.culprits else None


def _aborted_before_stop(
    chain: CausalChain, correlation: Correlation, scans: Sequence[FileScan]
) -> Verdict | None:
    """The hang verdict when every rank was aborted at once from outside with no error of its
    own (`causal.killed_together.aborted_together`) and the checkpoints or dumps single out who
    stalled: the abort only ended a job that had stopped advancing."""
    if not aborted_together(chain, correlation):
        return None
    return stalled_among(correlation, scans, [r.rank for r in correlation.ranks])


def _chain_items(chain: CausalChain) -> list[Classified]:
    first = [chain.first] if chain.first is not None else []
    return first + chain.top + chain.supporting + chain.cascades


def _ended_by_dump_timer(
    chain: CausalChain, correlation: Correlation, scans: Sequence[FileScan]
) -> Verdict | None:
    """The hang verdict when the first error is only a launcher's record of a rank's exit
    status and that rank's own lines are a stack dump its dump timer printed, with no error:
    `faulthandler.dump_traceback_later(..., exit=True)` ends the process after the dump, so the
    status is the timer's, set to end a job that stopped advancing. The ranks' checkpoints (or
    their dumps) then say who stalled, as for a job stopped from outside."""
    first = chain.first
    best = first.best if first else None
    if first is None or best is None or not best.signature.cause_if_silent:
        return None
    if first.rank is None or not timer_dump_only(scans, first.rank):
        return None
    stopped = [r.rank for r in correlation.ranks if r.status != RankStatus.OK]
    return stalled_among(correlation, scans, stopped)


def _lost_to_dumped_peers(
    chain: CausalChain, correlation: Correlation, scans: Sequence[FileScan]
) -> Verdict | None:
    """The hang verdict when the only errors are a few ranks losing their peers, and every
    other rank printed nothing but a stack dump: those ranks were ended after the dump (their
    dump timer's `exit=True`, or the SIGTERM their handler dumped under), and a rank still
    waiting with them in a collective saw the connection close before its own dump came. The
    lost connections are the stop's consequence; the ranks' checkpoints or dumps say who
    stalled. docs/labelling.md, "A peer lost to ranks a dump ended"."""
    lost = {item.rank for item in chain.peer_gone.values()}
    top = [chain.first, *chain.top] if chain.first is not None else []
    for item in top:
        best = item.best
        if item in chain.peer_gone.values() or (
            best is not None and best.signature.cause_if_silent
        ):
            continue
        return None
    errored = [r.rank for r in correlation.ranks if r.status == RankStatus.ERROR]
    rest = [r.rank for r in correlation.ranks if r.rank not in errored]
    if not errored or not set(errored) <= lost or len(errored) * 2 >= len(correlation.ranks):
        return None
    if not all(dumped_without_error(scans, rank) for rank in rest):
        return None
    return stalled_among(correlation, scans, [r.rank for r in correlation.ranks])


def _cut_off_advancing(chain: CausalChain, correlation: Correlation) -> bool:
    """The stop came while the ranks that went quiet were still advancing: each printed a
    progress line within the clocks' tolerance before the stop's record (an agent stopped on
    one node of several ends its ranks mid-step). They did not stall before it; the stop is
    what ended them. A rank with no timed progress line says nothing and keeps the reading."""
    assert chain.first is not None
    stopped_at = epoch(chain.first, correlation.clock_offsets)
    quiet = [r.rank for r in correlation.ranks if r.status in STALLED]
    if stopped_at is None or not quiet:
        return False
    for rank in quiet:
        seq = correlation.timeline.ranks.get(rank)
        last = seq.time[-1] if seq is not None and len(seq.time) else float("nan")
        if last != last or not 0 <= stopped_at - last <= CLOCK_TOLERANCE_S:
            return False
    return True


def _only_outside_stops(chain: CausalChain) -> bool:
    """The only errors say the job was stopped from outside (a scheduler's time limit)."""
    first = chain.first
    best = first.best if first else None
    if best is None or not best.signature.outside_stop:
        return False
    return all(item.best is not None and item.best.signature.outside_stop for item in chain.top)


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
    line_category = category
    verdict = multirank.correct(chain, category, correlation, scans)
    culprits = list(verdict.culprits) if verdict else chain.culprit_ranks
    if verdict:
        category, subsystem = verdict.category, verdict.subsystem
    codes = _evidence_codes(chain, knowledge)
    confidence = confidence_of(chain, category, verdict, by_words=reading.words is not None)
    note = chain_note(chain, verdict, culprits)
    diagnosis = Diagnosis(
        category=category,
        subsystem=subsystem,
        confidence=confidence,
        first_error=first.event.ref(),
        error_codes=[info.label for info in codes] + _unknown_codes(chain, codes),
        culprit_ranks=culprits,
        last_common_checkpoint=correlation.last_common_checkpoint,
        evidence=_evidence(chain),
        alternatives=alternatives(chain, category, confidence, line_category, scans, correlation),
    )
    _say_culprit_note(diagnosis, note)
    story = _story(chain, verdict, diagnosis, codes, correlation, note)
    said = root_cause(story)
    diagnosis.root_cause, diagnosis.root_cause_zh = said.en, said.zh
    situation = _situation(chain, diagnosis, codes, scans, world_size, stack, verdict)
    situation = _with_slowdown(situation, correlation)
    _advise(diagnosis, knowledge, situation)
    _fingerprint(diagnosis, chain)
    _mark_dead(chain, verdict, correlation)
    return diagnosis


def _mark_dead(chain: CausalChain, verdict: Verdict | None, correlation: Correlation) -> None:
    """Silent ranks this reading takes for gone rather than stuck: those a silent death blames
    (their peers lost them, a node that went down together), and the quiet ranks a stop from
    outside cut off while they were still advancing (an agent stopped on one node)."""
    if verdict is not None and verdict.rule == multirank.SILENT_DEATH:
        mark_dead(correlation, verdict.culprits)
    elif _only_outside_stops(chain) and _cut_off_advancing(chain, correlation):
        mark_dead(correlation, [r.rank for r in correlation.ranks if r.status in STALLED])


def _evidence_codes(chain: CausalChain, knowledge: Knowledge) -> list[CodeInfo]:
    """Known codes of the first error's block and the cited lines, first error's first."""
    seen: dict[str, CodeInfo] = {}
    for item in _cited_and_near(chain):
        for info in item.codes:
            seen.setdefault(info.label, info)
        for raw in item.event.codes:
            info = knowledge.codes.lookup_label(normalise_code(raw))
            if info:
                seen.setdefault(info.label, info)
    return list(seen.values())


def _unknown_codes(chain: CausalChain, known: Sequence[CodeInfo]) -> list[str]:
    """Codes printed in the cited lines that the table does not know (kept as printed)."""
    labels = {info.label for info in known}
    extra: dict[str, None] = {}
    for item in _cited_and_near(chain):
        for raw in item.event.codes:
            code = normalise_code(raw)
            if code not in labels:
                extra.setdefault(code)
    return list(extra)


def _cited_and_near(chain: CausalChain) -> list[Classified]:
    first = chain.first
    assert first is not None
    return [first, *chain.nearby, *chain.supporting, *chain.cascades]


def _evidence(chain: CausalChain) -> list[Evidence]:
    first = chain.first
    assert first is not None
    cited = [(first, "cause")]
    cited += [(item, "supporting") for item in chain.supporting]
    cited += [(item, "cascade") for item in chain.cascades]
    return [_cite(item, role) for item, role in cited]


def _cite(item: Classified, role: str) -> Evidence:
    best = item.best
    return Evidence(
        ref=item.event.ref(),
        role=role,
        rule=best.id if best else None,
        category=best.category if best else None,
        codes=list(dict.fromkeys([info.label for info in item.codes] or item.event.codes)),
    )


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
        operator=_operator(chain),
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


def _operator(chain: CausalChain) -> str | None:
    first = chain.first
    assert first is not None
    for item in [first, *chain.supporting, *chain.nearby]:
        if item.operator:
            return item.operator
    return None


def _advise(diagnosis: Diagnosis, knowledge: Knowledge, situation: Situation) -> None:
    """The next actions, and the stack they are written for: the diagnosis tree's page shows
    the texts written for the same stack, so its steps and the advice never disagree."""
    diagnosis.next_actions = next_actions(knowledge.actions, situation)
    diagnosis.stack = stack_of(situation)


def _situation(
    chain: CausalChain,
    diagnosis: Diagnosis,
    codes: Sequence[CodeInfo],
    scans: Sequence[FileScan],
    world_size: int | None,
    stack: str | None,
    verdict: Verdict | None = None,
) -> Situation:
    first = chain.first
    assert first is not None
    signature_ids = [m.id for m in first.matches] + [
        m.id for item in chain.supporting for m in item.matches[:1]
    ]
    return Situation(
        category=diagnosis.category,
        signature_ids=signature_ids,
        codes=[info.code for info in codes],
        first_error_text=first.event.message or first.event.text,
        first_error_line=first.event.text,
        env=_env(scans),
        file_kinds=frozenset(str(scan.info.kind) for scan in scans),
        multi_rank=(world_size or 0) > 1 or len(diagnosis.culprit_ranks) > 1,
        values=_values(diagnosis, _operator(chain)),
        accelerator=stack,
        verdict=verdict.rule if verdict else None,
    )


def _values(diagnosis: Diagnosis, operator: str | None) -> dict[str, str]:
    ranks = ", ".join(str(r) for r in diagnosis.culprit_ranks)
    values = {"ranks_suffix": f" (rank {ranks})" if ranks else ""}
    if ranks:
        values["ranks"] = ranks
    reporter = diagnosis.first_error.rank if diagnosis.first_error else None
    if ranks and reporter is not None and reporter not in diagnosis.culprit_ranks:
        # the first error is a wait or a lost peer on another rank: the culprits did not fail
        # first, the others waited for them or lost them
        values["waited_ranks"] = ranks
    else:
        values["first_ranks_suffix"] = values["ranks_suffix"]
    if operator:
        values["op"] = operator
    if diagnosis.error_codes:
        values["code"] = diagnosis.error_codes[0]
    if diagnosis.last_common_checkpoint:
        values["checkpoint"] = diagnosis.last_common_checkpoint
    return values


def _with_slowdown(situation: Situation, correlation: Correlation) -> Situation:
    """The situation with the pace the ranks' repeated progress lines fell to, when it fell
    step by step before the end (`timeline.slowdown`): the advice on a wait that timed out
    names the slowdown then."""
    slow = slowdown(correlation.timeline)
    if slow is None:
        return situation
    values = {
        **situation.values,
        "slow_line": slow.line,
        "slow_first": seconds(slow.first_s),
        "slow_last": seconds(slow.last_s),
    }
    return replace(situation, values=values)


def _env(scans: Sequence[FileScan]) -> dict[str, str]:
    env: dict[str, str] = {}
    for scan in scans:
        env.update({str(k): str(v) for k, v in (scan.facts.get("env") or {}).items()})
    return env


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
        evidence=_evidence(chain) if chain.first and verdict.category != "healthy" else [],
        alternatives=alternatives(
            chain, verdict.category, verdict.confidence, scans=scans, correlation=correlation
        ),
    )
    said = sentence(verdict.reason)
    diagnosis.root_cause, diagnosis.root_cause_zh = said.en, said.zh
    _say_culprit_note(diagnosis, verdict_note(verdict))
    situation = Situation(
        category=verdict.category,
        env=_env(scans),
        file_kinds=frozenset(str(scan.info.kind) for scan in scans),
        multi_rank=(correlation.world_size or 0) > 1,
        values=_values(diagnosis, None),
        accelerator=stack,
    )
    situation = _with_slowdown(situation, correlation)
    _advise(diagnosis, knowledge, situation)
    key = f"{verdict.rule} after {correlation.last_common_checkpoint or 'start'}"
    diagnosis.fingerprint, diagnosis.fingerprint_template = fingerprint(verdict.category, key)
    return diagnosis
