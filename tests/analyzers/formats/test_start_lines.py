"""A rank's start line: the line it writes when it joins the job, stating its rank and the world
size (`formats.start_lines`). Example: Python logging's `init process group: backend=gloo rank=1
world_size=4`. Counterexamples: a status line with the sizes but no start word, a launcher's
`local_rank=`, a line that names no rank."""

from __future__ import annotations

from analyzers.formats.blockfilter import FOLD
from analyzers.formats.start_lines import start_lines


def _read(text: str, first_line: int = 1) -> list[tuple[int, int, str]]:
    block = text.encode()
    return start_lines(block, block.translate(FOLD), first_line)


def test_a_start_line_gives_its_line_rank_and_a_key_free_of_numbers() -> None:
    text = (
        "2026-12-05 13:18:14,022 [rank1] INFO init process group: backend=gloo rank=1 "
        "world_size=4 master=localhost:35005 attempt=0\n"
        "2026-12-05 13:18:14,598 [rank1] INFO   norm passed\n"
        "2026-12-05 13:18:28,345 [rank1] INFO init process group: backend=gloo rank=1 "
        "world_size=4 master=localhost:35005 attempt=1\n"
    )
    found = _read(text, first_line=10)
    assert [(line, rank) for line, rank, _ in found] == [(10, 1), (12, 1)]
    assert found[0][2] == found[1][2]


def test_a_logging_tag_names_the_rank() -> None:
    found = _read("[rank6] Initializing distributed: world_size=8 backend=nccl\n")
    assert [(line, rank) for line, rank, _ in found] == [(1, 6)]


def test_lines_that_are_no_start_are_not_read() -> None:
    text = (
        "step 400 rank=1 world_size=4 loss=2.1\n"
        "init workers: local_rank=1 world_size=4\n"
        "init process group: world_size=4\n"
    )
    assert _read(text) == []
