"""scan_file on whole files: real corpus logs, robustness, checkpoints and file facts."""

import io
import json
import tarfile
from array import array
from datetime import UTC, datetime

import pytest

from analyzers.checkpoints.patterns import CheckpointMatcher
from analyzers.core.types import EventKind, FileInfo, FileKind
from analyzers.formats import checkpoint_lines
from analyzers.ingest.layout import classify_path
from analyzers.scan import member as scan_module
from analyzers.scan.member import scan_file
from tests.corpus_path import CORPUS as SHARED_CORPUS

CORPUS = SHARED_CORPUS
CASES = sorted((CORPUS / "cases").glob("d*")) if CORPUS.exists() else []
TORCH = sorted((CORPUS / "torch").glob("*.tar.gz")) if CORPUS.exists() else []
MATCHER = CheckpointMatcher()


def scan_text(text: str | bytes, kind=FileKind.RANK_LOG, rank=None, path="log_0.log"):
    data = text.encode() if isinstance(text, str) else text
    return scan_file(io.BytesIO(data), FileInfo(path, kind, rank), MATCHER)


def problems(result):
    return [e for e in result.events if e.kind != EventKind.CHECKPOINT]


@pytest.mark.parametrize("case", CASES, ids=lambda p: p.name)
def test_every_case_yields_its_first_causal_error_line(case):
    truth = json.loads((case / "truth.json").read_text())
    events = []
    for path in sorted(case.glob("log*.txt")):
        kind, rank = classify_path(path.name)
        with path.open("rb") as stream:
            events += problems(scan_file(stream, FileInfo(path.name, kind, rank), MATCHER))
    for wanted in [truth["first_error_contains"], *truth.get("first_error_also", [])]:
        assert any(wanted in event.text for event in events), wanted


@pytest.mark.parametrize("bundle", TORCH, ids=lambda p: p.name)
def test_torch_runs_yield_their_first_error_and_every_checkpoint(bundle):
    truth = json.loads(bundle.with_name(bundle.name.replace(".tar.gz", ".truth.json")).read_text())
    events, counts = [], {}
    with tarfile.open(bundle) as tar:
        for member in tar.getmembers():
            if not member.isfile():
                continue
            kind, rank = classify_path(member.name)
            result = scan_file(tar.extractfile(member), FileInfo(member.name, kind, rank), MATCHER)
            events += result.events
            if kind == FileKind.RANK_LOG and rank is not None:
                track = result.facts.get("checkpoints")
                counts[rank] = len(track) if track is not None else 0
    for candidate in truth["first_error_candidates"]:
        assert any(candidate["line"] == e.text for e in events if e.kind != EventKind.CHECKPOINT)
    if truth.get("log_style") != "std":
        assert counts == {int(r): n for r, n in truth["per_rank_checkpoint_count"].items()}


def test_info_noise_is_not_an_event():
    text = (
        "[default0]:2026-11-29 07:25:37,093 [rank0] INFO load weights passed\n"
        "[default0]:2026-11-29 07:25:37,093 [rank0] INFO retry failed once, trying again\n"
        "[INFO] HCCL(989,python):2024-08-01-15:02:25.699.358 [heartbeat.cc:536][3851] status[LOST] timeout\n"
        "init process group: backend=gloo rank=1 world_size=4 timeout=10s\n"
    )
    assert problems(scan_text(text)) == []


@pytest.mark.parametrize(
    "line",
    [
        "Segmentation fault (core dumped)",
        "Aborted (core dumped)",
        "Killed",
        "terminate called after throwing an instance of 'std::runtime_error'",
        "Fatal Python error: Segmentation fault",
        "[E1129 07:24:27.616993348 ProcessGroupGloo.cpp:2901] [Rank 0]: Rank 2 failed to pass monitoredBarrier in 5000 ms",
        "RuntimeError: NPU out of memory. Tried to allocate 30.00 MiB (NPU 3; 60.96 GiB total capacity)",
        "torch.distributed.DistStoreError: Timed out after 901 seconds waiting for clients. 1/8 clients joined.",
        "EZ9999[PID: 412] 2026-04-19-16:49:58.410.132 (EZ9999):  get unsupported atten_mask shape, the shape is [16, 1, 1, 9170].",
        "hccl fftsplus task timeout occurred during task execution, stream_id:7, sq_id:7, task_id:6029",
        "W1129 07:25:37.303000 26576 torch/distributed/elastic/multiprocessing/api.py:1028] Sending process 26690 closing signal SIGTERM",
        "Process exited with code 137",
        "...CUDA out of memory. Tried to allocate 12.50 GiB. GPU 0 has a total capacity of 23.6 GiB",
        "\tsize mismatch for lm_head.weight: copying a param with shape torch.Size([4, 8]) from checkpoint",
    ],
)
def test_failure_lines_become_events(line):
    [event] = problems(scan_text(line + "\n"))
    assert event.message.endswith(line.split("] ")[-1][-20:])


