"""A traceback and CANN block pasted with its line breaks lost comes apart where lines began."""

import pytest

from analyzers.formats.flattened import split_flattened
from tests.analyzers.excerpts import diagnose_text, scan_text

FLATTENED = (
    b'Traceback (most recent call last): File "/srv/job/train.py", line 52, in <module> '
    b'main() File "/srv/job/train.py", line 47, in main model.init_weights() File '
    b'"/opt/py/lib/python3.9/site-packages/torch/nn/init.py", line 155, in uniform_ return '
    b"tensor.uniform_(a, b) RuntimeError: Run:/opt/build/torch_npu/csrc/framework/"
    b"OpParamMaker.cpp:131 NPU error,NPU error code is:100000 EZ9999: Inner Error, Please "
    b"contact support engineer! EZ9999 Kernel task happen error, retCode=0x2a, [aicpu "
    b"exception].[FUNC:PreCheckTaskErr][FILE:task.cc][LINE:1071] TraceBack (most recent call "
    b"last): Aicpu kernel execute failed, device_id=1, stream_id=2, task_id=7."
    b"[FUNC:PrintAicpuErrorInfo][FILE:task.cc][LINE:780]"
)


def test_a_flattened_block_is_cut_where_its_lines_began() -> None:
    pieces = split_flattened(FLATTENED)
    assert pieces[0] == b"Traceback (most recent call last):"
    assert b'File "/srv/job/train.py", line 47, in main model.init_weights()' in pieces
    assert b"EZ9999: Inner Error, Please contact support engineer!" in pieces
    reason = next(p for p in pieces if b"aicpu exception" in p)
    assert reason.startswith(b"EZ9999 Kernel task happen error")
    assert reason.endswith(b"[LINE:1071]")
    assert pieces[-1].startswith(b"Aicpu kernel execute failed")


@pytest.mark.parametrize(
    "raw",
    [
        # one long message that quotes a code after a colon: a single line
        b"RuntimeError: call aclnnCast failed, detail:EZ1001: [PID: 901] 2026-04-02-11:12:13.141."
        b"516 self not implemented for DT_BFLOAT16, should be in dtype support list "
        + b"[DT_FLOAT16,DT_FLOAT,DT_DOUBLE,DT_INT8,DT_UINT8,DT_INT16,DT_INT32,DT_INT64] "
        * 4,
        # a long frame line of a real traceback: one frame, nothing else
        b'  File "/opt/venv/lib/python3.10/site-packages/'
        + b"very_long_package/" * 20
        + b'module.py", line 12, in forward',
        # short, even with several starts
        b"RuntimeError: x EZ9999 y TraceBack (most recent call last): z",
    ],
    ids=["quoted-code", "single-frame", "short"],
)
def test_a_line_that_is_one_message_stays_whole(raw: bytes) -> None:
    assert split_flattened(raw) == [raw]


