"""The Chinese a case promoted from an incident starts with.

A report carries its root-cause sentence in Chinese too (`diagnosis.root_cause_zh`, written
at analysis time from the phrasebook), and its next actions have Chinese templates
(`analyzers.report.translations.action_zh`). The promotion form is prefilled with the
English; each field the person saves as it was prefilled gets that Chinese in
`Case.translations["zh"]`, so the case reads in Chinese on a Chinese page. A field they
rewrote, then or in a later edit, keeps only their words: the report's Chinese no longer
says the same thing.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import cache
from typing import Any

from analyzers.core.phrases import phrasebook
from analyzers.report.translations import action_zh
from incidents.localized import CHINESE  # the key of a case's Chinese in `translations`

TITLE_CHARS = 60  # a Chinese character is about two Latin ones wide
# The pieces after which a root cause names places: its rank, the reporting rank, file:line
# and the quoted line (the English title stops there too).
_PLACE_PHRASES = ("narrate.on_rank", "narrate.reported_by", "narrate.where", "narrate.quote")


def promoted_translations(
    report: Mapping[str, Any], prefilled: Mapping[str, Any], saved: Mapping[str, Any]
) -> dict[str, dict[str, str]]:
    """`Case.translations` of a case promoted from `report`: the Chinese of each field
    whose `saved` value is still the `prefilled` one."""
    chinese = chinese_from_report(report)
    kept = {
        name: text for name, text in chinese.items() if _same(saved.get(name), prefilled.get(name))
    }
    return {CHINESE: kept} if kept else {}


def chinese_from_report(report: Mapping[str, Any]) -> dict[str, str]:
    """The Chinese of the case fields a report prefills: title, root cause and fix."""
    diagnosis = report.get("diagnosis") or {}
    chinese: dict[str, str] = {}
    root_cause = diagnosis.get("root_cause_zh")
    if root_cause:
        chinese["root_cause"] = root_cause
        chinese["title"] = title_from_root_cause_zh(root_cause)
    actions = list(diagnosis.get("next_actions") or [])
    translated = [action_zh(action) for action in actions]
    if any(translated):
        chinese["fix"] = "\n".join(z or a for z, a in zip(translated, actions, strict=True))
    return chinese


def title_from_root_cause_zh(root_cause: str) -> str:
    """The Chinese root cause's opening, up to where it names ranks, files and quotes."""
    opening = _where().split(root_cause.strip(), maxsplit=1)[0]
    opening = opening.split("。", 1)[0].rstrip("，：。 ")
    return opening if len(opening) <= TITLE_CHARS else opening[:TITLE_CHARS] + "…"


def without_stale_chinese(
    translations: Mapping[str, Any], before: Mapping[str, Any], after: Mapping[str, Any]
) -> dict[str, Any]:
    """`translations` without the Chinese of the fields an edit changed."""
    chinese = dict(translations.get(CHINESE) or {})
    stale = [name for name in chinese if not _same(before.get(name), after.get(name))]
    for name in stale:
        del chinese[name]
    others = {language: text for language, text in translations.items() if language != CHINESE}
    return {**others, CHINESE: chinese} if chinese else others


def _same(one: Any, other: Any) -> bool:
    """Equal but for white space (a browser sends a textarea's lines back with CRLF)."""
    if isinstance(one, str) and isinstance(other, str):
        return one.split() == other.split()
    return one == other


@cache
def _where() -> re.Pattern[str]:
    book = phrasebook()
    starts = (book[key].text_zh.split("{", 1)[0] for key in _PLACE_PHRASES)
    return re.compile("|".join(re.escape(start) for start in starts if start))