def test_line_numbers_count_physical_lines_and_the_last_unterminated_one():
    result = scan_text("one\ntwo\nthree RuntimeError: boom")
    assert result.info.lines == 3
    assert [e.line for e in problems(result)] == [3]


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        (b"RuntimeError: caf\xe9 broke\n", "RuntimeError: caf\ufffd broke"),
        (b"\x00\x00RuntimeError: after NULs\x00\n", "RuntimeError: after NULs"),
        (b"\x1b[31mRuntimeError: coloured\x1b[0m\r\n", "RuntimeError: coloured"),
    ],
    ids=["latin1", "nul", "ansi-crlf"],
)
def test_dirty_bytes_never_crash_and_come_out_clean(raw, message):
    [event] = problems(scan_text(raw))
    assert event.message == message


def test_a_10_mb_line_is_cut_and_the_lines_after_it_still_count():
    data = b"RuntimeError: " + b"x" * 10_000_000 + b"\nsecond line\nValueError: third\n"
    result = scan_text(data)
    assert result.info.lines == 3
    first, third = problems(result)
    assert first.text.endswith("[...cut]")
    assert len(first.text) < 10_000
    assert (third.line, third.message) == (3, "ValueError: third")


def test_empty_file():
    result = scan_text(b"")
    assert (result.info.lines, result.events, result.facts) == (0, [], {})


def test_year_less_times_take_the_year_of_the_file():
    text = (
        "2026-11-29 07:25:36,861 [rank3] INFO init process group\n"
        "[rank3]:[E1129 07:24:27.616993348 ProcessGroupGloo.cpp:2901] [Rank 3]: Rank 2 failed to pass monitoredBarrier\n"
    )
    [event] = problems(scan_text(text, rank=3))
    assert event.timestamp.isoformat() == "2026-11-29T07:24:27.616993"


def test_world_size_and_rank_hint_from_content():
    text = "[default0]:2026-11-29 07:25:36,861 [rank5] INFO init process group: backend=gloo rank=5 world_size=16\n"
    facts = scan_text(text, path="worker.log").facts
    assert (facts["world_size"], facts["rank_hint"]) == (16, 5)
    assert "rank_hint" not in scan_text(text, rank=5, path="log_5.log").facts


def test_a_file_numbered_per_agent_keeps_the_rank_it_names():
    """Labelling guide, "A second launcher agent numbers its ranks from 0": torchrun's
    attempt_0/<local rank>/ file of a second node says which global rank wrote it."""
    text = (
        "init process group: backend=gloo rank=6 world_size=8 master=10.0.0.1:29500 timeout=10s\n"
    )
    path = "node0/torchrun_logs/job_a/attempt_0/2/stdout.log"
    assert scan_text(text, rank=2, path=path).facts["named_rank"] == 6
    # a rank's own log name is the global rank: nothing is asked of its content
    assert "named_rank" not in scan_text(text, rank=2, path="log_2.log").facts


