"""A label for an error line in wording no rule knows, learned from the rules' own examples.

Every signature in `knowledge/signatures.yaml` lists the lines it was written for and the near
misses it must leave alone. A new framework or release words the same failure differently,
but much of its vocabulary survives (`HCCL_BUFFSIZE`, `rendezvous`, `out of memory`, an
operator's name): the words of those examples say which label a new line is close to. This
module learns, once per set of signatures, how much each word speaks for each label against
every other label (a naive Bayes log-odds, one label against the rest); a rule's
counterexamples count against its own label, so the words that sit on both sides of a rule
(`timeout` in a retry and in a failure) cancel out.

The vote is the weakest evidence the analyzer has: `causal.labels` asks it only for a first
error that is an error line or the exception that ends a traceback, that no rule reads, that
no line of its block labels and on which the hints (`classify.hints`) found no winner, and the
confidence it lends stays below the calibrated band (`report.confidence`). It abstains unless
two or more words it has learned put one label well ahead of the next, and when the label the
line is most like is one it never names.

    >>> reading = read_words("ValueError: kv cache too small, raise gpu_memory_utilization")
    >>> reading.category, reading.signature
    ('oom', 'oom.kv_cache_no_room')
"""

from __future__ import annotations

import math
import re
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache

from analyzers.classify.hints import load_hints
from analyzers.classify.line_matches import match_line
from analyzers.classify.rules import (
    KNOWLEDGE_DIR,
    Knowledge,
    load_knowledge,
    signatures_disabled,
    signatures_held_back,
)
from analyzers.classify.signature import Signature
from analyzers.core.knowledge_cache import cached
from analyzers.formats.lines import parse_line

SMOOTHING = 0.5  # added to every word's count, so a word one side never used weighs finitely
SHRINK = 20.0  # lines' worth of the word's overall share each label's share starts from
COUNTER_WEIGHT = 2.0  # a near miss says more against its rule's label than a random line
MIN_LINES = 2  # a word seen in fewer example lines is an identifier, not vocabulary
MIN_WORDS = 2  # learned words the line must hold for the pick
MIN_LEAD = 4.0  # log-odds the pick must lead the runner-up by (about 50 to 1)
MIN_SCORE = 1.5  # and its own log-odds against all other labels together (about 4 to 1)
EVIDENCE_WORDS = 4  # the words shown as the reading's evidence
NEAR_MISS_SHARE = 0.5  # words shared with a counterexample, of both lines' words, to abstain

_WORD = re.compile(r"[A-Za-z][A-Za-z0-9_]*")
_EXCEPTION_CLASS = re.compile(r"[a-z](?:Error|Exception|Warning|Exit)$")
_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")
# words any line may hold whatever failed: articles, prepositions, the exception suffixes
_STOP_WORDS = (
    "a an the of to in on at for by with from and or is are was be been it its this that "
    "not no as if but error errors failed fail failure exception runtimeerror line file "
    "call called value please check func"
)
_STOP = frozenset(_STOP_WORDS.split())


@dataclass(frozen=True, slots=True)
class SignatureWords:
    """One signature's example lines and near misses as the words the vote reads."""

    id: str
    category: str
    examples: tuple[frozenset[str], ...]
    counterexamples: tuple[frozenset[str], ...]


