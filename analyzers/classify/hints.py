"""Weak hints that name a failure kind when no signature knows the line's wording.

Signatures name failures by their exact wording; a new framework, version or paste style
words the same failure differently. The hints of `knowledge/fallback.yaml` vote instead: the
exception's class (`DistStoreError` -> hccl, `ModuleNotFoundError` -> driver_env), the
categories of the codes around the line (an `EI` code -> hccl, 207001 -> oom) and weighted
keywords (`state_dict`, `not enough memory`, `undefined symbol`). A category must reach the
minimum score and beat every other one, so a bare `RuntimeError` with nothing telling gets
no label. Used on the few error candidates only, never per log line.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from functools import cache
from pathlib import Path

from analyzers.classify.rules import KNOWLEDGE_DIR
from analyzers.classify.taxonomy import TAXONOMY
from analyzers.core import regex_programs
from analyzers.core.knowledge_cache import LazyPattern, cached
from analyzers.core.signal_names import SIGNAL_NAMES_FILE, Names, expand, load_signal_names
from analyzers.core.yamlcheck import Entry, KnowledgeError, compile_regex, read_yaml

OWN_LINE_FACTOR = 2  # the line's own words count twice, the lines around it once
_EXCEPTION = regex_programs.compile(
    r"(?:^|[\s:\]>)])(?:[A-Za-z_]\w*\.)*(?P<type>[A-Z]\w*(?:Error|Exception|Exit|Interrupt)\w*)"
    r"(?::|\s*$)"
)
# A wrapper that re-raises another process's exception and names the inner class in
# parentheses (Ray's `RayTaskError(DistBackendError): ray::...`): the inner class is what was
# raised, and it votes as it would on the worker's own line.
_WRAPPED_EXCEPTION = regex_programs.compile(
    r"(?:^|[\s:\]>)])(?:[A-Za-z_]\w*\.)*[A-Z]\w*(?:Error|Exception)"
    r"\((?:[A-Za-z_]\w*\.)*(?P<type>[A-Z]\w*(?:Error|Exception|Exit|Interrupt)\w*)\):"
)


@dataclass(frozen=True, slots=True)
class LineClass:
    """Lines of one kind the hints set apart (chatter, build reports, ...): one regex of the
    section's patterns, with the lines its tests say it must and must not find."""

    pattern: re.Pattern[str] | None = None
    examples: tuple[str, ...] = ()
    counterexamples: tuple[str, ...] = ()

    def finds(self, line: str) -> bool:
        return self.pattern is not None and self.pattern.search(line) is not None


@dataclass(frozen=True, slots=True)
class Hints:
    min_score: int
    code_weight: int
    # labels no word or code votes for (`unvoted` in fallback.yaml); the learned word vote
    # leaves them to the rules as well (classify.word_vote)
    unvoted: frozenset[str]
    exception_types: dict[str, tuple[str, int]]
    keywords: tuple[tuple[str, re.Pattern[str], int], ...]
    examples: tuple[tuple[str, str], ...] = ()
    # read only in the statement printed under the innermost frame (`x = float(os.environ[..])`)
    statement_keywords: tuple[tuple[str, re.Pattern[str], int], ...] = ()
    # read only in the traceback frames kept above the first error (where it was raised)
    frame_keywords: tuple[tuple[str, re.Pattern[str], int], ...] = ()
    # error-level lines that report no failure (a retry, a deprecation, a zero count)
    chatter: LineClass = field(default_factory=LineClass)
    # the votes a label needs to be offered as an alternative to an answer no rule gave
    alternative_min_score: int = 1
    # exception lines that only report that a build stopped, the compiler having said why
    build_reports: LineClass = field(default_factory=LineClass)
    # a launcher's banner over a child's relayed output: the relayed lines say what failed
    relay_banners: LineClass = field(default_factory=LineClass)
    # the command a launcher's report quotes as a list: how the rank was started, no failure
    echoed_commands: LineClass = field(default_factory=LineClass)


@cache
def load_hints(path: Path = KNOWLEDGE_DIR / "fallback.yaml") -> Hints:
    """The hints, checked once per content of their file and kept with the rest of the
    knowledge (`core.knowledge_cache`). Their keyword regexes are compiled here, not on
    first use: every vote reads them all, and the analysis loads the hints on a thread while
    the logs are scanned, so the compiling is done by the time the first error is voted on."""
    sources = [path, path.parent / SIGNAL_NAMES_FILE]
    hints = cached("hints", sources, lambda: _read_hints(path))
    return replace(
        hints,
        keywords=_compiled(hints.keywords),
        statement_keywords=_compiled(hints.statement_keywords),
        frame_keywords=_compiled(hints.frame_keywords),
    )


