"""Load the knowledge files once, check them, and compile their regexes.

The failure knowledge is data (`knowledge/signatures.yaml`, `error_codes.yaml`,
`actions.yaml`), so a wrong field must fail loudly at start with the file, the entry and
the field in the message, never silently mislabel a job later. A signature line reads::

    - id: oom.device_out_of_memory
      category: oom
      role: cause
      regex: '(?:NPU|CUDA) out of memory\\.'
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field, replace
from functools import cache, lru_cache
from pathlib import Path

from analyzers.classify.chinese import with_meanings, with_titles
from analyzers.classify.errorcodes import (
    CODE_TABLES,
    CodeTable,
    load_codes,
)
from analyzers.classify.taxonomy import ANY_SUBSYSTEM, ROLES, TAXONOMY
from analyzers.classify.xid import ORIGINS, UNKNOWN, XID_FILE, load_xids, origins_of
from analyzers.core.bilingual import zh_text
from analyzers.core.knowledge_cache import cached
from analyzers.core.signal_names import SIGNAL_NAMES_FILE, Names, expand, load_signal_names
from analyzers.core.signal_names import keywords as signal_keywords
from analyzers.core.yamlcheck import (
    Entry,
    KnowledgeError,
    compile_regex,
    read_yaml,
    reject_duplicates,
)

KNOWLEDGE_DIR = Path(__file__).parents[1] / "knowledge"
ACTION_STACKS = ("ascend", "cuda", "cpu")  # the stacks `classify.accelerator` tells apart
# a job that shows none of them: its advice names each stack's way (`report.advise`)
UNKNOWN_STACK = "unknown"


@dataclass(frozen=True, slots=True)
class NeighbourEvidence:
    """What a bundle must show before a conditional neighbour is offered: a line labelled
    with one of `labels` (by its rule or its code), an error or warning line the regex finds,
    or (`ranks_stalled`) a rank that stopped with no error, success or fatal signal
    (`neighbour_evidence` in signatures.yaml)."""

    name: str
    labels: tuple[str, ...] = ()
    regex: re.Pattern[str] | None = None
    ranks_stalled: bool = False


@dataclass(frozen=True, slots=True)
class Signature:
    id: str
    title: str
    category: str
    subsystem: str
    role: str
    weight: int
    keywords: tuple[str, ...]
    regex: re.Pattern[str]
    ignore_case: bool = False
    category_from_code: bool = False
    role_from_code: bool = False
    code_table: str | None = None
    culprit: str | None = None
    # named group holding the writer's own rank inside the process group the line reports on
    # (c10d's `[Rank 0]:` of a sub-group); the culprit ranks are then that group's numbers
    group_rank: str | None = None
    settled: bool = False  # category `other` is this line's answer, not a missing label
    # the line only introduces the detail printed under it (a device report's opening words):
    # when it steps aside for that detail (`yields_to`) it offers no label of its own
    # (causal.alternatives)
    headline: bool = False
    # ids of block neighbours that say better what failed; across the bundle too when both
    # lines capture the same `pid` (classify.block_context.yield_to_same_process)
    yields_to: tuple[str, ...] = ()
    # ids of lines that, printed earlier in the same file at any distance, say why this line
    # has nothing of its own to report (classify.block_context.yield_to_earlier_in_file)
    yields_to_earlier: tuple[str, ...] = ()
    # ids of lines that, anywhere in the bundle (another node's file too), say why this line
    # came about (classify.block_context.yield_to_anywhere_in_bundle)
    yields_to_bundle: tuple[str, ...] = ()
    # ids of lines that, printed later in the same file, say why this line came about: an
    # agent's report of its worker's plain exit, then its finding that another agent had
    # already ended the job (classify.block_context.yield_to_later_in_file)
    yields_to_later: tuple[str, ...] = ()
    # ids of lines that, anywhere in the bundle and later too, say why this line's failure
    # happened while this line stays the first error: the label is theirs, this rule's own is
    # offered beside it (causal.labels.first_error_reading): a checkpoint write the file
    # system refused, then another writer of the same output finding the disk full
    label_from_bundle: tuple[str, ...] = ()
    # ids of lines that must have been printed earlier in the same file for this line to be
    # read as the rule at all: a bare exception whose words say nothing alone (a `TimeoutError`
    # with no message) is the end of a wait only after its writer announced that wait
    # (classify.rule_conditions, `keep_rules_announced_earlier`)
    needs_earlier: tuple[str, ...] = ()
    # the line reports a rank's end: it is that rank's own failure when the rank it names
    # logged no error line itself (else it only summarises the rank's error)
    cause_if_silent: bool = False
    # the line is a process's own record of its end (a fault handler's abort dump): it is that
    # rank's failure when it is the first error line the rank wrote, and echoes an earlier
    # error of the rank otherwise (causal.promoted_ends.promote_first_own_ends)
    own_if_first: bool = False
    # the line only echoes that the process it served went away (a helper process finding its
    # parent gone): it never says why, so it offers no reading against a line that does
    # (report.confidence)
    echoes_end: bool = False
    # the line records the job being stopped from outside (a scheduler's time limit, an
    # operator): it explains why the job ended, not why its ranks had stopped advancing
    outside_stop: bool = False
    # the writer logs this failure at warning level, the only level it has for failures
    # (NCCL's `WARN`): the line keeps its role's tier instead of losing the warning penalty,
    # so that a log holding nothing better still cites it (classify.tiers)
    failure_warning: bool = False
    # the line records the launcher giving up before it started any worker process (its
    # rendezvous never completed): when no rank left a line, no rank ran, so none is missing
    before_workers: bool = False
    # the line reports a message a peer sent that did not fit (checked on arrival): the sender
    # was running, so a rank that merely went quiet is not singled out by this line
    peer_sent: bool = False
    # the line reports a setting every rank reads (the store's host name): a rank that only
    # went quiet is not singled out by it, only a line that names the rank
    shared_setting: bool = False
    # ids of warning rules whose earlier line naming the same `(host, port)` says why this
    # line failed (causal.warned_first.announced_before)
    warned_by: tuple[str, ...] = ()
    # ids of rules whose earlier line in the same file, with the same code, is the first report
    # of the failure this line restates (a synchronize's headline, then the runtime's record of
    # the same wait; causal.warned_first.reported_before)
    reported_by: tuple[str, ...] = ()
    # the rank the line names is the reference every rank compared itself with (its values
    # were broadcast): the writers are the ranks that differ from it, so the named rank is the
    # odd one only when most ranks wrote the line (causal.source_compared)
    names_source: bool = False
    # the line says a peer's end of the connection went away under this rank (closed, reset):
    # the writer was still running and talking to peers that had already left
    peer_gone: bool = False
    # the line records a rank ended by a stop signal sent from outside (SIGTERM): while the
    # rank's peers timed out waiting for it, it was alive and stalled, and the stop came after
    # (promoted_ends.promote_silent_ends)
    signalled_stop: bool = False
    # the line says this rank's client never got through to the rendezvous store (its
    # connect timed out): peers whose store waits did reach it were waiting for this rank
    unreached: bool = False
    # the rule reads one check at two thresholds: a warning past the first, an exception past
    # the second; the warning is the earlier record of the same failure (causal.warned_first)
    warns_first: bool = False
    # the line is a rank's own notice that it left out work of a step its peers ran (a loop
    # that skips a step whose loss is non-finite): when the job then ends in its peers' waits,
    # the notice is what they waited behind (causal.warned_first.skipped_before)
    skips_step: bool = False
    # ids of waits this wait stands behind: when another rank logged one of them, that
    # rank's wait is the one this line waited on, whichever timeout ran out first
    waits_behind: tuple[str, ...] = ()
    # accelerator stacks on which the line is expected and harmless: software that probes for
    # another vendor's library logs the failed probe loudly and carries on without it
    harmless_on: tuple[str, ...] = ()
    # the line is a rank refused for a rank number its own world size cannot hold (gloo's
    # `rank < size`): the ranks were started with different world sizes, so the sizes their
    # start lines state say which were started wrong (report.multirank)
    rank_past_world: bool = False
    # the line records a process interrupted by hand (Ctrl-C, SIGINT): a rank in its own code
    # raises the interrupt at once, a rank blocked in a collective only once it returns, so who
    # raised it first says who the others waited for (causal.interrupted)
    interrupted: bool = False
    # the line is the error manager's generic record, printed for any runtime call that failed,
    # the teardown's too: after a failure a rule recognised in the same writer's file it
    # reports that writer going down, not the cause (classify.late_blocks)
    generic_record: bool = False
    # two named groups of the regex whose numbers the line must order (`joined` over `size`):
    # a count the line states decides, such as more processes joining than the world holds
    more_than: tuple[str, str] | None = None
    # the same with equality allowed (`id` at least `count`): an index the line states beside
    # the count it indexes into is past the end once it equals the count
    at_least: tuple[str, str] | None = None
    # the rule holds only for an exception raised under a library this regex finds among the
    # innermost package frames of its traceback (a model hub's client above the HTTP library
    # whose dropped connection it raised): the same words from a collective's socket are not
    # the rule's (`classify.rule_conditions`, formats.traceback's `inner_packages`)
    raised_in: re.Pattern[str] | None = None
    # the rule holds only on an exception line whose traceback kept no installed-package frame
    # (a paste cut to the exception itself): with no frame to say where it was raised, the
    # exception's own type speaks (an HTTP client's, which no collective raises); under frames
    # the rules that read them decide (`classify.rule_conditions`)
    unframed: bool = False
    # the rule holds only on a line its writer logged at one of these levels (the parsed
    # level field): a job's own words that it gives up are its failure at ERROR, a report of
    # its way out at INFO (`classify.rule_conditions`)
    levels: frozenset[str] = frozenset()
    # the NVIDIA Xid origins the rule reads (`xid_origins`, classify.xid): the listed numbers
    # of those origins, every number the table gives an origin, and whether a number it gives
    # none fits as well; None when the rule reads no Xid
    xid_numbers: frozenset[str] | None = None
    xid_known: frozenset[str] = frozenset()
    xid_unknown: bool = False
    guide: str | None = None  # anchor of the docs/labelling.md section the rule implements
    also: tuple[str, ...] = ()  # labels the guide names as this rule's defensible neighbours
    # neighbours the guide names only when the bundle shows their evidence (an AI CPU
    # exception is a collective's only beside a collective's lines): (label, evidence)
    also_if: tuple[tuple[str, NeighbourEvidence], ...] = ()
    examples: tuple[str, ...] = ()
    counterexamples: tuple[str, ...] = ()
    needles: tuple[str, ...] = ()  # keywords as compared (lower-case when ignore_case)
    title_zh: str | None = None  # from knowledge/zh/signature_titles.yaml

    def search(self, message: str) -> re.Match[str] | None:
        """The regex match, after the cheap keyword test says it can match at all."""
        haystack = message.lower() if self.ignore_case else message
        if not any(needle in haystack for needle in self.needles):
            return None
        found = self.regex.search(message)
        if found is None:
            return None
        if self.more_than is not None:
            larger, smaller = (int(found.group(name)) for name in self.more_than)
            if larger <= smaller:
                return None
        if self.at_least is not None:
            index, bound = (int(found.group(name)) for name in self.at_least)
            if index < bound:
                return None
        if self.xid_numbers is not None and not self._xid_fits(found):
            return None
        return found

    def _xid_fits(self, found: re.Match[str]) -> bool:
        """The Xid whose origin decides is the earlier one the line names as its cause
        (`caused by previous Xid 149`), else the line's own number."""
        groups = found.groupdict()
        number = groups.get("caused_by") or groups.get("xid")
        if number in self.xid_known:
            return self.xid_numbers is not None and number in self.xid_numbers
        return self.xid_unknown