@dataclass(frozen=True, slots=True)
class WordModel:
    """How many example lines of each label hold each word (only words seen in `MIN_LINES`
    lines or more), how many near misses of its rules do, and which signature's examples use
    a word most for a label (the evidence a reader can follow). A word's log-odds are worked
    out when a line asks for it. Plain dicts, so the pickled model loads fast."""

    lines: dict[str, int]  # example lines per label
    holding: dict[str, dict[str, int]]  # word -> example lines per label holding it
    seen: dict[str, int]  # word -> example lines holding it
    against: dict[str, dict[str, float]]  # word -> near misses per label holding it, weighted
    exemplars: dict[tuple[str, str], str]  # (label, word) -> signature id
    near_misses: dict[str, tuple[frozenset[str], ...]]  # label -> its rules' counterexamples

    def resembles_near_miss(self, seen: frozenset[str], label: str) -> bool:
        """The line is worded much like a line a rule of the label was told to leave alone:
        the rules' authors already said such a line is not the label's."""
        return any(
            len(seen & miss) >= NEAR_MISS_SHARE * len(seen | miss)
            for miss in self.near_misses.get(label, ())
        )

    def weight(self, word: str, label: str) -> float:
        """The word's log-odds for the label against every other label's lines and the
        label's own near misses. Each side's share is drawn towards the word's share of all
        lines (`SHRINK` lines' worth), so a label with few examples does not claim a word
        from two of them."""
        count, total = self.lines[label], sum(self.lines.values())
        inside_count, seen = self.holding[word].get(label, 0), self.seen[word]
        background = (seen + SMOOTHING) / (total + 2 * SMOOTHING)
        inside = (inside_count + SHRINK * background) / (count + SHRINK)
        outside_count = seen - inside_count + self.against.get(word, {}).get(label, 0.0)
        outside = (outside_count + SHRINK * background) / (total - count + SHRINK)
        return math.log(inside / outside)

    def prior(self, label: str) -> float:
        count = self.lines[label]
        return math.log(count / (sum(self.lines.values()) - count))

    def knows(self, word: str) -> bool:
        return word in self.seen


@dataclass(frozen=True, slots=True)
class WordReading:
    """The label the words lean to, by how much, and the words and rule that say so."""

    category: str
    score: float  # log-odds of the label against every other
    lead: float  # log-odds ahead of the runner-up
    words: tuple[str, ...]
    signature: str  # id of the signature whose examples the words are most like


def words(text: str) -> frozenset[str]:
    """The line's words, lower-cased, camelCase and snake_case split into their parts too
    (`HcclAllReduce` also reads as `hccl`, `all`, `reduce`; an exception's class stays whole,
    as `RuntimeError` says nothing of a runtime). Stop words are left out, and so
    are numbers and codes (`EZ9999`, `0x7010003`): the code tables read codes."""
    found: set[str] = set()
    for token in _WORD.findall(text):
        whole = _EXCEPTION_CLASS.search(token) is not None  # `RuntimeError` says no `runtime`
        parts = [] if whole else [p for piece in token.split("_") for p in _CAMEL.split(piece) if p]
        for word in (token, *parts):
            word = word.lower()
            if len(word) > 1 and word not in _STOP and sum(map(str.isdigit, word)) < 3:
                found.add(word)
    return frozenset(found)


def signature_words(knowledge: Knowledge) -> tuple[SignatureWords, ...]:
    """Each signature's lines as words, read as the classifier reads a line (past its
    timestamps, levels and rank tags)."""
    return tuple(
        SignatureWords(
            signature.id,
            signature.category,
            tuple(words(parse_line(line).message) for line in signature.examples),
            _near_misses(signature, knowledge),
        )
        for signature in knowledge.signatures
    )


def _near_misses(signature: Signature, knowledge: Knowledge) -> tuple[frozenset[str], ...]:
    """The words of the rule's counterexamples that no rule of its own label reads: a line
    one rule must leave to a sibling of the same label says nothing against that label."""
    kept = []
    for line in signature.counterexamples:
        message = parse_line(line).message
        if all(
            match.category != signature.category for match in match_line(message, (), knowledge)
        ):
            kept.append(words(message))
    return tuple(kept)