def _compiled(
    rows: tuple[tuple[str, re.Pattern[str], int], ...],
) -> tuple[tuple[str, re.Pattern[str], int], ...]:
    return tuple(
        (category, pattern.compiled() if isinstance(pattern, LazyPattern) else pattern, weight)
        for category, pattern, weight in rows
    )


def _read_hints(path: Path) -> Hints:
    data = Entry(read_yaml(path), path.name)
    types = Entry(data.get("exception_types", dict), f"{path.name}: exception_types")
    unvoted = _unvoted(data)
    return Hints(
        min_score=data.get("min_score", int),
        alternative_min_score=data.get("alternative_min_score", int, 1),
        code_weight=data.get("code_weight", int),
        unvoted=unvoted,
        exception_types={
            str(name): _type_hint(Entry(item, f"{types.where}: '{name}'"), unvoted)
            for name, item in types.data.items()
        },
        keywords=_keywords(
            Entry(data.get("keywords", dict), f"{path.name}: keywords"),
            unvoted,
            load_signal_names(path.parent),
        ),
        examples=tuple(_example(item, path.name) for item in data.get("examples", list, [])),
        statement_keywords=_keywords(
            Entry(data.get("statement_keywords", dict, {}), f"{path.name}: statement_keywords"),
            unvoted,
        ),
        frame_keywords=_keywords(
            Entry(data.get("frame_keywords", dict, {}), f"{path.name}: frame_keywords"),
            unvoted,
        ),
        chatter=_line_class(data, "chatter", path.name),
        build_reports=_line_class(data, "build_reports", path.name),
        relay_banners=_line_class(data, "relay_banners", path.name),
        echoed_commands=_line_class(data, "echoed_commands", path.name),
    )


def _line_class(data: Entry, key: str, where: str) -> LineClass:
    """A section of lines set apart (`chatter`, `build_reports`, ...), absent meaning none."""
    section = Entry(data.get(key, dict, {"patterns": []}), f"{where}: {key}")
    patterns = section.strings("patterns", required=False)
    joined = "|".join(f"(?:{pattern})" for pattern in patterns)
    return LineClass(
        pattern=compile_regex(joined, re.IGNORECASE, section, "patterns") if joined else None,
        examples=section.strings("examples", required=False),
        counterexamples=section.strings("counterexamples", required=False),
    )


def _unvoted(data: Entry) -> frozenset[str]:
    labels = data.strings("unvoted")
    unknown = [label for label in labels if label not in TAXONOMY]
    if unknown:
        raise data.fail(f"field 'unvoted' must list taxonomy labels, got {unknown}")
    return frozenset(labels)


def _type_hint(entry: Entry, unvoted: frozenset[str]) -> tuple[str, int]:
    return _votable(entry, entry.get("category", str), unvoted), entry.get("weight", int)


def _keywords(
    section: Entry, unvoted: frozenset[str], words: Names | None = None
) -> tuple[tuple[str, re.Pattern[str], int], ...]:
    """Each label's [regex, weight] rows; a `{{name}}` in a regex stands for the shell's words
    of signal_names.yaml."""
    found = []
    for category, rows in section.data.items():
        _votable(section, str(category), unvoted)
        for row in rows if isinstance(rows, list) else [None]:
            if not (isinstance(row, list) and len(row) == 2 and isinstance(row[1], int)):
                raise section.fail(f"'{category}': each row must be [regex, weight]")
            text = expand(str(row[0]), words or {}, section.where)
            pattern = compile_regex(text, re.IGNORECASE, section, str(category))
            found.append((str(category), pattern, row[1]))
    return tuple(found)


def _example(item: object, where: str) -> tuple[str, str]:
    entry = Entry(item, f"{where}: examples")
    return entry.get("text", str), entry.choice("category", TAXONOMY)


def _votable(entry: Entry, category: str, unvoted: frozenset[str]) -> str:
    if category not in TAXONOMY or category in unvoted:
        raise KnowledgeError(f"{entry.where}: '{category}' is not a category hints can vote for")
    return category


# --- the vote ------------------------------------------------------------------------------


