"""What the next actions are chosen by: the diagnosis, the first error's signatures and
codes, the bundle's environment and file kinds, and the values the actions' texts are filled
with (`analyzers.report.advise` does the choosing).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from analyzers.causal.chain import CausalChain
from analyzers.causal.verdict import Verdict
from analyzers.classify.action_book import ActionBook
from analyzers.classify.errorcodes import CodeInfo
from analyzers.classify.rules import Knowledge
from analyzers.core.report import Diagnosis
from analyzers.core.types import Correlation, FileScan
from analyzers.report.advise import Situation, asks_for, next_actions, stack_of
from analyzers.timeline.slowdown import seconds, slowdown


def operator_of(chain: CausalChain) -> str | None:
    first = chain.first
    assert first is not None
    for item in [first, *chain.supporting, *chain.nearby]:
        if item.operator:
            return item.operator
    return None


def advise(diagnosis: Diagnosis, knowledge: Knowledge, situation: Situation) -> None:
    """The next actions, and the stack they are written for: the diagnosis tree's page shows
    the texts written for the same stack, so its steps and the advice never disagree."""
    diagnosis.next_actions = next_actions(knowledge.actions, situation)
    diagnosis.stack = stack_of(situation)


def situation_of(
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
        env=env_of(scans),
        file_kinds=frozenset(str(scan.info.kind) for scan in scans),
        multi_rank=(world_size or 0) > 1 or len(diagnosis.culprit_ranks) > 1,
        values=values_of(diagnosis, operator_of(chain)),
        accelerator=stack,
        verdict=verdict.rule if verdict else None,
    )


def values_of(diagnosis: Diagnosis, operator: str | None) -> dict[str, str]:
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


def env_of(scans: Sequence[FileScan]) -> dict[str, str]:
    env: dict[str, str] = {}
    for scan in scans:
        env.update({str(k): str(v) for k, v in (scan.facts.get("env") or {}).items()})
    return env


def with_slowdown(situation: Situation, correlation: Correlation, book: ActionBook) -> Situation:
    """The situation with the pace the ranks' repeated progress lines fell to, when it fell
    step by step before the end (`timeline.slowdown`): the advice on a wait that timed out
    names the slowdown then. Only advice that names it makes the pass over every
    checkpoint worth its time."""
    if not asks_for(book, situation, "slow_line"):
        return situation
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
