"""The rank behind a serving framework's per-process line tag.

Multi-process servers tag every line with the process that wrote it:

    (Worker_DP1_TP2_EP6 pid=4417) ERROR 05-14 09:12:40 [multiproc_executor.py:512] ...  (vLLM v1)
    (VllmWorker rank=3 pid=4417) ...   (VllmWorker TP3 pid=4417) ...   (EngineCore_DP1 pid=88) ...
    (EngineCore_1 pid=88) (VllmWorker rank=0 pid=4417) ...   (rank 0 of DP group 1's executor)
    [2025-05-14 09:12:40 DP1 TP3 EP3] Scheduler hit an exception: ...                   (SGLang)

A tag is kept on the parsed line as `tags["worker"]`, e.g. `vllm:DP1_TP2_EP6` (framework,
then indices) or `vllm:rank=3`; a tag with no index (`(Worker pid=4417)`,
`(VllmWorkerProcess pid=4417)`) is told apart by its pid: `vllm:pid=4417`. Which index is a rank is data (`knowledge/worker_tags.yaml`);
`rank_of` applies it. Some tags name their rank alone (an EP index, DP 0's TP index); the
others need the bundle's parallel layout (`Layout`, from `worker_ranks`): a bare TP index or
an executor's `rank=3` is a rank only when no DP group other than 0 shows up, and DP > 0
needs the TP size.
A wrong rank is worse than none, so anything unclear gives None.

`TagHints` reads file heads for the sizes stated in configuration lines
(`tensor_parallel_size=8`) and the tags written there, so the layout also knows workers that
printed no error. It also keeps the rank a tagged process states about itself as it starts
(`(Worker pid=4417) INFO ... world_size=4 rank=2 local_rank=2 ...`, `init rank 2 of 4`, a
`[rank2]` logging tag): the only way to give a rank to a tag with no index.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from analyzers.core import regex_programs
from analyzers.core.limits import small_int
from analyzers.core.yamlcheck import parse_yaml_file
from analyzers.formats.literal_gate import GatedPattern, after_line_end, gated
from analyzers.formats.outer_prefix import AGENT_TAG_BYTES, OUTER

RULES_FILE = Path(__file__).parent.parent / "knowledge" / "worker_tags.yaml"
BRACKET_FRAMEWORK = "sglang"  # the time bracket with indices (formats/logging_headers.py)
PID_FRAMEWORK = "process"  # logging's `pid=N` field before the level (formats/logging_headers.py)
# a line of such a process, from its time stamp; group 1 its pid, group 2 the rest
# (`pid=N`, or logging's `%(process)d` bare before the level: group 2 then, the rest group 3).
# Led by the line end before it, searched in `after_line_end(block)`.
_PID_FIELD_LINE = regex_programs.compile(
    rb"\n\[?\d{4}-\d\d-\d\d[ T]\d\d:\d\d:\d\d(?:[,.:]\d+)?(?:[+-]\d\d:?\d\d|Z)?\]?"
    rb"[ \t]+\[?(?:pid[=:](\d{1,9})|(\d{2,7})(?=\]?[ \t]+\[?"
    rb"(?:DEBUG|INFO|WARNING|WARN|ERROR|CRITICAL|FATAL)\b))\]?[ \t]([^\n]*)"
)
# an `srun --label` task's line, behind an optional collector's time (`ts`, ISO or default):
# group 1 the task, group 2 the task's line. Led by the line end before it, searched in
# `after_line_end(block)`: `^` was tried at every byte of every head.
_SRUN_TASK_LINE = regex_programs.compile(
    rb"(?m)\n(?:\d{4}-\d\d-\d\d[T ]\d\d:\d\d:\d\d(?:[.,]\d+)?(?:Z|[+-]\d\d:?\d\d)? "
    rb"|[A-Z][a-z]{2} [ \d]\d \d\d:\d\d:\d\d )? {0,4}(\d{1,5}):  ?([^\n]*)$"
)
# a start line's word (`formats.start_lines`), over a lower-cased line
_AGENT_TAG = regex_programs.compile(AGENT_TAG_BYTES)  # torchrun's tag on a child's line it copies
_START_WORD = regex_programs.compile(rb"\b(?:init|start|launch|join|set ?up)")
_NAMED_GROUP = regex_programs.compile(r"\(\?P<\w+>")
_INDEX = regex_programs.compile(r"([A-Z][A-Z_]*?)(\d+)")
_BRACKET = regex_programs.compile(rb"\[\d{4}-\d\d-\d\d \d\d:\d\d:\d\d((?: [A-Z][A-Z_]*\d+)+)\] ")
MAX_TAGS = 512  # distinct tags remembered per file
_LEAD = regex_programs.compile(
    OUTER + rb"(?:\x1b\[[\d;]*m)?"
)  # what may come before a line's own tag
# What a process says about its own rank on a line it tagged; `local_rank=`/`group_rank=`
# are not the rank. Matched from the tag's closing parenthesis to the end of the line.
_STATES_RANK = regex_programs.compile(
    rb"\[rank(\d{1,6})\]|(?<![\w.\[])rank=(\d{1,6})\b|\brank (\d{1,6}) of \d{1,6}\b"
)


@dataclass(frozen=True, slots=True)
class Framework:
    name: str
    process: re.Pattern[str] | None
    ranked: bool
    ep_is_rank: bool
    tp_is_rank: GatedPattern | None
    dp_in_world: bool
    unsafe: frozenset[str]


@dataclass(frozen=True, slots=True)
class Rules:
    frameworks: dict[str, Framework]
    sizes: dict[str, tuple[GatedPattern, ...]]
    in_bytes: tuple[tuple[str, re.Pattern[bytes]], ...]  # process tags searched in file heads
    # a process tag and the rest of its line, for the rank it may state (`_led_by_prefixes`)
    stating: re.Pattern[bytes] | None = None


@dataclass(slots=True)
class Layout:
    """What the whole bundle says about its parallel groups."""

    tp_size: int | None = None
    dp_above_zero: bool = False  # some DP group other than 0 exists
    tp_is_rank: frozenset[str] = frozenset()  # frameworks whose TP index is the rank here


_LITERAL_START = regex_programs.compile(r"[\w-]")


def _head_pattern(source: str) -> GatedPattern:
    """A size pattern runs over whole 1 MiB file heads: it must start with a literal."""
    if not _LITERAL_START.match(source):
        raise ValueError(
            f"{RULES_FILE.name}: size pattern {source!r} must start with a literal "
            "(put word-boundary lookbehinds after it)"
        )
    return gated(source.encode())


@lru_cache(maxsize=1)
def load_rules() -> Rules:
    data = parse_yaml_file(RULES_FILE)
    frameworks = {name: _framework(name, spec) for name, spec in data["frameworks"].items()}
    sizes = {
        key: tuple(_head_pattern(p) for p in patterns) for key, patterns in data["sizes"].items()
    }
    in_bytes = tuple(
        (
            f.name,
            regex_programs.compile(
                rb"\(("
                + f.process.pattern.encode()
                + rb")(?: rank=(?P<rank>\d+))? pid=(?P<pid>\d+)"
            ),
        )
        for f in frameworks.values()
        if f.process is not None
    )
    names = "|".join(
        f"(?:{_NAMED_GROUP.sub('(?:', f.process.pattern)})"
        for f in frameworks.values()
        if f.process
    )
    stating = regex_programs.compile(
        rb"\((" + names.encode() + rb")(?: rank=\d+)? pid=(\d+)(?:, ip=[^)\n]*)?\)([^\n]*)"
    )
    return Rules(frameworks, sizes, in_bytes, stating)


def _framework(name: str, spec: dict[str, Any]) -> Framework:
    process = spec.get("process")
    tp_is_rank = spec.get("tp_is_rank")
    return Framework(
        name=name,
        process=regex_programs.compile(process) if process else None,
        ranked=bool(spec["ranked"]),
        ep_is_rank=bool(spec.get("ep_is_rank", False)),
        tp_is_rank=gated(tp_is_rank.encode()) if tp_is_rank else None,
        dp_in_world=bool(spec.get("dp_in_world", False)),
        unsafe=frozenset(spec.get("unsafe", ())),
    )


def process_tag(name: str, rank: str | None = None, pid: str | None = None) -> str | None:
    """The worker tag of a `(NAME pid=N)` process name; None for processes no rule knows.
    A name with no index is told apart by its pid when it is given."""
    for framework in load_rules().frameworks.values():
        found = framework.process.fullmatch(name) if framework.process else None
        if found:
            if rank is not None:
                return f"{framework.name}:rank={small_int(rank)}"
            groups = found.groupdict()
            indices = (groups.get("indices") or "").replace(" ", "_").strip("_")
            if groups.get("dp"):
                indices = f"DP{groups['dp']}"
            if not indices and pid is not None:
                return f"{framework.name}:pid={small_int(pid)}"
            return f"{framework.name}:{indices}"
    return None


def pid_tag(pid: int) -> str:
    """The worker tag of a process that a shared log file tells apart only by its pid."""
    return f"{PID_FRAMEWORK}:pid={pid}"


SRUN_FRAMEWORK = "srun"  # `srun --label`'s task number (formats/launcher_tags.py)


def srun_tag(task: int) -> str:
    """The worker tag of an `srun --label` task: its number names a rank only when the task's
    own lines say so (one task per rank), never alone (one launcher per node names a node)."""
    return f"{SRUN_FRAMEWORK}:task={task}"


HOST_FRAMEWORK = "host"  # pdsh's or clush's host label (formats/launcher_tags.py)


def host_tag(host: str) -> str:
    """The worker tag of a host label: like an srun task's number, it names a rank only when
    the host's own lines say which one (one rank per host), never alone."""
    return f"{HOST_FRAMEWORK}:{host}"


