"""Highlighting the query's words in case text, safely.

The text is HTML-escaped first; only then are matches wrapped in `<mark>`, and entities the
escaping produced (`&amp;`, `&lt;`) are never cut. So case text written by anyone can be
shown marked up without ever trusting it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

from incidents.library.search_text import CJK

_ENTITY = re.compile(r"(&#?\w+;)")
_DIGITS = re.compile(r"\d")
_CJK_ONLY = re.compile(f"^[{CJK}]+$")
SNIPPET_CHARS = 220


def _word_pattern(word: str, html: bool) -> str | None:
    """Latin words match any word starting with their stem; codes and names match exactly.

    `html`: the pattern runs over escaped text, so the word is escaped the same way.
    """
    word = word.strip()
    if not word:
        return None

    def quote(text: str) -> str:
        return re.escape(escape(text) if html else text)

    if _CJK_ONLY.match(word):
        return quote(word)
    if _DIGITS.search(word) or "_" in word or len(word) < 5:
        return rf"(?<![A-Za-z0-9]){quote(word)}(?![A-Za-z0-9])"
    return rf"(?<![A-Za-z0-9]){quote(word[: max(4, len(word) - 3)])}[A-Za-z0-9]*"


def matcher(words: Sequence[str], *, html: bool = True) -> re.Pattern[str] | None:
    """One case-insensitive pattern for all the words (longest first)."""
    ordered = sorted(set(words), key=len, reverse=True)
    patterns = [p for p in (_word_pattern(w, html) for w in ordered) if p]
    return re.compile("|".join(patterns), re.IGNORECASE) if patterns else None


def highlight(text: str, words: Sequence[str] | re.Pattern[str] | None) -> SafeString:
    """`text` escaped, with the words marked."""
    pattern = matcher(words) if isinstance(words, list | tuple) else words
    escaped = escape(text or "")
    if pattern is None:
        return mark_safe(escaped)
    parts = _ENTITY.split(escaped)
    marked = [
        part if i % 2 else pattern.sub(lambda m: f"<mark>{m.group()}</mark>", part)
        for i, part in enumerate(parts)
    ]
    return mark_safe("".join(marked))  # built from escaped text only


def snippet(texts: Sequence[str], words: Sequence[str]) -> SafeString:
    """The first text with a match (else the first text), cut around the match, marked."""
    texts = [t for t in texts if t]
    if not texts:
        return mark_safe("")
    raw = matcher(words, html=False)
    chosen, at = texts[0], 0
    for text in texts:
        found = raw.search(text) if raw else None
        if found:
            chosen, at = text, found.start()
            break
    return highlight(_cut(chosen, at), matcher(words))


def _cut(text: str, at: int) -> str:
    if len(text) <= SNIPPET_CHARS:
        return text
    start = max(0, at - SNIPPET_CHARS // 3)
    end = start + SNIPPET_CHARS
    return ("…" if start else "") + text[start:end] + ("…" if end < len(text) else "")
