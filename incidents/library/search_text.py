"""Text processing shared by both search backends: query parsing, key lexemes, bigrams.

Neither PostgreSQL's parser nor SQLite's unicode61 tokenizer splits Chinese text (it has no
spaces), so before indexing or querying, every run of CJK characters becomes overlapping
character bigrams: ``显存不足`` -> ``显存 存不 不足``. A Chinese query word then is a phrase
of bigrams, which matches wherever the word appears.

Error codes and operator names must match exactly, but both tokenizers cut
``npu_moe_distribute_dispatch_v2`` at the underscores. So each code and operator is also
indexed as one opaque "key lexeme" (``k`` + a short hash), and every query token is looked
up as a key too; a key hit ranks above any word match.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace

CJK = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
_CJK_RUN = re.compile(f"[{CJK}]+")
_SEGMENT = re.compile(f"[{CJK}]+|[^\\s{CJK}]+")
_HAS_TEXT = re.compile(r"[^\W_]")  # a letter or digit of any script
_VOCAB_WORD = re.compile(r"[a-z][a-z0-9_]+[a-z0-9]")
# Plain words, and identifiers with underscores (operator names); not codes like `ez9999`.
_CORRECTABLE = re.compile(r"^(?:[a-z]+|[a-z][a-z0-9]*(?:_[a-z0-9]+)+)$")
MAX_TERM = 100
# A CJK run longer than this is a pasted sentence rather than a word: it is scored by its
# character pairs, so a case holding some of them is found (a word of up to four characters
# stays one phrase, which is what it is).
MAX_CJK_WORD = 4
# PostgreSQL's English stop words (tsearch_data/english.stop), which its `english` config
# leaves out of every query. SQLite's tokenizer keeps them, and since a case matches when it
# holds any query word, `the` or `of` would match nearly every case there: the query's other
# words are scored without them on both databases.
_STOP_WORDS = """
i me my myself we our ours ourselves you your yours yourself yourselves he him his himself
she her hers herself it its itself they them their theirs themselves what which who whom
this that these those am is are was were be been being have has had having do does did doing
a an the and but if or because as until while of at by for with about against between into
through during before after above below to from up down in out on off over under again
further then once here there when where why how all any both each few more most other some
such no nor not only own same so than too very s t can will just don should now
"""
STOP_WORDS = frozenset(_STOP_WORDS.split())


def bigrams(run: str) -> list[str]:
    """Overlapping character pairs of a CJK run; a single character stays itself."""
    if len(run) < 2:
        return [run]
    return [run[i : i + 2] for i in range(len(run) - 1)]


def cjk_spaced(text: str) -> str:
    """`text` with every CJK run replaced by its space-separated bigrams."""
    return _CJK_RUN.sub(lambda m: f" {' '.join(bigrams(m.group()))} ", text)


def key_lexeme(value: str) -> str:
    """The opaque index token of one code or operator name (case-insensitive)."""
    digest = hashlib.blake2b(value.strip().lower().encode(), digest_size=8).hexdigest()
    return f"k{digest}"


def vocabulary_words(text: str) -> set[str]:
    """Latin words and identifiers (and the parts of identifiers) for typo correction."""
    words = set()
    for word in _VOCAB_WORD.findall(text.lower()):
        if len(word) <= MAX_TERM:
            words.add(word)
            words.update(part for part in word.split("_") if len(part) >= 3)
    return words


# ------------------------------------------------------------------------------ queries


@dataclass(frozen=True, slots=True)
class Term:
    """One query term: a word, a quoted phrase or a Chinese word (a phrase of bigrams)."""

    text: str
    phrase: bool = False
    negated: bool = False

    @property
    def cjk(self) -> bool:
        return bool(_CJK_RUN.fullmatch(self.text))

    @property
    def scored(self) -> bool:
        """False for a stop word typed alone (see STOP_WORDS): it counts for nothing."""
        return self.phrase or self.text.lower() not in STOP_WORDS

    @property
    def correctable(self) -> bool:
        """A plain latin word long enough that a typo in it can be guessed safely."""
        return not (self.phrase or self.negated) and bool(_CORRECTABLE.match(self.text.lower()))

    def scored_parts(self) -> list[Term]:
        """The term itself, or a long CJK run's character pairs (see MAX_CJK_WORD)."""
        if self.cjk and len(self.text) > MAX_CJK_WORD:
            return [Term(pair) for pair in dict.fromkeys(bigrams(self.text))]
        return [self]

    def indexed_text(self) -> str:
        return " ".join(bigrams(self.text)) if self.cjk else self.text


