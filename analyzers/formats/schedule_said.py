"""Lines of a log's head that state a pipeline schedule, keyed by the words in front of it.

    pipeline stage 2/4: hidden=16 microbatches=4 schedule=1f1b
    2026-12-05 11:02:11,201 [rank1] INFO pp schedule: interleaved_1f1b

Pipeline stages hand activations forward and gradients back in the order their schedule fixes
(GPipe: every micro-batch's forward, then every backward; 1F1B: a forward and a backward in
turn). Every stage of one pipeline has to run the same schedule: a stage that runs another
waits for a message its neighbour sends only later, and both sit in their send or receive
until the timeout. Each statement is kept as its key (the lower-cased words before the
schedule word on its line, numbers, tags and punctuation left out, so the same statement on
every rank has the same key) and the schedule's name. A rank that alone states another
schedule than its peers under the same key ran the odd order (`causal/culprits.py`). A
learning-rate scheduler's line (`scheduler=cosine`) is no pipeline schedule and is not kept.
"""

from __future__ import annotations

import re

from analyzers.formats.literal_gate import holds

MAX_STATEMENTS = 8  # per file
KEY_WORDS = 8  # words before the schedule word that make its key

_SCHEDULE = re.compile(
    rb"(?m)^([^\n]{0,200}?)(?<![a-z_])schedule[ \t]*[=:][ \t]*([a-z0-9][\w.-]{0,40})"
)
GATES = (b"schedule",)  # a head holding none is not searched
_NOT_WORD = re.compile(rb"[^a-z]+")
_LR_WORDS = {"lr", "learning", "rate", "warmup", "decay", "cosine", "linear"}


def schedule_statements(low: bytes, limit: int = MAX_STATEMENTS) -> list[list[str]]:
    """[key, schedule] for each pipeline schedule the lower-cased block states, in order."""
    if limit <= 0 or not any(holds(low, gate) for gate in GATES):
        return []
    said: list[list[str]] = []
    for found in _SCHEDULE.finditer(low):
        words = _NOT_WORD.sub(b" ", found.group(1)).decode().split()[-KEY_WORDS:]
        if _LR_WORDS.intersection(words):
            continue  # a learning-rate schedule
        said.append([" ".join(words), found.group(2).decode().rstrip(".-")])
        if len(said) >= limit:
            break
    return said
