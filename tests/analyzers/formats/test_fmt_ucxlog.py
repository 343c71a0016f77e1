"""UCX's own log lines: the level after `UCX` is the writer's, so an ERROR line whose reason is
a bare errno text is an error, a WARN line about missing transports is a warning and the
connection chatter at INFO is noise; `UCX <LEVEL>` stays at the start of the message.
docs/labelling.md#a-gpu-direct-transport-that-does-not-start
"""

from __future__ import annotations

import pytest

from analyzers.core.types import EventKind
from analyzers.formats.lines import parse_line
from analyzers.formats.severity import classify, load_prefilter

ERROR_NO_WORDS = (
    "[1790001122.334455] [decode-node-4:6021 :0]    ib_mlx5dv_md.c:1100 UCX  ERROR mlx5_3:"
    " umr qp to RTR: No such device"
)
ERROR_PADDED = (
    "[1790001122.334501] [ci-runner-7:402211:1]      ib_mlx5_dv.c:452  UCX  ERROR   some step"
    " on mlx5_0, syndrome 0x1a2b3c: Remote I/O error"
)
WARN_TRANSPORTS = (
    "[1790001122.334600] [prefill-2:77   :0]     ucp_context.c:1268 UCX  WARN  transports"
    " 'cuda_ipc','cuda_copy' are not available, please use one or more of: posix, self, tcp"
)
INFO_CONFIG = (
    "[1790001122.334700] [prefill-2:77   :a]      ucp_worker.c:1903 UCX  INFO    ucp_context_1"
    " inter-node cfg#2 rma(rc_mlx5/mlx5_4:1) am(rc_mlx5/mlx5_4:1) failed=0"
)


@pytest.mark.parametrize(
    ("text", "level", "pid", "message_start"),
    [
        (ERROR_NO_WORDS, "ERROR", 6021, "UCX  ERROR mlx5_3:"),
        (ERROR_PADDED, "ERROR", 402211, "UCX  ERROR   some step"),
        (WARN_TRANSPORTS, "WARNING", 77, "UCX  WARN  transports"),
        (INFO_CONFIG, "INFO", 77, "UCX  INFO    ucp_context_1"),
    ],
)
def test_the_level_after_the_library_name_is_read(
    text: str, level: str, pid: int, message_start: str
) -> None:
    line = parse_line(text)
    assert line.source == "ucx"
    assert line.level == level
    assert line.pid == pid
    assert line.message.startswith(message_start)


def test_an_error_line_with_only_an_errno_text_is_an_error() -> None:
    assert classify(parse_line(ERROR_NO_WORDS), load_prefilter()) is EventKind.ERROR


def test_missing_transports_stay_a_warning() -> None:
    assert classify(parse_line(WARN_TRANSPORTS), load_prefilter()) is EventKind.WARNING


def test_connection_chatter_at_info_is_noise_whatever_it_says() -> None:
    assert classify(parse_line(INFO_CONFIG), load_prefilter()) is None


def test_a_bracketed_epoch_line_without_the_library_name_is_not_ucx() -> None:
    line = parse_line("[1790001122.334455] [node-1:55:0] worker.c:12 ERROR lost slot")
    assert line.source != "ucx"


def test_the_epoch_time_of_a_ucx_line_is_not_taken() -> None:
    """The process's other writers log their local wall clock: UCX's lines keep their place
    in the file instead of a UTC time that would sort them hours away."""
    for text in (ERROR_NO_WORDS, WARN_TRANSPORTS):
        assert parse_line(text).time is None
    assert parse_line("[1790001122.334455] [node-1:55:0] worker.c:12 ERROR lost slot").time is None
