"""Which signatures can match a line, found from the line's own three-letter pieces.

A log holds millions of lines and the knowledge hundreds of keywords: testing every keyword
against every line would cost their product, so the keywords are filed once by their first
letters and each line asks only the few filed under the pieces it holds.
"""

from __future__ import annotations

from analyzers.classify.signature import Signature


class SignatureIndex:
    """Which signatures can match a line, without testing every keyword against it.

    Keywords are filed under their first `GRAM` characters; a line's own `GRAM`-grams, as a
    set, meet those keys in one set intersection, and only the keywords filed there are
    tested as substrings. The result is the same as testing all of them (lower-cased, so a
    superset for case-sensitive signatures, whose own `search` then decides), at a cost that
    grows with the line's length rather than with the number of keywords.
    """

    GRAM = 3

    def __init__(self, signatures: tuple[Signature, ...]) -> None:
        self._signatures = signatures
        by_needle: dict[str, list[int]] = {}
        for position, signature in enumerate(signatures):
            for keyword in signature.keywords:
                by_needle.setdefault(keyword.lower(), []).append(position)
        by_gram: dict[str, list[str]] = {}
        for needle in by_needle:
            if len(needle) >= self.GRAM:
                by_gram.setdefault(needle[: self.GRAM], []).append(needle)
        self._short = tuple(needle for needle in by_needle if len(needle) < self.GRAM)
        self._by_gram = by_gram
        self._grams = frozenset(by_gram)
        self._by_needle = by_needle

    def candidates(self, message: str) -> list[Signature]:
        low = message.lower()
        size = self.GRAM
        grams = {low[at : at + size] for at in range(len(low) - size + 1)}
        needles = [n for gram in grams & self._grams for n in self._by_gram[gram] if n in low]
        needles += [needle for needle in self._short if needle in low]
        hits = {position for needle in needles for position in self._by_needle[needle]}
        return [self._signatures[position] for position in sorted(hits)]