@dataclass(frozen=True, slots=True)
class Action:
    id: str
    text: str
    unless_env: Mapping[str, str]
    unless_file_kind: str | None = None
    when_text: re.Pattern[str] | None = None
    multi_rank_only: bool = False
    text_zh: str | None = None  # the same advice in Chinese, same placeholders
    unless_text: re.Pattern[str] | None = None  # skipped when the first error matches
    stack: str | None = None  # advice for one stack only (ascend, cuda, cpu, or unknown)


@dataclass(frozen=True, slots=True)
class ActionBook:
    categories: Mapping[str, tuple[Action, ...]]
    signatures: Mapping[str, tuple[Action, ...]]
    codes: Mapping[str, tuple[Action, ...]]
    # a job-level verdict (`report.multirank`) that replaced the first error's own reading
    verdicts: Mapping[str, tuple[Action, ...]] = field(default_factory=dict)


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


@dataclass(frozen=True, slots=True)
class Knowledge:
    signatures: tuple[Signature, ...]
    codes: CodeTable
    actions: ActionBook
    index: SignatureIndex

    def keywords(self) -> tuple[str, ...]:
        """Every keyword once, for prefilters and the benchmark's grep alternation."""
        seen: dict[str, None] = {}
        for sig in self.signatures:
            seen.update(dict.fromkeys(sig.keywords))
        return tuple(seen)

    def grep_alternation(self) -> str:
        """An extended-regex (`grep -E`) alternation of the keywords."""
        return "|".join(re.sub(r"([.[\]()*+?{}|^$\\])", r"\\\1", k) for k in self.keywords())


