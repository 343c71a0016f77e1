"""Lines a terminal cut at its width before the log was pasted: joined for classification and
the first error, cited at the line where they start; ordinary logs are never joined.

The excerpts follow real shapes (torch `[rankN]:[Emmdd ...]` watchdog lines, torch_npu's
exception text with its CANN error-manager block, torchrun `[defaultN]:` tracebacks, CANN
plog lines) with values and wording of our own; `cut` breaks them as a terminal does.
"""

from __future__ import annotations

import io
import textwrap

import pytest

from analyzers.core.types import EventKind
from analyzers.formats import wrapped
from analyzers.formats.wrapped import WrapJoiner
from analyzers.ingest.textio import iter_blocks
from tests.analyzers.excerpts import diagnose_text, scan_text

WATCHDOG = [
    "[rank5]:[E1107 02:14:09.512301844 ProcessGroupNCCL.cpp:1748] [PG ID 0 PG GUID 0(default_pg)"
    " Rank 5] ProcessGroupNCCL's watchdog got stuck for 600 seconds without making progress in"
    " monitoring enqueued collectives. A blocked device call in some other thread may be the"
    " reason. To wait longer raise TORCH_NCCL_HEARTBEAT_TIMEOUT_SEC; to switch the monitor off"
    " set TORCH_NCCL_ENABLE_MONITORING=0. Otherwise look for the rank that stopped.",
    "[rank5]:[E1107 02:14:09.512450117 ProcessGroupNCCL.cpp:1536] [PG ID 0 PG GUID 0(default_pg)"
    " Rank 5] ProcessGroupNCCL preparing to dump debug info. Include stack trace: 1",
    "[rank5]:[F1107 02:22:09.513001733 ProcessGroupNCCL.cpp:1557] [PG ID 0 PG GUID 0(default_pg)"
    " Rank 5] [PG ID 0 PG GUID 0(default_pg) Rank 5] Terminating the process after attempting"
    " to dump debug info, due to ProcessGroupNCCL watchdog hang.",
]
CANN = [
    "Traceback (most recent call last):",
    '  File "/home/work/llm/train.py", line 214, in <module>',
    "    trainer.step(batch)",
    '  File "/home/work/llm/engine.py", line 93, in step',
    "    torch.npu.synchronize()",
    "RuntimeError: npuSynchronizeDevice:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:467"
    " NPU function error: AclrtSynchronizeDeviceWithTimeout, error code is 507014",
    "[ERROR] 2026-05-11-08:42:17 (PID:30412, Device:2, RankID:2) ERR00100 PTA call acl api failed",
    "[Error]: The aicore execution times out.",
    "        Rectify the fault based on the error information in the ascend log.",
    "EZ9999: Inner Error!",
    "EZ9999[PID: 30412] 2026-05-11-08:42:17.604.219 (EZ9999):  The error from device(chipId:2,"
    " dieId:0), serial number is 41, an aicore timeout occurred on task 77 of stream 5, core"
    " id is 12, error code = 0x800000.[FUNC:ProcessStarsCoreErrorInfo]"
    "[FILE:device_error_core_proc.cc][LINE:336]",
    "        TraceBack (most recent call last):",
    "        rtStreamSynchronizeWithTimeout execute failed, reason=[aicore timeout]"
    "[FUNC:FuncErrorReason][FILE:error_message_manage.cc][LINE:53]",
]
SHAPE = [
    "[default0]:/opt/venv/lib/python3.10/site-packages/torch_npu/contrib/transfer_to_npu.py:301:"
    " ImportWarning: the jit compiler is switched off on this device by default for now",
    "[default0]:Traceback (most recent call last):",
    '[default0]:  File "/opt/proj/run_sft.py", line 57, in <module>',
    "[default0]:    main()",
    '[default0]:  File "/opt/proj/run_sft.py", line 49, in main',
    "[default0]:    logits = model(**inputs)",
    "[default0]:RuntimeError: The size of tensor a (4096) must match the size of tensor b (2048)"
    " at non-singleton dimension 2",
]


