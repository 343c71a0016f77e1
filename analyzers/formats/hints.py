"""Facts read from the first blocks of any log: the year, the world size, the rank, and the
dtypes, broadcast sources, pipeline schedules and model widths the head states
(`formats.dtype_said`, `formats.source_said`, `formats.schedule_said`, `formats.size_said`).

    2026-11-29 07:25:36,861 [rank3] INFO init process group: backend=gloo rank=3 world_size=4 ...
    torchrun --nnodes 1 --nproc_per_node 8 train.py   /   nproc_per_node: 8
    WORLD_SIZE=16

The year lets year-less times (glog `E1129 ...`, vLLM `04-02 19:33:00`) be placed; it comes
from the first full date in the file, any dated event, or the file name (a file with none
takes the bundle's: `timeline.bundle_year`). `rank_hint` is given only when the path had no
rank and the content names exactly one (`rank_hint_line`: the first head line naming it);
`named_rank` is the same for a file whose directory
numbers ranks per launcher agent (a local rank); `local_named_ranks` maps each `[defaultN]:`
tag of a launcher's copied lines to the rank its first line stating one names;
`host_agent_offsets` does that per host in a console merging several hosts' agents
(`formats.agent_nodes`; `host_offsets_cut` when the head named more such hosts than it keeps).
Serving frameworks' parallel sizes and process tags are read here too
(`formats.worker_tags.TagHints`); torch's `[rankN]:` line tags, which a rank may first print
long after the head, are read over the whole file (`formats.rank_tags`).
A rank that only a tagged process states about itself, in a file that holds the lines of
other tagged processes too (`(Worker pid=958) ... rank=1` beside `(Worker pid=820) ...`), is
that process's rank, not the file's: such a file gives no `rank_hint`.
`start_rank` is the rank a job's start line states beside its world size (`rank=1
world_size=4`), read for every file, its path's rank or not: when the head states exactly one,
a file named for one rank whose start line states another says which number its process was
really given (`causal.world_sizes.ranks_started_twice`). `start_timeout_s` is the process-group
timeout the same start line states after the world size (`world_size=4 ... timeout=20s`,
`timeout=0:30:00`), in seconds, when the head states exactly one
(`causal.world_sizes.odd_timeouts`).
"""

from __future__ import annotations

import re
from collections import Counter
from functools import lru_cache
from typing import Any

from analyzers.core import regex_programs
from analyzers.core.limits import small_int
from analyzers.formats.agent_nodes import CUT, AgentNodes
from analyzers.formats.dtype_said import GATES, MAX_STATEMENTS, dtype_statements
from analyzers.formats.literal_gate import GatedPattern, LiteralSet, after_line_end, gated, holds
from analyzers.formats.outer_prefix import AGENT_ROLE_BYTES, AGENT_TAG_BYTES, OUTER
from analyzers.formats.schedule_said import GATES as SCHEDULE_GATES
from analyzers.formats.schedule_said import MAX_STATEMENTS as MAX_SCHEDULES
from analyzers.formats.schedule_said import schedule_statements
from analyzers.formats.size_said import GATES as SIZE_GATES
from analyzers.formats.size_said import MAX_STATEMENTS as MAX_SIZES
from analyzers.formats.size_said import size_statements
from analyzers.formats.source_said import GATES as SOURCE_GATES
from analyzers.formats.source_said import MAX_STATEMENTS as MAX_SOURCES
from analyzers.formats.source_said import source_statements
from analyzers.formats.timestamps import year_in_bytes
from analyzers.formats.worker_tags import TagHints, head_gates
from analyzers.ingest.line_index import count_line_ends