def load_knowledge(directory: Path = KNOWLEDGE_DIR) -> Knowledge:
    """The three knowledge files, read and checked (once per process, and once per content
    across processes: `core.knowledge_cache`), less the signatures `signatures_disabled`
    holds back in the current context."""
    disabled = _DISABLED.get()
    return _without(directory, disabled) if disabled else _load_all(directory)


@contextmanager
def signatures_disabled(ids: Iterable[str]) -> Iterator[None]:
    """Analyses run inside see the knowledge without these signatures: what the analyzer
    makes of a line in wording no rule knows yet (the eval's rule ablation) is measured on
    the lines rules do know, by taking their rules away."""
    token = _DISABLED.set(frozenset(ids))
    try:
        yield
    finally:
        _DISABLED.reset(token)


def signatures_held_back() -> frozenset[str]:
    """The ids `signatures_disabled` holds back in the current context (none outside it)."""
    return _DISABLED.get()


_DISABLED: ContextVar[frozenset[str]] = ContextVar("disabled_signatures", default=frozenset())


@lru_cache(maxsize=4)  # an ablation holds back a different set for every case it runs
def _without(directory: Path, disabled: frozenset[str]) -> Knowledge:
    full = _load_all(directory)
    kept = tuple(sig for sig in full.signatures if sig.id not in disabled)
    return replace(full, signatures=kept, index=SignatureIndex(kept))


