"""The checkpoint hot loop must record exactly what a full parse of every line records."""

from __future__ import annotations

import io
import math
from array import array

import pytest

from analyzers.checkpoints.patterns import CheckpointMatcher
from analyzers.core.types import FileInfo, FileKind
from analyzers.formats import checkpoint_lines
from analyzers.scan import member
from analyzers.scan.member import scan_file


def _track(text: str, kind: FileKind = FileKind.RANK_LOG, path: str = "log_3.log"):
    info = FileInfo(path, kind, 3 if kind == FileKind.RANK_LOG else None)
    return scan_file(io.BytesIO(text.encode()), info, CheckpointMatcher()).facts["checkpoints"]


def _entries(track) -> list[tuple]:
    return [track.entry(index) for index in range(len(track))]


def _bisection_log(prefix: str, minutes: int) -> str:
    """A rank log over several minutes: checkpoints, metrics lines, and lines that hold
    the checkpoint word without being checkpoints."""
    lines = []
    for minute in range(minutes):
        for second in range(0, 60, 3):
            for layer in range(4):
                stamp = f"2026-11-29 07:{minute:02d}:{second:02d},{layer * 7:03d}"
                lines.append(f"{prefix}{stamp} [rank3] INFO  attention passed")
                lines.append(f"{prefix}{stamp} [rank3] INFO layer {layer} passed")
            stamp = f"2026-11-29 07:{minute:02d}:{second:02d},999"
            lines.append(f"{prefix}{stamp} [rank3] INFO iter {second} loss=2.31 lr=1e-4")
            lines.append(f"{prefix}{stamp} [rank3] INFO passed to the optimizer: 12 groups")
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("prefix", ["", "[default3]:"])
def test_the_hot_loop_agrees_with_a_full_parse_across_minutes(monkeypatch, prefix):
    text = _bisection_log(prefix, minutes=40)
    fast = _entries(_track(text))
    monkeypatch.setattr(checkpoint_lines, "CHECKS", 10**9)  # never trusted: every line parsed
    slow = _entries(_track(text))
    assert len(fast) == 40 * 20 * 8
    assert fast == slow


def test_the_hot_loop_agrees_with_a_full_parse_on_untimed_prints(monkeypatch):
    text = "".join(f"layer {n % 16} passed\nbatch {n} queued\n" for n in range(3000))
    fast = _entries(_track(text))
    monkeypatch.setattr(checkpoint_lines, "CHECKS", 10**9)
    assert fast == _entries(_track(text))
    assert [entry[1] for entry in fast[:3]] == [1, 3, 5]


def test_seconds_readings_are_reused_across_files_without_changing_a_time():
    first = _track(_bisection_log("", minutes=2))
    second = _track(_bisection_log("", minutes=2).replace("07:0", "08:0"))
    assert [entry[2] - 3600 for entry in _entries(second)] == pytest.approx(
        [entry[2] for entry in _entries(first)], abs=1e-6
    )


def test_literals_that_end_alike_are_looked_for_behind_their_shared_ending():
    literals = (b"passed", b"succe", b"from rank", b"waiting for rank", b"blocked on rank")
    gates = checkpoint_lines._suffix_gates(literals)
    assert (b" rank", (b"from rank", b"waiting for rank", b"blocked on rank")) in gates
    assert (None, (b"passed",)) in gates
    assert checkpoint_lines._suffix_gates(literals) is gates  # every file asks alike
    found = checkpoint_lines.CheckpointLines(literals, None, None, None)  # type: ignore[arg-type]
    block = b"layer 0 passed\nwaiting for rank 3\n"
    assert found._present(block) == [b"passed", b"waiting for rank"]
    assert found._present(b"layer 0 passed\n[rank3] step 1\n") == [b"passed"]


RICH_LOG = """\
[12/04/26 15:45:12] INFO     [rank1] load weights passed                                 infer.py:84
                    INFO     [rank1] prefill start: 8 tokens                             infer.py:84
                    INFO     [rank1]   norm passed                                       infer.py:84
                    INFO     [rank1]   attention passed                                  infer.py:84
                    INFO     [rank1]   MoE passed                                        infer.py:84
                    INFO     [rank1] layer 0 passed                                      infer.py:84
[12/04/26 15:45:13] INFO     [rank1]   norm passed                                       infer.py:84
                    INFO     [rank1] model run success                                   infer.py:84
"""