# All searched in the lower-cased block; each starts with a literal so `re` can skip ahead,
# and is skipped outright when the block lacks its literal (`literal_gate`).
_WORLD = gated(rb"world_size[\"']?\s*[:=]\s*(\d{1,6})\b")
# a script's plain start print of its rank over the world size at a line's start (`rank 1/4
# pid 3536`, a torchrun copy's `[default3]:[rank 3/8] starting`, any role's `[trainer3]:`); led
# by the line end before it, searched in `after_line_end(low)`. A rank not below the count is no
# such statement.
_RANK_OF_WORLD = gated(
    rb"\n(?:\[" + AGENT_ROLE_BYTES + rb"\d{1,5}\]:)?\[?rank[ _]?(\d{1,6}) ?/ ?(\d{1,6})\b"
)
# the part of such a statement from `rank` on: a head of `[rank0] INFO` lines holds `rank` on
# every line, where the pattern above tries its role tag at every line end, five times the
# time this search for the rank's slash takes to find none
_RANK_SLASH = regex_programs.compile(rb"rank[ _]?\d{1,6} ?/ ?\d")
# a job's start line stating its rank beside the world size (`init process group: backend=gloo
# rank=1 world_size=4`, `rank=1, world_size=4`); a rank alone may name a peer
_START_RANK = gated(rb"(?<![\w.\[])rank=(\d{1,6})\b[^\n]{0,40}?world_size\s*[:=]\s*(\d{1,6})\b")
# the timeout a start line states after its world size (`world_size=4 master=... timeout=20s`,
# `timeout=0:30:00` as a timedelta prints, `timeout=1800` in seconds)
_START_TIMEOUT = gated(
    rb"world_size\s*[:=]\s*\d{1,6}\b[^\n]{0,160}?\btimeout\s*[:=]\s*"
    rb"(?:(\d{1,3}):(\d\d):(\d\d)|(\d{1,7})\s*(ms|s|sec|secs|seconds|min|mins|minutes)?)\b"
)
_UNIT_SECONDS = {b"ms": 0.001, b"min": 60.0, b"mins": 60.0, b"minutes": 60.0}
_NPROC = gated(rb"nproc[-_]per[-_]node[\"']?\s*[:= ]\s*(\d{1,5})\b")
_NODES = gated(rb"nnodes[\"']?\s*[:= ]\s*(\d{1,5})\b")
_RANKS = (
    gated(rb"\[rank(\d{1,6})\]"),
    gated(rb"rank=(\d{1,6})\b"),
    gated(rb"rankid:(\d{1,6})\b"),
)
_RANK_SAMPLES = 200
# the fact a console merging several hosts' agents keeps its offsets under: host -> the global
# rank of that host's local rank 0 (`formats.agent_nodes`)
AGENT_OFFSETS = "host_agent_offsets"
# A launcher's copy of a rank's line (`[default1]:` or a named role's `[trainer1]:`, the local
# rank: `formats.outer_prefix.AGENT_ROLE`) that states the rank's
# global number, as a job's start line does (`init process group: ... rank=3 world_size=4`,
# a logging tag `[rank3] INFO`): the first such line per local tag gives that child's rank.
# Led by the line end before it, searched in `after_line_end(low)`.
_STATES_RANK = rb"\]:[^\n]*?(?:\[rank(\d{1,6})\]|(?<![\w.\[])rank=(\d{1,6})\b)"
_LOCAL_STATES_RANK = gated(rb"\n\[" + AGENT_ROLE_BYTES + rb"(\d{1,5})" + _STATES_RANK)
# The same copy behind a collector's prefix (`trainer-1  | [default1]:...`, `2025-03-02T08:14:51Z
# stderr F [default1]:...`: `formats.outer_prefix`): searched anywhere in a line, then kept only
# where what stands before it from the line's start is such a prefix. Only tried in a block
# where no copied line starts a line, so a plain launcher log pays nothing for it.
_LOCAL_STATES_RANK_ANYWHERE = gated(rb"\[" + AGENT_ROLE_BYTES + rb"(\d{1,5})" + _STATES_RANK)
# searched in the lower-cased block; a prefix a terminal coloured keeps its colour codes here
# (`\x1b[36mtrainer-1  | \x1b[0m[default1]:...`: docker compose, Ray)
_OUTER_LOW = regex_programs.compile(rb"(?i:(?:" + OUTER + rb"|\x1b\[[\d;]*m ?)*)")
# How much of a file's head is read for hints. Launchers and serving frameworks state their
# sizes and ranks in their first lines (a few hundred, config dumps included); reading further
# only costs regex passes per file, which add up over a thousand rank logs (a quarter MiB per
# file made the hints an eighth of a 1,024-rank job's analysis).
HINT_BYTES = 64 * 1024
_LOCAL = regex_programs.compile(
    rb"(?:local_|_)$"
)  # "local_rank=3" and "group_rank=3" are not the rank
# what every torchrun tag on a line copied from a local rank holds, whatever its role
_AGENT_TAG_END = b"]:"
_DEFAULT_TAG = b"[default"  # the tag of a launch that named no role
_AGENT_TAG_LOW = regex_programs.compile(AGENT_TAG_BYTES)
_FIRST_LINES = 4096  # bytes of a block looked at for a named role's tag


