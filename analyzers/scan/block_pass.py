"""Which lines of a block the scanner reads: the few a whole-block search finds, and every
line while a multi-line parser follows a structure.

    [rank3]:[E1205 10:44:09] [Rank 3] Watchdog caught collective operation timeout

A log is mostly INFO and progress lines, so a ~1 MiB block is folded to lower case once and
searched as a whole: the prefilter keywords, the notable INFO phrases, the checkpoint
literals, and, in the file's head, the logging prefix its INFO lines share (`shape`). A line of
that shape is read only when its level is WARNING or ERROR; the lines of another shape (a
traceback) get the keyword search. A CANN log of CANN lines only is read by its own levels
(`formats.blockfilter.plog_candidates`). The candidates are then visited in order, a line a
terminal cut visited whole under the number of its first piece (`formats.wrapped`).
"""

from __future__ import annotations

from typing import Protocol

from analyzers.core.types import FileKind
from analyzers.formats.blockfilter import (
    FOLD,
    BlockFilter,
    odd_ranges,
    plog_candidates,
    shaped_lines,
)
from analyzers.formats.checkpoint_lines import CheckpointLines
from analyzers.formats.lines import parse_line
from analyzers.formats.logger_shape import learn_shape, relay_signs, relays_workers
from analyzers.formats.rank_tags import RankTags
from analyzers.formats.start_lines import GATE as START_GATE
from analyzers.formats.start_lines import StartLines, start_lines
from analyzers.formats.wrapped import WrapJoiner
from analyzers.ingest.line_index import LineIndex, count_line_ends
from analyzers.ingest.textio import clean_line
from analyzers.scan.sink import ScanSink

# Checkpoints are the job's own prints: never in CANN plog/device/HCCL logs.
CHECKPOINT_KINDS = frozenset({FileKind.RANK_LOG, FileKind.LAUNCHER, FileKind.OTHER})
CANN_KINDS = frozenset({FileKind.PLOG, FileKind.DEVICE_LOG, FileKind.HCCL_LOG})
SHAPE_PROBE_LINES = 50


class Follower(Protocol):
    """A multi-line parser: while it follows a structure, every line is read."""

    def wants_more(self) -> bool: ...