LOGURU_COLOURED = "".join(
    f"\x1b[32m2026-12-04 15:46:52.7{n:02d}\x1b[0m | \x1b[1mINFO    \x1b[0m | rank1 | "
    f"\x1b[36m__main__\x1b[0m:\x1b[36m{where}\x1b[0m:\x1b[36m{line}\x1b[0m - \x1b[1m{text}\x1b[0m\n"
    for n, (where, line, text) in enumerate(
        [
            ("main", 220, "load weights passed"),
            ("main", 228, "prefill start: 8 tokens"),
            ("forward", 177, "  norm passed"),
            ("forward", 186, "  attention passed"),
            ("forward", 198, "  MoE passed"),
            ("main", 233, "layer 0 passed"),
            ("forward", 177, "  norm passed"),
        ]
    )
)


def test_a_rich_console_log_keeps_every_checkpoint():
    track = _track(RICH_LOG)
    assert list(track.texts_in_order()) == [
        "load weights passed",
        "norm passed",
        "attention passed",
        "MoE passed",
        "layer 0 passed",
        "norm passed",
        "model run success",
    ]


def test_loguru_records_keep_every_checkpoint_behind_their_location():
    track = _track(LOGURU_COLOURED)
    assert list(track.texts_in_order()) == [
        "load weights passed",
        "norm passed",
        "attention passed",
        "MoE passed",
        "layer 0 passed",
        "norm passed",
    ]


class _CountingMatcher(CheckpointMatcher):
    """Counts the messages the scan asks about: each one is a full classification."""

    def __init__(self) -> None:
        super().__init__()
        self.asked: list[str] = []

    def classify(self, message: str):
        self.asked.append(message)
        return super().classify(message)


def _training_log(with_step_lines: bool) -> str:
    """A trainer's rank log: a metrics line per micro-batch (its numbers never repeat), the
    bisection prints, and optionally a line closing each step."""
    lines = []
    for step in range(60):
        stamp = f"2026-11-29 07:{step // 60:02d}:{step % 60:02d},125"
        for micro in range(8):
            loss = 2.5 - step * 0.01 - micro * 0.001
            lines.append(f"{stamp} [rank3] INFO step {step} micro_batch {micro} loss={loss:.4f}")
        lines.append(f"{stamp} [rank3] INFO  backward passed")
        if with_step_lines:
            lines.append(f"{stamp} [rank3] INFO step {step} done")
    return "\n".join(lines) + "\n"


def _scan_counting(text: str):
    matcher = _CountingMatcher()
    info = FileInfo("log_3.log", FileKind.RANK_LOG, 3)
    track = scan_file(io.BytesIO(text.encode()), info, matcher).facts["checkpoints"]
    return track, matcher.asked


def test_metric_lines_with_a_step_counter_are_not_classified_one_by_one():
    track, asked = _scan_counting(_training_log(with_step_lines=False))
    assert len(track) == 60
    assert not [message for message in asked if "micro_batch" in message]


def test_a_step_closing_line_among_metric_lines_is_still_a_checkpoint():
    track, _ = _scan_counting(_training_log(with_step_lines=True))
    texts = [track.entry(index)[0] for index in range(len(track))]
    assert texts.count("step 59 done") == 1
    assert len(texts) == 120


def test_remembered_timed_lines_are_grouped_by_minute_and_stay_within_their_bound(monkeypatch):
    """The timed loop looks a line up under its head (the line up to its minute), then the
    rest after its seconds; a full memo only sends the next lines to the slower reading."""
    text = _bisection_log("[default3]:", minutes=3)
    monkeypatch.setattr(checkpoint_lines, "MAX_SEEN", 5)
    scanner = member._FileScanner(FileInfo("log_3.log", FileKind.RANK_LOG, 3), CheckpointMatcher())
    scan = scanner.run(io.BytesIO(text.encode()))
    by_literal = scanner.checkpoint_lines._seen
    assert list(by_literal) == [b"passed"]  # a line found there holds that literal
    memo = by_literal[b"passed"]
    assert list(memo) == [b"[default3]:2026-11-29 07:00:"]
    assert b" [rank3] INFO  attention passed" in memo[b"[default3]:2026-11-29 07:00:"]
    assert sum(len(rests) for rests in memo.values()) == 5
    monkeypatch.setattr(checkpoint_lines, "CHECKS", 10**9)
    assert _entries(scan.facts["checkpoints"]) == _entries(_track(text))