class HeadHints:
    def __init__(self, year_from_name: int | None, want_rank: bool = True) -> None:
        self.want_rank = want_rank
        self._year_from_name = year_from_name
        self._year_in_text: int | None = None
        self._year_of_events: int | None = None
        self.world_sizes: list[int] = []
        self.start_ranks: set[int] = set()
        self.start_timeouts: set[float] = set()
        self.nodes: list[int] = []
        self.per_node: list[int] = []
        self.ranks: Counter[int] = Counter()
        self.local_named: dict[int, int] = {}
        self._local_samples_left = _RANK_SAMPLES
        self.worker_tags = TagHints()
        self.agent_nodes = AgentNodes()
        self._agent_offsets: dict[str, int] | None = None
        self._left = HINT_BYTES
        self._head_lines = 0  # lines of the head read so far
        self.first_named: dict[int, int] = {}  # rank -> first head line that names it
        self.dtypes: list[list[str]] = []  # [key, dtype] the head states (`dtype_said`)
        self.sources: list[list[str]] = []  # [key, rank] a broadcast's source (`source_said`)
        self.schedules: list[list[str]] = []  # [key, name] a pipeline schedule (`schedule_said`)
        self.sizes: list[list[str]] = []  # [name, number] a model width (`size_said`)

    @property
    def year(self) -> int | None:
        return self._year_in_text or self._year_of_events or self._year_from_name

    def saw_year(self, year: int) -> None:
        if self._year_of_events is None:
            self._year_of_events = year

    def read_head(self, block: bytes) -> None:
        """`read` the part of this block within the file's first HINT_BYTES, cut at a line
        end (a line cut in two could show half a size)."""
        if self._left <= 0:
            return
        if len(block) > self._left:
            cut = block.rfind(b"\n", 0, self._left) + 1
            block, self._left = block[: cut or self._left], 0
        else:
            self._left -= len(block)
        self.read(block, block.lower())

    def read(self, block: bytes, low: bytes) -> None:
        _head_literals().learn_from(low)
        led = after_line_end(low)  # one copy for every pattern written `\n...`
        if self._year_in_text is None:
            self._year_in_text = year_in_bytes(block)
        self.world_sizes += [small_int(v) for v in _WORLD.findall(low) if small_int(v) > 0]
        self.world_sizes += [
            small_int(size)
            for rank, size in _ranks_of_world(led)
            if small_int(rank) < small_int(size)
        ]
        self.start_ranks.update(
            small_int(rank)
            for rank, size in _START_RANK.findall(low)
            if small_int(rank) < small_int(size)
        )
        self.start_timeouts.update(_seconds(found) for found in _START_TIMEOUT.findall(low))
        self.per_node += [small_int(v) for v in _NPROC.findall(low) if small_int(v) > 0]
        self.nodes += [small_int(v) for v in _NODES.findall(low) if small_int(v) > 0]
        self.worker_tags.read(block, low)
        self.agent_nodes.read(block)
        self._agent_offsets = None
        self.dtypes += dtype_statements(low, MAX_STATEMENTS - len(self.dtypes))
        self.sources += source_statements(low, MAX_SOURCES - len(self.sources))
        self.schedules += schedule_statements(low, MAX_SCHEDULES - len(self.schedules))
        self.sizes += size_statements(low, MAX_SIZES - len(self.sizes))
        self._read_local_named(low, led)
        if self.want_rank:
            for pattern in _RANKS:
                self._read_ranks(pattern, low)
        self._head_lines += count_line_ends(low)

    def agent_offsets(self) -> dict[str, int]:
        """Host -> the global rank of its agent's local rank 0, in a console merging several
        hosts' agents (`formats.agent_nodes`); asked for every parsed line, so kept."""
        if self._agent_offsets is None:
            self._agent_offsets = self.agent_nodes.offsets()
        return self._agent_offsets

    def _read_ranks(self, pattern: GatedPattern, low: bytes) -> None:
        """Count the ranks the first `_RANK_SAMPLES` matches name, and the first line naming
        each. Matches come in order, so each line number is counted on from the previous
        match's: counting from the block's start for each one took longer than all the other
        hints together in a file that tags every line with its rank."""
        line, counted = self._head_lines + 1, 0
        for found, _ in zip(pattern.finditer(low), range(_RANK_SAMPLES), strict=False):
            start = found.start()
            if _LOCAL.search(low, max(0, start - 6), start):
                continue
            rank = small_int(found.group(1))
            self.ranks[rank] += 1
            line += low.count(b"\n", counted, start)
            counted = start
            self.first_named[rank] = min(self.first_named.get(rank, line), line)

    def _read_local_named(self, low: bytes, led: bytes) -> None:
        """The rank each `[defaultN]:` (or `[<role>N]:`) child states, from the first copied
        lines that state one: children log it as they start, and a launcher log that copies a
        rank tag onto every line would otherwise make each of its lines a match."""
        if self._local_samples_left <= 0 or not holds(low, _AGENT_TAG_END):
            return  # no samples left: a search would find only a line `zip` then drops
        found_any = _LOCAL_STATES_RANK.finditer(led)
        found = None
        for found, _ in zip(found_any, range(self._local_samples_left), strict=False):
            self._take_local_named(found)
        if found is None and _copies_behind_prefixes(low):
            self._read_local_named_behind_prefix(low)

    def _read_local_named_behind_prefix(self, low: bytes) -> None:
        for found in _LOCAL_STATES_RANK_ANYWHERE.finditer(low):
            if self._local_samples_left <= 0:
                return
            start = found.start()
            if _OUTER_LOW.fullmatch(low, low.rfind(b"\n", 0, start) + 1, start):
                self._take_local_named(found)

    def _take_local_named(self, found: re.Match[bytes]) -> None:
        self._local_samples_left -= 1
        local = small_int(found.group(1))
        if local not in self.local_named:
            self.local_named[local] = small_int(found.group(2) or found.group(3))

    def store(
        self, facts: dict[str, Any], path_rank: int | None, event_ranks: Counter[int]
    ) -> None:
        self.worker_tags.store(facts)
        sizes = list(self.world_sizes)
        if self.per_node:
            sizes.append(max(self.per_node) * max(self.nodes or [1]))
        if sizes:
            facts["world_size"] = max(sizes)
        if self.agent_nodes.cut:
            facts[CUT] = True
        if self.agent_offsets():
            facts[AGENT_OFFSETS] = self.agent_offsets()
        elif self.local_named:  # with several hosts' agents, a local tag names several ranks
            facts["local_named_ranks"] = dict(self.local_named)
        if self.year is not None:
            facts["year"] = self.year
        if len(self.start_ranks) == 1:
            facts["start_rank"] = next(iter(self.start_ranks))
        if len(self.start_timeouts) == 1:
            facts["start_timeout_s"] = next(iter(self.start_timeouts))
        if self.dtypes:
            facts["dtype_said"] = self.dtypes
        if self.sources:
            facts["source_said"] = self.sources
        if self.schedules:
            facts["schedule_said"] = self.schedules
        if self.sizes:
            facts["size_said"] = self.sizes
        if not self.want_rank:
            return
        ranks = self.ranks + event_ranks
        if len(ranks) == 1 and not self.worker_tags.named_by_one_of_several(set(ranks)):
            # with a path rank, only a directory numbered per agent asked: `named_rank`
            rank = next(iter(ranks))
            facts["rank_hint" if path_rank is None else "named_rank"] = rank
            if rank in self.first_named:
                facts["rank_hint_line"] = self.first_named[rank]


