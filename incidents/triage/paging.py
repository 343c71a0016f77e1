"""A page of a counted list, shared by the incident list and the accuracy page."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Generic, TypeVar

Item = TypeVar("Item")


@dataclass(frozen=True)
class Page(Generic[Item]):
    items: list[Item]
    count: int  # rows in the whole list, not only on this page
    page: int
    per_page: int

    @property
    def has_next(self) -> bool:
        return self.page * self.per_page < self.count

    @property
    def has_previous(self) -> bool:
        return self.page > 1

    @property
    def num_pages(self) -> int:
        return max(1, -(-self.count // self.per_page))
