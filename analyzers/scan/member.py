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

The scanner is one object over three modules: this one reads each visited line and finishes
the file, `scan.block_pass` chooses which lines of a block are visited, and `scan.quiet_end`
reads a file's end once it is through.
"""

from __future__ import annotations

from array import array
from collections import Counter
from itertools import pairwise
from typing import Any, BinaryIO, Protocol

from analyzers.checkpoints.track import NO_RANK, CheckpointTrack
from analyzers.core.types import FileInfo, FileKind, FileScan
from analyzers.formats import jsonlines, structured
from analyzers.formats.base import QUIET_LEVELS, ParsedLine
from analyzers.formats.blockfilter import BlockFilter
from analyzers.formats.cann_block import CannBlockTracker
from analyzers.formats.checkpoint_lines import CheckpointLines
from analyzers.formats.elastic import ElasticTracker
from analyzers.formats.escaped import inherit_writer, split_escaped
from analyzers.formats.flattened import split_flattened
from analyzers.formats.glued import split_glued
from analyzers.formats.hints import HeadHints
from analyzers.formats.indented import IndentedMessageTracker
from analyzers.formats.lines import parse_line
from analyzers.formats.memory_checker import MemoryCheckerTracker
from analyzers.formats.paste import PLAIN, learn_paste_layout
from analyzers.formats.rank_tags import RankTags
from analyzers.formats.severity import load_prefilter
from analyzers.formats.severity_memo import memo_for
from analyzers.formats.stack_dump import StackDumpTracker
from analyzers.formats.start_lines import StartLines
from analyzers.formats.timestamps import resolve, year_from_name
from analyzers.formats.traceback import TracebackTracker
from analyzers.formats.twinned import split_twinned
from analyzers.formats.wrapped import WrapJoiner
from analyzers.formats.year_less import YEAR_LESS, YearLess
from analyzers.ingest.layout import agent_local_rank, node_local_rank
from analyzers.ingest.textio import BLOCK_SIZE, clean_line, iter_blocks
from analyzers.scan.block_pass import CHECKPOINT_KINDS, BlockPass
from analyzers.scan.checkpoint_prefix import CheckpointPrefix
from analyzers.scan.host_labels import HostLabels
from analyzers.scan.host_offsets import UnplacedHosts
from analyzers.scan.quiet_end import QuietEnd
from analyzers.scan.quiet_tail import TAIL_BYTES
from analyzers.scan.sink import MAX_EVENTS
from analyzers.scan.stated_rank import stated_rank
from analyzers.scan.storm import StormCounter

STRUCTURED_KINDS = frozenset({FileKind.NPU_SMI, FileKind.ENV, FileKind.VERSIONS})
HEAD_BLOCKS = 2  # blocks the logging shape is learned from; hints read their own head
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


class _FileScanner(QuietEnd, BlockPass):
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
        self.rank_tags = RankTags() if want_rank else None
        self.checkpoints = checkpoints
        self.prefilter = load_prefilter()
        self.severity = memo_for(self.prefilter)
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
        self.escaped_record = False  # the line being read is a record with escaped lines
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
        self.escaped_record = len(pieces) > 1 and raw.lstrip().startswith(b"{")
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
            piece_line = inherit_writer(self._parse(piece), outer, self.escaped_record)
            self._piece(line_no, piece_line, hit)

    def _piece(self, line_no: int, line: ParsedLine, hit: bool) -> None:
        """One line for the parsers: a physical line, or an escaped line folded into one."""
        for tracker in self.trackers:
            if tracker.feed(line_no, line, self):
                return
        if hit:
            kind = self.severity.classify(line)
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
        if self.rank_tags is not None:
            self.rank_tags.store(self.facts)
        if self.info.rank is None and self.info.kind in (FileKind.RANK_LOG, FileKind.OTHER):
            track = self.facts.get("checkpoints")
            first = track.line[0] if track is not None and len(track) else None
            self.info.rank = stated_rank(self.facts, first)
        if self.structured:
            self.facts.update(structured.parse(self.info.kind, self.kept_lines, self.info.path))
            self.kept_lines = []

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
