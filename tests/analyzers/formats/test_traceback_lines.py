"""The shapes of a traceback's own lines: which line ends a traceback as its exception, which
stops at its type, and how deep a line sits."""

import pytest

from analyzers.formats.traceback_lines import HEADER, ends_traceback, lead, stops_at_type


@pytest.mark.parametrize(
    ("message", "ends"),
    [
        ("RuntimeError: NPU out of memory.", True),
        ("KeyboardInterrupt", True),
        ("torch._dynamo.exc.TorchRuntimeError: Failed running call_function", True),
        ("TimeoutError", True),
        # the tail of a frame line a terminal wrapped: a bare lower-case word is no class
        ("sync", False),
        # source lines of a paste that lost its indentation, led by a Python keyword
        ("lambda: run_node(tx.output, node, args, kwargs, nnmodule)", False),
        ("else: torch._check(", False),
        ("not an exception line", False),
    ],
)
def test_an_exception_line_ends_a_traceback(message: str, ends: bool) -> None:
    assert ends_traceback(message) is ends


@pytest.mark.parametrize(
    ("message", "stops"),
    [("RuntimeError:", True), ("RuntimeError: stage 2 failed", False), ("RuntimeError", False)],
)
def test_an_exception_line_can_stop_at_its_type(message: str, stops: bool) -> None:
    assert stops_at_type(message) is stops


def test_a_line_is_as_deep_as_its_leading_blanks_a_tab_counting_one() -> None:
    assert (lead("    x = 1"), lead(" \tx"), lead("x")) == (4, 2, 0)


def test_a_quoted_header_names_the_rank_whose_traceback_it_is() -> None:
    quoted = HEADER.match("Traceback (most recent call last): (RANK 3)")
    plain = HEADER.match("  Traceback (most recent call last):")
    assert quoted is not None
    assert quoted["rank"] == "3"
    assert plain is not None
    assert plain["rank"] is None
