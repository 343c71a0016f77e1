"""Kunlun's collective library under Paddle: BKCL's own levelled lines and Paddle's checks of
its calls.

docs/labelling.md#collective-libraries-of-other-accelerators: an ERR line of BKCL counts as an
error whatever its words, and the first one is the first error (`hccl`, the host's set-up
beside it); its refusal of a grouped exchange that sends to one peer twice is `hccl` with the
parallel layout (`config`) beside it. Paddle's enforce of a BKCL call (`bkcl_init_rank failed,
got wrong value [3]`) is a communicator that could not be built. Values of our own in the
shapes BKCL and Paddle print.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

GROUPED_SENDS = """\
[11:04:27][xpu-node3][40217][ERR][BKCL][init.cpp:1485] BKCL dont support send to one peer multi times in one group
[11:04:27][xpu-node3][40217][WARN][BKCL][bkcl.cpp:534] group_enqueue call failed, expected 0, error code=2
[11:04:27][xpu-node3][40217][DBG][BKCL][init.cpp:1394] myrank 1, recv 0 from 0, send 8388608 to 2
[11:04:27][xpu-node3][40217][DBG][BKCL][init.cpp:1469] group end done
Traceback (most recent call last):
"""

ERR_LINE = """\
[11:04:27][xpu-node3][40217][INFO][BKCL][init.cpp:880] init done, nranks 4, rank 1
[11:04:31][xpu-node3][40217][ERR][BKCL][net_socket.cpp:301] connect to peer 10.0.0.12 port 51000 refused by the remote side
[11:04:31][xpu-node3][40217][WARN][BKCL][bkcl.cpp:534] group_enqueue call failed, expected 0, error code=5
"""

CHATTER = """\
[11:04:27][xpu-node3][40217][INFO][BKCL][init.cpp:880] init done, nranks 4, rank 1
[11:04:27][xpu-node3][40217][DBG][BKCL][init.cpp:1356] preconnect done
[11:04:27][xpu-node3][40217][DBG][BKCL][init.cpp:1469] group end done
"""

PADDLE_CHECK = """\
----------------------
Error Message Summary:
----------------------
PreconditionNotMetError: bkcl_init_rank failed, got wrong value [5].
  [Hint: Expected ret == BKCL_SUCCESS, but received ret:5 != BKCL_SUCCESS:0.] (at /opt/src/Paddle/paddle/fluid/platform/collective_helper.cc:305)

INFO 2024-02-11 09:40:16,208 launch_utils.py:341] terminate all the procs
ERROR 2024-02-11 09:40:16,208 launch_utils.py:604] ABORT!!! Out of all 4 trainers, the trainer process with rank=[0, 1, 2, 3] was aborted. Please check its log.
"""


def test_the_refused_grouped_exchange_is_the_first_error_with_the_layout_beside_it() -> None:
    diagnosis = diagnose_text("log/workerlog.1", GROUPED_SENDS)
    assert_reads(diagnosis, "hccl", first_error="dont support send to one peer", beside=("config",))


def test_an_err_line_of_the_library_is_read_before_the_warnings_after_it() -> None:
    diagnosis = diagnose_text("log/workerlog.1", ERR_LINE)
    assert_reads(
        diagnosis,
        "hccl",
        first_error="refused by the remote side",
        rule="hccl.kunlun_bkcl_error_line",
    )


def test_the_librarys_info_and_debug_lines_are_no_failure() -> None:
    diagnosis = diagnose_text("log/workerlog.1", CHATTER)
    assert diagnosis.first_error is None


def test_paddles_check_of_a_bkcl_call_is_a_communicator_not_built() -> None:
    diagnosis = diagnose_text("log/workerlog.0", PADDLE_CHECK)
    assert_reads(
        diagnosis,
        "hccl",
        first_error="bkcl_init_rank failed",
        rule="hccl.paddle_bkcl_call_failed",
        beside=("driver_env",),
    )
