"""Write the diagnosis' root-cause sentence from the evidence: which rank, which operator,
which code and what the code means, what the other ranks did. The sentence is written in
English and Chinese at once: the fixed words come from the phrasebook
(`analyzers.core.phrases`), titles and code meanings from the knowledge's Chinese twins,
and log text is quoted as printed in both.

    AI Core / vector core exception on the device in aclnnRmsNorm (code 507015: An AI Core
    kernel raised an exception while running (aicore exception)) on rank 2 at log_2.log:41:
    "there is an exception of fftsplus aivector error, core id is 32". Ranks 0, 1, 3
    failed afterwards as a consequence.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from analyzers.causal.chain import CausalChain
from analyzers.classify.errorcodes import CodeInfo
from analyzers.classify.signature import Signature
from analyzers.core.phrases import Said, ranks_said, say, sentence
from analyzers.core.phrases import sentences as join_sentences

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

    title: Said
    culprits: Sequence[int] = ()
    rank: int | None = None
    operator: str | None = None
    code: CodeInfo | None = None
    where: str | None = None
    quote: str | None = None
    followers: Sequence[int] = ()
    verdict_reason: Said | None = None
    checkpoint: str | None = None
    culprit_note: Said | None = None  # see analyzers.report.culprit_note


def root_cause(story: Story) -> Said:
    """One to four sentences, most specific first, in English and Chinese."""
    sentences = [_main_sentence(story)]
    blamed = sorted(set(story.culprits))
    if story.culprit_note:
        sentences.append(story.culprit_note)
    elif blamed and blamed != [story.rank]:
        sentences.append(sentence(say("narrate.started", ranks=ranks_said(blamed))))
    note = story.culprit_note.en if story.culprit_note else ""
    if story.verdict_reason and story.verdict_reason.en not in note:
        sentences.append(sentence(story.verdict_reason))
    if story.followers:
        followers = ranks_said(story.followers)
        sentences.append(sentence(say("narrate.followers", ranks=followers)))
    if story.checkpoint:
        sentences.append(sentence(say("narrate.checkpoint", checkpoint=story.checkpoint)))
    return join_sentences(sentences)


def _main_sentence(story: Story) -> Said:
    text = story.title
    if story.operator:
        text += say("narrate.operator", operator=story.operator)
    if story.code:
        text += say("narrate.code", code=story.code.label, meaning=code_meaning(story.code))
    if story.rank is not None:
        own = not story.culprits or story.rank in story.culprits
        text += say("narrate.on_rank" if own else "narrate.reported_by", rank=story.rank)
    if story.where:
        text += say("narrate.where", where=story.where)
    if story.quote:
        text += say("narrate.quote", quote=story.quote)
    return text + say("narrate.stop")


def title(signature: Signature | None) -> Said:
    """A signature's title in both languages (its English where it has no Chinese yet)."""
    if signature is None:
        return say("narrate.unrecognised")
    return Said(signature.title, signature.title_zh or signature.title)


def code_meaning(info: CodeInfo) -> Said:
    """What a code means, without a closing full stop, in both languages."""
    english = info.meaning.rstrip(".")
    return Said(english, (info.meaning_zh or "").rstrip("。") or english)


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
