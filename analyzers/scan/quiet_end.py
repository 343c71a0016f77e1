"""What a job log says at its end once the scan has read it through: its last lines, read
once for the readers of a file that stopped without an error line, and the cut a paste left.

    [rank0]:   File "/srv/job/train.py", line 88, in step
    [rank0]:     loss = model(batch)

A file with no error line is read at its tail: a plain-words refusal (`formats.refusal`), a
traceback cut before its exception (`formats.cut_traceback`), a step announced and never
finished (`formats.pending`), a rank that said it leaves on purpose (`formats.leaving`), and a
CANN log for the native frames it may end on (`formats.native_frames`); its last lines are kept
for the bundle should no file hold an error line (`scan.quiet_tail`). A file whose only error
lines echo a remote call's quoted traceback is read at the frame the paste cut it in, and a
last line the paste cut inside its prefix is no error of its own.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from analyzers.core.types import EventKind
from analyzers.formats.base import ParsedLine
from analyzers.formats.cut_traceback import (
    MAX_HEADED_LINES,
    cut_frame,
    cut_in_prefix,
    first_frame_line,
    headed_by,
    is_header,
)
from analyzers.formats.cut_traceback import SOURCE as CUT_SOURCE
from analyzers.formats.escaped import inherit_writer
from analyzers.formats.leaving import left_at_end
from analyzers.formats.lines import parse_line
from analyzers.formats.native_frames import SOURCE as NATIVE_SOURCE
from analyzers.formats.native_frames import cut_native_frames
from analyzers.formats.paste import PasteLayout
from analyzers.formats.pending import pending_at_end
from analyzers.formats.refusal import last_refusal
from analyzers.formats.severity import ERROR_LEVELS, Prefilter
from analyzers.formats.stack_dump import StackDumpTracker
from analyzers.formats.store_wait import STORE_WAIT, waiting_at_store
from analyzers.ingest.textio import clean_line
from analyzers.scan.block_pass import CANN_KINDS, CHECKPOINT_KINDS
from analyzers.scan.lazy_tail import LazyTail
from analyzers.scan.quiet_tail import QUIET_TAIL, TAIL_SOURCE, last_lines, quiet_header
from analyzers.scan.sink import ScanSink

if TYPE_CHECKING:
    from analyzers.scan.member import CheckpointMatcher


class QuietEnd(ScanSink):
    """The end-of-file readers of a file's scanner (`scan.member`), which sets these fields
    and parses lines for them."""

    paste: PasteLayout
    prefilter: Prefilter
    stack_dump: StackDumpTracker
    checkpoints: CheckpointMatcher | None
    block_before: bytes

    def split_pieces(self, raw: bytes) -> list[bytes]:
        raise NotImplementedError

    def _parse(self, raw: bytes) -> ParsedLine:
        raise NotImplementedError

    def _checkpoint_match(self, message: str) -> str | None:
        raise NotImplementedError

    def _drop_cut_prefix_end(self) -> None:
        """A paste that stopped inside the prefix its lines share (writer tag, level, time)
        leaves a last line with no message of its own (`formats.cut_traceback.cut_in_prefix`):
        whatever level word the cut kept, it reports nothing, so it is no error or warning.
        Only a file whose last line was read as one is asked about its cut: the two lines'
        parses cost more than the rest of a short rank log's end."""
        if len(self.previous_tail) < 2 or not self.events:
            return
        (_, before), (last, raw) = self.previous_tail[-2:]
        loud = (EventKind.ERROR, EventKind.WARNING)
        gone = [event for event in self.events if event.line == last and event.kind in loud]
        if not gone or not cut_in_prefix(
            parse_line(clean_line(raw)), parse_line(clean_line(before))
        ):
            return
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
        waiting = None if self.kept[EventKind.ERROR] else waiting_at_store(tail)
        if waiting is not None:
            line, _, joined, size = waiting
            self.facts[STORE_WAIT] = {"line": line, "joined": joined, "size": size}

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
