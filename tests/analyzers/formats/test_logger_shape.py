"""The prefix a file's logging lines share, and whether its logger relays its workers' lines
(then its INFO lines are no chatter to skip)."""

from __future__ import annotations

from analyzers.formats.blockfilter import FOLD
from analyzers.formats.logger_shape import learn_shape, relay_signs, relays_workers

HEAD = b"[default3]:2026-11-29 07:25:37,216 [rank3] INFO layer 0 passed"
SHAPE = b"[default0]:0000-00-00 00:00:00,000 [rank0] "


def _folded(*lines: bytes) -> bytes:
    return b"".join(line + b"\n" for line in lines).translate(FOLD)


def test_the_shape_is_the_folded_prefix_before_the_info_word():
    assert learn_shape(HEAD) == SHAPE


def test_a_line_without_an_info_word_near_its_start_teaches_no_shape():
    assert learn_shape(b"Traceback (most recent call last):") is None
    assert learn_shape(b"x" * 200 + b" INFO late level word") is None


def test_the_relay_signs_are_the_shape_before_a_bracket_and_the_engines_names():
    signs = relay_signs(SHAPE)
    assert SHAPE + b"info [" in signs
    assert SHAPE + b"info - [" in signs
    assert b"sglang: " in signs
    assert relay_signs(None) == ()


def test_a_worker_traceback_under_the_loggers_info_is_relayed():
    head = _folded(HEAD, HEAD.replace(b"layer 0 passed", b"[rank0]: Traceback (most recent"))
    assert relays_workers(head, SHAPE)


def test_a_logger_printing_only_its_own_progress_relays_nothing():
    head = _folded(HEAD, HEAD.replace(b"layer 0", b"layer 1"))
    assert not relays_workers(head, SHAPE)


def test_literals_another_pass_settled_as_absent_are_not_searched_again():
    """The block holds a relayed line, but a pass that looked for every sign and found none
    is believed: the signs' search is what the scanner's shared pass already answered."""
    head = _folded(HEAD.replace(b"layer 0 passed", b"[rank0]: RuntimeError: boom"))
    assert relays_workers(head, SHAPE)
    assert not relays_workers(head, SHAPE, (relay_signs(SHAPE), frozenset()))