def test_a_literal_that_only_the_folded_line_holds_is_still_found(monkeypatch):
    """A line is remembered by its raw bytes but found by its folded ones: an upper-case
    literal is looked for again on the next lines rather than taken from the memo."""
    text = _bisection_log("[default3]:", minutes=2).replace("attention passed", "attention PASSED")
    fast = _entries(_track(text))
    monkeypatch.setattr(checkpoint_lines, "CHECKS", 10**9)
    assert fast == _entries(_track(text))
    assert len(fast) == 2 * 20 * 4  # the layer lines: an upper-case word is no checkpoint


@pytest.mark.parametrize(
    ("literal", "holds"),
    [(b"passed", True), (b"[default3]", True), (b"0,1", False), (b"00:59", False)],
)
def test_a_line_is_remembered_only_when_its_head_or_rest_holds_the_literal(literal, holds):
    """The memo answers for lines that share a head and a rest: a literal partly in the
    seconds (`07:00:59,100`) is not in the next such line, which must be searched for it."""
    head, rest = b"[default3]:2026-11-29 07:00:", b" [rank3] info layer 1 passed"
    assert checkpoint_lines._holds(literal, head, rest) is holds


@pytest.mark.parametrize(
    ("typecode", "values"),
    [
        ("i", [3, -1, 2**31 - 1]),
        ("d", [1.5, -0.25, math.nan, 1.7e9 + 0.123]),
        ("I", [0, 7, 2**32 - 1]),
    ],
)
def test_packed_columns_hold_what_appends_would(typecode, values):
    appended, packed = array(typecode, [1]), array(typecode, [1])
    for value in values:
        appended.append(value)
    checkpoint_lines._extend(packed, values)
    assert packed.tobytes() == appended.tobytes()


def test_a_value_a_packed_column_cannot_hold_fails_as_an_append_would():
    column = array("i")
    with pytest.raises(OverflowError):
        checkpoint_lines._extend(column, [1, 2**40])


@pytest.mark.parametrize(
    "text",
    [
        _bisection_log("[default3]:", minutes=3),
        _bisection_log("", minutes=2).replace("attention passed", "attention PASSED"),
        _training_log(with_step_lines=True),
        "".join(
            f"2026-11-29 07:00:{n % 60:02d},5{n % 7}0 [rank3] INFO layer {n % 4} passed\n"
            f"2026-11-29 07:00:{n % 60:02d},999 short\n"
            for n in range(400)
        ),
    ],
    ids=["bisection", "upper-case", "training", "short-lines"],
)
def test_a_run_of_checkpoints_split_at_once_reads_as_the_literal_search_does(monkeypatch, text):
    """A block of checkpoint lines is split in one call instead of searched line by line;
    either way gives the same track."""
    monkeypatch.setattr(checkpoint_lines, "_dense", lambda *args: True)
    split = _entries(_track(text))
    monkeypatch.setattr(checkpoint_lines, "_dense", lambda *args: False)
    searched = _entries(_track(text))
    assert split == searched
    monkeypatch.setattr(checkpoint_lines, "CHECKS", 10**9)
    assert split == _entries(_track(text))


def test_a_bisection_block_is_split_and_a_training_block_searched():
    bisection = _bisection_log("", minutes=2).encode()
    training = _training_log(with_step_lines=False).encode()
    fold = bytes.maketrans(b"ABCDEFGHIJKLMNOPQRSTUVWXYZ", b"abcdefghijklmnopqrstuvwxyz")
    assert checkpoint_lines._dense(bisection, bisection.translate(fold), b"passed", 0)
    assert not checkpoint_lines._dense(training, training.translate(fold), b"passed", 0)


