"""What one case contributes to the search index: its words, by weight, and its key lexemes.

Both backends index the same `Document`, so a case ranks alike on PostgreSQL and SQLite;
the text processing it is built with (bigrams for Chinese, key lexemes for codes and
operators) is `incidents.library.search_text`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from incidents.library.search_text import cjk_spaced, key_lexeme, vocabulary_words

_REGEX_SYNTAX = re.compile(r"\\[dswbDSWB]|[\\^$.|?*+()\[\]{}]")


@dataclass(frozen=True, slots=True)
class Document:
    """What one case contributes to the index, by weight: title > body > detail.

    `title` holds what names the failure: the title, the symptoms (what someone saw and
    types) and the words people use for its category. `body` holds the matching details
    (signatures, codes, operators, tags), `detail` the explanation (root cause, fix, ...).
    """

    title: str
    body: str
    detail: str
    keys: str
    words: frozenset[str] = frozenset()


def signature_text(signature: str) -> str:
    """A signature regex read as words: `monitored_?barrier` -> `monitored_ barrier`."""
    return " ".join(_REGEX_SYNTAX.sub(" ", signature).split())


def case_document(values: dict) -> Document:
    """The index document of a case given its field values (lists as lists).

    `category_terms` are the search words of the case's category (see
    analyzers/library/category_terms.py); the category label itself is indexed with them.
    A seeded case's Chinese title (`translations`) is indexed beside its English one, so the
    title a Chinese page shows finds the case. (Its other Chinese text is left out: the
    curated `terms_zh` already rank Chinese queries, and whole Chinese paragraphs would
    drown them.)
    """
    category = str(values.get("category", ""))
    zh = (values.get("translations") or {}).get("zh") or {}
    title_parts = [
        values.get("title", ""),
        zh.get("title", ""),
        *values.get("symptoms", ()),
        category.replace("_", " "),
        *values.get("category_terms", ()),
    ]
    body_parts = [
        *(signature_text(s) for s in values.get("signatures", ())),
        *values.get("codes", ()),
        *values.get("operators", ()),
        *values.get("tags", ()),
    ]
    detail_parts = [
        values.get("root_cause", ""),
        values.get("fix", ""),
        *values.get("verify", ()),
        *values.get("references", ()),
        *values.get("hardware", ()),
    ]
    keys = [*values.get("codes", ()), *values.get("operators", ())]
    raw = " ".join(str(p) for p in [*title_parts, *body_parts, *detail_parts] if p)
    return Document(
        title=cjk_spaced(" \n".join(str(p) for p in title_parts if p)),
        body=cjk_spaced(" \n".join(str(p) for p in body_parts)),
        detail=cjk_spaced(" \n".join(str(p) for p in detail_parts)),
        keys=" ".join(dict.fromkeys(key_lexeme(str(k)) for k in keys if str(k).strip())),
        words=frozenset(vocabulary_words(raw)),
    )
