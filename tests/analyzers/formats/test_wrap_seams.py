"""Whether a line can be the next piece of a line a terminal cut, read from the text alone.

The pieces are shaped like real cut lines (torch's `[rankN]:[E...]` watchdog record, CANN's
error-manager and plog records, a CUDA allocator's message) with values of our own.
"""

from __future__ import annotations

import pytest

from analyzers.formats.wrap_seams import (
    BARE_HEADER,
    closes_first,
    continues,
    opens_more,
    reads_on,
    visible,
)

WATCHDOG = b"[rank2]:[E1105 08:01:12.000000001 ProcessGroupNCCL.cpp:1700] [PG ID 0 PG GUID 0(defau"


@pytest.mark.parametrize(
    ("line", "after", "joins"),
    [
        pytest.param(
            WATCHDOG, b"lt_pg) Rank 2] ProcessGroupNCCL's watchdog got stuck", True, id="a-piece"
        ),
        pytest.param(
            WATCHDOG,
            b"[rank2]:[E1105 08:01:12.000000002 ProcessGroupNCCL.cpp:1536]",
            False,
            id="a-record-of-its-own",
        ),
        pytest.param(
            WATCHDOG,
            b'  File "/srv/llm/train.py", line 214, in <module>',
            False,
            id="a-traceback-frame",
        ),
        pytest.param(WATCHDOG, b"EZ9999: Inner Error!", False, id="a-cann-code"),
        pytest.param(WATCHDOG, b"2026-11-05 08:01:13,004 - INFO - step 12", False, id="a-time"),
        pytest.param(b"=" * 80, b"step 12 loss 2.31", False, id="a-ruler"),
        pytest.param(WATCHDOG + b"  ", b"lt_pg) Rank 2]", False, id="a-padded-last-piece"),
        pytest.param(WATCHDOG, b"   ", False, id="a-blank-line"),
        pytest.param(
            b"iteration      100/  500000 | consumed samples:        12800 | elapsed time per it",
            b"iteration      101/  500000 | consumed samples:        12928 | elapsed time per it",
            False,
            id="a-repeated-record",
        ),
    ],
)
def test_continues_reads_whether_the_next_line_can_be_a_piece(line, after, joins):
    assert continues(line, after) is joins


@pytest.mark.parametrize(
    ("line", "after", "reads"),
    [
        pytest.param(b"without making p", b"rogress in monitoring", True, id="inside-a-word"),
        pytest.param(b"the operator is aclnn", b"FlashAttentionScore failed", True, id="camel"),
        pytest.param(b"HCCL system ", b"not yet initialized", True, id="after-a-blank"),
        pytest.param(b"mem size :", b" 2048", True, id="before-a-number"),
        pytest.param(b"OpType=", b"ALLREDUCE, NumelIn=4096", True, id="after-a-joiner"),
        pytest.param(b"torch 2.7.", b"8 with CANN 8.1", True, id="inside-a-version"),
        pytest.param(b"stream_id:2", b", task_id:7", True, id="before-a-comma"),
        pytest.param(b"loading finished.", b"Training starts", False, id="a-sentence-ended"),
        pytest.param(b"build with", b"PyTorch (12.4) for sm_90", False, id="a-two-part-name"),
    ],
)
def test_reads_on_tells_a_cut_no_line_end_would_make(line, after, reads):
    assert reads_on(line, after) is reads


@pytest.mark.parametrize(
    ("line", "open_"),
    [
        (b"c10::cuda::CUDACachingAllocator::cudaMallocAsync(ptr, n, mCudaSt", True),
        (b"[W1105 08:01:12 ProcessGroupNCCL.cpp:553] Warning: no device id", False),
        (b"rank 3 lost its peer", False),
    ],
    ids=["a-call-cut-inside", "brackets-closed", "no-bracket"],
)
def test_opens_more_tells_a_line_that_left_a_bracket_open(line, open_):
    assert opens_more(line) is open_


@pytest.mark.parametrize(
    ("after", "closes"),
    [
        (b"ream->get()): out of memory (tried to allocate 2.00 GiB)", True),
        (b"(tried to allocate 2.00 GiB)", False),
    ],
    ids=["closes-what-it-did-not-open", "balanced"],
)
def test_closes_first_tells_a_piece_that_closes_a_bracket_opened_before(after, closes):
    assert closes_first(after) is closes


def test_a_cann_header_alone_on_its_line_is_a_bare_header():
    header = b"[ERROR] RUNTIME(4410,python3):2026-11-05-08:01:12.604.219 [api_impl.cc:5544]4502"
    assert BARE_HEADER.search(header)
    assert not BARE_HEADER.search(header + b" CtxGetSysParamOpt: get param failed")


def test_visible_drops_the_colour_codes_a_copy_kept():
    row = b"\x1b[1;31m[ERROR] device 2 lost\x1b[0m" + b" " * 8
    assert visible(row) == b"[ERROR] device 2 lost" + b" " * 8
    assert visible(b"plain") == b"plain"
