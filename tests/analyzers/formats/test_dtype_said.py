"""Dtype statements in a log's head, keyed so that every rank's copy of one line matches.

A job that states the dtype it communicates in (`gradient sync dtype float32`) prints the same
line on every rank, with only numbers and rank tags differing: the key keeps the words before
the dtype and drops the rest, and the dtype is kept under its canonical name.
"""

from __future__ import annotations

from analyzers.formats.dtype_said import dtype_statements


def test_a_statement_is_keyed_by_its_words_and_not_its_numbers_or_tags() -> None:
    said = dtype_statements(
        b"2026-12-05 11:02:11,201 [rank3] INFO grad bucket 2 comm dtype=bf16\n"
        b"loss 0.31 at step 4\n"
        b"params in torch.float32, grads in fp16\n".lower()
    )
    assert said == [
        ["rank info grad bucket comm dtype", "bfloat16"],
        ["params in", "float32"],
        ["params in torch float grads in", "float16"],
    ]


def test_a_head_that_names_no_dtype_states_nothing() -> None:
    assert dtype_statements(b"step 3 loss 0.25 lr 1e-4\nlayer 2 passed\n") == []


def test_statements_stop_at_the_limit() -> None:
    head = b"".join(b"tensor %d dtype float32\n" % i for i in range(10))
    assert len(dtype_statements(head, limit=4)) == 4
