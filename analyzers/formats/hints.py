"""Facts read from the first blocks of any log: the year, the world size, the rank.

    2026-11-29 07:25:36,861 [rank3] INFO init process group: backend=gloo rank=3 world_size=4 ...
    torchrun --nnodes 1 --nproc_per_node 8 train.py   /   nproc_per_node: 8
    WORLD_SIZE=16

The year lets year-less times (glog `E1129 ...`, vLLM `04-02 19:33:00`) be placed; it comes
from the first full date in the file, any dated event, or the file name. `rank_hint` is
given only when the path had no rank and the content names exactly one.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

from analyzers.formats.timestamps import year_in_bytes

_WORLD = re.compile(rb"(?:\bworld_size|\bWORLD_SIZE)[\"']?\s*[:=]\s*(\d{1,6})\b")
_NPROC = re.compile(rb"\bnproc[-_]per[-_]node[\"']?\s*[:= ]\s*(\d{1,5})\b")
_NODES = re.compile(rb"(?:\bnnodes|--nnodes)[\"']?\s*[:= ]\s*(\d{1,5})\b")
_RANK = re.compile(rb"\[rank(\d{1,6})\]|\brank=(\d{1,6})\b|\bRANK=(\d{1,6})\b|RankID:(\d{1,6})\b")


class HeadHints:
    def __init__(self, year_from_name: int | None) -> None:
        self._year_from_name = year_from_name
        self._year_in_text: int | None = None
        self._year_of_events: int | None = None
        self.world_sizes: list[int] = []
        self.nodes: list[int] = []
        self.per_node: list[int] = []
        self.ranks: Counter[int] = Counter()

    @property
    def year(self) -> int | None:
        return self._year_in_text or self._year_of_events or self._year_from_name

    def saw_year(self, year: int) -> None:
        if self._year_of_events is None:
            self._year_of_events = year

    def read(self, block: bytes) -> None:
        if self._year_in_text is None:
            self._year_in_text = year_in_bytes(block)
        self.world_sizes += [int(v) for v in _WORLD.findall(block) if int(v) > 0]
        self.per_node += [int(v) for v in _NPROC.findall(block) if int(v) > 0]
        self.nodes += [int(v) for v in _NODES.findall(block) if int(v) > 0]
        for groups in _RANK.findall(block):
            self.ranks[int(next(v for v in groups if v))] += 1

    def store(
        self, facts: dict[str, Any], path_rank: int | None, event_ranks: Counter[int]
    ) -> None:
        sizes = list(self.world_sizes)
        if self.per_node:
            sizes.append(max(self.per_node) * max(self.nodes or [1]))
        if sizes:
            facts["world_size"] = max(sizes)
        if path_rank is None:
            ranks = self.ranks + event_ranks
            if len(ranks) == 1:
                facts["rank_hint"] = next(iter(ranks))
