"""One pass over one bundle member: error/warning candidates, checkpoints and file facts.

Big logs are mostly INFO and progress noise, so the scanner never parses every line in
Python. It reads ~1 MiB blocks of whole lines; per block it counts lines with
`bytes.count`, lower-cases the block once and finds the prefilter keywords
(`knowledge/prefilter.yaml`) and the checkpoint matcher's literals with `bytes.find`.
Only lines with a hit are decoded (`textio.clean_line`) and parsed (`formats.lines`).
Multi-line parsers (Python tracebacks, CANN blocks, torch elastic summaries) may ask for the
lines that follow a hit; those are then read one by one until the structure ends.

Small structured files (npu-smi output, env dumps, version files) are read line by line in
full and handed to their parsers (`formats.npu_smi`, `formats.env`, `formats.versions`).
"""

from __future__ import annotations

from array import array
from collections import Counter
from itertools import pairwise
from typing import Any, BinaryIO, Protocol

from analyzers.checkpoints.track import NO_RANK, CheckpointTrack
from analyzers.core.types import EventKind, FileInfo, FileKind, FileScan
from analyzers.formats import jsonlines, structured
from analyzers.formats.base import QUIET_LEVELS, ParsedLine
from analyzers.formats.blockfilter import (
    FOLD,
    BlockFilter,
    learn_shape,
    odd_ranges,
    plog_candidates,
    relay_signs,
    relays_workers,
    shaped_lines,
)
from analyzers.formats.cann_block import CannBlockTracker
from analyzers.formats.checkpoint_lines import CheckpointLines
from analyzers.formats.cut_traceback import (
    MAX_HEADED_LINES,
    cut_frame,
    cut_in_prefix,
    first_frame_line,
    headed_by,
    is_header,
)
from analyzers.formats.cut_traceback import SOURCE as CUT_SOURCE
from analyzers.formats.elastic import ElasticTracker
from analyzers.formats.escaped import inherit_writer, split_escaped
from analyzers.formats.flattened import split_flattened
from analyzers.formats.glued import split_glued
from analyzers.formats.hints import HeadHints
from analyzers.formats.indented import IndentedMessageTracker
from analyzers.formats.leaving import left_at_end
from analyzers.formats.lines import parse_line
from analyzers.formats.memory_checker import MemoryCheckerTracker
from analyzers.formats.native_frames import SOURCE as NATIVE_SOURCE
from analyzers.formats.native_frames import cut_native_frames
from analyzers.formats.paste import PLAIN, learn_paste_layout
from analyzers.formats.pending import pending_at_end
from analyzers.formats.refusal import last_refusal
from analyzers.formats.severity import ERROR_LEVELS, classify, load_prefilter
from analyzers.formats.stack_dump import StackDumpTracker
from analyzers.formats.start_lines import GATE as START_GATE
from analyzers.formats.start_lines import StartLines, start_lines
from analyzers.formats.timestamps import resolve, year_from_name
from analyzers.formats.traceback import TracebackTracker
from analyzers.formats.twinned import split_twinned
from analyzers.formats.wrapped import WrapJoiner
from analyzers.formats.year_less import YEAR_LESS, YearLess
from analyzers.ingest.layout import agent_local_rank, node_local_rank
from analyzers.ingest.line_index import LineIndex, count_line_ends
from analyzers.ingest.textio import BLOCK_SIZE, clean_line, iter_blocks
from analyzers.scan.checkpoint_prefix import CheckpointPrefix
from analyzers.scan.host_labels import HostLabels
from analyzers.scan.host_offsets import UnplacedHosts
from analyzers.scan.lazy_tail import LazyTail
from analyzers.scan.quiet_tail import (
    QUIET_TAIL,
    TAIL_BYTES,
    TAIL_SOURCE,
    last_lines,
    quiet_header,
)
from analyzers.scan.sink import MAX_EVENTS, ScanSink
from analyzers.scan.stated_rank import stated_rank
from analyzers.scan.storm import StormCounter

STRUCTURED_KINDS = frozenset({FileKind.NPU_SMI, FileKind.ENV, FileKind.VERSIONS})
# Checkpoints are the job's own prints: never in CANN plog/device/HCCL logs.
CHECKPOINT_KINDS = frozenset({FileKind.RANK_LOG, FileKind.LAUNCHER, FileKind.OTHER})
CANN_KINDS = frozenset({FileKind.PLOG, FileKind.DEVICE_LOG, FileKind.HCCL_LOG})
HEAD_BLOCKS = 2  # blocks the logging shape is learned from; hints read their own head
SHAPE_PROBE_LINES = 50
MAX_KEPT_LINES = 50_000  # structured files are small; a huge one is parsed from its head