@cache
def _load_all(directory: Path) -> Knowledge:
    names = ("signatures.yaml", SIGNAL_NAMES_FILE, XID_FILE, "error_codes.yaml", "actions.yaml")
    sources = [directory / name for name in names]
    sources += sorted((directory / "zh").glob("*.yaml"))
    return cached("knowledge", sources, lambda: _read_knowledge(directory))


def _read_knowledge(directory: Path) -> Knowledge:
    signatures = with_titles(load_signatures(directory / "signatures.yaml"), directory / "zh")
    return Knowledge(
        signatures=signatures,
        codes=with_meanings(load_codes(directory / "error_codes.yaml"), directory / "zh"),
        actions=load_actions(directory / "actions.yaml"),
        index=SignatureIndex(signatures),
    )


# ---------------------------------------------------------------- signatures


def load_signatures(path: Path) -> tuple[Signature, ...]:
    data = Entry(read_yaml(path), path.name)
    raw = data.get("signatures", list)
    evidence = _neighbour_evidence(Entry(data.get("neighbour_evidence", dict, {}), path.name))
    xid_file = path.parent / XID_FILE
    origins = origins_of(load_xids(xid_file)) if xid_file.exists() else {}
    words = load_signal_names(path.parent)
    signatures = tuple(
        _signature(Entry(item, f"{path.name}: signature #{n + 1}"), evidence, origins, words)
        for n, item in enumerate(raw)
    )
    reject_duplicates([sig.id for sig in signatures], path.name, "signature id")
    known = {sig.id for sig in signatures}
    for sig in signatures:
        named = (
            set(sig.yields_to)
            | set(sig.yields_to_earlier)
            | set(sig.yields_to_bundle)
            | set(sig.yields_to_later)
            | set(sig.label_from_bundle)
            | set(sig.needs_earlier)
            | set(sig.waits_behind)
            | set(sig.warned_by)
            | set(sig.reported_by)
        )
        unknown = sorted(named - known)
        if unknown:
            raise KnowledgeError(
                f"{path.name}: signature '{sig.id}': yields_to, yields_to_earlier, yields_to_bundle, "
                f"yields_to_later, label_from_bundle, needs_earlier, waits_behind, warned_by or "
                f"reported_by names "
                f"{unknown}"
            )
    return signatures


