"""Ranks sharing one stdout whose text and newline are two writes: lines glued together are
cut where the next rank's label begins (line shapes of real 4- to 8-rank gloo runs)."""

import pytest

from analyzers.formats.glued import split_glued


@pytest.mark.parametrize(
    ("raw", "pieces"),
    [
        (
            b"rank 1:  norm passedrank 0:  norm passedrank 2:  norm passed",
            [b"rank 1:  norm passed", b"rank 0:  norm passed", b"rank 2:  norm passed"],
        ),
        (
            b"rank 2: layer 0 passedrank 0: layer 0 passed",
            [b"rank 2: layer 0 passed", b"rank 0: layer 0 passed"],
        ),
        (
            b"[rank 2] load weights passed[rank 4] load weights passed",
            [b"[rank 2] load weights passed", b"[rank 4] load weights passed"],
        ),
        (
            b"rank 0: prefill start: 8 tokensrank 13: prefill start: 8 tokens",
            [b"rank 0: prefill start: 8 tokens", b"rank 13: prefill start: 8 tokens"],
        ),
    ],
)
def test_lines_glued_by_ranks_sharing_a_stdout_come_apart(raw: bytes, pieces: list[bytes]) -> None:
    assert split_glued(raw) == pieces


@pytest.mark.parametrize(
    "raw",
    [
        # a label after a space is part of the message
        b"rank 0: waiting for kv from rank 3: 2 blocks left",
        # a line without the job's label at its start
        b"model run failed: rank 3: lost",
        # torch's own tag is another shape: not the label this line opens with
        b"rank 1:  norm passed[rank2]: Traceback (most recent call last):",
        # the bracketed label inside a colon-labelled line is another shape too
        b"rank 1: got[rank 2] nothing",
        b"[rank0]:[E1204 17:44:49.113037567 ProcessGroupGloo.cpp:67] Gloo connectFullMesh failed",
        b"",
    ],
)
def test_a_line_with_one_label_stays_whole(raw: bytes) -> None:
    assert split_glued(raw) == [raw]


# What log collectors put in front of every line of the shared stdout (`formats.outer_prefix`)
COLLECTED = [
    b"2026-12-04T10:00:07.000000007Z ",  # kubectl logs --timestamps
    b"2026-12-04T10:00:07.1234567Z ",  # GitHub Actions' raw log
    b"Dec 04 10:00:07 node7 python3[4121]: ",  # the journal
    b"trainer-1  | ",  # docker compose
    b"0: ",  # srun --label
    b"node7: ",  # pdsh
]


@pytest.mark.parametrize("outer", COLLECTED)
def test_glued_lines_come_apart_behind_a_collectors_prefix(outer: bytes) -> None:
    """The collector wrote its prefix for the whole physical line: each piece keeps it."""
    raw = outer + b"rank 1:  norm passedrank 0:  norm passedrank 2:  norm passed"
    assert split_glued(raw) == [
        outer + b"rank 1:  norm passed",
        outer + b"rank 0:  norm passed",
        outer + b"rank 2:  norm passed",
    ]


@pytest.mark.parametrize("outer", COLLECTED)
def test_one_label_behind_a_collectors_prefix_stays_whole(outer: bytes) -> None:
    raw = outer + b"rank 0: waiting for kv from rank 3: 2 blocks left"
    assert split_glued(raw) == [raw]


# Guide: "Lines that ranks glued together" (a `--tee` console). A child's unterminated write
# (tqdm closing its bar with a carriage return and a cursor-up escape) is continued by the next
# child's copy under its own `[defaultN]:` tag; the second tag starts that rank's line.
def test_agent_console_copy_written_onto_an_open_line_is_cut():
    raw = b"[default0]:" + b" " * 80 + b"\x1b[A[default2]:  attention passed"
    assert split_glued(raw) == [
        b"[default0]:" + b" " * 80 + b"\x1b[A",
        b"[default2]:  attention passed",
    ]


def test_agent_tag_repeated_by_the_same_rank_or_quoted_is_no_cut():
    # counterexamples: one rank's own tag again, and a line with a single tag
    assert split_glued(b"[default1]:echo [default1]: done") == [b"[default1]:echo [default1]: done"]
    assert split_glued(b"[default3]:layer 2 passed") == [b"[default3]:layer 2 passed"]
