"""A job whose launcher gave up before it started any worker process.

torchrun's agent joins a rendezvous with the other nodes' agents before it starts the ranks;
when the rendezvous never completes (a node that never came up), it gives up and no rank
ever ran. The world size the launch states still makes every rank look missing, but a
missing rank is one that died or went silent; these were never started. When the cause is a
line whose rule says so (`before_workers` in signatures.yaml) and no rank left a line of its
own, the report says the workers were never started instead of listing missing ranks: no rank
row (a rank's status can only be one of a rank that ran), no missing rank and no rank without
a log (none ran to write one), `correlation.workers_started` false, and a sentence in the root
cause. `world_size` stays the size the launch asked for.
"""

from __future__ import annotations

from dataclasses import replace

from analyzers.classify.rules import load_knowledge
from analyzers.core.phrases import Said, say, sentence, sentences
from analyzers.core.report import Diagnosis
from analyzers.core.types import Correlation, RankStatus


def mark_workers_not_started(diagnosis: Diagnosis, correlation: Correlation) -> bool:
    """Whether the workers were never started; if so, no rank is listed or missing and the
    root cause says so."""
    if not _cause_before_workers(diagnosis) or not _no_rank_ran(correlation):
        return False
    correlation.workers_started = False
    correlation.missing_ranks = []
    correlation.ranks = []
    correlation.rank_logs = replace(correlation.rank_logs, logless=())  # none ran to log
    said = sentences(
        [
            Said(diagnosis.root_cause or "", diagnosis.root_cause_zh or ""),
            sentence(say("narrate.workers_not_started")),
        ]
    )
    diagnosis.root_cause, diagnosis.root_cause_zh = said.en.strip(), said.zh
    return True


def _cause_before_workers(diagnosis: Diagnosis) -> bool:
    rule = next((ev.rule for ev in diagnosis.evidence if ev.role == "cause"), None)
    if rule is None:
        return False
    signature = next((sig for sig in load_knowledge().signatures if sig.id == rule), None)
    return signature is not None and signature.before_workers


def _no_rank_ran(correlation: Correlation) -> bool:
    """No rank left a line: each is missing, none has a checkpoint, a file or an error."""
    ranks = correlation.ranks
    return bool(ranks) and all(
        summary.status == RankStatus.MISSING
        and not summary.files
        and summary.first_error is None
        and not summary.checkpoints
        for summary in ranks
    )
