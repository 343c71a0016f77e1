"""A seekable, compressed copy of each log file, written while it is scanned.

A `.tar.gz` member cannot be read from the middle, yet the log viewer must open line
1,000,000 of a 2 GB file at once. While the scanner reads a member, `LineStoreWriter`
cuts the bytes into blocks of whole lines (about 256 KiB each), compresses each block on
its own and records where every block starts. `LineStoreReader.lines()` then seeks to
one block and decompresses only it. Files are named by a hash of the member path, so
any path (even one with odd characters) maps to a safe file name.
"""

from __future__ import annotations

import base64
import bisect
import hashlib
import io
import json
import os
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from analyzers.ingest.compression import compress_block, decompress_block
from analyzers.ingest.streams import ReadOnlyStream

BLOCK_BYTES = 256 * 1024  # a block ends at the first line end after this many bytes
MAX_BLOCK_BYTES = 4 * BLOCK_BYTES  # ...or here, inside an enormous line
INLINE_BYTES = 16 * 1024  # a file that compresses to this little is kept in its index


def store_name(member_path: str) -> str:
    return hashlib.sha1(member_path.encode("utf-8", "surrogateescape")).hexdigest()


@dataclass(frozen=True, slots=True)
class Block:
    first_line: int  # 1-based number of the block's first line
    offset: int
    length: int


class LineStoreWriter:
    """Feed raw bytes in order with `write`; `close` seals the index."""

    def __init__(self, store_dir: str | os.PathLike[str], member_path: str) -> None:
        self._dir = Path(store_dir)
        self._dir.mkdir(parents=True, exist_ok=True)
        self._name = store_name(member_path)
        self._member_path = member_path
        self._data: BinaryIO | None = None  # opened at the first full block
        self._inline: bytes | None = None
        self._pending = b""  # the start of a block not yet complete
        self._blocks: list[Block] = []
        self._next_line = 1
        self._offset = 0
        self._open_line = False  # the last block ended inside a line

    def write(self, chunk: bytes) -> None:
        data = self._pending + chunk if self._pending else chunk
        start = 0
        while len(data) - start >= BLOCK_BYTES:
            cut = data.find(b"\n", start + BLOCK_BYTES - 1, start + MAX_BLOCK_BYTES) + 1
            if cut <= 0:  # one enormous line: cut it anyway, the viewer marks it
                if len(data) - start < MAX_BLOCK_BYTES:
                    break
                cut = start + MAX_BLOCK_BYTES
            self._flush(data, start, cut)
            start = cut
        self._pending = data[start:]

    def close(self, marks: dict[str, list[int]] | None = None) -> None:
        if self._pending:
            self._flush(self._pending, 0, len(self._pending), last=True)
            self._pending = b""
        if self._data is not None:
            self._data.close()
        total = self._next_line - 1 + (1 if self._open_line else 0)
        index = {
            "path": self._member_path,
            "lines": total,
            "blocks": [[b.first_line, b.offset, b.length] for b in self._blocks],
            "marks": marks or {},
        }
        if self._inline is not None:
            index["inline"] = base64.b64encode(self._inline).decode("ascii")
        (self._dir / f"{self._name}.json").write_text(json.dumps(index), encoding="utf-8")

    def _flush(self, data: bytes, start: int, end: int, *, last: bool = False) -> None:
        """Compress data[start:end] as one block (a view: no copy of the slice). A small
        file's only block goes into its index: one disk file per log instead of two, which
        is most of the cost of a bundle of many tiny logs."""
        packed = compress_block(memoryview(data)[start:end])  # the analysis hot path
        if last and not self._blocks and len(packed) <= INLINE_BYTES:
            self._inline = packed
        else:
            if self._data is None:
                self._data = (self._dir / f"{self._name}.lines").open("wb")
            self._data.write(packed)
        self._blocks.append(Block(self._next_line, self._offset, len(packed)))
        self._offset += len(packed)
        # A block that ends mid-line leaves that line open: the next block continues it.
        self._next_line += data.count(b"\n", start, end)
        self._open_line = data[end - 1] != 0x0A


class TeeReader(ReadOnlyStream):
    """Reads from a stream and hands every chunk to a writer as well."""

    def __init__(self, raw: BinaryIO, writer: LineStoreWriter) -> None:
        self._raw = raw
        self._writer = writer

    def read(self, size: int = -1) -> bytes:
        data = self._raw.read(size)
        if data:
            self._writer.write(data)
        return data

    def close(self) -> None:
        self._raw.close()
        super().close()


class LineStoreReader:
    """Random access to the lines of one stored file."""

    def __init__(self, store_dir: str | os.PathLike[str], member_path: str) -> None:
        name = store_name(member_path)
        self._data_path = Path(store_dir) / f"{name}.lines"
        index_path = Path(store_dir) / f"{name}.json"
        if not index_path.exists():
            raise FileNotFoundError(member_path)
        index = json.loads(index_path.read_text(encoding="utf-8"))
        self.path: str = index["path"]
        self.total_lines: int = index["lines"]
        self.marks: dict[str, list[int]] = index.get("marks", {})
        inline = index.get("inline")
        self._inline = base64.b64decode(inline) if inline is not None else None
        self._blocks = [Block(*b) for b in index["blocks"]]
        self._starts = [b.first_line for b in self._blocks]

    def lines(self, start: int, count: int) -> list[tuple[int, str]]:
        """Lines start..start+count-1 (1-based), decoded with replacement."""
        start = max(1, start)
        end = min(self.total_lines, start + count - 1)
        out: list[tuple[int, str]] = []
        # One block early: the block before may end with the start of line `start`.
        block_no = max(0, bisect.bisect_left(self._starts, start) - 1)
        with self._open_data() as fh:
            while block_no < len(self._blocks) and self._starts[block_no] <= end:
                for number, text in self._block_lines(fh, block_no, start, end):
                    if out and out[-1][0] == number:  # a line continued across blocks
                        out[-1] = (number, out[-1][1] + text)
                    else:
                        out.append((number, text))
                block_no += 1
        return out

    def _open_data(self) -> BinaryIO:
        if self._inline is not None or not self._blocks:  # small or empty: no data file
            return io.BytesIO(self._inline or b"")
        return self._data_path.open("rb")

    def _block_lines(
        self, fh: BinaryIO, block_no: int, start: int, end: int
    ) -> Iterable[tuple[int, str]]:
        block = self._blocks[block_no]
        fh.seek(block.offset)
        raw = decompress_block(fh.read(block.length))
        parts = raw.split(b"\n")
        if raw.endswith(b"\n"):
            parts.pop()
        for i, line in enumerate(parts):
            number = block.first_line + i
            if number > end:
                break
            if number >= start:
                yield number, line.rstrip(b"\r").decode("utf-8", "replace")
