"""The diagnosis' sentences in English and Simplified Chinese, built once from a phrasebook.

A root-cause sentence is assembled from pieces (a signature's title, an operator, a code
and its meaning, ranks, a verdict's reason, a log quote). Each fixed piece is a phrasebook
entry (`knowledge/phrases.yaml`) with an English template `text` and its Chinese twin
`text_zh`; `say` fills both with the same values, so the code that decides what to say runs
once and yields a `Said`, the sentence in both languages. Nothing is ever translated after
the fact: Chinese word order lives in the Chinese templates, and log text (quotes, operator
names, checkpoints) goes into both languages as it was printed.

An entry may have a plural form (`many`, `many_zh`) for clauses whose pronoun follows the
number of ranks (`names it` / `names them`). The English of every sentence is exactly what
the report has always carried; the Chinese goes beside it (`root_cause_zh`, ...).

The bundle reader says its notes the same way (skipped members, cut budgets, a bundle it
cannot read: `bundle.*`, `limit.*`, `error.*`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from analyzers.core.bilingual import placeholders, refill
from analyzers.core.yamlcheck import KnowledgeError, read_yaml

PHRASEBOOK = Path(__file__).parents[1] / "knowledge" / "phrases.yaml"
MAX_LISTED = 8  # ranks listed by number; the rest are counted


@dataclass(frozen=True, slots=True)
class Said:
    """One piece of text in English (`en`) and Chinese (`zh`)."""

    en: str
    zh: str

    def __add__(self, other: Said) -> Said:
        return Said(self.en + other.en, self.zh + other.zh)


@dataclass(frozen=True, slots=True)
class Phrase:
    text: str
    text_zh: str
    many: str | None = None
    many_zh: str | None = None


def plain(text: str) -> Said:
    """Text that reads the same in both languages: a log quote, a name, a path."""
    return Said(text, text)


def say(key: str, *, many: bool = False, **values: Said | str | int) -> Said:
    """The phrasebook entry `key` filled with `values` in both languages (a `Said` value
    goes in as its own language's text); `many` picks the plural form when there is one."""
    phrase = phrasebook()[key]
    english = phrase.many if many and phrase.many else phrase.text
    chinese = phrase.many_zh if many and phrase.many_zh else phrase.text_zh
    return Said(
        english.format_map({k: _in(v, "en") for k, v in values.items()}),
        chinese.format_map({k: _in(v, "zh") for k, v in values.items()}),
    )


def several(ranks: Iterable[int]) -> bool:
    """Whether a clause about these ranks takes the plural (`them`, `they were`)."""
    return len(set(ranks)) != 1


def ranks_said(ranks: Iterable[int]) -> Said:
    """`rank 3`, `ranks 0, 1, 2`, past eight `... and 4 more` (sorted, each rank once)."""
    ordered = sorted(set(ranks))
    if len(ordered) == 1:
        return say("ranks.one", rank=ordered[0])
    shown = Said(
        ", ".join(str(r) for r in ordered[:MAX_LISTED]),
        "、".join(str(r) for r in ordered[:MAX_LISTED]),
    )
    more = len(ordered) - MAX_LISTED
    if more > 0:
        return say("ranks.more", shown=shown, more=more)
    return say("ranks.several", shown=shown)


def sentence(clause: Said) -> Said:
    """A clause as a sentence: capitalised with a full stop in English, with `。` in
    Chinese (a clause that already ends with one gets no second)."""
    zh = clause.zh if clause.zh.endswith("。") else clause.zh + "。"
    en = capitalise(clause.en)
    return Said(en if en.endswith((".", "!", "?")) else en + ".", zh)


def sentences(parts: Sequence[Said]) -> Said:
    """Sentences one after another: spaced in English, run on in Chinese."""
    return Said(" ".join(p.en for p in parts), "".join(p.zh for p in parts))


def strip_stop(clause: Said) -> Said:
    """A sentence back to a clause (no trailing full stop or space)."""
    return Said(clause.en.rstrip(". "), clause.zh.rstrip("。. "))


def refilled(text: str, prefix: str) -> str | None:
    """The Chinese of `text` when it is the English of a phrasebook entry whose key starts
    with `prefix`, filled in with values that need no Chinese of their own (names, numbers,
    an error's own words); None when no such entry made it. For English stored before its
    Chinese was (a run's failure reason)."""
    for english, chinese in _flat_phrases(prefix):
        filled = refill(english, chinese, text)
        if filled is not None:
            return filled
    return None


@cache
def _flat_phrases(prefix: str) -> tuple[tuple[str, str], ...]:
    """(English, Chinese) of the entries under `prefix`, placeholder-free ones first, so a
    literal sentence never matches a looser template by accident."""
    pairs = [(p.text, p.text_zh) for key, p in phrasebook().items() if key.startswith(prefix)]
    return tuple(sorted(pairs, key=lambda pair: ("{" in pair[0], pair[0])))


def capitalise(text: str) -> str:
    return text[:1].upper() + text[1:]


def _in(value: Said | str | int, language: str) -> str:
    if isinstance(value, Said):
        return value.en if language == "en" else value.zh
    return str(value)


@cache
def phrasebook(path: Path = PHRASEBOOK) -> Mapping[str, Phrase]:
    """Every phrase, checked: both languages, the same placeholders in each form."""
    raw = read_yaml(path)
    if not isinstance(raw, dict):
        raise KnowledgeError(f"{path.name}: expected a mapping of phrase keys")
    return {str(key): _phrase(path.name, str(key), entry) for key, entry in raw.items()}


def _phrase(name: str, key: str, entry: object) -> Phrase:
    where = f"{name}: '{key}'"
    if not isinstance(entry, dict):
        raise KnowledgeError(f"{where}: expected a mapping with 'text' and 'text_zh'")
    unknown = set(entry) - {"text", "text_zh", "many", "many_zh"}
    if unknown:
        raise KnowledgeError(f"{where}: unknown field(s) {sorted(unknown)}")
    forms = {field: entry.get(field) for field in ("text", "text_zh", "many", "many_zh")}
    for field in ("text", "text_zh"):
        if not isinstance(forms[field], str) or not forms[field]:
            raise KnowledgeError(f"{where}: '{field}' must be a non-empty string")
    if (forms["many"] is None) != (forms["many_zh"] is None):
        raise KnowledgeError(f"{where}: 'many' and 'many_zh' come together")
    names = placeholders(str(forms["text"]))
    for field, text in forms.items():
        if text is not None and (not isinstance(text, str) or placeholders(text) != names):
            raise KnowledgeError(
                f"{where}: '{field}' must use the placeholders of 'text'"
                f" ({', '.join(sorted(names)) or 'none'})"
            )
    return Phrase(**forms)  # type: ignore[arg-type]
