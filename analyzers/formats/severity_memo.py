"""One severity answer for all the lines that differ only in their digits.

A noisy job prints the same warnings on every step (`UserWarning: step 1288: ...`,
`[Rank 3] WARN HCCL stream 39 is busy at step 8332 ...`), tens of thousands of lines each
read with the prefilter's long error alternation: most of a noisy bundle's analysis. Such
lines are the same once every digit is made `0` (`core/digit_blind.zeroed`), and the answer
`severity.classify` gives for a line depends on its digits only through the few prefilter
patterns that name digits (`exit code 1`, `507015`) and the notable phrases holding some.

So the first line of each zeroed form is classified as usual, and its answer is kept for the
others only when no digit can matter there: the digit-naming patterns, widened to take any
digit (`core/digit_blind.widened`), find nothing in the zeroed line (nor in the words the
error test reads), and no notable phrase holding digits is in it. Otherwise every line of
that form is classified on its own. A prefilter that uses a pattern which can be neither
shown blind nor widened gets no memo at all.
"""

from __future__ import annotations

import re
from dataclasses import fields
from typing import Any

from analyzers.core.digit_blind import blind, digit_part, narrowed, widen_or_none, zeroed
from analyzers.core.types import EventKind
from analyzers.formats import severity
from analyzers.formats.base import ParsedLine
from analyzers.formats.severity import Prefilter, classify

# Lines a process classifies plainly before it builds the memo: a quiet bundle's files never
# earn back the widening's compile, a noisy one passes this in its first file.
WARM_LINES = 256
MAX_FORMS = 50_000  # zeroed forms kept; a log of ever new lines starts afresh past that
_SENSITIVE = object()  # digits matter in this form: classify each line
_MISSING = object()
_MODULE_PATTERNS = ("_OPTION_TOKEN", "_PYTHON_SOURCE", "_NUMBERED_SOURCE")
_MODULE_PATTERNS += ("_JOINED_EXCEPTION", "JOINED_RAISE", "SOURCE_THEN_EXCEPTION")


class SeverityMemo:
    """`classify` for one prefilter, answered once per zeroed form where digits cannot
    matter."""

    __slots__ = (
        "_answers",
        "_digit_phrases",
        "_error_words",
        "_unbuilt",
        "_widened",
        "prefilter",
    )

    def __init__(self, prefilter: Prefilter, warm: int = WARM_LINES) -> None:
        self.prefilter = prefilter
        self._answers: dict[tuple[str, str | None, str | None], Any] | None = None
        self._digit_phrases: tuple[str, ...] = ()
        self._widened: tuple[re.Pattern[str], ...] | list[re.Pattern[str]] = ()
        self._error_words: tuple[re.Pattern[str] | None, re.Pattern[str] | None] = (None, None)
        self._unbuilt = warm + 1  # lines left to classify plainly, then one more builds
        if not warm:
            self._build()

    def _build(self) -> None:
        """Widen the patterns that name digits: about a tenth of a second of compiling,
        which only a process that classifies many lines earns back."""
        prefilter = self.prefilter
        self._unbuilt = 0
        self._answers = {}
        self._digit_phrases = tuple(
            zeroed(p.decode("utf-8", "replace")) for p in prefilter.notable_info if _digits(p)
        )
        widened = _widened_patterns(prefilter)
        self._widened = widened or ()
        self._error_words = _error_words(prefilter.error_words)
        if widened is None or (self._error_words[0] is None and not blind(prefilter.error_words)):
            self._answers = None

    def classify(self, line: ParsedLine) -> EventKind | None:
        if self._unbuilt:
            self._unbuilt -= 1
            if self._unbuilt:
                return classify(line, self.prefilter)
            self._build()
        answers = self._answers
        if answers is None:
            return classify(line, self.prefilter)
        key = (zeroed(line.message), line.level, line.source)
        known = answers.get(key, _MISSING)
        if known is not _MISSING and known is not _SENSITIVE:
            return known  # type: ignore[return-value]
        answer = classify(line, self.prefilter)
        if known is _MISSING:
            if len(answers) >= MAX_FORMS:
                answers.clear()
            answers[key] = _SENSITIVE if self._sensitive(key[0]) else answer
        return answer

    def _sensitive(self, form: str) -> bool:
        """Some line of this zeroed form may be answered otherwise than another."""
        lowered = form.lower()
        if any(phrase in lowered for phrase in self._digit_phrases):
            return True
        words = severity.classify_words(form, self.prefilter)
        if any(p.search(form) or p.search(words) for p in self._widened):
            return True
        wider, narrower = self._error_words
        # the error words are only looked for, in the words: found whatever the digits is as
        # settled as found by no line of the form
        return (
            wider is not None
            and wider.search(words) is not None
            and (narrower is None or narrower.search(words) is None)
        )


_MEMOS: dict[int, SeverityMemo] = {}


def memo_for(prefilter: Prefilter) -> SeverityMemo:
    """The memo of this prefilter, shared by every file a process reads: widening the long
    alternation costs a compile, and a line's answer does not depend on its file."""
    memo = _MEMOS.get(id(prefilter))
    if memo is None or memo.prefilter is not prefilter:
        memo = _MEMOS[id(prefilter)] = SeverityMemo(prefilter)
    return memo


def _error_words(
    pattern: re.Pattern[str],
) -> tuple[re.Pattern[str] | None, re.Pattern[str] | None]:
    """The error words widened and narrowed (`core/digit_blind`); a blind pattern needs
    neither, and is its own widening."""
    if blind(pattern):
        return None, None
    return widen_or_none(pattern), narrowed(pattern)


def _digits(phrase: bytes) -> bool:
    return any(48 <= byte <= 57 for byte in phrase)


def _widened_patterns(prefilter: Prefilter) -> list[re.Pattern[str]] | None:
    """The widened copies of the patterns `classify` uses that name digits, or None when
    one of them cannot be widened."""
    used: list[Any] = [getattr(prefilter, f.name) for f in fields(prefilter)]
    used.remove(prefilter.error_words)  # tested apart: see `_error_words`
    used += [getattr(severity, name) for name in _MODULE_PATTERNS]
    out = []
    for pattern in used:
        if not isinstance(pattern, re.Pattern) or isinstance(pattern.pattern, bytes):
            continue  # the block keywords' byte patterns are not read per line
        if blind(pattern):
            continue
        wider = digit_part(pattern)
        if wider is None:
            return None
        out.append(wider)
    return out