def _neighbour_evidence(section: Entry) -> dict[str, NeighbourEvidence]:
    """The named kinds of evidence a conditional neighbour (`also_if`) can ask for."""
    found = {}
    for name, item in section.data.items():
        entry = Entry(item, f"{section.where}: neighbour_evidence '{name}'")
        labels = entry.strings("labels", required=False)
        wrong = [label for label in labels if label not in TAXONOMY]
        if wrong:
            raise entry.fail(f"field 'labels' must list taxonomy labels, got {wrong}")
        pattern = entry.get("regex", str, None)
        stalled = entry.get("ranks_stalled", bool, False)
        if not labels and pattern is None and not stalled:
            raise entry.fail("needs 'labels', 'regex' or 'ranks_stalled'")
        regex = None if pattern is None else compile_regex(pattern, re.IGNORECASE, entry, "regex")
        found[str(name)] = NeighbourEvidence(str(name), labels, regex, stalled)
    return found


def _also_if(
    entry: Entry, category: str, also: tuple[str, ...], evidence: dict[str, NeighbourEvidence]
) -> tuple[tuple[str, NeighbourEvidence], ...]:
    """`also_if: {label: evidence}`: a neighbour offered only when the bundle shows that
    evidence; each label is another taxonomy label than the rule's and not already in `also`."""
    raw = entry.get("also_if", dict, {})
    pairs = []
    for label, name in raw.items():
        if label not in TAXONOMY or label == category or label in also:
            raise entry.fail(f"field 'also_if' must name other taxonomy labels, got {label!r}")
        if name not in evidence:
            raise entry.fail(f"field 'also_if': {label!r} names unknown evidence {name!r}")
        pairs.append((str(label), evidence[name]))
    return tuple(pairs)


def _signature(
    entry: Entry,
    evidence: dict[str, NeighbourEvidence] | None = None,
    xid_origins: Mapping[str, str] | None = None,
    words: Names | None = None,
) -> Signature:
    sig_id = entry.get("id", str)
    entry.where = f"{entry.where.split(': ')[0]}: signature '{sig_id}'"
    category = entry.choice("category", TAXONOMY)
    ignore_case = entry.get("ignore_case", bool, False)
    # a `{{name}}` stands for a list of signal_names.yaml: the shell's words in every language
    pattern = expand(entry.get("regex", str), words or {}, entry.where)
    regex = compile_regex(pattern, re.IGNORECASE if ignore_case else 0, entry, "regex")
    keywords = signal_keywords(entry.strings("keywords"), words or {}, entry.where)
    xid_numbers, xid_known, xid_unknown = _xid_filter(entry, regex, xid_origins or {})
    signature = Signature(
        id=sig_id,
        title=entry.get("title", str),
        category=category,
        subsystem=_subsystem(entry, category),
        role=entry.choice("role", ROLES),
        weight=_weight(entry),
        keywords=keywords,
        needles=tuple(k.lower() for k in keywords) if ignore_case else keywords,
        regex=regex,
        ignore_case=ignore_case,
        category_from_code=entry.get("category_from_code", bool, False),
        role_from_code=entry.get("role_from_code", bool, False),
        code_table=entry.choice("code_table", CODE_TABLES, None),
        culprit=entry.get("culprit", str, None),
        group_rank=entry.get("group_rank", str, None),
        settled=entry.get("settled", bool, False),
        headline=entry.get("headline", bool, False),
        yields_to=entry.strings("yields_to", required=False),
        yields_to_earlier=entry.strings("yields_to_earlier", required=False),
        yields_to_bundle=entry.strings("yields_to_bundle", required=False),
        yields_to_later=entry.strings("yields_to_later", required=False),
        label_from_bundle=entry.strings("label_from_bundle", required=False),
        needs_earlier=entry.strings("needs_earlier", required=False),
        cause_if_silent=entry.get("cause_if_silent", bool, False),
        own_if_first=entry.get("own_if_first", bool, False),
        echoes_end=entry.get("echoes_end", bool, False),
        outside_stop=entry.get("outside_stop", bool, False),
        failure_warning=entry.get("failure_warning", bool, False),
        before_workers=entry.get("before_workers", bool, False),
        peer_sent=entry.get("peer_sent", bool, False),
        shared_setting=entry.get("shared_setting", bool, False),
        warned_by=entry.strings("warned_by", required=False),
        reported_by=entry.strings("reported_by", required=False),
        names_source=entry.get("names_source", bool, False),
        peer_gone=entry.get("peer_gone", bool, False),
        signalled_stop=entry.get("signalled_stop", bool, False),
        unreached=entry.get("unreached", bool, False),
        warns_first=entry.get("warns_first", bool, False),
        skips_step=entry.get("skips_step", bool, False),
        waits_behind=entry.strings("waits_behind", required=False),
        rank_past_world=entry.get("rank_past_world", bool, False),
        interrupted=entry.get("interrupted", bool, False),
        generic_record=entry.get("generic_record", bool, False),
        harmless_on=_harmless_on(entry),
        more_than=_group_pair(entry, regex, "more_than"),
        at_least=_group_pair(entry, regex, "at_least"),
        raised_in=_raised_in(entry),
        unframed=entry.get("unframed", bool, False),
        levels=_levels(entry),
        xid_numbers=xid_numbers,
        xid_known=xid_known,
        xid_unknown=xid_unknown,
        guide=_guide(entry),
        also=(also := _also(entry, category)),
        also_if=_also_if(entry, category, also, evidence or {}),
        examples=entry.strings("examples"),
        counterexamples=entry.strings("counterexamples"),
    )
    _check_signature_links(signature, entry)
    return signature