class CheckpointMatcher(Protocol):
    def match(self, message: str) -> str | None: ...

    def prefilter_bytes_pattern(self) -> bytes: ...

    def prefilter_confirmations(self) -> dict[bytes, Any]: ...  # literal -> RE2 pattern


def scan_file(
    stream: BinaryIO, info: FileInfo, checkpoints: CheckpointMatcher | None = None
) -> FileScan:
    """Scan one member stream; sets `info.lines` and returns its events and facts."""
    return _FileScanner(info, checkpoints).run(stream)


class _LastByte:
    """A stream that remembers the last byte read from it (the block reader ends every
    file with a line end, so only the raw stream can tell whether the file had one)."""

    def __init__(self, raw: BinaryIO) -> None:
        self._raw = raw
        self.last = b""

    def read(self, size: int = -1) -> bytes:
        data = self._raw.read(size)
        if data:
            self.last = data[-1:]
        return data


class _FileScanner(ScanSink):
    """Holds one file's scan state; as a `ScanSink` it records what the parsers report."""

    block_size = BLOCK_SIZE  # tests shrink it to put structures across block boundaries

    def __init__(self, info: FileInfo, checkpoints: CheckpointMatcher | None) -> None:
        # A per-agent directory number (or a per-node file number) may be a local rank: what
        # the file itself says decides.
        want_rank = (
            info.rank is None
            or agent_local_rank(info.path) is not None
            or node_local_rank(info.path) is not None
        )
        super().__init__(info, HeadHints(year_from_name(info.path), want_rank=want_rank))
        self.checkpoints = checkpoints
        self.prefilter = load_prefilter()
        self.filter = BlockFilter.build(self.prefilter, checkpoints)
        self.traceback = TracebackTracker()
        self.cann = CannBlockTracker()
        self.elastic = ElasticTracker()
        self.indented = IndentedMessageTracker()
        self.memory_checker = MemoryCheckerTracker()
        self.stack_dump = StackDumpTracker(info.rank)
        # elastic first: it must see the ChildFailedError line that also ends a traceback
        self.trackers = (
            self.elastic,
            self.cann,
            self.traceback,
            self.memory_checker,
            self.indented,
            self.stack_dump,
        )
        self.structured = info.kind in STRUCTURED_KINDS
        self.wrapped = WrapJoiner(enabled=not self.structured)  # tables keep their rows
        self.kept_lines: list[str] = []
        self.storm = StormCounter(MAX_EVENTS)
        self.checkpoint_prefix = CheckpointPrefix()  # the file's own prefix, learned
        self.checkpoint_lines = self._checkpoint_lines()
        self.shape: bytes | None = None  # folded logging prefix of this file's INFO lines
        self.paste = PLAIN  # an indent or double spacing a paste gave every line
        self.starts = StartLines()
        self.hosts = HostLabels()
        self.unplaced = UnplacedHosts()  # hosts whose workers the head gave no offset
        self.block_before = b""

    def _checkpoint_lines(self) -> CheckpointLines | None:
        if self.checkpoints is None or self.info.kind not in CHECKPOINT_KINDS:
            return None
        found = CheckpointLines(
            self.filter.checkpoint_literals,
            self.filter.checkpoint_regex,
            self._checkpoint_parse,
            self._checkpoint_match,
            dict(self.filter.checkpoint_confirm),
        )
        return found if found.enabled else None

    def run(self, stream: BinaryIO) -> FileScan:
        lines = 0
        watched = _LastByte(stream)
        for index, block in enumerate(iter_blocks(watched, self.block_size)):
            if index == 0 and not self.structured:
                self.paste = learn_paste_layout(block)
            block = self.paste.dedent(block)
            # the end of the block before, for a tail that starts there (`scan.quiet_tail`)
            self.block_before = self.block[-TAIL_BYTES:]
            self.block, self.block_first_line = block, lines + 1
            count = self._scan_block(block, lines + 1, index < HEAD_BLOCKS)
            lines += count
            self.keep_tail(block, lines)
        self.info.lines = lines
        if watched.last not in (b"", b"\n", b"\r"):
            # the last line has no line end: whoever wrote the file stopped mid-line (a
            # process killed while writing, a full disk, a file truncated or cut there)
            self.facts["ends_mid_line"] = lines
        self._finish()
        return FileScan(info=self.info, events=self.events, facts=self.facts)

    # --- the block loop ----------------------------------------------------------------

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
        lacked, the start lines' `world_size`, a head block's signs of a relaying logger)."""
        following = self._following()
        folded = block.translate(FOLD)
        probe = self._shape_probe(block) if head and self.shape is None else None
        lacking = self.checkpoint_lines.lacking() if self.checkpoint_lines is not None else ()
        lacking += relay_signs(probe) + self._start_signs()
        notable, settled = self.filter.notable_and_lacking(folded, lacking)
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
            hit = any(piece in hits for piece in pieces)
            self._line(line_no - block.count(b"\n", first, pos), raw, hit)
            pos, line_no = last + 1, line_no + block.count(b"\n", pos, last) + 1

    def _following(self) -> bool:
        return any(tracker.wants_more() for tracker in self.trackers)

    def _parse(self, raw: bytes) -> ParsedLine:
        text = clean_line(raw)
        if self.structured and len(self.kept_lines) < MAX_KEPT_LINES:
            self.kept_lines.append(text)
        return self._placed(self.paste.dedent_message(parse_line(text)))

    def _placed(self, line: ParsedLine) -> ParsedLine:
        """The line with its host label noted, then filed under its local rank if it names
        no global one. In a console merging several hosts' agents, a local rank is first
        made global by its host's offset (`formats.agent_nodes`), so it is noted as the
        host's rank; a host the head gave none is noted for the report (`scan.host_offsets`)."""
        if line.rank is None and line.local_rank is not None and "host" in line.tags:
            offsets = self.hints.agent_offsets()
            offset = offsets.get(line.tags["host"])
            if offset is not None:
                line.rank = offset + line.local_rank
            elif offsets:
                self.unplaced.note(line.tags["host"])
        self.hosts.note(line)
        return _rank_from_local(line)

    def _line(self, line_no: int, raw: bytes, hit: bool) -> None:
        if self.paste.double_spaced and not raw.strip():
            return  # the paste's spacing, not a break in what the program wrote
        watch = not self.structured and not self._following() and self.storm.active(self.kept)
        if watch and self._counted_as_storm(raw):
            return
        before = self.storm.before(self.kept, len(self.events), self.facts) if watch else None
        self._parse_line(line_no, raw, hit)
        if before is not None and not self._following():
            self.storm.learn(raw, before, self.kept, len(self.events), self.facts)

    def _counted_as_storm(self, raw: bytes) -> bool:
        kind = self.storm.known(raw)
        if kind is None:
            return False
        self.count_dropped(kind)
        return True

    def split_pieces(self, raw: bytes) -> list[bytes]:
        if self.structured:
            return [raw]
        pieces = split_escaped(raw)
        if len(pieces) == 1:
            pieces = split_flattened(raw)
        if len(pieces) == 1:
            pieces = split_glued(raw)
        if len(pieces) == 1:
            pieces = split_twinned(raw)
        return pieces

    def _parse_line(self, line_no: int, raw: bytes, hit: bool) -> None:
        pieces = self.split_pieces(raw)
        self.pieces_line, self.pieces_read = (line_no if len(pieces) > 1 else 0), []
        outer = self._parse(pieces[0])
        if len(pieces) > 1:  # an object cut at an escaped newline lost its later members
            jsonlines.complete_writer(outer, clean_line(raw))
            _rank_from_local(outer)
        self._piece(line_no, outer, hit)
        if outer.level in QUIET_LEVELS:
            return  # an INFO line quoting text (a logged prompt) says nothing about failures
        for before, piece in pairwise(pieces):
            self.pieces_read.append(before)
            self._piece(line_no, inherit_writer(self._parse(piece), outer), hit)

    def _piece(self, line_no: int, line: ParsedLine, hit: bool) -> None:
        """One line for the parsers: a physical line, or an escaped line folded into one."""
        for tracker in self.trackers:
            if tracker.feed(line_no, line, self):
                return
        if hit:
            kind = classify(line, self.prefilter)
            if kind is not None:
                self.emit(line_no, line, kind)

    def _checkpoint_parse(self, raw: bytes) -> ParsedLine:
        """Full parse of one checkpoint candidate (what `CheckpointLines` learns from)."""
        return self._placed(self.paste.dedent_message(parse_line(clean_line(raw))))

    def _checkpoint_match(self, message: str) -> str | None:
        """The checkpoint text of a message read after the file's learned prefix; a user
        pattern may span that prefix, so the whole message is tried too."""
        assert self.checkpoints is not None
        body = self.checkpoint_prefix.strip(message, self.block)
        text = self.checkpoints.match(body)
        if text is None and body is not message:
            text = self.checkpoints.match(message)
        return text

    # --- end of file ---------------------------------------------------------------------

    def _finish(self) -> None:
        self.cann.close_all(self)
        self.elastic.close_all(self)
        self.indented.close_all(self)
        self.traceback.close_all(self)
        self.memory_checker.close_all(self)
        self.stack_dump.finish(self)
        year = self.hints.year
        pending = self._year_less_checkpoints() if year is None else None
        if self.checkpoint_lines is not None:
            self._finish_checkpoints(self.checkpoint_lines.finish(year))
        for event, partial in self.partial:
            event.timestamp = resolve(partial, year)
        self._drop_cut_prefix_end()
        self._read_quiet_end()
        self._keep_quiet_tail()
        self.starts.store(self.facts)
        self.hosts.store(self.facts)
        self.unplaced.store(self.facts)
        self.events.sort(key=lambda event: event.line)
        if year is None and (self.partial or pending):
            self.facts[YEAR_LESS] = self._year_less(pending)
        self.hints.store(self.facts, self.info.rank, self.ranks_seen)
        if self.info.rank is None and self.info.kind in (FileKind.RANK_LOG, FileKind.OTHER):
            track = self.facts.get("checkpoints")
            first = track.line[0] if track is not None and len(track) else None
            self.info.rank = stated_rank(self.facts, first)
        if self.structured:
            self.facts.update(structured.parse(self.info.kind, self.kept_lines, self.info.path))
            self.kept_lines = []

    def _drop_cut_prefix_end(self) -> None:
        """A paste that stopped inside the prefix its lines share (writer tag, level, time)
        leaves a last line with no message of its own (`formats.cut_traceback.cut_in_prefix`):
        whatever level word the cut kept, it reports nothing, so it is no error or warning."""
        if len(self.previous_tail) < 2 or not self.events:
            return
        (_, before), (last, raw) = self.previous_tail[-2:]
        if not cut_in_prefix(parse_line(clean_line(raw)), parse_line(clean_line(before))):
            return
        loud = (EventKind.ERROR, EventKind.WARNING)
        gone = [event for event in self.events if event.line == last and event.kind in loud]
        for event in gone:
            self.events.remove(event)
            self.kept[event.kind] -= 1
        self.partial = [(event, time) for event, time in self.partial if event not in gone]

    def _read_headed_cut(self) -> None:
        """A file whose only error lines are headers of a remote call's quoted traceback
        (`formats.cut_traceback.is_header`) that the paste cut before its exception line: the
        deepest frame is read in the header's place, the header being only its echo."""
        errors = [event for event in self.events if event.kind == EventKind.ERROR]
        if len(errors) != self.kept[EventKind.ERROR] or not all(
            is_header(event.message) for event in errors
        ):
            return
        tail = self._tail_lines()
        cut = cut_frame(tail)
        start = first_frame_line(tail) if cut is not None else None
        header = max(event.line for event in errors)
        if cut is None or start is None or not 0 < start - header <= MAX_HEADED_LINES:
            return
        between = self.lookback(start, start - header - 1)
        if len(between) != start - header - 1 or not headed_by(
            [self.paste.dedent_message(parse_line(text)) for _, text in between]
        ):
            return
        self.events = [event for event in self.events if event not in errors]
        self._emit_cut(cut)

    def _tail_lines(self) -> list[tuple[int, ParsedLine]]:
        """The file's last lines as the end readers see them: a physical line that holds
        several records (a paste that lost its breaks, `split_pieces`) gives each record as a
        line of its own under the physical line's number, so a frame glued behind another
        record is still a frame of the tail."""
        tail: list[tuple[int, ParsedLine]] = []
        for lineno, raw in self.previous_tail:
            pieces = self.split_pieces(raw)
            outer = self._parse(pieces[0])
            tail.append((lineno, outer))
            tail.extend((lineno, inherit_writer(self._parse(piece), outer)) for piece in pieces[1:])
        return tail

    def _emit_cut(self, cut: tuple[int, ParsedLine, str], source: str = CUT_SOURCE) -> None:
        """The frame a traceback cut before its exception stopped in, cited with its source
        statement (`formats.cut_traceback.cut_frame`), or the innermost of native frames kept
        without the line they stood under (`formats.native_frames`), as the error line the
        paste lost."""
        lineno, frame, cited = cut
        event = self.emit(lineno, frame, EventKind.ERROR, source=source, message=cited)
        event.text = cited

    def _year_less_checkpoints(self) -> tuple[array, array] | None:
        """The checkpoints whose times wait for a year this file never gave, before the
        track drops those times: the bundle's other files may know it."""
        track = self.checkpoint_lines.track if self.checkpoint_lines is not None else None
        if track is None or not track.year_pending:
            return None
        return track.year_less_times()

    def _year_less(self, pending: tuple[array, array] | None) -> YearLess:
        index = {id(event): i for i, event in enumerate(self.events)}
        events = [(index[id(e)], p) for e, p in self.partial if id(e) in index]
        return YearLess(events, pending or (array("I"), array("d")))

    def _finish_checkpoints(self, track: CheckpointTrack) -> None:
        if not len(track):
            return
        self.facts["checkpoints"] = track
        for rank, count in _counted(track.rank).items():
            if rank != NO_RANK:
                self.ranks_seen[rank] += count

    def _read_quiet_end(self) -> None:
        """A job log with no error line is read at its end, its tail parsed once for the
        readers, each only while no error line is known: a plain-words refusal
        (`formats.refusal`), a traceback cut before its exception (`formats.cut_traceback`),
        a step announced and never finished (`formats.pending`), a rank that said it leaves on
        purpose (`formats.leaving`). A CANN log (plog) is read
        only for the native frames it may end on (`formats.native_frames`)."""
        if self.info.kind in CANN_KINDS and not self.kept[EventKind.ERROR]:
            tail = LazyTail(self.previous_tail, self._parse)
            native = cut_native_frames(tail, self.prefilter)
            if native is not None:
                self._emit_cut(native, NATIVE_SOURCE)
        if self.info.kind not in CHECKPOINT_KINDS:
            return
        if self.kept[EventKind.ERROR]:
            self._read_headed_cut()
            return
        tail = self._tail_lines()
        refusal = last_refusal(tail, self.prefilter)
        if refusal is not None:
            self.emit(*refusal, EventKind.ERROR)
        # a stack dumped on purpose that ends the file is no traceback cut before its exception
        quiet = not self.kept[EventKind.ERROR] and not self.stack_dump.open_at_end
        cut = cut_frame(tail) if quiet else None
        if cut is not None:
            self._emit_cut(cut)
        native = cut_native_frames(tail, self.prefilter) if quiet and cut is None else None
        if native is not None:
            self._emit_cut(native, NATIVE_SOURCE)
        pending = None if self.kept[EventKind.ERROR] else pending_at_end(tail, self.prefilter)
        if pending is not None:
            self.facts["pending_at_end"] = {"line": pending[0], "text": pending[1].message.strip()}
        left = None if self.kept[EventKind.ERROR] else left_at_end(tail, self.prefilter)
        if left is not None:
            self.facts["left_at_end"] = {"line": left[0], "text": left[1].message.strip()}

    def _keep_quiet_tail(self) -> None:
        """A job log with no error line keeps its last lines as error events, for the bundle
        to read should no file hold an error line (`scan.quiet_tail`): not the lines logged
        below error level, checkpoints and the lines above the last one, nor lines the scan
        already made events of."""
        if self.info.kind not in CHECKPOINT_KINDS or self.kept[EventKind.ERROR]:
            return
        seen = {event.line for event in self.events}
        track = self.facts.get("checkpoints")
        progressed = track.line[-1] if track is not None and len(track) else 0
        tail = []
        for line_no, raw in last_lines((self.block_before, self.block), self.info.lines):
            if line_no <= progressed:
                continue  # the job went on past it: no line that stopped the job
            line = self._parse(raw)
            if line_no in seen or not line.message.strip() or quiet_header(line.text):
                continue
            if line.level is not None and line.level.upper() not in ERROR_LEVELS:
                continue  # logged at a level below error: the gate would not make it one
            if self.checkpoints is not None and self._checkpoint_match(line.message):
                continue
            tail.append(self.make_event(line_no, line, EventKind.ERROR, TAIL_SOURCE))
        if tail:
            self.facts[QUIET_TAIL] = tail


def _rank_from_local(line: ParsedLine) -> ParsedLine:
    """A line that names only a local rank (a launcher's per-worker prefix) is filed under it
    when nothing on the line names the global rank."""
    if line.rank is None and line.local_rank is not None:
        line.rank = line.local_rank
    return line


def _counted(ranks: array) -> dict[int, int]:
    """How many entries name each rank. A rank log's entries nearly always name one rank:
    comparing the column's bytes with that rank's repeated settles it without making an
    int of each entry."""
    first = array(ranks.typecode, ranks[:1])
    if first.tobytes() * len(ranks) == ranks.tobytes():
        return {first[0]: len(ranks)}
    return Counter(ranks)
