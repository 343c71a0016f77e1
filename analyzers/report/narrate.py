"""Write the diagnosis' root-cause sentence from the evidence: which rank, which operator,
which code and what the code means, what the other ranks did.

    AI Core / vector core exception on the device in aclnnRmsNorm (code 507015: An AI Core
    kernel raised an exception while running (aicore exception)) on rank 2 at log_2.log:41:
    "there is an exception of fftsplus aivector error, core id is 32". Ranks 0, 1, 3
    failed afterwards as a consequence.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from analyzers.causal.first_error import CausalChain
from analyzers.causal.narrate_ranks import capitalise as _capitalise
from analyzers.causal.narrate_ranks import ranks_phrase
from analyzers.classify.errorcodes import CodeInfo

MAX_QUOTE = 200
_CANN_TAIL = re.compile(r"\[FUNC:.*$")
_CANN_HEAD = re.compile(
    r"^(?:E[A-Z0-9]\d{4}(?::\s*|\s+)?)?(?:\[PID: ?\d+\]\s*)?(?:\d{4}-\d\d-\d\d-[\d:.]+\s*)?"
    r"(?:\(E[A-Z0-9]\d{4}\):\s*)?"
)
_CODE_ORDER = {"acl": 0, "cann": 1, "hccl": 2, "pta": 3}


@dataclass(frozen=True, slots=True)
class Story:
    """What the sentence is built from (all optional except the title)."""

    title: str
    culprits: Sequence[int] = ()
    rank: int | None = None
    operator: str | None = None
    code: CodeInfo | None = None
    where: str | None = None
    quote: str | None = None
    followers: Sequence[int] = ()
    verdict_reason: str | None = None
    checkpoint: str | None = None
    culprit_note: str | None = None  # see analyzers.report.culprit_note


def root_cause(story: Story) -> str:
    """One to four sentences, most specific first."""
    sentences = [_main_sentence(story)]
    blamed = sorted(set(story.culprits))
    if story.culprit_note:
        sentences.append(story.culprit_note)
    elif blamed and blamed != [story.rank]:
        sentences.append(f"{_capitalise(ranks_phrase(blamed))} started it.")
    if story.verdict_reason and story.verdict_reason not in (story.culprit_note or ""):
        sentences.append(_capitalise(story.verdict_reason) + ".")
    if story.followers:
        sentences.append(
            f"{_capitalise(ranks_phrase(story.followers))} failed afterwards as a consequence."
        )
    if story.checkpoint:
        sentences.append(f"Last checkpoint every rank reached: '{story.checkpoint}'.")
    return " ".join(sentences)


def _main_sentence(story: Story) -> str:
    parts = [story.title]
    if story.operator:
        parts.append(f" in {story.operator}")
    if story.code:
        parts.append(f" (code {story.code.label}: {story.code.meaning.rstrip('.')})")
    if story.rank is not None:
        own = not story.culprits or story.rank in story.culprits
        parts.append(f" {'on' if own else 'reported by'} rank {story.rank}")
    if story.where:
        parts.append(f" at {story.where}")
    if story.quote:
        parts.append(f': "{story.quote}"')
    return "".join(parts) + "."


def quote(message: str) -> str:
    """The informative part of a log message, without CANN's location tails, shortened."""
    text = _CANN_TAIL.sub("", message).strip()
    text = _CANN_HEAD.sub("", text).strip() or message.strip()
    return text if len(text) <= MAX_QUOTE else text[: MAX_QUOTE - 3].rstrip() + "..."


def main_code(codes: Sequence[CodeInfo], category: str | None = None) -> CodeInfo | None:
    """The code that says most about `category`: one pointing at that label first, then
    a runtime/aclnn code before an error-manager code before HCCL's; summary codes that
    point at no label (ERR00100) say nothing worth a sentence."""
    labelled = [c for c in codes if c.category or c.table in ("acl", "cann")]
    ranked = sorted(
        labelled,
        key=lambda c: (c.category != category, c.category is None, _CODE_ORDER.get(c.table, 9)),
    )
    return ranked[0] if ranked else None


def followers(chain: CausalChain, culprits: Sequence[int]) -> list[int]:
    """Ranks whose lines are consequences of the first error."""
    return [rank for rank in chain.consequence_ranks if rank not in culprits]