_GUIDE_ANCHOR = re.compile(r"[a-z0-9_]+(?:-[a-z0-9_]+)*")


def _guide(entry: Entry) -> str | None:
    """A precedence rule names the labelling-guide section it implements (a heading slug;
    tests check the section exists)."""
    anchor = entry.get("guide", str, None)
    if anchor is not None and not _GUIDE_ANCHOR.fullmatch(anchor):
        raise entry.fail(f"field 'guide' must be a heading anchor like 'wrappers', got {anchor!r}")
    return anchor


def _also(entry: Entry, category: str) -> tuple[str, ...]:
    labels = entry.strings("also", required=False)
    wrong = [label for label in labels if label not in TAXONOMY or label == category]
    if wrong:
        raise entry.fail(f"field 'also' must list other taxonomy labels, got {wrong}")
    return labels


def _subsystem(entry: Entry, category: str) -> str:
    subsystem = entry.choice("subsystem", ANY_SUBSYSTEM)
    if subsystem not in TAXONOMY[category]:
        allowed = ", ".join(TAXONOMY[category])
        raise entry.fail(f"subsystem '{subsystem}' does not fit category '{category}' ({allowed})")
    return subsystem


def _weight(entry: Entry) -> int:
    weight = entry.get("weight", int)
    if not 1 <= weight <= 100:
        raise entry.fail(f"field 'weight' must be within 1-100, got {weight}")
    return weight


def _check_signature_links(sig: Signature, entry: Entry) -> None:
    groups = {re.sub(r"\d+$", "", name) for name in sig.regex.groupindex}
    if sig.culprit and sig.culprit not in groups:
        raise entry.fail(f"culprit group '{sig.culprit}' is not a named group of the regex")
    if sig.group_rank and sig.group_rank not in groups:
        raise entry.fail(f"group_rank group '{sig.group_rank}' is not a named group of the regex")
    if (sig.category_from_code or sig.role_from_code) and not sig.code_table:
        raise entry.fail("category_from_code/role_from_code need a code_table")


# ---------------------------------------------------------------- actions


def load_actions(path: Path) -> ActionBook:
    data = Entry(read_yaml(path), path.name)
    sections = {
        key: _action_section(Entry(data.get(key, dict), f"{path.name}: {key}"))
        for key in ("categories", "signatures", "codes")
    }
    verdicts = Entry(data.get("verdicts", dict, {}), f"{path.name}: verdicts")
    unknown = set(sections["categories"]) - set(TAXONOMY)
    if unknown:
        raise KnowledgeError(f"{path.name}: categories: unknown category {sorted(unknown)}")
    return ActionBook(**sections, verdicts=_action_section(verdicts))


