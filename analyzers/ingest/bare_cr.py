"""Files whose line ends are bare carriage returns, read as lines.

Every line reader here splits on line feeds. A file that ends its lines with a lone `\\r`
(classic Mac OS editors, some serial-console captures and exporters, a job whose only output
was a progress bar redrawn in place) would then be one endless line: cut at the long-line
limit, its error lines unseen and the log viewer showing one row. Such a file announces
itself at its start, with carriage returns and no line feed, so its first bytes decide: a
file that starts that way has each carriage return read as a line end (a `\\r\\n` pair as one);
any other file, tqdm bars between ordinary lines included, passes through untouched.
"""

from __future__ import annotations

from typing import BinaryIO

from analyzers.ingest.streams import ReadOnlyStream, take

PROBE_BYTES = 64 * 1024


def starts_with_bare_cr_lines(head: bytes) -> bool:
    """True when the first bytes end lines with carriage returns and hold no line feed (a
    lone `\\r` at the very end of a one-line file ends nothing worth splitting)."""
    return b"\n" not in head and b"\r" in head.rstrip(b"\r")


class BareCrLines(ReadOnlyStream):
    """Reads a stream, turning bare carriage returns into line feeds when its start shows
    that they are its line ends. The decision is taken once, on the first `PROBE_BYTES`."""

    def __init__(self, raw: BinaryIO) -> None:
        self._raw = raw
        self._ready = b""  # bytes to hand out, translated where they need it
        self._carry = b""  # bytes read but not yet translated
        self._decided = False
        self._translate = False
        self._eof = False

    def read(self, size: int = -1) -> bytes:
        if not self._decided:
            self._decide()
        if not self._ready:
            if self._translate:
                self._fill_translated()
            else:
                return self._raw.read(size)
        data, self._ready = take(self._ready, size)
        return data

    def _decide(self) -> None:
        head = b""
        while len(head) < PROBE_BYTES and (chunk := self._raw.read(PROBE_BYTES - len(head))):
            head += chunk
        self._translate = starts_with_bare_cr_lines(head)
        if self._translate:
            self._carry = head
        else:
            self._ready = head
        self._decided = True

    def _fill_translated(self) -> None:
        """Translate the next piece; a `\\r` at the end of what was read waits for the next
        byte, so a `\\r\\n` pair split between two reads still makes one line end."""
        while not self._ready and not self._eof:
            fresh = self._raw.read(PROBE_BYTES)
            data, self._carry = self._carry + fresh, b""
            if not fresh:
                self._eof = True
            elif data.endswith(b"\r"):
                data, self._carry = data[:-1], b"\r"
            self._ready = data.replace(b"\r\n", b"\n").replace(b"\r", b"\n")