def _redrawn_log(rank: int) -> str:
    """A real gloo run's rank log: logging records on stdout, a tqdm-style
    decode bar redrawn with a carriage return on stderr into the same file, so the record
    after each redraw is glued to the bar's last frame."""
    lines = [f"2026-12-05 14:21:37,{n:03d} rank{rank} INFO   norm passed" for n in range(6)]
    bar = f"\rdecode rank{rank}:  33%|███       | 1/3 [00:00<00:00, 12.09it/s]"
    lines.append(f"{bar}2026-12-05 14:21:37,604 rank{rank} INFO   attention passed")
    lines.append(f"2026-12-05 14:21:37,610 rank{rank} INFO layer 0 passed")
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("checks", [checkpoint_lines.CHECKS, 10**9])
def test_a_record_glued_after_a_redrawn_progress_bar_keeps_its_checkpoint(monkeypatch, checks):
    """The layout learned from the file's plain records does not fit a line the bar redrew:
    its bytes before the record are the frame's, and reading the record at the learned offset
    kept `rank3 INFO` in the checkpoint. Such a line gets the full parse, which drops the
    frame, whether or not the learned layout is trusted yet. Counterexample: a bar alone."""
    monkeypatch.setattr(checkpoint_lines, "CHECKS", checks)
    track = _track(_redrawn_log(3))
    assert list(track.texts_in_order())[-2:] == ["attention passed", "layer 0 passed"]
    assert "\r" not in "".join(track.texts_in_order())
    alone = _track("\rdecode rank3:  0%|          | 0/3 [00:00<?, ?it/s]\nlayer 2 passed\n")
    assert list(alone.texts_in_order()) == ["layer 2 passed"]


def _elapsed_console(world: int) -> str:
    """A real mp.spawn run's one console: each rank logs `[  <ms since its own
    start>ms] rank N | message`, a stamp the line parser does not peel, so the rank tag is in
    the message. Rank 1 starts first and prints a whole training step before the others."""
    lines = []
    for step, ranks in ((1, [1]), (1, [r for r in range(world) if r != 1]), (2, range(world))):
        for rank in ranks:
            ms = 15233.1 + 100 * step + rank
            for layer in range(3):
                lines.append(f"[{ms:11.1f}ms] rank {rank} |   norm passed")
                lines.append(f"[{ms:11.1f}ms] rank {rank} | layer {layer} passed")
            lines.append(f"[{ms:11.1f}ms] rank {rank} | train step {step} passed")
    return "\n".join(lines) + "\n"


def test_a_rank_tag_inside_the_message_is_read_on_every_line():
    """The learned layout keys each line by its bytes before the message, and a key that
    holds no rank cannot say whose line it is: here every rank's line has the same (empty)
    key. Its first uses were checked against a full parse and agreed, since rank 1 wrote them
    all, and then every later line was credited to rank 1. Such a layout is not learned."""
    track = _track(_elapsed_console(4), FileKind.OTHER, "console.log")
    ranks = [track.rank[i] for i in range(len(track))]
    assert ranks.count(1) == 14
    assert sorted(set(ranks)) == [0, 1, 2, 3]
    steps = [
        (track.rank[i], track.texts[track.text[i]])
        for i in range(len(track))
        if track.texts[track.text[i]].startswith("train step")
    ]
    assert steps[:4] == [
        (1, "train step 1 passed"),
        (0, "train step 1 passed"),
        (2, "train step 1 passed"),
        (3, "train step 1 passed"),
    ]


def _chinese_log(rank: int, layers: int) -> str:
    """A real gloo run's rank log: Python logging, the layer and part lines printed in
    Chinese (`第N层 注意力 通过`, `第N层 通过`), the phases in English."""
    lines = [f"2026-12-05 16:15:24,597 [rank{rank}] INFO load weights passed"]
    lines.append(f"2026-12-05 16:15:24,605 [rank{rank}] INFO prefill start: 8 tokens")
    for layer in range(layers):
        for part in ("归一化", "注意力", "MoE"):
            lines.append(f"2026-12-05 16:15:24,611 [rank{rank}] INFO 第{layer}层 {part} 通过")
        lines.append(f"2026-12-05 16:15:24,634 [rank{rank}] INFO 第{layer}层 通过")
    lines.append(f"2026-12-05 16:15:24,656 [rank{rank}] INFO 第{layers}层 归一化 通过")
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("layers", [2, 40])
def test_chinese_layer_and_part_lines_are_checkpoints(layers):
    """Few lines take the full parse, many the block search for the checkpoint literals: both
    find the Chinese lines. Counterexample: `未通过` (not passed) is no checkpoint."""
    track = _track(_chinese_log(3, layers) + "2026-12-05 16:15:24,660 [rank3] INFO 第9层 未通过\n")
    texts = list(track.texts_in_order())
    assert len(texts) == 1 + 4 * layers + 1
    assert texts[:5] == [
        "load weights passed",
        "第0层 归一化 通过",
        "第0层 注意力 通过",
        "第0层 MoE 通过",
        "第0层 通过",
    ]
    assert texts[-1] == f"第{layers}层 归一化 通过"