def _action_section(section: Entry) -> dict[str, tuple[Action, ...]]:
    result = {}
    for key, items in section.data.items():
        where = f"{section.where}: '{key}'"
        if not isinstance(items, list) or not items:
            raise KnowledgeError(f"{where}: expected a non-empty list of actions")
        actions = tuple(_action(Entry(item, f"{where} #{n + 1}")) for n, item in enumerate(items))
        reject_duplicates([a.id for a in actions], where, "action id")
        result[str(key)] = actions
    return result


def _action(entry: Entry) -> Action:
    when_text = entry.get("when_text", str, None)
    unless_text = entry.get("unless_text", str, None)
    unless_env = entry.get("unless_env", dict, {})
    text = " ".join(entry.get("text", str).split())
    return Action(
        id=entry.get("id", str),
        text=text,
        text_zh=zh_text(entry.data, "text", text, entry.where),
        unless_env={str(k): str(v) for k, v in unless_env.items()},
        unless_file_kind=entry.get("unless_file_kind", str, None),
        when_text=compile_regex(when_text, re.IGNORECASE, entry, "when_text")
        if when_text
        else None,
        multi_rank_only=entry.get("multi_rank_only", bool, False),
        stack=_action_stack(entry),
        unless_text=compile_regex(unless_text, re.IGNORECASE, entry, "unless_text")
        if unless_text
        else None,
    )


def _harmless_on(entry: Entry) -> tuple[str, ...]:
    stacks = entry.strings("harmless_on", required=False)
    unknown = [stack for stack in stacks if stack not in ACTION_STACKS]
    if unknown:
        raise entry.fail(f"harmless_on must name stacks of {list(ACTION_STACKS)}, not {unknown}")
    return stacks


# `levels: [NONE]`: a line its writer printed with no level field at all (Python's own print
# of `sys.exit("<why>")`), as against one logged at INFO or WARNING
NO_LEVEL = "NONE"


def _levels(entry: Entry) -> frozenset[str]:
    levels = frozenset(entry.strings("levels", required=False))
    if unknown := levels - {"WARNING", "ERROR", "CRITICAL", NO_LEVEL}:
        raise KnowledgeError(f"{entry.where}: unknown levels {sorted(unknown)}")
    return levels


def _raised_in(entry: Entry) -> re.Pattern[str] | None:
    pattern = entry.get("raised_in", str, None)
    return None if pattern is None else compile_regex(pattern, 0, entry, "raised_in")


def _group_pair(entry: Entry, regex: re.Pattern[str], field: str) -> tuple[str, str] | None:
    """`more_than` / `at_least`: two named groups of the regex whose numbers the line orders."""
    names = entry.strings(field, required=False)
    if not names:
        return None
    if len(names) != 2 or any(regex.groupindex.get(name) is None for name in names):
        raise entry.fail(f"{field} must name two groups of the regex, got {list(names)}")
    return names[0], names[1]


def _xid_filter(
    entry: Entry, regex: re.Pattern[str], origins: Mapping[str, str]
) -> tuple[frozenset[str] | None, frozenset[str], bool]:
    """`xid_origins`: the rule holds only for an Xid whose origin (`knowledge/xid_codes.yaml`)
    is one of these, `unknown` standing for a number the table gives none. The regex names the
    line's number `xid` and, optionally, the earlier Xid it names as its cause `caused_by`."""
    wanted = entry.strings("xid_origins", required=False)
    if not wanted:
        return None, frozenset(), False
    wrong = [origin for origin in wanted if origin not in (*ORIGINS, UNKNOWN)]
    if wrong:
        raise entry.fail(f"xid_origins must name {[*ORIGINS, UNKNOWN]}, not {wrong}")
    if "xid" not in regex.groupindex:
        raise entry.fail("xid_origins needs a group 'xid' in the regex")
    numbers = frozenset(number for number, origin in origins.items() if origin in wanted)
    return numbers, frozenset(origins), UNKNOWN in wanted


def _action_stack(entry: Entry) -> str | None:
    stack = entry.get("stack", str, None)
    stacks = [*ACTION_STACKS, UNKNOWN_STACK]
    if stack is not None and stack not in stacks:
        raise entry.fail(f"stack must be one of {stacks}, not {stack!r}")
    return stack