def test_a_checkpoint_heavy_log_records_every_checkpoint_with_its_line_and_time():
    lines = []
    for step in range(400):
        for layer in range(4):
            stamp = f"2026-11-29 07:{step // 60:02d}:{step % 60:02d},{layer:03d}"
            lines.append(f"{stamp} [rank2] INFO  attention passed")
            lines.append(f"{stamp} [rank2] INFO layer {layer} passed")
        lines.append(f"2026-11-29 07:00:{step % 60:02d},999 [rank2] INFO iter {step} loss=2.0")
    track = scan_text("\n".join(lines) + "\n", rank=2).facts["checkpoints"]
    texts = list(track.texts_in_order())
    assert len(track) == 3200
    assert texts.count("attention passed") == 1600
    assert texts.count("layer 3 passed") == 400
    assert track.entry(1999) == (
        "layer 3 passed",
        (1999 // 8) * 9 + 8,
        datetime(2026, 11, 29, 7, 4, 9, 3000, tzinfo=UTC).timestamp(),
        2,
        None,
    )
    assert track.entry(len(track) - 1)[1] == len(lines) - 1
    assert set(track.rank) == {2}


def test_quick_reads_agree_with_a_full_parse_on_every_line():
    lines = [
        f"[default{r}]:2026-11-29 07:25:{i % 60:02d},{r:03d} [rank{r}] INFO layer {i} passed"
        for i in range(300)
        for r in (3, 12)
    ]
    quick = scan_text("\n".join(lines) + "\n", kind=FileKind.LAUNCHER, path="launcher.log")
    track = quick.facts["checkpoints"]
    slow = [
        scan_text(line + "\n", kind=FileKind.LAUNCHER, path="l.log").facts["checkpoints"].entry(0)
        for line in lines
    ]
    assert [track.entry(i)[0:1] + track.entry(i)[2:] for i in range(len(track))] == [
        entry[0:1] + entry[2:] for entry in slow
    ]


def test_checkpoint_lines_with_varying_prefixes_are_still_counted():
    text = "".join(
        f"[default{r}]:2026-11-29 07:25:37,{r:03d} [rank{r}] INFO layer {i} passed\n"
        for i in range(60)
        for r in (3, 12)
    )
    result = scan_text(text, kind=FileKind.LAUNCHER, path="launcher.log")
    track = result.facts["checkpoints"]
    assert len(track) == 120
    assert list(track.rank[:4]) == [3, 12, 3, 12]


def test_year_less_checkpoint_times_take_the_year_of_the_file():
    text = (
        "2026-11-29 07:25:36,000 [rank0] INFO init process group\n"
        "I1129 07:25:37.500000 4242 model.cc:12] layer 0 passed\n"
    )
    track = scan_text(text, rank=0).facts["checkpoints"]
    assert track.entry(0)[2] == datetime(2026, 11, 29, 7, 25, 37, 500000, tzinfo=UTC).timestamp()


def test_an_error_storm_keeps_the_earliest_events_and_counts_the_rest():
    storm = "".join(
        f"[ERROR] HCCL(42,python):2025-02-20-16:29:43.{i % 1000:03d}.398 [p2p_mgmt.cc:297][42]connected p2p timeout {i}\n"
        for i in range(2500)
    )
    result = scan_text(storm, kind=FileKind.PLOG, path="plog/plog-42_20250220162700000.log")
    assert len(result.events) == scan_module.MAX_EVENTS[EventKind.ERROR]
    assert result.events[0].line == 1
    assert result.facts["events_dropped"] == {"error": 500}


def test_an_error_block_folded_into_one_json_line_is_read_line_by_line():
    body = (
        "(APIServer pid=4410) ERROR 03-12 07:51:09 [serving.py:201] Internal server error: "
        '{"object":"error","message":"index_put:build/CMakeFiles/torch_npu.dir/compiler_depend.ts'
        ":51 NPU function error: call aclnnIndexPutImpl failed, error code is 161002\\n[ERROR] "
        "2026-03-12-07:51:09 (PID:4410, Device:3, RankID:-1) ERR00100 PTA call acl api failed."
        "\\n[PID: 4410] 2026-03-12-07:51:09.604.117 AclNN_Parameter_Error(EZ1001): The dtype of "
        'indices must be int64 or bool.\\n","type":"BadRequestError","code":400}\n'
    )
    events = problems(scan_text(body))
    assert [event.line for event in events] == [1, 1, 1]
    assert [event.pid for event in events] == [4410] * 3
    assert events[2].codes == ("EZ1001",)
    assert events[2].message.endswith("The dtype of indices must be int64 or bool.")


def test_a_structured_file_keeps_its_lines_whole():
    result = scan_text("ASCEND_OPP_PATH=/opt\\nfake\n", kind=FileKind.ENV, path="env.txt")
    assert result.facts.get("env", {}).get("ASCEND_OPP_PATH") == "/opt\\nfake"


def test_an_info_line_quoting_text_with_escaped_newlines_stays_one_quiet_line():
    text = (
        "INFO 05-02 10:11:12 [logger.py:41] Received request chatcmpl-7f: prompt: '<|user|>\\n"
        "why did the upload fail?\\nError: connection refused\\n<|assistant|>\\n', params: "
        "SamplingParams(n=1)\n"
    )
    assert problems(scan_text(text)) == []


def test_checkpoints_past_the_per_file_budget_are_counted_and_reported(monkeypatch):
    monkeypatch.setattr(checkpoint_lines, "MAX_PLACED", 1000)
    monkeypatch.setattr(scan_module._FileScanner, "block_size", 4096)
    lines = [
        f"2026-11-29 07:24:{i % 60:02d},000 [rank0] INFO layer {i % 8} passed" for i in range(5000)
    ]
    track = scan_text("\n".join(lines) + "\n", rank=0).facts["checkpoints"]
    assert 1000 <= len(track) < 1100
    assert len(track) + track.unplaced == 5000


def test_a_file_whose_last_line_has_no_line_end_says_where_it_stops():
    # a rank killed while printing: `  MoE pa` and nothing more
    cut = scan_text("layer 1 passed\n  norm passed\n  attention passed\n  MoE pa")
    assert cut.facts["ends_mid_line"] == 4
    whole = scan_text("layer 1 passed\n  norm passed\n", path="log_1.log")
    assert "ends_mid_line" not in whole.facts
    assert "ends_mid_line" not in scan_text("").facts


def test_a_json_record_cut_at_its_traceback_keeps_the_rank_written_after_it():
    """Ranks sharing one file, told apart by a `rank` field python-json-logger writes after
    the escaped traceback: the error is the rank's, like its checkpoints."""
    body = "".join(
        '{"asctime": "2026-12-05 07:08:18,741", "levelname": "ERROR", "name": "infer", '
        f'"message": "model run failed: Timed out waiting 6000ms for {op} operation to complete", '
        '"exc_info": "Traceback (most recent call last):\\n  File \\"job.py\\", line 232, in main'
        f'\\nRuntimeError: Timed out waiting 6000ms for {op} operation to complete", '
        f'"rank": {rank}, "world_size": 6}}\n'
        for rank, op in ((0, "send"), (3, "recv"))
    )
    events = problems(scan_text(body, rank=None, path="train.log"))
    heads = [event for event in events if "model run failed" in event.text]
    assert [event.rank for event in heads] == [0, 3]
    errors = [event for event in events if event.kind == EventKind.ERROR]
    assert [event.rank for event in errors] == [0, 0, 3, 3]  # the escaped lines' too


def test_ranks_are_counted_alike_whether_one_or_several():
    assert scan_module._counted(array("i", [3] * 5)) == {3: 5}
    assert scan_module._counted(array("i", [3, -1, 3])) == {3: 2, -1: 1}
    assert scan_module._counted(array("b", [0, 0])) == {0: 2}


def test_a_late_error_unlike_the_repeated_lines_that_filled_the_cap_is_still_kept():
    # a long run repeats one error line until the cap is full; a different failure comes last
    # and is kept, while a later twin of the repeated line is still only counted
    line = "[ERROR] HCCL(42,python):2025-02-20-16:29:43.{n:03d}.398 [p2p_mgmt.cc:297][42]connected p2p timeout {i}\n"
    storm = "".join(line.format(n=i % 1000, i=i) for i in range(2500))
    late = "[ERROR] HCCL(42,python):2025-02-20-16:29:50.000.398 [op_base.cc:1203][42]HcclAllReduce failed, ret 7\n"
    result = scan_text(
        storm + late + line.format(n=1, i=9999),
        kind=FileKind.PLOG,
        path="plog/plog-42_20250220162700000.log",
    )
    assert len(result.events) == scan_module.MAX_EVENTS[EventKind.ERROR] + 1
    assert result.events[-1].line == 2501
    assert result.facts["events_dropped"] == {"error": 501}