class BlockPass(ScanSink):
    """The block loop of a file's scanner (`scan.member`), which sets these fields and reads
    each line the loop visits (`_line`)."""

    filter: BlockFilter
    checkpoint_lines: CheckpointLines | None
    shape: bytes | None
    starts: StartLines
    rank_tags: RankTags | None  # only where the file's own content may name its rank
    structured: bool
    wrapped: WrapJoiner
    trackers: tuple[Follower, ...]

    def _line(self, line_no: int, raw: bytes, hit: bool) -> None:
        raise NotImplementedError

    def _scan_block(self, block: bytes, first_line: int, head: bool) -> int:
        """Scan one block and return its line count. The checkpoint pass counts the lines up
        to the last checkpoint it reads; only the rest is counted here, so a checkpoint-heavy
        block's newlines are counted once, not twice. Whoever needs more line numbers asks
        the block's `LineIndex`, which counts the block at most once more for all of them."""
        following = self._following()
        index = LineIndex(block, first_line)
        lines = -1
        hits = None
        if self.info.kind in CANN_KINDS:
            lines = index.lines
            hits = plog_candidates(block, lines)
            if hits is not None:  # INFO lines that still matter (HCCL's heartbeat events)
                hits |= self.filter.cann_notable_candidates(block)
        if hits is None:
            hits, lines = self._scan_folded(block, first_line, head, index, lines)
        if hits or following or self.structured:
            self._walk(block, index, sorted(hits), hits)
        return lines

    def _scan_folded(
        self, block: bytes, first_line: int, head: bool, index: LineIndex, lines: int
    ) -> tuple[set[int], int]:
        """`_scan_block` on the folded block (every log but a CANN log of CANN lines only):
        the candidate lines and the line count. The notable phrases are looked for on every
        path: with them, in the same pass, the words other searches would each read the
        whole block for when it lacks them (the checkpoint literals the file's last block
        lacked, the start lines' `world_size`, a head block's signs of a relaying logger, the
        rank tags' line start when the last block held none)."""
        following = self._following()
        folded = block.translate(FOLD)
        probe = self._shape_probe(block) if head and self.shape is None else None
        lacking = self.checkpoint_lines.lacking() if self.checkpoint_lines is not None else ()
        lacking += relay_signs(probe) + self._start_signs()
        if self.rank_tags is not None:
            lacking += self.rank_tags.signs()
        notable, settled = self.filter.notable_and_lacking(folded, lacking)
        if self.rank_tags is not None:
            self.rank_tags.read(block, folded, settled)
        if head:
            self.hints.read_head(block)
            if probe is not None:  # a logger relaying its workers' INFO has no skippable shape
                self.shape = None if relays_workers(folded, probe, settled) else probe
        if self._start_signs():
            looked, found = settled
            lacks_gate = START_GATE in looked and START_GATE not in found
            self.starts.add(start_lines(block, folded, first_line, lacks_gate))
        if self.checkpoint_lines is not None:  # never for CANN logs, counted above
            self.checkpoint_lines.scan(block, folded, first_line, settled)
            line_no, pos = self.checkpoint_lines.counted
            lines = line_no - first_line + count_line_ends(block, pos)
        elif lines < 0:
            lines = index.lines
        if self.shape is None or following:
            return self.filter.candidates(folded, notable), lines
        # every line of the logger's shape: only its WARNING/ERROR lines count; otherwise
        # the lines of another shape (a traceback) get the keyword search
        shaped = shaped_lines(folded, self.shape, lines)
        hits = set(shaped.loud)
        if shaped.odd:
            odd = odd_ranges(folded, self.shape, shaped, index)
            hits |= self.filter.candidates_in(folded, odd)
        return hits | notable, lines

    def _start_signs(self) -> tuple[bytes, ...]:
        """What the rank's start lines (`formats.start_lines`) hold, while they are read: a
        later attempt appended to the same file begins with one (`checkpoints.restarts`);
        after another rank's start line none is read any more."""
        if self.info.kind in CHECKPOINT_KINDS and self.starts.other is None:
            return (START_GATE,)
        return ()

    def _shape_probe(self, block: bytes) -> bytes | None:
        """The logging prefix of the file, from one of its first lines that parses as an INFO
        line of a logging format (only rank logs: CANN logs have their own fast path), before
        `relays_workers` may refuse it."""
        if self.info.kind not in CHECKPOINT_KINDS:
            return None
        for raw in block.split(b"\n", SHAPE_PROBE_LINES)[:SHAPE_PROBE_LINES]:
            shape = learn_shape(raw)
            if shape is not None and parse_line(clean_line(raw)).level == "INFO":
                return shape
        return None

    def _walk(self, block: bytes, index: LineIndex, starts: list[int], hits: set[int]) -> None:
        """Visit the candidate lines in order, and every line while a parser follows a
        multi-line block (every line of a structured file); a line a terminal cut is visited
        whole, under the number of its first piece (`formats.wrapped`). A candidate far from
        the last line visited takes its number from the block's index."""
        pos, index_at, size = 0, 0, len(block)
        line_no = index.line_at(0)
        while pos < size:
            if not (self.structured or self._following()):
                while index_at < len(starts) and starts[index_at] < pos:
                    index_at += 1
                if index_at == len(starts):
                    return
                line_no += index.newlines(pos, starts[index_at])
                pos = starts[index_at]
            end = block.find(b"\n", pos)
            first, last, pieces, raw = self.wrapped.logical(block, pos, end)
            hit = not hits.isdisjoint(pieces)
            self._line(line_no - block.count(b"\n", first, pos), raw, hit)
            pos, line_no = last + 1, line_no + block.count(b"\n", pos, last) + 1

    def _following(self) -> bool:
        """Whether a multi-line parser follows a structure: asked up to three times for every
        line visited, where a generator for `any` cost more than the parsers' answers."""
        for tracker in self.trackers:  # noqa: SIM110 - a plain loop, for its speed
            if tracker.wants_more():
                return True
        return False