def cut(lines: list[str], width: int, pad: bool = False) -> str:
    """The lines as a terminal `width` columns wide shows them (`pad`: blanks fill the rest of
    each last piece, as some terminals copy them)."""
    out = []
    for line in lines:
        pieces = [line[at : at + width] for at in range(0, len(line), width)] or [""]
        if pad:
            pieces[-1] = pieces[-1].ljust(width)
        out += pieces
    return "\n".join(out) + "\n"


def joined(text: str) -> list[tuple[int, int]]:
    """(first line, piece count) of every logical line of more than one piece, visiting every
    line as the scanner would if each were a candidate."""
    found, line_no = [], 1
    for block in iter_blocks(io.BytesIO(text.encode()), 1 << 20):
        joiner, pos = WrapJoiner(), 0
        while pos < len(block):
            first, last, pieces, _ = joiner.logical(block, pos, block.find(b"\n", pos))
            if len(pieces) > 1:
                found.append((line_no - block.count(b"\n", first, pos), len(pieces)))
            line_no += block.count(b"\n", pos, last) + 1
            pos = last + 1
    return found


def first_lines(lines: list[str], width: int) -> list[int]:
    """The physical line where each logical line starts once cut at `width`."""
    starts, number = [], 1
    for line in lines:
        starts.append(number)
        number += max(1, -(-len(line) // width))
    return starts


@pytest.mark.parametrize("pad", [False, True], ids=["bare", "padded"])
def test_a_watchdog_line_cut_at_120_columns_reads_as_a_hang_cited_at_its_first_piece(pad):
    text = cut(WATCHDOG, 120, pad)
    diagnosis = diagnose_text("train.log", text)
    assert diagnosis.category == "hang"
    assert diagnosis.first_error is not None
    assert diagnosis.first_error.line == 1
    assert "watchdog got stuck for 600 seconds" in diagnosis.first_error.text
    assert "Otherwise look for the rank that stopped." in diagnosis.first_error.text
    assert joined(text) == [(1, 4), (5, 2), (7, 2)]


def test_every_event_of_a_cut_log_sits_on_a_first_piece_and_no_piece_is_classified_alone():
    text = cut(WATCHDOG, 120)
    events = [e for e in scan_text("train.log", text).events if e.kind != EventKind.CHECKPOINT]
    assert events
    assert {e.line for e in events} <= set(first_lines(WATCHDOG, 120))
    assert all(e.text.startswith("[rank5]:") for e in events)


def test_a_cann_inner_error_cut_at_80_columns_keeps_its_whole_message_and_its_label():
    whole, text = diagnose_text("train.log", cut(CANN, 1000)), cut(CANN, 80)
    diagnosis = diagnose_text("train.log", text)
    assert whole.category == diagnosis.category == "aicore_timeout"
    assert diagnosis.first_error is not None
    assert whole.first_error is not None
    assert diagnosis.first_error.text == whole.first_error.text
    starts = dict(zip(first_lines(CANN, 1000), first_lines(CANN, 80), strict=True))
    assert diagnosis.first_error.line == starts[whole.first_error.line]
    messages = [e.message for e in scan_text("train.log", text).events]
    assert any("core id is 12, error code = 0x800000" in m for m in messages)
    assert any("reason=[aicore timeout]" in m for m in messages)


def test_a_wrapped_python_exception_message_is_one_exception_at_its_first_piece():
    text = cut(SHAPE, 100)
    diagnosis = diagnose_text("train.log", text)
    assert diagnosis.category == "shape_mismatch"
    assert diagnosis.first_error is not None
    assert diagnosis.first_error.line == first_lines(SHAPE, 100)[-1]
    assert diagnosis.first_error.text.endswith("at non-singleton dimension 2")
    assert "size of tensor a (4096)" in diagnosis.first_error.text


def test_a_lone_cut_inside_a_word_at_a_usual_terminal_width_is_joined():
    line = (
        "ValueError: expected the batch to hold 16 sequences of 4096 tokens each, found 12 of them"
    )
    text = "".join(f"step {n} ok\n" for n in range(3)) + cut([line], 80)
    assert text.splitlines()[3].endswith("found 1")  # the cut falls inside a number
    assert joined(text) == [(4, 2)]
    assert joined(text.replace("found 1\n", "found \n1")) == []  # a blank: maybe a natural end


def test_a_traceback_whose_frames_tie_for_the_longest_line_is_not_joined():
    frame = '  File "/opt/proj/pkg/module_{:02d}.py", line 1{:02d}, in forward'
    lines = ["Traceback (most recent call last):"]
    for n in range(6):
        lines += [frame.format(n, n), f"    return self.layer_{n}(x)"]
    lines += ["ValueError: bad value in layer five", "[ERROR] 2026-05-11-08:42:17 done"]
    assert len({len(line) for line in lines if "File" in line}) == 1
    assert joined("\n".join(lines) + "\n") == []


def test_a_plog_with_lines_of_one_width_is_not_joined():
    plog = (
        "[ERROR] HCCL(4121,python):2026-05-11-08:42:{:02d}.{:03d}.000 [transport.cc:311][4133]"
        " connect to peer rank {} timed out after 120 s, check the network between the nodes\n"
    )
    text = "".join(plog.format(n, n, n % 8) for n in range(20))
    assert len({len(line) for line in text.splitlines()}) == 1
    assert joined(text) == []
    assert joined(text.replace("[ERROR] HCCL", "HCCL", 1)) == []


def test_an_ordinary_rank_log_with_varied_lines_is_not_joined():
    lines = []
    for step in range(40):
        lines.append(
            f"2026-05-11 08:{step:02d}:01,112 - INFO - step {step} loss {3 - step / 20:.3f}"
        )
        lines.append(f"saving shard {step} of the optimizer state to /data/ckpt/run7/part{step}")
        if step % 10 == 3:  # the same long warning printed again, then a plain print
            lines.append(
                "W0511 08:03:11.000 1212 warnings.py:99] the dataloader is slower than the"
                " device, consider more workers or pinned memory for the host side buffers"
            )
            lines.append("collecting garbage before the next epoch")
    assert joined("\n".join(lines) + "\n") == []


def test_repeated_records_of_one_width_are_not_pieces_of_each_other():
    record = (
        " iteration {:8d}/  250000 | consumed samples: {:12d} | elapsed time per iteration (ms):"
        " {:8.1f} | learning rate: 9.150E-06 | global batch size:  1024 | lm loss: 2.1"
    )
    text = "".join(record.format(n, n * 1024, 80000 + n) + "\n" for n in range(120, 130))
    assert len({len(line) for line in text.splitlines()}) == 1
    assert joined(text) == []


PROSE = (
    "Rank three stopped answering after the second checkpoint was written, and the other ranks"
    " waited in the next all-reduce until the collective timeout fired. The node had lost one of"
    " its links a few minutes earlier; the switch log shows the port going down and coming back"
    " twice. We restarted the job from the last checkpoint with the faulty node drained and it"
    " ran through the night without trouble, so the code itself is probably fine. "
) * 2


@pytest.mark.parametrize("width", range(64, 101, 4))
def test_prose_wrapped_at_words_by_an_editor_is_not_joined(width):
    text = "\n".join(textwrap.wrap(PROSE, width)) + "\n"
    assert joined(text) == []


def test_neighbourhood_widths_are_only_measured_around_visited_lines(monkeypatch):
    measured = []
    real = WrapJoiner._bucket

    def counting(self, index):
        measured.append(index)
        return real(self, index)

    monkeypatch.setattr(WrapJoiner, "_bucket", counting)
    info = "2026-05-11 08:40:01,112 - INFO - step {} loss 2.310 throughput 812.4 samples/s\n"
    text = "".join(info.format(n) for n in range(60_000)) + cut(WATCHDOG, 120)
    assert len(text) > 40 * wrapped.SPAN * 3
    diagnosis = diagnose_text("train.log", text)
    assert diagnosis.category == "hang"
    assert len(set(measured)) <= 6


@pytest.mark.parametrize("size", [200, 700, 4096])
def test_line_numbers_stay_physical_when_blocks_cut_a_wrapped_line(monkeypatch, size):
    """A logical line is joined inside one block only: a piece that starts a block stands
    alone (a 1 MiB block rarely cuts a pasted excerpt), and the counting never slips."""
    from analyzers.scan import member as scan_module

    monkeypatch.setattr(scan_module._FileScanner, "block_size", size)
    tail = "[rank5]:[E1107 02:30:00.000000001 Utils.hpp:110] RuntimeError: rank 5 lost its peer\n"
    text = cut(WATCHDOG, 120) + tail
    result = scan_text("train.log", text)
    assert result.info.lines == len(text.splitlines())
    last = max(result.events, key=lambda e: e.line)
    assert (last.line, last.text) == (len(text.splitlines()), tail.strip())
    lines = {e.line for e in result.events}
    if size > len(text):
        assert lines <= {*first_lines(WATCHDOG, 120), last.line}
    else:
        assert 1 in lines or 2 in lines


def test_a_collective_librarys_line_after_a_line_of_window_width_opens_a_record():
    """NCCL and RCCL start each line with `host:pid:tid [device]`; a WARN line that happens to
    be as wide as a usual terminal does not swallow the next line."""
    warn = (
        "gpu-node-4:71822:71901 [3] NCCL INFO transport/p2p.cc:275 Could not enable P2P between"
        " dev 3(=c1000) and dev 1(=41000)"
    )
    warn += "x" * (132 - len(warn))
    fatal = "gpu-node-4:71822:71901 [3] [FATAL ERROR]: HIP failure: 'invalid device pointer'"
    text = "".join(f"step {n} ok\n" for n in range(3)) + warn + "\n" + fatal + "\n"
    assert len(warn) == 132
    assert joined(text) == []


def test_the_cpp_runtimes_terminate_message_after_a_line_of_window_width_opens_a_record():
    """The C++ runtime prints `terminate called ...` on a line of its own when a thread ends on
    an exception; an exception line that happens to be as wide as a usual terminal and end in
    a digit does not swallow it."""
    error = (
        "RuntimeError: cuda runtime error (2) : out of memory at /opt/torch/aten/src/THC/"
        "THCGeneral.cpp:"
    )
    error += "4" * (132 - len(error))
    text = "".join(f"step {n} ok\n" for n in range(3)) + error + "\n"
    text += "terminate called without an active exception\n"
    assert len(error) == 132
    assert joined(text) == []
    assert joined(text.replace("terminate called", "terminated")) == [(4, 2)]  # a real cut


# One long record among short ones, cut once by a terminal 200 columns wide; the column falls
# wherever the text happens to be: after a blank, before one, inside a CamelCase op name.
LONE_CUTS = [
    pytest.param(
        "ERROR 03-14 09:12:55 engine.py:389] Unexpected error from cudaGetDeviceCount(). Did you"
        " run some cuda functions before calling NumCudaDevices() that might have already set an"
        " error? Error 802: system not yet initialized",
        "system ",
        id="after-a-blank",
    ),
    pytest.param(
        "[ERROR] PRE_ACT(61187345,ffff8a3f91e0,python):2025-03-14-09:12:55.301.443 [mindspore/"
        "ccsrc/backend/common/mem_reuse/mem_dynamic_allocator.cc:392] AddMemBlockAndMemBufByEager"
        "Free] TotalUsedStatistics : 30356337664 plus alloc size : 301990400 is more than total"
        " mem size : 31464985600.",
        "TotalUsedStatistics :",
        id="before-a-blank",
    ),
    pytest.param(
        "2025-03-14 09:12:55,344 - lmdeploy - ERROR - Engine loop failed with error: The Inner"
        " error is reported as above. The process exits for this inner error, and the current"
        " working operator name is aclnnFlashAttentionVarLenScore.",
        "is aclnn",
        id="inside-a-camelcase-name",
    ),
    pytest.param(
        "[rank2]:[E1107 02:14:09.512301844 ProcessGroupNCCL.cpp:17540] [Rank 2] Watchdog caught"
        " collective operation"
        " timeout: WorkNCCL(SeqNum=130512, OpType=ALLREDUCE, NumelIn=4096, NumelOut=4096,"
        " Timeout(ms)=600000) ran for 600418 milliseconds before timing out. Process group"
        " watchdog thread terminated with exception: NCCL timeout",
        "Timeout(ms)=",
        id="after-a-joiner",
    ),
    pytest.param(
        "RuntimeError: NCCL error in: /pytorch/torch/lib/c10d/ProcessGroupNCCL.cpp:784, unhandled"
        " system error, while creating the communicator for ranks 0-15 on 4 hosts (16 cards, 4 a"
        " host), NCCL version"
        " 2.7.8, check the network interface names",
        "NCCL version 2.7.",
        id="inside-a-version",
    ),
    pytest.param(
        "EE9999 The error from device(chipId:0, dieId:0), serial number is 13, an exception"
        " occurred during AICPU execution of the kernel on the AI CPU core while the graph ran its"
        " 3rd step, stream_id:12345678"
        ", task_id:19016, errcode:21008, msg:inner error.[FUNC:ProcessStarsAicpuErrorInfo]",
        "stream_id:12345678",
        id="before-a-comma",
    ),
]
START_UP = "".join(f"INFO 03-14 09:12:{n:02d} worker.py:{n}] step {n} done\n" for n in range(3))


@pytest.mark.parametrize(("line", "piece_end"), LONE_CUTS)
def test_a_lone_cut_at_200_columns_is_joined_wherever_the_column_falls(line, piece_end):
    text = START_UP + cut([line], 200)
    assert text.splitlines()[3].endswith(piece_end)
    assert joined(text) == [(4, 2)]
    diagnosis = diagnose_text("serve.log", text)
    assert diagnosis.first_error is not None
    assert diagnosis.first_error.text.endswith(line[-24:])


@pytest.mark.parametrize(
    ("piece_end", "next_line"),
    [
        (" ", "Loading safetensors checkpoint shards: 100% Completed | 4/4"),  # blank, capital
        (" ", "12 requests are waiting in the queue"),  # a blank, then a number
        ("s", "Starting the engine core with 8 workers"),  # a word, then a capitalised one
        ("s", "PyTorch (12.4). Please make sure to use the same CUDA versions."),  # a product
        ("s", " iteration 12/ 250000 | lm loss: 2.1"),  # a word, then a blank and a word
    ],
)
def test_a_line_of_window_width_keeps_its_own_next_line_when_the_seam_reads_as_an_end(
    piece_end, next_line
):
    head = "INFO 03-14 09:12:55 worker.py:88] model weights took 14.9 GiB and kv cache takes"
    record = (head + " 61.2 GiB of the device memory " + "x" * 200)[:199] + piece_end
    text = START_UP + record + "\n" + next_line + "\n"
    assert joined(text) == []


KERNEL_ASSERT = (
    "/opt/torch/aten/src/ATen/native/cuda/ScatterGatherKernel.cu:144: operator(): block: [0,0,0],"
    ' thread: [0,0,0] Assertion `idx_dim >= 0 && idx_dim < index_size && "index out of bounds"`'
    " failed."
)


def marked(lines: list[str], width: int, mark: str = "$") -> str:
    """The lines as a viewer `width` columns wide folds them: the last column of every piece
    that goes on shows `mark` instead of its character, which is lost."""
    out = []
    for line in lines:
        while len(line) > width:
            out.append(line[: width - 1] + mark)
            line = line[width:]
        out.append(line)
    return "\n".join(out) + "\n"


def test_repeated_lines_a_viewer_folded_with_its_cut_mark_are_joined_at_an_unusual_width():
    text = marked([KERNEL_ASSERT] * 4, 134)
    assert len(set(text.splitlines()[::2])) == 1  # the same words: no variety proves the width
    assert joined(text) == [(1, 2), (3, 2), (5, 2), (7, 2)]
    diagnosis = diagnose_text("train.log", text)
    assert diagnosis.category == "device_fault"
    assert diagnosis.first_error is not None
    assert diagnosis.first_error.line == 1
    assert diagnosis.first_error.text.endswith('"index out of bounds"` failed.')


@pytest.mark.parametrize(
    ("lines", "mark"),
    [
        pytest.param([KERNEL_ASSERT] * 4, "", id="no-mark"),  # repeats of one width prove nothing
        pytest.param([KERNEL_ASSERT], "$", id="a-lone-mark"),  # once at a width no terminal has
    ],
)
def test_pieces_without_a_recurring_cut_mark_at_an_unusual_width_stay_apart(lines, mark):
    width = 134
    text = START_UP + (marked(lines, width, mark) if mark else cut(lines, width))
    assert joined(text) == []


# One record printed by every rank with its own numbers (an older torch's watchdog timeout),
# after a progress line, as a terminal that copies its rows whole shows it: each short row is
# filled with blanks up to the window, and each long line is cut inside its number.
PADDED = [
    "epoch 12 | step 4410 | loss 0.0213 | val acc 0.8841 | best 0.8860 | lr 2.5e-05",
    *(
        f"[E ProcessGroupNCCL.cpp:612] [Rank {rank}] Watchdog caught collective operation timeout:"
        f" WorkNCCL(SeqNum=9{rank}1, OpType=ALLGATHER, Timeout(ms)=1800000) ran for"
        f" 18004{rank}7 milliseconds before timing out."
        for rank in (2, 0, 3)
    ),
]


def test_a_copy_that_pads_its_rows_joins_one_record_cut_on_every_rank_at_an_unusual_width():
    width = 154
    text = cut(PADDED, width, pad=True)
    rows = text.splitlines()
    assert width not in wrapped.COMMON_WIDTHS
    assert {len(row) for row in rows} == {width}  # every row as wide as the window
    assert rows[1].endswith("ran for 18")  # cut inside the number
    assert rows[2].startswith("00427")
    assert joined(text) == [(2, 2), (4, 2), (6, 2)]
    diagnosis = diagnose_text("train.log", text)
    assert diagnosis.category == "hccl"
    assert diagnosis.first_error is not None
    assert diagnosis.first_error.line == 2
    assert diagnosis.first_error.text.endswith("ran for 1800427 milliseconds before timing out.")


def test_padded_rows_prove_no_cut_before_a_line_narrower_than_the_window():
    width = 154
    rows = cut(PADDED, width, pad=True).splitlines()
    # the last piece as a paste that stops mid-row leaves it: not a row of the window's width
    rows[2] = rows[2].rstrip()
    assert joined("\n".join(rows) + "\n") == [(4, 2), (6, 2)]
    # rows padded to one width with nothing cut are left as they are
    assert joined(cut([PADDED[0]] * 3 + ["checkpoint saved to /data/ckpt/run7"], width, True)) == []


# A manual's plog example broken at the blank after the thread id: the header stands alone on its
# line and the record's message follows on the next, at no window width.
BARE_HEADER = """\
[ERROR] RUNTIME(6120,worker):2026-07-01-02:03:04.500.600  [api_impl.cc:5544]6188
CtxGetSysParamOpt:ctx is NULL!
[ERROR] RUNTIME(6120,worker):2026-07-01-02:03:04.500.700 [api_c.cc:5200]6188 rtCtxGetSysParamOpt:ErrCode=107002, desc=[context pointer null], InnerCode=0x7070001
"""


def test_a_plog_header_alone_on_its_line_joins_the_message_under_it():
    assert joined(BARE_HEADER) == [(1, 2)]
    events = [e for e in scan_text("plog-6120_1.log", BARE_HEADER).events]
    assert any(
        e.text.endswith("[api_impl.cc:5544]6188 CtxGetSysParamOpt:ctx is NULL!") for e in events
    )


def test_a_header_alone_before_another_record_stays_apart():
    text = BARE_HEADER.replace("CtxGetSysParamOpt:ctx is NULL!\n", "")
    assert joined(text) == []


def test_a_whole_plog_record_ending_in_a_number_keeps_its_next_line():
    text = (
        "[ERROR] RUNTIME(6120,worker):2026-07-01-02:03:04.500.600 [api_impl.cc:5544]6188 CtxGetSysParamOpt: stream 12\n"
        "retrying on stream 13\n"
    )
    assert joined(text) == []


# A terminal copy that keeps its colour codes: each screen row between the code that coloured it
# and the reset, the blanks that pad a short row inside them (`\x1b[1;31m...   \x1b[0m`).
def coloured(text: str) -> str:
    return "".join(f"\x1b[1;31m{row}\x1b[0m\n" for row in text.splitlines())


TRACEBACK = [
    "epoch 12 | step 4410 | loss 0.0213 | val acc 0.8841 | best 0.8860 | lr 2.5e-05",
    "Traceback (most recent call last):",
    '  File "/home/work/llm/train.py", line 214, in <module>',
    "    trainer.step(batch)",
    "RuntimeError: The size of tensor a (4096) must match the size of tensor b (2048) at dim 2",
    "saving an emergency checkpoint to /data/ckpt/run7",
]


def test_colour_codes_around_padded_rows_leave_rows_nothing_cut_apart():
    padded = cut(TRACEBACK, 120, pad=True)
    assert joined(padded) == joined(coloured(padded)) == []
    plain, shown = diagnose_text("train.log", padded), diagnose_text("train.log", coloured(padded))
    assert shown.first_error is not None
    assert shown.first_error.line == 5
    assert shown.first_error.text.startswith("RuntimeError: The size of tensor a (4096)")
    assert (shown.category, shown.first_error.text) == (plain.category, plain.first_error.text)


def test_colour_codes_around_a_padded_copy_still_join_the_rows_it_cut():
    text = coloured(cut(PADDED, 154, pad=True))
    assert joined(text) == [(2, 2), (4, 2), (6, 2)]
    diagnosis = diagnose_text("train.log", text)
    assert diagnosis.first_error is not None
    assert diagnosis.first_error.line == 2
    assert "ran for 1800427 milliseconds" in diagnosis.first_error.text


# A serving backend's one-line report of a native call that failed, pasted from a window of a
# width no usual terminal has: the cut falls inside an argument of the call, so the first piece
# leaves the call's bracket open and the next piece closes it.
CALL_FAILED = (
    "E0304 05:06:09.152656 4410 backend_model.cc:553] ERROR: Failed to create instance:"
    " unexpected error when creating modelInstanceState: [TensorRT-LLM][ERROR] CUDA runtime"
    " error in ::cudaMallocAsync(ptr, n, mCudaStream->get()): out of memory"
    " (/src/cpp/tensorrt_llm/runtime/tllmBuffers.h:112)"
)
STACK_ROWS = "".join(
    f"{n}       0x7f5fe68{n}8d85 /opt/tritonserver/backends/tensorrtllm/libtriton_tensorrtllm.so"
    f"(+0x35d8{n}) [0x7f5fe68{n}8d85]\n"
    for n in range(1, 5)
)


def test_a_lone_cut_inside_an_open_call_at_an_unusual_width_is_joined():
    width = 211
    assert width not in wrapped.COMMON_WIDTHS
    text = cut([CALL_FAILED], width) + STACK_ROWS
    assert text.splitlines()[0].endswith("mCudaSt")  # inside a name, the call still open
    assert joined(text) == [(1, 2)]
    diagnosis = diagnose_text("tritonserver.log", text)
    assert diagnosis.category == "oom"
    assert diagnosis.first_error is not None
    assert diagnosis.first_error.line == 1
    assert "out of memory" in diagnosis.first_error.text
    assert diagnosis.confidence >= 0.7


def test_a_lone_cut_with_every_bracket_closed_at_an_unusual_width_stays_apart():
    """Without a bracket the cut leaves open, a seam inside a word at an unusual width is not
    enough: a line of its own may end there."""
    line = CALL_FAILED.replace("(ptr, n, mCudaStream->get())", "<ptr n mCudaStream->get>")
    text = cut([line], 211) + STACK_ROWS
    assert "(" not in text.splitlines()[0].split("modelInstanceState")[1]
    assert joined(text) == []


def test_an_open_bracket_before_a_line_that_opens_its_own_record_stays_apart():
    """The next line opens a record of its own (a time, an exception): no seam, no join."""
    text = cut([CALL_FAILED], 211).splitlines()[0] + "\n"
    text += "RuntimeError: the model instance could not be created (see the backend log)\n"
    text += STACK_ROWS
    assert joined(text) == []
