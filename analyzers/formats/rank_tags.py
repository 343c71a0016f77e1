"""The ranks whose own lines a console the ranks share holds, from torch's tag at a line's start:

    [rank1]:W1205 10:40:09.512000 4421 torch/distributed/distributed_c10d.py:2889] Some ...
    [rank0]: Traceback (most recent call last):

A rank whose only output is such a line (a warning, no checkpoint, no error) still ran and
wrote, so the tags are read over the whole file, not its head: that rank's line may come
after hours of another rank's chatter. They are read block by block in the scanner's pass
(`scan.block_pass`): a block whose folded copy lacks the tag's literal costs no search of
its own, because the literal rides in the notable phrases' union
(`BlockFilter.notable_and_lacking`) after a block that held no tag, as the checkpoint
literals do. A tag counts only at a line's start: `[rank0]: waiting for [rank2]: to join`
is a line of rank 0. Its letters match in either case (`[Rank2]:`), as the other rank
hints, read in a lower-cased head, do.
"""

from __future__ import annotations

from typing import Any

from analyzers.core import regex_programs
from analyzers.core.limits import small_int
from analyzers.formats.blockfilter import Settled

# in a block folded with `blockfilter.FOLD` (lower case, digits as 0): a tag behind a line end,
# and one on a block's first line (every block starts a line)
LITERAL = b"\n[rank"
_FIRST_LITERAL = LITERAL[1:]
# searched in the block as it is (folding turns digits into 0); the leading line end lets
# `re` jump between line ends that open with a bracket
_TAGGED = regex_programs.compile(rb"\n\[(?i:rank)(\d{1,6})\]:")
_TAGGED_FIRST = regex_programs.compile(rb"\[(?i:rank)(\d{1,6})\]:")


class RankTags:
    """The ranks tagged at a line's start in one file, gathered block by block."""

    __slots__ = ("_lacked", "ranks")

    def __init__(self) -> None:
        self.ranks: set[int] = set()
        self._lacked = True  # the last block held no tag (none has been read yet)

    def signs(self) -> tuple[bytes, ...]:
        """The literal for the block pass's union to settle: after a block without tags the
        next most likely has none either, and the union answers for it at no extra pass;
        after a block with tags the search runs anyway."""
        return (LITERAL,) if self._lacked else ()

    def read(self, block: bytes, folded: bytes, settled: Settled) -> None:
        """Add the ranks tagged in one block of whole lines; `folded` is the block folded,
        `settled` the literals the block pass looked for and those of them it found."""
        looked, found = settled
        if LITERAL in looked and LITERAL not in found and not folded.startswith(_FIRST_LITERAL):
            self._lacked = True
            return
        tags = set(_TAGGED.findall(block))
        first = _TAGGED_FIRST.match(block)
        if first is not None:
            tags.add(first.group(1))
        self._lacked = not tags
        self.ranks.update(small_int(tag) for tag in tags)  # a few distinct tags per block

    def store(self, facts: dict[str, Any]) -> None:
        """`tagged_ranks`, when the file holds more than one rank's tagged lines: one rank's
        tags alone make it that rank's own log (`formats.hints`' `rank_hint`)."""
        if len(self.ranks) > 1:
            facts["tagged_ranks"] = sorted(self.ranks)
