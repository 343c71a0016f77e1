"""Count what the bundle reader inflates and stop it, politely, once a budget is spent.

`ReadBudget` is shared by every stream of one bundle. A `Metered` stream sits on the output
of each decompressor: it counts the bytes, checks the total and the compression ratio, and
once a budget is spent it ends, as if the archive ended there. The reader then stops and the
report says what was cut; nothing raises, so the files read so far are still analysed.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import BinaryIO

from analyzers.core.limits import LimitHit, Limits, size_text
from analyzers.core.phrases import Said, say
from analyzers.ingest.streams import ReadOnlyStream

MAX_READ = 4 * 1024 * 1024


class ReadBudget:
    """What one bundle's reading has used so far, and the budgets it hit."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self.inflated = 0
        self.hits: list[LimitHit] = []
        self.spent = False  # the total or ratio budget: no more bytes are read at all
        self.members_read = 0
        self.members_unread = 0
        self._noted: set[str] = set()

    def note(self, limit: str, message: Said) -> None:
        """Record a budget hit once per kind (a bomb would otherwise repeat it per member)."""
        if limit not in self._noted:
            self._noted.add(limit)
            self.hits.append(LimitHit.said(limit, message))

    def admit_member(self) -> bool:
        """True while members may still be read; later ones are only counted."""
        if self.members_read < self.limits.members and not self.spent:
            self.members_read += 1
            return True
        self.members_unread += 1
        return False

    def finish(self) -> list[LimitHit]:
        """The hits, with the member count's message completed now that the total is known."""
        if self.members_unread and not self.spent:
            total = self.members_read + self.members_unread
            self.note(
                "members", say("limit.members", read=f"{self.members_read:,}", total=f"{total:,}")
            )
        return self.hits

    def take(self, size: int, out: int, packed: int, claimed: int | None) -> int:
        """How many of `size` freshly inflated bytes may be used (0 once spent). `out` and
        `packed`: what this one decompressor has put out and taken in so far."""
        if self.spent:
            return 0
        limits = self.limits
        allowed = max(0, min(size, limits.total_bytes - self.inflated))
        if allowed < size:
            self._spend("total_bytes", self._total_message(claimed))
        elif out > limits.ratio_grace and out > limits.ratio * max(packed, 1):
            ratio = f"{out // max(packed, 1):,}"
            self._spend(
                "ratio",
                say(
                    "limit.ratio",
                    out=size_text(out),
                    packed=size_text(packed),
                    ratio=ratio,
                    limit=f"{limits.ratio:,}",
                ),
            )
            allowed = 0
        self.inflated += allowed
        return allowed

    def _total_message(self, claimed: int | None) -> Said:
        read = size_text(self.limits.total_bytes)
        if claimed and claimed > self.limits.total_bytes:
            return say("limit.total_claimed", read=read, claimed=size_text(claimed))
        return say("limit.total", read=read)

    def _spend(self, limit: str, message: Said) -> None:
        self.spent = True
        self.note(limit, message)


class Prepaid:
    """An archive inside the bundle, read by a reader of its own: its bytes were charged as
    they were read from the bundle, and stand for its content until what its reader inflates
    outgrows them. So the archive counts once, as the larger of the two (its content, as
    every other reader counts; its own bytes when its entries are skipped), instead of
    twice, which stopped a bundle of stored node zips at half the total and charged a
    nested `.tar.gz` about a tenth more than it holds.

    `paid` is what was charged: a zip's whole copy, read before its entries; or a count that
    grows as a decompressor pulls a nested tar's compressed bytes through the bundle."""

    def __init__(self, budget: ReadBudget, paid: int | Callable[[], int]) -> None:
        self.budget = budget
        self._paid = paid if callable(paid) else lambda: paid
        self._used = 0  # prepaid bytes handed back so far

    @property
    def spent(self) -> bool:
        return self.budget.spent

    def take(self, size: int, out: int, packed: int, claimed: int | None) -> int:
        """`ReadBudget.take`, the prepaid bytes handed back first as they are used up."""
        if self.budget.spent:
            return 0
        covered = min(size, max(0, self._paid() - self._used))
        self._used += covered
        self.budget.inflated -= covered
        return self.budget.take(size, out, packed, claimed)


class Metered(ReadOnlyStream):
    """A decompressor's output, counted against the budget; it ends when the budget does.

    `packed` tells how many compressed bytes went in so far (for the ratio); `claimed` is
    what the archive says it holds, when it says (for the message)."""

    def __init__(
        self,
        raw: BinaryIO,
        budget: ReadBudget | Prepaid,
        packed: Callable[[], int],
        claimed: int | None = None,
    ) -> None:
        self._raw = raw
        self._budget = budget
        self._packed = packed
        self._claimed = claimed
        self._out = 0

    def read(self, size: int = -1) -> bytes:
        if self._budget.spent:
            return b""
        # A raw stream may return less than asked: never inflate a bomb in one call.
        data = self._raw.read(MAX_READ if size < 0 or size > MAX_READ else size)
        self._out += len(data)
        allowed = self._budget.take(len(data), self._out, self._packed(), self._claimed)
        return data if allowed == len(data) else data[:allowed]

    def close(self) -> None:
        self._raw.close()
        super().close()


class Counting(ReadOnlyStream):
    """Counts the compressed bytes a decompressor pulls (the ratio's denominator)."""

    def __init__(self, raw: BinaryIO) -> None:
        self._raw = raw
        self.size = 0

    def read(self, size: int = -1) -> bytes:
        data = self._raw.read(size)
        self.size += len(data)
        return data