@dataclass(frozen=True, slots=True)
class Query:
    """A parsed query: OR of groups, each group an AND of terms (websearch semantics)."""

    groups: tuple[tuple[Term, ...], ...] = ()
    keys: tuple[str, ...] = ()  # query tokens that may be codes or operators, lowercased
    corrections: dict[str, str] = field(default_factory=dict)

    @property
    def key_lexemes(self) -> list[str]:
        return [key_lexeme(k) for k in self.keys]

    @property
    def terms(self) -> list[Term]:
        return [t for group in self.groups for t in group]

    @property
    def empty(self) -> bool:
        return not any(not t.negated for t in self.terms) and not self.keys

    def positive_texts(self) -> list[str]:
        """Words to highlight: positive terms as typed (or corrected) plus the raw tokens,
        without the stop words the ranking leaves out (a marked `in` would show a match that
        is none); a quoted phrase is marked whole."""
        return list(dict.fromkeys(t.text for t in self.terms if not t.negated and t.scored))

    def corrected(self, corrections: dict[str, str]) -> Query:
        """The same query with misspelled words replaced (and their keys looked up too)."""
        if not corrections:
            return self
        groups = tuple(
            tuple(replace(t, text=corrections.get(t.text.lower(), t.text)) for t in group)
            for group in self.groups
        )
        keys = tuple(dict.fromkeys([*self.keys, *(v.lower() for v in corrections.values())]))
        return Query(groups=groups, keys=keys, corrections=dict(corrections))

    def scored_terms(self) -> list[Term]:
        """The positive terms, each once (as indexed), whichever group holds them: a case
        is ranked by how many of them it holds. Stop words are none (see STOP_WORDS)."""
        found = {
            t.indexed_text().lower(): t
            for term in self.terms
            if not term.negated and term.scored
            for t in term.scored_parts()
        }
        return list(found.values())

    def excluded_terms(self) -> list[Term]:
        found = {t.indexed_text().lower(): t for t in self.terms if t.negated}
        return list(found.values())

    def phrase(self) -> str:
        """The words of a one-group query of several words, in order ('' otherwise): a case
        whose title holds them as typed ranks above one that only shares a word."""
        if len(self.groups) != 1:
            return ""
        words = [t.text for t in self.groups[0] if not t.negated]
        return " ".join(words) if len(words) > 1 or " " in "".join(words) else ""

    def websearch(self) -> str:
        """The query in PostgreSQL `websearch_to_tsquery` syntax."""
        return " or ".join(
            " ".join(_websearch_term(t) for t in group) for group in self.groups if group
        )

    def fts5(self) -> str:
        """The query as an SQLite FTS5 MATCH expression (text columns only)."""
        groups = [_fts5_group(group) for group in self.groups]
        groups = [g for g in groups if g]
        return " OR ".join(f"({g})" for g in groups)


_TOKEN = re.compile(r'(-?)"([^"]*)"|(\S+)')


def parse_query(text: str) -> Query:
    """Parse a search box string: words, "quoted phrases", `or`, `-excluded` words."""
    groups: list[list[Term]] = [[]]
    keys: list[str] = []
    for match in _TOKEN.finditer(text[:500]):
        negated, quoted, word = match.group(1) == "-", match.group(2), match.group(3)
        if word is not None and word.lower() == "or":
            groups.append([])
            continue
        if quoted is not None:
            groups[-1].extend(_phrase_terms(quoted, negated))
            continue
        negated = word.startswith("-") and len(word) > 1
        word = word[1:] if negated else word
        terms = list(_word_terms(word, negated))
        groups[-1].extend(terms)
        if terms and not negated:
            keys.append(_strip_punctuation(word).lower())
    clean = tuple(tuple(g) for g in groups if g)
    return Query(groups=clean, keys=tuple(dict.fromkeys(keys)))


def _strip_punctuation(word: str) -> str:
    return word.strip(".,;:!?()[]{}<>'\"`")


def _word_terms(word: str, negated: bool) -> Iterator[Term]:
    """A token split into its CJK and non-CJK runs: `HCCL超时` -> `HCCL`, `超时`."""
    for segment in _SEGMENT.findall(_strip_punctuation(word)):
        if _HAS_TEXT.search(segment):
            yield Term(segment[:MAX_TERM], negated=negated)


def _phrase_terms(text: str, negated: bool) -> Iterator[Term]:
    words = [w for w in text.split() if _HAS_TEXT.search(w)]
    if not words:
        return
    if len(words) == 1 and _CJK_RUN.fullmatch(words[0]):
        yield Term(words[0], negated=negated)
        return
    yield Term(" ".join(words)[: MAX_TERM * 3], phrase=True, negated=negated)


def websearch_term(term: Term) -> str:
    """One positive term in `websearch_to_tsquery` syntax (a phrase stays quoted)."""
    return _websearch_term(replace(term, negated=False))


def fts5_term(term: Term) -> str:
    """One term as an FTS5 phrase (a word, a quoted phrase, a Chinese word's bigrams)."""
    return _fts5_quote(term.indexed_text())


def _websearch_term(term: Term) -> str:
    text = term.indexed_text().replace('"', " ")
    if term.phrase or term.cjk:
        text = '"' + " ".join(cjk_spaced(text).split()) + '"'
    return f"-{text}" if term.negated else text


def _fts5_quote(text: str) -> str:
    return '"' + " ".join(cjk_spaced(text).split()).replace('"', '""') + '"'


def _fts5_group(group: Sequence[Term]) -> str:
    positive = [_fts5_quote(t.indexed_text()) for t in group if not t.negated]
    negative = [_fts5_quote(t.indexed_text()) for t in group if t.negated]
    if not positive:
        return ""
    expression = " AND ".join(positive)
    return " NOT ".join([f"({expression})", *negative]) if negative else expression


def fts5_keys(keys: Iterable[str]) -> str:
    """An FTS5 expression matching any of the key lexemes in the `keys` column."""
    return "{keys} : (" + " OR ".join(f'"{k}"' for k in keys) + ")"