def _seconds(found: tuple[bytes, ...]) -> float:
    """A start line's timeout in seconds: `h:mm:ss`, or a number and its unit (seconds when
    none is given)."""
    hours, minutes, seconds, number, unit = found
    if number:
        return small_int(number) * _UNIT_SECONDS.get(unit, 1.0)
    return small_int(hours) * 3600.0 + small_int(minutes) * 60.0 + small_int(seconds)


def _ranks_of_world(led: bytes) -> list[tuple[bytes, bytes]]:
    """(rank, size) of each start print of a rank over the world size in a line-led head."""
    if _RANK_SLASH.search(led) is None:
        return []
    return _RANK_OF_WORLD.findall(led)


def _copies_behind_prefixes(low: bytes) -> bool:
    """Whether a block may hold copied lines behind a collector's prefix: torchrun's default
    tag anywhere, or a named role's tag in its first lines (a console of copied lines copies
    from its start; a search for any role's tag at every bracket of a rank log's head costs
    1.5 ms, paid by every file of a big job)."""
    return holds(low, _DEFAULT_TAG) or _AGENT_TAG_LOW.search(low, 0, _FIRST_LINES) is not None


@lru_cache(maxsize=1)
def _head_literals() -> LiteralSet:
    """The literals the searches of a lower-cased head ask for: its gates, the dtype, model
    width, broadcast-source and pipeline-schedule words and torchrun's tag, looked for in one
    pass (`LiteralSet`)."""
    patterns = (_WORLD, _NPROC, _NODES, *_RANKS)
    gates = [pattern.gate for pattern in patterns if pattern.gate]
    return LiteralSet(
        [
            *gates,
            *head_gates(),
            *GATES,
            *SIZE_GATES,
            *SOURCE_GATES,
            *SCHEDULE_GATES,
            _AGENT_TAG_END,
            _DEFAULT_TAG,
        ]
    )