def bracket_tag(indices: str) -> str:
    """The worker tag of SGLang's ` DP1 TP3` indices inside its time bracket."""
    return f"{BRACKET_FRAMEWORK}:{'_'.join(indices.split())}"


def parse_tag(tag: str) -> tuple[Framework | None, dict[str, int]]:
    name, _, rest = tag.partition(":")
    framework = load_rules().frameworks.get(name)
    if rest.startswith("rank="):
        return framework, {"rank": small_int(rest[5:])}
    if rest.startswith("pid="):  # no index: only what the process states gives a rank
        return framework, {}
    return framework, {key: small_int(value) for key, value in _INDEX.findall(rest)}


def rank_of(tag: str, layout: Layout | None) -> int | None:
    """The global rank a tag names, or None when it is not well defined (see module doc).

    Without a layout only what the tag says alone is used (this runs on every parsed line).
    """
    framework, index = parse_tag(tag)
    if framework is None or not framework.ranked or not index:
        return None
    if "rank" in index:  # the rank in its executor, i.e. in one DP group
        return index["rank"] if layout is not None and not layout.dp_above_zero else None
    if any(index.get(name, 0) > 0 for name in framework.unsafe):
        return None
    if framework.ep_is_rank and "EP" in index and not framework.unsafe & index.keys():
        return index["EP"]
    tp, dp = index.get("TP", 0), index.get("DP")
    if dp == 0 and "TP" in index:
        return tp
    if layout is None:
        return None
    if dp is None:
        return tp if "TP" in index and not layout.dp_above_zero else None
    if framework.name in layout.tp_is_rank:
        return tp if "TP" in index else None
    if dp == 0 or not framework.dp_in_world:
        return tp if dp == 0 else None
    size = layout.tp_size if "TP" in index else 1  # TP left out: one rank per DP group
    return dp * size + tp if size else None