def test_part_lines_with_shapes_and_timings_appended_are_the_parts():
    """A real run's f-string checkpoints (`  norm passed shape=(1, 32) 0.1ms`): the part
    lines were dropped as sentences, so a rank seemed to stop at its last layer line."""
    lines = []
    for layer in range(3):
        for part, ms in (("norm", 0.1), ("attention", 25.9), ("MoE", 46.5)):
            lines.append(
                f"2026-12-05 16:16:04,292 [rank5] INFO   {part} passed shape=(1, 32) {ms}ms"
            )
        lines.append(
            f"2026-12-05 16:16:04,340 [rank5] INFO layer {layer} passed shape=(1, 32) 47.5ms"
        )
    lines.append("2026-12-05 16:16:04,359 [rank5] INFO   norm passed shape=(1, 32) 0.1ms")
    texts = list(_track("\n".join(lines) + "\n").texts_in_order())
    assert len(texts) == 13
    assert texts[-2:] == ["layer 2 passed", "norm passed"]


def _tagged_log(rank: int, layers: int) -> str:
    """A rank log whose part lines name their layer in every spelling engineers print, with
    Chinese phase lines around them and lines that merely hold the words."""
    head = f"2026-12-05 16:40:02,118 [rank{rank}] INFO "
    lines = [f"{head}预填充 开始", f"{head}health check ok", f"{head}hccl 连接成功"]
    spellings = ("layer {n} attention passed", "[layer {n}] MoE passed", "L{n}/norm passed")
    for layer in range(layers):
        lines += [head + spelling.format(n=layer) for spelling in spellings]
        lines.append(f"{head}layer {layer}: mlp ok")
        lines.append(f"{head}layer {layer} attention passed its input to the cache")
    lines += [f"{head}预填充 通过", f"{head}解码 第0步 通过", f"{head}第0步 解码 未完成"]
    lines.append(f"{head}模型 运行 成功")
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("layers", [2, 60])
def test_part_lines_that_name_their_layer_and_chinese_phases_are_checkpoints(layers):
    """Few lines take the full parse, many the block search for the checkpoint literals (` ok`
    and `成功` only where a layer or a model run comes before them): both read every spelling
    of a layer tag as that layer's part, and the Chinese phases as phases."""
    texts = list(_track(_tagged_log(1, layers)).texts_in_order())
    assert len(texts) == 4 * layers + 3
    assert texts[:4] == [
        "layer 0 / attention passed",
        "layer 0 / MoE passed",
        "layer 0 / norm passed",
        "layer 0 / mlp ok",
    ]
    assert texts[-3:] == ["预填充 通过", "解码 第0步 通过", "模型运行成功"]


def test_the_hot_loop_agrees_with_a_full_parse_on_tagged_part_lines(monkeypatch):
    text = _tagged_log(1, 300)
    fast = _entries(_track(text))
    monkeypatch.setattr(checkpoint_lines, "CHECKS", 10**9)
    assert fast == _entries(_track(text))


def test_the_literals_a_block_lacked_are_offered_for_the_next_block(monkeypatch):
    monkeypatch.setattr(checkpoint_lines, "_LACKING", {})
    literals = (b"passed", b"succe", b"from rank", b"waiting for rank")
    found = checkpoint_lines.CheckpointLines(literals, None, None, None)  # type: ignore[arg-type]
    assert found.lacking() == ()  # a process's first file: nothing learned yet
    found._present(b"layer 0 passed\nwaiting for rank 3\n")
    assert found.lacking() == (b"succe", b"from rank")
    fresh = checkpoint_lines.CheckpointLines(literals, None, None, None)  # type: ignore[arg-type]
    assert fresh.lacking() == (b"succe", b"from rank")  # the files of a job look alike