def vote(
    own: str,
    context: Iterable[str] = (),
    codes: Iterable[str | None] = (),
    statements: Iterable[str] = (),
    frames: Iterable[str] = (),
) -> str | None:
    """The winning category of one first-error line, the lines around it, its codes, the
    statement that raised it (read only for what that statement reads or calls) and the
    traceback frames above it (read like the lines around it, and for where they are)."""
    hints = load_hints()
    ranked = [*tally(own, context, codes, statements, frames).most_common(2), ("", 0), ("", 0)]
    (best, top), (_, second) = ranked[0], ranked[1]
    return best if top >= hints.min_score and top > second else None


def place_vote(frames: Iterable[str]) -> str | None:
    """The category the place alone names: `frame_keywords` read in the traceback frames kept
    above an error, with the bar and the clear lead a winner of `vote` needs."""
    hints = load_hints()
    scores: Counter[str] = Counter()
    for line in frames:
        scores.update(_words(line, hints, 1, hints.frame_keywords))
    ranked = [*scores.most_common(2), ("", 0), ("", 0)]
    (best, top), (_, second) = ranked[0], ranked[1]
    return best if top >= hints.min_score and top > second else None


def defensible(
    own: str,
    context: Iterable[str] = (),
    codes: Iterable[str | None] = (),
    statements: Iterable[str] = (),
    frames: Iterable[str] = (),
    *,
    unlabelled: bool = False,
) -> list[tuple[str, int]]:
    """Every category whose votes reach the bar, with its votes, most first: the bar a winner
    needs, or `alternative_min_score` when no rule labelled the line (`unlabelled`).

    The vote names one winner, but a runner-up that reached the bar (or a tie, which leaves
    the line unlabelled) is a reading the same words support: it is what a reader who weighs
    the words differently picks. Beside an answer that rests on the hints alone, a weaker
    reading is as defensible as the answer."""
    hints = load_hints()
    bar = hints.alternative_min_score if unlabelled else hints.min_score
    scores = tally(own, context, codes, statements, frames)
    return [(label, votes) for label, votes in scores.most_common() if votes >= bar]


def tally(
    own: str,
    context: Iterable[str] = (),
    codes: Iterable[str | None] = (),
    statements: Iterable[str] = (),
    frames: Iterable[str] = (),
) -> Counter[str]:
    """Each category's votes from the line, the lines around it, its codes, its statement and
    its frames (their words as a line around it, plus `frame_keywords` for the place)."""
    hints = load_hints()
    scores: Counter[str] = Counter()
    scores.update(_words(without_echoed_command(own), hints, OWN_LINE_FACTOR))
    for line in context:
        scores.update(_words(without_echoed_command(line), hints, 1))
    for line in statements:
        scores.update(_words(line, hints, 1, hints.statement_keywords))
    for line in frames:
        scores.update(_words(line, hints, 1))
        scores.update(_words(line, hints, 1, hints.frame_keywords))
    found = _WRAPPED_EXCEPTION.search(own) or _EXCEPTION.search(own)
    if found and found.group("type") in hints.exception_types:
        category, weight = hints.exception_types[found.group("type")]
        scores[category] += weight
    for category in codes:
        if category and category not in hints.unvoted:
            scores[category] += hints.code_weight
    return scores


def is_chatter(line: str) -> bool:
    """The line is logged as an error but says the job carries on (it retries, a feature is
    deprecated, a counter reads zero): never a failure to cite."""
    return load_hints().chatter.finds(line)


def is_build_report(line: str) -> bool:
    """The line only reports that a build stopped (`Error building extension 'x'`, ninja's
    `build stopped`): the compiler's or build tool's own line above it says what failed."""
    return load_hints().build_reports.finds(line)


def is_relay_banner(line: str) -> bool:
    """The line is a launcher's banner over the output of a child it relays (text-generation-
    inference's `Shard complete standard error output:`): it wraps the lines under it, which
    say what failed, and says nothing of its own."""
    return load_hints().relay_banners.finds(line)


def without_echoed_command(line: str) -> str:
    """The line without the command a launcher's report quotes as a list (`['/usr/bin/python',
    '-u', 'train.py', '--local_rank=0', ...] exits with return code = -11`): the options and
    paths of how the rank was started are no words of what failed."""
    pattern = load_hints().echoed_commands.pattern
    return line if pattern is None else pattern.sub(" ", line)


def _words(
    line: str,
    hints: Hints,
    factor: int,
    rows: tuple[tuple[str, re.Pattern[str], int], ...] | None = None,
) -> Counter[str]:
    scores: Counter[str] = Counter()
    for category, pattern, weight in hints.keywords if rows is None else rows:
        if pattern.search(line):
            scores[category] += weight * factor
    return scores