def head_gates() -> list[bytes]:
    """The literals `TagHints.read` gates its searches of a lower-cased head on."""
    rules = load_rules()
    patterns = [pattern for patterns in rules.sizes.values() for pattern in patterns]
    patterns += [f.tp_is_rank for f in rules.frameworks.values() if f.tp_is_rank is not None]
    return [pattern.gate for pattern in patterns if pattern.gate]


@dataclass(slots=True)
class TagHints:
    """Sizes, DP-attention switches and worker tags found in a file's first blocks."""

    sizes: dict[str, set[int]] = field(default_factory=dict)
    tp_is_rank: set[str] = field(default_factory=set)
    tags: set[str] = field(default_factory=set)
    stated: dict[str, set[int]] = field(default_factory=dict)  # tag -> ranks it stated
    pids: dict[str, set[int]] = field(default_factory=dict)  # tag -> pids seen with it
    blocks_read: int = 0

    def read(self, block: bytes, low: bytes) -> None:
        """Read one head block; only the first: serving frameworks print their sizes and
        start their workers within the first MiB, and every further pass costs ~3 ms."""
        if self.blocks_read:
            return
        self.blocks_read += 1
        rules = load_rules()
        for key, patterns in rules.sizes.items():
            for pattern in patterns:
                found = {small_int(v) for v in pattern.findall(low) if 0 < small_int(v) < 100_000}
                self.sizes.setdefault(key, set()).update(found)
        for framework in rules.frameworks.values():
            if framework.tp_is_rank is not None and framework.tp_is_rank.search(low):
                self.tp_is_rank.add(framework.name)
        if len(self.tags) >= MAX_TAGS:
            return
        for name, rank, pid in _tags_in(block, rules):
            tag = process_tag(name, rank, pid)
            if tag is not None:
                self.tags.add(tag)
                self.pids.setdefault(tag, set()).add(small_int(pid))
        self.tags.update(bracket_tag(m.decode()) for m in _BRACKET.findall(block))
        self._read_stated(block, rules)

    def _read_stated(self, block: bytes, rules: Rules) -> None:
        """The first rank each tagged process states on its own lines (see module doc)."""
        if b"rank" in block:
            self._read_stated_by_pid(block)
            if b": " in block:
                self._read_stated_by_srun_task(block)
        if rules.stating is None or b" pid=" not in block or b"rank" not in block:
            return
        done: set[str] = set()
        for found in rules.stating.finditer(block):
            if not _led_by_prefixes(block, found.start()):
                continue
            name, pid, rest = found.group(1).decode(), found.group(2).decode(), found.group(3)
            tag = process_tag(name, None, pid)
            if tag is None or tag in done:
                continue
            said = _STATES_RANK.search(rest)
            if said:
                done.add(tag)
                rank = small_int(next(g for g in said.groups() if g is not None))
                self.stated.setdefault(tag, set()).add(rank)
            if len(self.stated) >= MAX_TAGS:
                return

    def _read_stated_by_pid(self, block: bytes) -> None:
        """The same for processes a shared file tells apart only by logging's `pid=N` field
        (`2026-12-05 02:58:23,880 pid=17352 INFO infer: init ... rank=3 world_size=4`) or the
        bare `%(process)d` before the level (`2026-12-05 07:08:03,182 10682 INFO init ...`)."""
        done: set[str] = set()
        for found in _PID_FIELD_LINE.finditer(after_line_end(block)):
            tag = pid_tag(small_int((found.group(1) or found.group(2)).decode()))
            if tag in done:
                continue
            said = _STATES_RANK.search(found.group(3))
            if said:
                done.add(tag)
                rank = small_int(next(g for g in said.groups() if g is not None))
                self.stated.setdefault(tag, set()).add(rank)
                self.tags.add(tag)
            if len(self.stated) >= MAX_TAGS:
                return

    def _read_stated_by_srun_task(self, block: bytes) -> None:
        """The ranks each `srun --label` task states in its start lines (`0: init process
        group: ... rank=0 world_size=4`). Every start line of the head counts, not only the
        first: a task that runs a launcher for its node states each of its children's ranks,
        which leaves the task with no one rank (`timeline.worker_ranks`). A line behind
        another writer's tag (torchrun's `[defaultN]:` or `[<role>N]:`, a process tag) is a child's that the
        task relays: such a task is a node's or a driver's, and states no rank of its own."""
        tags: set[str] = set()
        relays: set[str] = set()
        for found in _SRUN_TASK_LINE.finditer(after_line_end(block)):
            rest = found.group(2)
            tag = srun_tag(small_int(found.group(1).decode()))
            if rest.startswith(b"(") or _AGENT_TAG.match(rest):
                relays.add(tag)
                continue
            if not _START_WORD.search(rest.lower()):
                continue
            said = _STATES_RANK.search(rest)
            if said is None or len(tags) >= MAX_TAGS:
                continue
            tags.add(tag)
            rank = small_int(next(g for g in said.groups() if g is not None))
            self.stated.setdefault(tag, set()).add(rank)
        for tag in tags & relays:
            del self.stated[tag]
        self.tags.update(tags - relays)

    def named_by_one_of_several(self, ranks: set[int]) -> bool:
        """The file holds the lines of two or more tagged processes and every rank in
        `ranks` is one that a tagged process stated about itself: a shared log of several
        workers (a server's stdout), whose ranks belong to those workers' lines, not to the
        file (the other workers, whose lines state none, are no less in it)."""
        if len(self.tags) < 2 or not ranks:
            return False
        stated = set().union(*self.stated.values()) if self.stated else set()
        return ranks <= stated

    def store(self, facts: dict[str, Any]) -> None:
        found = {
            "sizes": {key: sorted(values) for key, values in self.sizes.items() if values},
            "tp_is_rank": sorted(self.tp_is_rank),
            "tags": sorted(self.tags)[:MAX_TAGS],
            "stated": {tag: sorted(ranks) for tag, ranks in self.stated.items()},
            "pids": {tag: sorted(pids) for tag, pids in self.pids.items()},
        }
        if any(found.values()):
            facts["worker_tags"] = found


def _led_by_prefixes(block: bytes, at: int) -> bool:
    """Whether the tag at `at` opens its line: nothing before it but what a log collector
    puts in front of every line (`formats.outer_prefix`) and a colour code. A tag inside a
    message (a driver naming a worker) is not that worker's own line."""
    start = block.rfind(b"\n", 0, at) + 1
    return start == at or _LEAD.fullmatch(block, start, at) is not None


def _tags_in(block: bytes, rules: Rules) -> set[tuple[str, str | None, str]]:
    if b" pid=" not in block:
        return set()
    found: set[tuple[str, str | None, str]] = set()
    for _, pattern in rules.in_bytes:
        for match in pattern.finditer(block):
            rank = match.group("rank")
            name, pid = match.group(1).decode(), match.group("pid").decode()
            found.add((name, rank.decode() if rank else None, pid))
    return found