@pytest.mark.parametrize(
    "block",
    [b"layer 0 passed\nwaiting for rank 3\n", b"layer 0 passed\n", b"model run success\n"],
)
def test_literals_settled_by_the_caller_give_the_literals_a_search_gives(block):
    literals = (b"passed", b"succe", b"from rank", b"waiting for rank")
    found = checkpoint_lines.CheckpointLines(literals, None, None, None)  # type: ignore[arg-type]
    looked = (b"succe", b"from rank", b"waiting for rank")
    settled = (looked, {word for word in looked if word in block})
    assert found._present(block, settled) == found._present(block)


def test_a_literal_settled_absent_is_not_looked_for_again():
    literals = (b"passed", b"succe")
    found = checkpoint_lines.CheckpointLines(literals, None, None, None)  # type: ignore[arg-type]
    assert found._present(b"model run success\n", ((b"succe",), set())) == []


@pytest.mark.parametrize("seconds", ["22,190", "07,5", "59,25", "00,000", "2x,190", "22,19 "])
def test_the_hot_loop_reads_each_second_as_the_full_parse_does(monkeypatch, seconds):
    """A second is read as `float` reads it; one it cannot read (a line whose seconds are
    cut or garbled) takes the full parse, whatever that makes of it."""
    head = "[default3]:2026-11-29 07:24:"
    lines = [
        f"{head}{second:02d},{milli:03d} [rank3] INFO  norm passed"
        for second in range(3)
        for milli in range(0, 1000, 97)
    ]
    lines.insert(20, f"{head}{seconds} [rank3] INFO  norm passed")
    text = "\n".join(lines) + "\n"
    fast = _entries(_track(text))
    monkeypatch.setattr(checkpoint_lines, "CHECKS", 10**9)
    assert fast == _entries(_track(text))


class _CountedPattern:
    """A confirming pattern that counts its passes over blocks."""

    needs = (b" done", b" start")

    def __init__(self) -> None:
        self.passes = 0

    def search(self, data: bytes, *bounds: int) -> None:
        self.passes += 1
        return None


METRICS = b"step 3 micro_batch 20 loss=0.0000\nlayer 0 passed\n"


def test_a_block_settled_to_lack_a_confirmed_literals_words_is_not_searched_for_it():
    pattern = _CountedPattern()
    literals = (b"passed", b"step")
    found = checkpoint_lines.CheckpointLines(
        literals,
        None,
        None,
        None,
        {b"step": pattern},  # type: ignore[arg-type]
    )
    settled = ((b" done", b" start"), set())
    assert found._present(METRICS, settled) == [b"passed"]
    assert pattern.passes == 0
    assert found._present(METRICS, ((b" done",), set())) == [b"passed"]  # ` start` unsettled
    assert pattern.passes == 1


def test_the_words_of_a_literal_held_but_not_confirmed_are_offered_for_the_next_block(
    monkeypatch,
):
    monkeypatch.setattr(checkpoint_lines, "_LACKING", {})
    literals = (b"passed", b"step")
    found = checkpoint_lines.CheckpointLines(
        literals,
        None,
        None,
        None,
        {b"step": _CountedPattern()},  # type: ignore[arg-type]
    )
    found._present(METRICS, ((b" start",), {b" start"}))
    assert found.lacking() == (b" done",)  # ` start` was seen: looking for it again is lost
    found._present(b"layer 0 passed\n")
    assert found.lacking() == (b"step",)  # no `step`: nothing to confirm next time


@pytest.mark.parametrize(
    ("prefix", "rank", "named"),
    [
        (b"[default3]:2026-11-29 07:24:00,023 [rank3] INFO ", 3, True),
        (b"2026-11-29 07:24:00,023 rank=13 INFO ", 13, True),
        (b"2026-11-29 07:24:00,023 rank=13 INFO ", 3, False),  # a digit of another number
        (b"2026-11-29 07:24:00,023 rank=31 INFO ", 3, False),
        (b"3 ", 3, True),  # at the prefix's start
        (b"node 12 rank 3", 3, True),  # at its end
        (b"[   1523.1ms] ", 5, False),
        (b"", 0, False),
    ],
)
def test_a_prefix_names_a_rank_only_as_a_whole_number(prefix, rank, named):
    assert checkpoint_lines._names_rank(prefix, rank) is named
