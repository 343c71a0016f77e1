"""A rank's start line: the line it writes when it joins the job, stating its rank and the world
size (`formats.start_lines`). Example: Python logging's `init process group: backend=gloo rank=1
world_size=4`. Counterexamples: a status line with the sizes but no start word, a launcher's
`local_rank=`, a line that names no rank."""

from __future__ import annotations

from analyzers.formats.blockfilter import FOLD
from analyzers.formats.start_lines import (
    CONSOLE_REPEATS,
    CONSOLE_STARTS,
    FIRST_REPEATS,
    LAST_REPEATS,
    START_LINES,
    STARTS_DROPPED,
    StartLines,
    start_lines,
)


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


def test_the_key_is_the_same_whatever_the_width_of_a_number() -> None:
    """An attempt counter past 9, a port of another width: the same start line."""
    text = (
        "[rank1] INFO init process group: rank=1 world_size=4 port=9000 attempt=9\n"
        "[rank1] INFO init process group: rank=1 world_size=4 port=29500 attempt=10\n"
    )
    first, again = _read(text)
    assert (
        first[2]
        == again[2]
        == "[rank0] info init process group: rank=0 world_size=0 port=0 attempt=0"
    )


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


def test_line_numbers_count_on_from_one_start_line_to_the_next() -> None:
    text = "[rank2] init: rank=2 world_size=8\n\n\nnoise\n[rank2] init: rank=2 world_size=8\n"
    assert [line for line, _, _ in _read(text, first_line=7)] == [7, 11]


def _kept(found: list[tuple[int, int, str]]) -> StartLines:
    starts = StartLines()
    starts.add(found)
    return starts


def _stored(starts: StartLines) -> dict[str, object]:
    facts: dict[str, object] = {}
    starts.store(facts)
    return facts


KEY = "init process group: rank=0 world_size=0"


def test_a_start_line_repeated_a_million_times_keeps_its_first_and_latest_repeats() -> None:
    """A hostile file (or a retry loop that never gives up): memory stays bounded, the
    earliest repeats (where the first attempts end) and the latest (where the last attempt
    begins) are kept, and the ones between are counted for the report."""
    starts = StartLines()
    for first in range(1, 1_000_001, 10_000):
        starts.add([(line, 0, KEY) for line in range(first, first + 10_000)])
    facts = _stored(starts)
    kept = facts[START_LINES]
    assert isinstance(kept, list)
    assert len(kept) == 1 + FIRST_REPEATS + LAST_REPEATS
    assert [line for line, _, _ in kept[: FIRST_REPEATS + 1]] == list(range(1, FIRST_REPEATS + 2))
    assert [line for line, _, _ in kept[-LAST_REPEATS:]] == list(
        range(1_000_001 - LAST_REPEATS, 1_000_001)
    )
    assert facts[STARTS_DROPPED] == 1_000_000 - len(kept)


def test_start_lines_of_another_text_are_not_kept_and_crowd_out_no_repeat() -> None:
    """A rank that starts a group of its own every few steps (`init expert group: rank=0
    world_size=4`) does not use up the room of its process's start line."""
    others = [(line, 0, "init expert group: rank=0 world_size=0") for line in range(2, 2002)]
    facts = _stored(_kept([(1, 0, KEY), *others, (3000, 0, KEY)]))
    assert facts == {START_LINES: [(1, 0, KEY), (3000, 0, KEY)]}


def test_another_ranks_start_line_is_kept_and_ends_the_reading() -> None:
    """One rank's file only is cut at its start lines: the first line of another rank decides
    that, so nothing after it is needed for that cut. A console's cut reads each rank's own
    start lines, a bounded number of repeats of each."""
    found = [(1, 0, KEY), (2, 0, KEY), (3, 1, KEY), *((line, 0, KEY) for line in range(4, 3000))]
    stored = _stored(_kept(found))
    assert stored[START_LINES] == [(1, 0, KEY), (3, 1, KEY)]
    assert stored[CONSOLE_STARTS] == {0: [1, 2, *range(4, 4 + CONSOLE_REPEATS - 1)], 1: [3]}


def test_a_file_without_start_lines_stores_nothing() -> None:
    assert _stored(_kept([])) == {}


def test_a_block_known_to_lack_the_gate_holds_no_start_line() -> None:
    block = b"[rank1] INFO init process group: rank=1 world_size=4\n"
    assert start_lines(block, block.translate(FOLD), 1, lacks_gate=False)
    assert start_lines(block, block.translate(FOLD), 1, lacks_gate=True) == []


def test_a_rank_field_between_bars_names_the_rank() -> None:
    """A job that writes its own header (`<time> | rank 2 | <message>`) states the rank as a
    word and its number, with no `=` or tag."""
    found = _read("2026-12-06 10:41:07 | rank 2 | job start (restart 0), world_size=4\n")
    assert [(line, rank) for line, rank, _ in found] == [(1, 2)]


def test_a_count_of_ranks_names_no_rank() -> None:
    assert _read("launching 4 ranks: init with world_size=4\n") == []
