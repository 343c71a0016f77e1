"""Lines of a log's head that state the source rank of a broadcast, keyed by its words.

    broadcast prompt ids from src rank 0
    bcast weights src=0

Every member of one broadcast has to name the same source. Jobs that log it say so in words
of their own; each statement is kept as its key (the lower-cased words from the broadcast
word up to the source, punctuation and numbers left out, so the same statement on every rank
has the same key) and the rank it names. A rank that alone names another source than its
peers under the same key passed another `src` (`causal/rank_sources.py`). A source named on
a line with no broadcast word (a pipeline stage's `recv activations from src rank 1`, a data
source) is a peer or a file of that rank's own and is not kept.
"""

from __future__ import annotations

from analyzers.core import regex_programs
from analyzers.formats.literal_gate import holds

MAX_STATEMENTS = 32  # per file
KEY_WORDS = 8  # words of the statement that make its key

_SOURCE = regex_programs.compile(
    rb"(?<![a-z])(b(?:road)?cast[a-z]*[^\n]{0,200}?)(?<![a-z])(?:src|source)(?:[ _-]?rank)?"
    rb"[ \t]*[=:]?[ \t]*(\d{1,5})(?![\d.])"
)
# a statement holds the first and one of the others: a head without them is not searched
GATES = (b"cast", b"src", b"source")
_NOT_WORD = regex_programs.compile(rb"[^a-z]+")


def source_statements(low: bytes, limit: int = MAX_STATEMENTS) -> list[list[str]]:
    """[key, rank] for each broadcast source the lower-cased block names, in order."""
    cast, *names = GATES
    if limit <= 0 or not holds(low, cast) or not any(holds(low, name) for name in names):
        return []
    said: list[list[str]] = []
    for found in _SOURCE.finditer(low):
        words = _NOT_WORD.sub(b" ", found.group(1)).split()[:KEY_WORDS]
        said.append([b" ".join(words).decode(), str(int(found.group(2)))])
        if len(said) >= limit:
            break
    return said