def learn(signatures: Iterable[SignatureWords]) -> WordModel:
    """Count each word's example lines per label, and a rule's near misses against its
    own label; keep the words seen in `MIN_LINES` example lines or more."""
    lines: Counter[str] = Counter()
    holding: dict[str, Counter[str]] = defaultdict(Counter)
    against: dict[str, Counter[str]] = defaultdict(Counter)
    used_by: dict[tuple[str, str], Counter[str]] = defaultdict(Counter)
    signatures = tuple(signatures)
    for signature in signatures:
        label = signature.category
        lines[label] += len(signature.examples)
        for seen in signature.examples:
            for word in seen:
                holding[word][label] += 1
                used_by[label, word][signature.id] += 1
        for near_miss in frozenset().union(*signature.counterexamples):
            against[near_miss][label] += COUNTER_WEIGHT
    near_misses: dict[str, list[frozenset[str]]] = defaultdict(list)
    for signature in signatures:
        near_misses[signature.category].extend(signature.counterexamples)
    seen = {word: n for word, counts in holding.items() if (n := counts.total()) >= MIN_LINES}
    return WordModel(
        lines=dict(lines),
        holding={word: dict(holding[word]) for word in seen},
        seen=seen,
        against={word: dict(against[word]) for word in seen if word in against},
        exemplars={
            key: used.most_common(1)[0][0] for key, used in used_by.items() if key[1] in seen
        },
        near_misses={label: tuple(misses) for label, misses in near_misses.items()},
    )


def read_words(text: str) -> WordReading | None:
    """The label the line's words lean to, or None when too few learned words agree on one
    clearly enough."""
    return reading_of(words(text), model())


def reading_of(seen: frozenset[str], learned: WordModel) -> WordReading | None:
    known = sorted(word for word in seen if learned.knows(word))
    if len(known) < MIN_WORDS:
        return None
    scores = {
        label: learned.prior(label) + sum(learned.weight(word, label) for word in known)
        for label in learned.lines
    }
    ranked = sorted(scores.items(), key=lambda pair: -pair[1])
    (label, top), (_, second) = ranked[0], ranked[1]
    # the labels the hints never vote for (`unvoted` in fallback.yaml) are still learned: a line
    # whose words are most like theirs (a scheduler's time limit, a loss gone to NaN) is one
    # the vote leaves alone
    if label in load_hints().unvoted or top < MIN_SCORE or top - second < MIN_LEAD:
        return None
    if learned.resembles_near_miss(seen, label):
        return None
    speaking = _speaking(known, label, learned)
    if len(speaking) < MIN_WORDS:
        return None
    shown = tuple(speaking[:EVIDENCE_WORDS])
    exemplar = Counter(learned.exemplars[label, word] for word in shown).most_common(1)[0][0]
    return WordReading(label, round(top, 2), round(top - second, 2), shown, exemplar)


def _speaking(known: Sequence[str], label: str, learned: WordModel) -> list[str]:
    """The words that speak for the label, strongest first: those its examples hold and
    that weigh for it (a word no example of the label holds can only weigh against it less
    than against the others)."""
    weighed = [
        (learned.weight(word, label), word) for word in known if learned.holding[word].get(label)
    ]
    return [word for weight, word in sorted(weighed, reverse=True) if weight > 0]


def model() -> WordModel:
    """The model of the signatures in force: learned once per content of the rule file
    (`core.knowledge_cache`), and once per process for a set the rule ablation holds back."""
    held_back = signatures_held_back()
    if not held_back:
        return _full_model()
    return _model_without(held_back)


@cache
def _full_model() -> WordModel:
    sources = [KNOWLEDGE_DIR / "signatures.yaml"]
    return cached("word_vote", sources, lambda: learn(_all_words()))


@lru_cache(maxsize=4)  # an ablation holds back a different set for every case it runs
def _model_without(held_back: frozenset[str]) -> WordModel:
    return learn(signature for signature in _all_words() if signature.id not in held_back)


@cache
def _all_words() -> tuple[SignatureWords, ...]:
    """Every signature's words, read once per process: the rule ablation leaves some out,
    the words of the others stay the same."""
    with signatures_disabled(()):
        return signature_words(load_knowledge())