def test_a_paste_with_more_pieces_than_the_limit_keeps_every_byte() -> None:
    from analyzers.formats import flattened

    raw = FLATTENED * (flattened.MAX_PIECES // 5)
    pieces = split_flattened(raw)

    assert len(pieces) <= flattened.MAX_PIECES
    assert len(pieces[-1]) > 10 * len(FLATTENED)  # the rest, uncut
    assert b"".join(b"".join(p.split()) for p in pieces) == b"".join(raw.split())


# A plog excerpt whose lines were joined by spaces: three CANN headers on one physical line.
FLATTENED_PLOG = (
    b"[ERROR] HCCL(7304,train_gpt):2026-04-11-08:15:02.114.230 [hccl_socket_manager.cc:816] "
    b"[7391][Wait][LinkEstablish]wait socket establish timeout, role[1] rank[3] timeout[120 s] "
    b"[ERROR] HCCL(7304,train_gpt):2026-04-11-08:15:02.114.902 [hccl_socket_manager.cc:880] "
    b"[7391][Wait][LinksEstablishCompleted] is failed. ret[9]. "
    b"[ERROR] RUNTIME(7304,train_gpt):2026-04-11-08:15:02.115.017 [transport_manager.cc:962] "
    b"[7391][SetMachinePara]call trace: hcclRet -> 9"
)


def test_a_plog_run_pasted_on_one_line_is_cut_before_each_header() -> None:
    pieces = split_flattened(FLATTENED_PLOG)

    assert len(pieces) == 3
    assert pieces[0].endswith(b"wait socket establish timeout, role[1] rank[3] timeout[120 s]")
    assert pieces[1].startswith(b"[ERROR] HCCL(7304,train_gpt):2026-04-11-08:15:02.114.902")
    assert pieces[2].startswith(b"[ERROR] RUNTIME(7304,")


@pytest.mark.parametrize(
    "raw",
    [
        # one long plog line: a single header, however long the message
        b"[ERROR] RUNTIME(7304,python):2026-04-11-08:15:02.115.017 [task_info.cc:1678]7391 "
        b"PrintErrorInfoForDavinciTask:Aicore kernel execute failed, "
        + b"args 0x124080042000, "
        * 20,
        # a message quoting a header-like text without the microsecond timestamp
        b"[ERROR] APP(7304,python):2026-04-11-08:15:02.115.017 7391 relayed: "
        + b"[ERROR] HCCL(7304,train_gpt):2026-04-11-08:15:02 "
        + b"x" * 300,
    ],
    ids=["one-long-plog-line", "quoted-header-without-microseconds"],
)
def test_a_plog_line_with_one_header_stays_whole(raw: bytes) -> None:
    assert split_flattened(raw) == [raw]


# Python logging records of a trainer that relays its workers' output, pasted with the line
# breaks turned into runs of spaces: three records on one physical line.
FLATTENED_RECORDS = (
    b"2026-02-03 04:05:06,101 - Tuner - INFO - [rank2]:     raise result"
    + b" " * 40
    + b"2026-02-03 04:05:06,102 - Tuner - INFO - [rank2]: torch.distributed.checkpoint.api."
    b"CheckpointException: CheckpointException ranks:dict_keys([0, 1, 2, 3])"
    + b" " * 40
    + b"2026-02-03 04:05:06,102 - Tuner - INFO - [rank2]: Traceback (most recent call last): (RANK 0)"
)


def test_logging_records_pasted_on_one_line_are_cut_before_each_record() -> None:
    pieces = split_flattened(FLATTENED_RECORDS)

    assert len(pieces) == 3
    assert pieces[0].endswith(b"raise result")
    assert pieces[1].startswith(b"2026-02-03 04:05:06,102 - Tuner - INFO - [rank2]: torch.")
    assert pieces[2].endswith(b"(RANK 0)")


def test_a_record_that_quotes_a_time_stays_whole() -> None:
    # one record whose message mentions another record's time without the ` - ` after it
    raw = (
        b"2026-02-03 04:05:06,101 - Tuner - INFO - resuming from the state saved at "
        b"2026-02-03 03:00:00,000, step 400 - " + b"x" * 300
    )
    assert split_flattened(raw) == [raw]


# A torchrun traceback pasted with its breaks lost: each line's `[rank0]:` prefix stays inline.
FLATTENED_RANK_LINES = (
    b'[rank0]: Traceback (most recent call last): [rank0]: File "/opt/venv/lib/python3.11/'
    b'site-packages/torch/distributed/pipelining/stage.py", line 640, in backward_one_chunk '
    b'[rank0]: grads = self._grads_for(outputs) [rank0]: File "/srv/pp/stage_utils.py", '
    b"line 31, in _grads_for [rank0]: assert len(outputs) == len(grads) \n"
    b"[rank0]: AssertionError [rank0]: The above exception was the direct cause of the "
    b"following exception: \n"
    b'[rank0]: Traceback (most recent call last): [rank0]: File "/srv/pp/train.py", line 90, '
    b"in <module> \n"
)


def test_a_rank_prefix_repeated_inside_a_line_is_cut_before_each_repeat() -> None:
    lines = FLATTENED_RANK_LINES.splitlines()
    pieces = split_flattened(lines[1])

    assert pieces == [
        b"[rank0]: AssertionError",
        b"[rank0]: The above exception was the direct cause of the following exception:",
    ]
    assert split_flattened(lines[0])[-1] == b"[rank0]: assert len(outputs) == len(grads)"


@pytest.mark.parametrize(
    "raw",
    [
        # a worker that prefixes its own lines: the doubled prefix has no space in it
        b"[rank3]:[rank3]:     stage = stage_index_to_stage[stage_index]",
        # another rank named in the message is not a repeat of this line's prefix
        b"[rank0]: waiting for [rank1]: still loading shards",
    ],
    ids=["doubled-prefix", "other-rank"],
)
def test_a_rank_line_without_a_repeat_of_its_prefix_stays_whole(raw: bytes) -> None:
    assert split_flattened(raw) == [raw]


def test_the_bare_assertion_of_a_flattened_rank_traceback_is_the_first_error() -> None:
    diagnosis = diagnose_text("stdout.log", FLATTENED_RANK_LINES.decode())

    assert diagnosis.first_error is not None
    assert diagnosis.first_error.line == 2
    assert "AssertionError" in diagnosis.first_error.text


def test_a_flattened_rank_traceback_quoted_in_markdown_is_cut_alike() -> None:
    quoted = "".join(f"> {line}" for line in FLATTENED_RANK_LINES.decode().splitlines(True))
    pieces = split_flattened(quoted.splitlines()[1].encode())
    assert (
        pieces[-1]
        == b"[rank0]: The above exception was the direct cause of the following exception:"
    )

    diagnosis = diagnose_text("stdout.log", quoted)

    assert diagnosis.first_error is not None
    assert "AssertionError" in diagnosis.first_error.text


def test_the_bare_assertion_is_read_with_the_statement_that_ended_the_line_above() -> None:
    # the statement is the last piece of the physical line above, and the paste lost its indent
    scan = scan_text("stdout.log", FLATTENED_RANK_LINES.decode())

    assertion = next(event for event in scan.events if event.line == 2)
    assert assertion.message == "AssertionError (assert len(outputs) == len(grads))"


def test_an_unindented_assert_a_log_prints_on_a_line_of_its_own_is_not_a_statement() -> None:
    text = "[rank0]: checking: assert mode on\n[rank0]: AssertionError\n"
    scan = scan_text("stdout.log", text)

    assertion = next(event for event in scan.events if event.line == 2)
    assert "assert mode" not in (assertion.message or "")


# Ray's log monitor puts the writer's tag, `(ActorName pid=N, ip=A.B.C.D) `, before every line
# it forwards from a worker; a paste that lost its breaks keeps those tags inline, and Ray's own
# report of the dead worker (which carries no tag) runs on into the forwarded lines after it.
FLATTENED_RAY_LINE = (
    b"pid: 3187 ip: 10.4.7.21 The actor is dead because its worker process has died. Worker "
    b"exit type: SYSTEM_ERROR Worker exit detail: Worker unexpectedly exits with a connection "
    b"error code 2. End of file. There are some potential root causes. (1) The process is "
    b"killed by SIGKILL by OOM killer due to high memory usage. (2) ray stop --force is called. "
    b"(PolicyTrainerActor pid=3190, ip=10.4.7.22) [rank5]:[E903 08:14:51.201337950 "
    b"ProcessGroupNCCL.cpp:616] [Rank 1] Watchdog caught collective operation timeout: "
    b"WorkNCCL(SeqNum=4411, OpType=BROADCAST, NumelIn=16, NumelOut=16, Timeout(ms)=600000) ran "
    b"for 600072 milliseconds before timing out. [repeated 3x across cluster] "
    b"(PolicyTrainerActor pid=3190, ip=10.4.7.22) [rank5]:[E903 08:14:51.201460011 "
    b"ProcessGroupNCCL.cpp:1834] [PG ID 1 PG GUID 2 Rank 1] Timeout at NCCL work: 4411, last "
    b"enqueued NCCL work: 4411, last completed NCCL work: 4410."
)


def test_ray_tags_inside_a_line_are_cut_before_each_forwarded_line() -> None:
    pieces = split_flattened(FLATTENED_RAY_LINE)

    assert len(pieces) == 3
    assert pieces[0].startswith(b"pid: 3187 ip: 10.4.7.21 The actor is dead")
    assert pieces[0].endswith(b"(2) ray stop --force is called.")
    assert all(
        piece.startswith(b"(PolicyTrainerActor pid=3190, ip=10.4.7.22) ") for piece in pieces[1:]
    )


@pytest.mark.parametrize(
    "raw",
    [
        # one forwarded line: the tag opens it and is not repeated
        b"(RolloutWorker pid=812, ip=10.0.3.4) ERROR 09-03 08:14:51 worker.py:77] Error executing method",
        # a message that names one tagged process: a single tag is no run of lines
        b"ray.exceptions.RayTaskError: see the output of (RolloutWorker pid=812) above for details",
    ],
    ids=["one-tag", "quoted-tag"],
)
def test_a_line_with_one_ray_tag_stays_whole(raw: bytes) -> None:
    assert split_flattened(raw) == [raw]


def test_a_dead_worker_reported_before_its_peers_time_out_on_one_pasted_line() -> None:
    diagnosis = diagnose_text("driver.log", FLATTENED_RAY_LINE.decode() + "\n")

    assert diagnosis.category == "device_fault"
    assert diagnosis.first_error is not None
    assert "The actor is dead because its worker process has died" in diagnosis.first_error.text
    assert "Watchdog" not in diagnosis.first_error.text
