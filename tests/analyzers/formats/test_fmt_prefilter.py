"""The cheap block prefilter and the error/warning/noise decision it feeds."""

import pytest

from analyzers.checkpoints.patterns import CheckpointMatcher
from analyzers.core.types import EventKind
from analyzers.formats import blockfilter, logger_shape
from analyzers.formats.blockfilter import (
    FOLD,
    ODD_RANGE_BYTES,
    BlockFilter,
    odd_ranges,
    plog_candidates,
    shaped_lines,
    shaped_scan,
)
from analyzers.formats.lines import parse_line
from analyzers.formats.logger_shape import learn_shape, relays_workers
from analyzers.formats.severity import classify, load_prefilter
from analyzers.ingest.line_index import LineIndex

PREFILTER = load_prefilter()


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        (
            "[ERROR] RUNTIME(987,):2027-04-02-19:29:32.538.614 [stars_engine.cc:7900]326 Task run failed",
            EventKind.ERROR,
        ),
        (
            "[WARNING] DRV(8579,python):2021-02-09-17:47:54.812.725 [dev_mon_api.c:2976] get dieid not supported",
            EventKind.WARNING,
        ),
        (
            "[INFO] HCCL(989,python):2024-08-01-15:02:25.699.358 [heartbeat.cc:536][3851] rank status[LOST] failed",
            None,
        ),
        ("2026-11-29 07:25:37,093 [rank0] INFO retry failed once", None),
        (
            "(EngineCore_DP0 pid=1) ERROR 10-10 09:15:47 [core.py:815]     return next(self.gen)",
            None,
        ),
        (
            '(EngineCore_DP0 pid=1) ERROR 10-10 09:15:47 [core.py:815]   File "/w/x.py", line 3, in f',
            None,
        ),
        # a frame and its exception quoted as one line, the blank after the colon lost too
        (
            "File \".../data/sampler.py\", line 40, in pick_extra: KeyError:'lane_mask'",
            EventKind.ERROR,
        ),
        ('File ".../data/sampler.py", line 40, in on_KeyError:', None),
        # CANN refusing a setting it names, in words with no error word
        (
            "Environment variable [HCCL_SOCKET_IFNAME] is invalid. Reason: the list is empty.",
            EventKind.ERROR,
        ),
        ("Environment variable [HCCL_SOCKET_IFNAME] is eth0", None),
        (
            "(EngineCore_DP0 pid=1) ERROR 10-10 09:15:47 [core.py:815] EngineCore encountered a fatal error.",
            EventKind.ERROR,
        ),
        ("        Rectify the fault based on the error information in the ascend log.", None),
        ("        Possible Cause: 1. The timeout interval may be improperly set.", None),
        ("export HCCL_EXEC_TIMEOUT=1800", None),
        # a run folder named after what the run tries is not what the line reports
        ("saving checkpoint to /mnt/runs/lr3e-4_killed_retry/step_400", None),
        ("writing metrics to ./out/timeout_sweep/rank_2.json", None),
        ("see https://github.com/acme/error-handling/blob/main/README.md", None),
        # ... while the file named at the end, and the words around the path, still count
        (
            "/opt/env/lib/python3.11/site-packages/acme_failed/_ext.so: undefined symbol: _ZN3c104cuda9SetDeviceEi",
            EventKind.ERROR,
        ),
        ("Error writing /mnt/runs/step_400/shard_00003.safetensors", EventKind.ERROR),
        ("init process group: backend=gloo rank=1 world_size=4 timeout=10s", None),
        ("Python 3.8.18 (default, Sep 11 2023, 13:19:25)", None),
        (
            "        rtDeviceSynchronizeWithTimeout execution failed, reason=lost heartbeat[FUNC:FuncErrorReason]",
            EventKind.ERROR,
        ),
        ("EZ9999: Inner Error!", EventKind.ERROR),
        (
            "Watchdog caught collective operation timeout: WorkHCCL(SeqNum=630, Timeout(ms)=7865663)",
            EventKind.ERROR,
        ),
        ("UserWarning: TypedStorage is deprecated.", EventKind.WARNING),
        # the warnings module's own line is a warning whatever its text says
        (
            "/srv/env/lib/python3.11/site-packages/torch/_subclasses/functional_tensor.py:402: "
            "UserWarning: Failed to initialize NumPy: No module named 'numpy'",
            EventKind.WARNING,
        ),
        (
            "/srv/app/loader.py:88: RuntimeWarning: overflow encountered, load failed for shard 3",
            EventKind.WARNING,
        ),
        # ... unless it quotes an allocator failure its writer caught and went on from
        (
            "/srv/env/lib/python3.11/site-packages/torch/distributed/fsdp/_state_dict_utils.py:310: "
            "UserWarning: Failed to clone() tensor with name layers.3.wq.weight on rank 2. "
            "Error: CUDA out of memory. Tried to allocate 64.00 MiB (GPU 2; 39.4 GiB total capacity)",
            EventKind.ERROR,
        ),
        # ... or says the rank skipped a collective its group's members wait in
        (
            "/srv/env/lib/python3.11/site-packages/torch/distributed/distributed_c10d.py:3222: "
            "UserWarning: Running all_reduce on global rank 4 which does not belong to the given group.",
            EventKind.ERROR,
        ),
        (
            "/srv/app/groups.py:12: UserWarning: rank 4 does not belong to the expert group, "
            "skipping its all_reduce",
            EventKind.WARNING,
        ),
        (
            "/srv/app/train.py:41: UserWarning: large batches may run out of memory; "
            "set PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True",
            EventKind.WARNING,
        ),
        # a traceback's exception line naming a file is still an error
        ("/srv/app/loader.py:88: failed to open shard 3", EventKind.ERROR),
        (
            "2026-11-29 07:25:37,093 [rank0] ERROR loader.py:88: UserWarning: load failed",
            EventKind.ERROR,
        ),
        ("        Error(s) in loading state_dict for TinyNet:", EventKind.ERROR),
        (
            "\tsize mismatch for head.weight: copying a param with shape torch.Size([8, 4]) "
            "from checkpoint, the shape in current model is torch.Size([6, 4]).",
            EventKind.ERROR,
        ),
        ("    model.load_state_dict(ckpt)", None),
        (
            "npu_alloc: [ERROR] [40211] Cached block reuse failed, releasing the cache and "
            "allocating again. This error log can be ignored.",
            None,
        ),
        ("loader: checksum fetch failed; the message can be safely ignored on retry", None),
        ("loader: checksum fetch failed, giving up after 3 attempts", EventKind.ERROR),
        # a failed attempt the writer retries is chatter; the attempt that gives up is not
        ("gloo: connectFullMesh failed: retrying in 2 s (attempt 2 of 4)", None),
        ("[c10d] store lookup failed, will retry with a longer timeout", None),
        ("gloo: connectFullMesh failed: no more retries left (attempt 4 of 4)", EventKind.ERROR),
        # a call-stack frame a writer prints at ERROR level names code, not a failure
        (
            "[ERROR] HCCL(40512,python3):2026-07-14-09:22:31.410.201 [rank_info_detect_service.cc:88]"
            "[40733]/lib/aarch64-linux-gnu/libc.so.6(+0x7f2c8) [0xffff9a3cf2c8]",
            None,
        ),
        (
            "[ERROR] HCCL(40512,python3):2026-07-14-09:22:31.410.412 [rank_info_detect.cc:199]"
            "[40733]/opt/cann/lib64/libhcomm.so(_ZN4Hccl9SomeClass3RunEv+0x58) [0xffff71b20a58]",
            None,
        ),
        # the frame's owner saying what failed stays an error
        (
            "[ERROR] HCCL(40512,python3):2026-07-14-09:22:31.410.207 [rank_info_detect_service.cc:88]"
            "[40733][RankInfoDetectService::GetConnections] server get socket fail",
            EventKind.ERROR,
        ),
        # the named error-manager form pasted without its [PID: n] prefix is an error line
        (
            "Invalid_Input(EZ0004): Parameter scales of MoeDispatch is required, but it is empty.",
            EventKind.ERROR,
        ),
        # the collective fingerprint check's message printed without its exception class
        (
            "Detected mismatch between collectives on ranks. Rank 2 is running collective: "
            "CollectiveFingerPrint(SequenceNumber=41, OpType=BROADCAST), but Rank 0 is running "
            "collective: CollectiveFingerPrint(SequenceNumber=41, OpType=ALLGATHER).",
            EventKind.ERROR,
        ),
        ("2026-02-01 10:00:00,001 INFO checking for mismatch between collectives on 8 ranks", None),
        # a weight loader's shape assertion quoted on its own line is the failure; the same
        # statement as a traceback's indented source line is code
        ("assert param_data.shape == loaded_weight.shape", EventKind.ERROR),
        ("    assert param_data.shape == loaded_weight.shape", None),
        ("assert hidden.shape == residual.shape", None),
        # pytest's section banners head the failure report and name no failure; the summary
        # line of a failed test does
        ("=================================== FAILURES ===================================", None),
        ("==================================== ERRORS ====================================", None),
        (
            "FAILED tests/unit/test_pipe.py::test_two_stages - RuntimeError: stage 1 died",
            EventKind.ERROR,
        ),
        # a phrase that matters even at INFO level matters as much on a line with no level
        # (a paste that kept the message and lost the logger's header); other level-less
        # chatter stays noise
        (
            "Waiting for creating a placement group of specs for 60 seconds. "
            "specs=[{'NPU': 1.0}, {'NPU': 1.0}]. Check `ray status` to see if you have enough "
            "resources.",
            EventKind.WARNING,
        ),
        (
            "INFO 06-07 08:09:10 [ray_utils.py:212] Waiting for creating a placement group of "
            "specs for 60 seconds. specs=[{'NPU': 1.0}].",
            EventKind.WARNING,
        ),
        ("Created placement group with 2 bundles.", None),
        ("Waiting for the remaining shards to finish copying", None),
    ],
)
def test_classify(line, expected):
    assert classify(parse_line(line), PREFILTER) == expected


# A shell's `set -x` trace: bash echoes each command before it runs it, behind `+ ` (one `+`
# more per level of command substitution). The command's words (a grep for errors, an echo of
# the message it will print) are what the script was about to do, not what went wrong: the
# command's own output, on the lines after, says that.
SHELL_TRACE = [
    "+ grep -i error train.log",
    "++ grep -ci failed run.log",
    "+ echo '[ERROR] training failed with exit code 1'",
    "+ tail -n 5 train.log | grep -E 'RuntimeError|Traceback'",
    "+ python3 train.py --on-error abort --resume /ckpt/failed_run_3",
    "+++ awk '/ERROR/ {n++} END {print n}' rank0.log",
]


@pytest.mark.parametrize("line", SHELL_TRACE)
def test_a_command_the_shell_echoed_is_no_event(line):
    assert classify(parse_line(line), PREFILTER) is None


@pytest.mark.parametrize(
    "line",
    [
        # the echoed command's own output is what the script printed
        "[ERROR] training failed with exit code 1",
        "OSError: [Errno 28] No space left on device",
        # a sum or a list item is no trace: no space, or no command after the mark
        "+1 failed",
    ],
)
def test_what_the_traced_commands_print_is_read_as_before(line):
    assert classify(parse_line(line), PREFILTER) == EventKind.ERROR


def test_block_candidates_are_line_starts():
    block = b"ok line\nRuntimeError: boom\nnoise\nrank 3 timed out waiting\nSIGSEGV here\n"
    hits = BlockFilter.build(PREFILTER, None).candidates(block.lower())
    starts = [block.index(b"RuntimeError"), block.index(b"rank 3"), block.index(b"SIGSEGV")]
    assert sorted(hits) == starts


def test_older_error_manager_lines_without_an_error_word_are_candidates():
    # the code and two spaces, no PID, no colon: the reason itself may hold no error word
    block = (
        b"denoise step 1/30\n"
        b"EZ9999  [InferShape] The k-axis of a(320) and b(1280) tensors must be the same\n"
        b"| 0     910B3  | OK  | 96.6        32                0    / 0             |\n"
        b"| step | 12480  | loss 2.13 |\n"
    )
    hits = BlockFilter.build(PREFILTER, None).candidates(block.translate(FOLD))
    assert sorted(hits) == [block.index(b"EZ9999")]


def test_a_line_ending_in_the_error_managers_trace_tag_is_an_error_candidate():
    """The error manager writes `[FUNC:..][FILE:..][LINE:n]` only on an error path, so its
    trace line is read whatever its words; the tag's words inside a sentence are not it."""
    tagged = (
        "op[GroupNormSwish], compile info not contain [_tile][FUNC:Parse][FILE:rt2.cc][LINE:77]"
    )
    quoted = "tag format is [FUNC:name][FILE:file][LINE:n] in every trace line, see docs"
    block = f"step 3 done\n{tagged}\n{quoted}\n".encode()
    hits = BlockFilter.build(PREFILTER, None).candidates(block.translate(FOLD))
    assert block.index(tagged.encode()) in hits
    assert classify(parse_line(tagged), PREFILTER) == EventKind.ERROR
    assert classify(parse_line(quoted), PREFILTER) is None


def test_plog_blocks_are_read_by_level_alone():
    block = (
        b"[INFO] RUNTIME(1,python):2026-03-12-07:49:36.326.808 [a.cc:1]1 launch failed? no, INFO\n"
        b"[WARNING] DRV(1,python):2026-03-12-07:49:36.326.809 [b.c:2]1 info type not supported\n"
        b"[ERROR] HCCL(1,python):2026-03-12-07:49:36.326.810 [c.cc:3][1]socket timeout\n"
    )
    assert plog_candidates(block, 3) == {block.index(b"[WARNING]"), block.index(b"[ERROR]")}
    assert plog_candidates(block + b"<exception_print>notify wait timeout\n", 4) is None


class _Counted(bytes):
    """A block that notes what `bytes.count` is asked to count in it."""

    asked: list[bytes] = []

    def count(self, sub, *span):  # type: ignore[override]
        _Counted.asked.append(sub)
        return super().count(sub, *span)


def test_a_loud_levels_lines_are_counted_as_they_are_found_not_counted_first():
    block = (
        b"[INFO] RUNTIME(1,python):2026-03-12-07:49:36.326.808 [a.cc:1]1 launched\n"
        b"[WARNING] DRV(1,python):2026-03-12-07:49:36.326.809 [b.c:2]1 info type not supported\n"
        b"[WARNING] DRV(1,python):2026-03-12-07:49:36.326.810 [b.c:2]1 info type not supported\n"
    )
    _Counted.asked = []
    assert len(plog_candidates(_Counted(block), 3)) == 2
    assert _Counted.asked == [b"\n[INFO] "]


def test_logging_blocks_of_one_shape_are_read_by_level_alone():
    first = b"[default3]:2026-11-29 07:25:37,216 [rank3] INFO layer 0 passed"
    shape = learn_shape(first)
    assert shape == b"[default0]:0000-00-00 00:00:00,000 [rank0] "
    block = (
        first + b"\n"
        b"[default3]:2026-11-29 07:25:37,299 [rank3] WARNING grad norm is large\n"
        b"[default3]:2026-11-29 07:25:38,001 [rank3] INFO step 12 loss=2.1 (no error here)\n"
    )
    folded = block.translate(FOLD)
    warning = block.index(b"[default3]:2026-11-29 07:25:37,299")
    assert shaped_scan(folded, shape, 3) == ({warning}, True)
    # A line of another shape: not complete, but the loud lines found are handed back.
    traceback = block + b"Traceback (most recent call last):\n"
    assert shaped_scan(traceback.translate(FOLD), shape, 4) == ({warning}, False)


_SHAPED = b"[default3]:2026-11-29 07:25:37,216 [rank3] INFO layer 0 passed\n"
_LOUD = b"[default3]:2026-11-29 07:25:37,299 [rank3] WARNING grad norm is large\n"
_DEBUG = b"[default3]:2026-11-29 07:25:37,300 [rank3] DEBUG bucket ready\n"
_ODD = b"Traceback (most recent call last):\n"


def _odd_ranges_line_by_line(block: bytes, shape: bytes) -> list:
    """The halving search with each range's lines looked at one by one: the ranges to find."""
    folded = block.translate(FOLD)
    words = (b"info ", b"debug ", b"warning ", b"error ", b"warn ", b"critical ", b"fatal ")

    def odd(start: int, end: int) -> bool:
        lines = folded[start:end].split(b"\n")[:-1]
        return any(not any(line.startswith(shape + word) for word in words) for line in lines)

    def halve(start: int, end: int) -> list:
        if start >= end or not odd(start, end):
            return []
        if end - start <= ODD_RANGE_BYTES:
            return [(start, end)]
        middle = folded.find(b"\n", (start + end) // 2, end - 1) + 1
        if middle <= start:
            return [(start, end)]
        return halve(start, middle) + halve(middle, end)

    return halve(0, len(folded))


@pytest.mark.parametrize(
    "block",
    [
        _SHAPED * 2000 + _ODD * 3,  # a traceback at the end
        _ODD + _SHAPED * 1500 + _LOUD + _SHAPED * 1500,  # a plain print first
        _SHAPED * 700 + _ODD + _LOUD * 300 + _DEBUG * 200 + _ODD + _SHAPED * 900 + _ODD,
        _SHAPED * 100 + _ODD,  # one range
        _ODD * 3000,  # nothing of the shape
    ],
    ids=["odd-end", "odd-start", "scattered", "small", "all-odd"],
)
def test_odd_ranges_are_the_halving_searchs_ranges_line_by_line(block):
    shape = learn_shape(_SHAPED)
    folded = block.translate(FOLD)
    found = shaped_lines(folded, shape, block.count(b"\n"))
    assert found.odd == block.count(_ODD)
    expected = _odd_ranges_line_by_line(block, shape)
    assert odd_ranges(folded, shape, found, LineIndex(folded)) == expected


class _Spans(bytes):
    """A block that notes the ranges `bytes.count` is asked to count a line head in."""

    asked: list[tuple[int, int]] = []

    def count(self, sub, start=0, end=None):  # type: ignore[override]
        if len(sub) > 1:
            _Spans.asked.append((start, len(self) if end is None else end))
        return super().count(sub, start, end)


def test_odd_ranges_count_only_the_first_half_of_each_range():
    """A range's second half holds the range's odd lines less its first half's: the
    halving reads the block about once, not once per level and half."""
    block = _SHAPED * 4000 + _LOUD + _ODD
    shape = learn_shape(_SHAPED)
    folded = block.translate(FOLD)
    found = shaped_lines(folded, shape, block.count(b"\n"))
    _Spans.asked = []
    ranges = odd_ranges(_Spans(folded), shape, found, LineIndex(folded))
    assert ranges == _odd_ranges_line_by_line(block, shape)
    assert sum(end - start for start, end in _Spans.asked) <= len(folded)


def test_a_head_whose_info_lines_open_with_no_rank_tag_is_not_searched_for_one(monkeypatch):
    """Led by the shape, the rank-tag search is tried at every line; the bytes any match
    holds (`info [`, `info - [`, ...) are looked for first."""
    searched = []
    monkeypatch.setattr(logger_shape.re, "search", lambda *args: searched.append(args))
    block = _SHAPED * 50 + _LOUD
    assert not relays_workers(block.translate(FOLD), learn_shape(_SHAPED))
    assert searched == []


def test_a_cann_log_is_searched_only_for_the_info_phrases_cann_writes() -> None:
    """A plog's INFO lines are skipped, so its few notable ones are looked for as written;
    phrases only serving frameworks write (vLLM's) cost no pass over a plog."""
    block_filter = BlockFilter.build(load_prefilter(), None)
    plog = (
        b"[INFO] HCCL(3120,python):2026-05-01-10:00:00.000.001 [heartbeat.cc:88] ok\n"
        b"[INFO] HCCL(3120,python):2026-05-01-10:00:01.000.001 [heartbeat.cc:91]"
        b" [HeartbeatAbnormal]local rank [1]: crimer rank [10.0.0.2/5] status[STUCK]\n"
    )
    assert block_filter.cann_notable_candidates(plog) == {
        plog.index(b"[INFO] HCCL(3120,python):2026-05-01-10:00:01")
    }
    assert b"no available shared memory broadcast block" not in block_filter.notable_cann


def test_a_logger_that_relays_worker_lines_has_no_skippable_info_shape() -> None:
    block = (
        b"2026-02-03 04:05:06,100 - Tuner - INFO - saving step 400\n"
        b"2026-02-03 04:05:06,101 - Tuner - INFO - [rank12]: RuntimeError: boom\n"
    )
    shape = learn_shape(block.split(b"\n")[0])
    assert shape is not None
    assert relays_workers(block.translate(FOLD), shape)


def test_info_records_that_only_mention_a_rank_are_chatter() -> None:
    block = (
        b"2026-02-03 04:05:06,100 - Tuner - INFO - saving step 400\n"
        b"2026-02-03 04:05:06,101 - Tuner - INFO - rank 3 wrote shard [rank3] done\n"
    )
    shape = learn_shape(block.split(b"\n")[0])
    assert shape is not None
    assert not relays_workers(block.translate(FOLD), shape)


def test_a_bare_undefined_symbol_line_is_an_error_candidate():
    """The loader's `<lib>.so: undefined symbol: <name>` carries no error word when it is
    pasted without the ImportError in front; words about undefined symbols are not it."""
    bare = "/opt/src/pkg/_ext.cpython-311-x86_64-linux-gnu.so: undefined symbol: _ZN3pkg4initEv"
    talk = "listing undefined symbols of _ext.so before the wheel is packed"
    block = f"build ok\n{bare}\n{talk}\n".encode()
    hits = BlockFilter.build(PREFILTER, None).candidates(block.translate(FOLD))
    assert block.index(bare.encode()) in hits
    assert classify(parse_line(bare), PREFILTER) == EventKind.ERROR
    assert classify(parse_line(talk), PREFILTER) is None


def test_nccl_warnings_without_an_error_word_are_error_candidates():
    """NCCL's own check of the collectives' arguments and a NIC completion printed by an IB
    plugin say what failed with no error word (`vendor err` only); NCCL's INFO line listing a
    completed collective is neither."""
    mismatch = (
        "gpu-12:4410:4410 [3] init.cc:1247 NCCL WARN Mismatched collective detected, please "
        "check your collective calls at and around rank 21."
    )
    completion = (
        "NET/IBP:Got completion from peer 10.31.7.4<41022> with status=12 opcode=32512 "
        "len=32510 vendor err 129 (Send)"
    )
    chatter = "gpu-12:4410:4410 [3] NCCL INFO got completion of 8 collectives, all matched"
    block = f"{mismatch}\n{completion}\n{chatter}\n".encode()
    hits = BlockFilter.build(PREFILTER, None).candidates(block.translate(FOLD))
    assert block.index(completion.encode()) in hits
    assert classify(parse_line(mismatch), PREFILTER) == EventKind.ERROR
    assert classify(parse_line(completion), PREFILTER) == EventKind.ERROR
    assert classify(parse_line(chatter), PREFILTER) is None


def test_a_quoted_loader_assertion_is_a_block_candidate():
    block = b"loading shards 3/8\nassert param_data.shape == loaded_weight.shape\n"
    hits = BlockFilter.build(PREFILTER, None).candidates(block.translate(FOLD))
    assert sorted(hits) == [block.index(b"assert")]


def test_the_keyword_union_finds_the_lines_a_search_per_keyword_finds():
    block_filter = BlockFilter.build(PREFILTER, None)
    assert block_filter.keyword_union is not None
    block = (
        b"[rank2]: terminate called after throwing an instance of 'c10::Error'\n"
        b"  what():  CUDA error: an illegal memory access was encountered\n"
        b"INFO step 12 loss=2.31 lr=1e-4\n"
        b"NVRM: Xid (PCI:0000:3b:00): 79, GPU has fallen off the bus.\n"
        b"\xe6\x8a\xa5\xe9\x94\x99 plain line with no keyword \xff\xfe\n"
        b"Segmentation fault (core dumped)"
    ).translate(FOLD)
    by_word: set[int] = set()
    for word in block_filter.keywords:
        blockfilter._find_all(block, word, by_word)
    assert block_filter.candidates(block) >= by_word
    union: set[int] = set()
    blockfilter._find_any(block, block_filter.keywords, block_filter.keyword_union, union)
    assert union == by_word
    assert len(union) == 4  # terminate, what(), the Xid line, the segfault; not the others


def test_a_notable_phrase_is_found_by_its_union_too():
    block_filter = BlockFilter.build(PREFILTER, None)
    block = b"INFO no available shared memory broadcast block found in 60 seconds\nINFO ok\n"
    assert block_filter.notable_candidates(block.translate(FOLD)) == {0}


def test_the_keyword_unions_are_built_once_for_all_files_filters(monkeypatch):
    built: list[tuple[bytes, ...]] = []
    real = blockfilter.compile_literal_union
    monkeypatch.setattr(
        blockfilter, "compile_literal_union", lambda words: built.append(words) or real(words)
    )
    filters = [BlockFilter.build(PREFILTER, None) for _ in range(3)]
    assert len(built) <= 2  # the keywords' and the notable phrases', unless built before
    assert filters[0].keyword_union is filters[2].keyword_union


def test_an_error_named_only_as_a_condition_of_advice_is_no_error():
    """Engines print advice such as "If out-of-memory error occurs during capture, consider
    ..."; read without its level (a relay dropped it, a paste cut it) the clause names no
    failure of this run. A line that reports the error itself still is one."""
    advice = parse_line(
        "(VllmWorkerProcess 02-11 08:01:17 model_runner.py:1400] Capturing cudagraphs. If "
        "out-of-memory error occurs during cudagraph capture, consider decreasing "
        "`gpu_memory_utilization` or switching to eager mode."
    )
    assert advice.level is None
    assert classify(advice, PREFILTER) is None
    failed = parse_line("torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB")
    assert classify(failed, PREFILTER) is EventKind.ERROR


def test_a_frontend_relaying_an_engine_child_has_no_skippable_info_shape():
    frontend = b"2026-02-11T08:01:17.204Z  INFO frontend::http: listening on 8000\n"
    relayed = b"2026-02-11T08:01:18.004Z  INFO frontend::engine: VLLM: [core.py:61] started\n"
    shape = learn_shape(frontend)
    assert shape is not None
    assert relays_workers((frontend + relayed).translate(FOLD), shape)
    assert not relays_workers((frontend * 2).translate(FOLD), shape)


@pytest.mark.parametrize("engine", [b"VLLM", b"SGLANG", b"TRTLLM", b"TENSORRT_LLM"])
def test_each_relayed_engines_name_marks_a_relaying_frontend(engine):
    frontend = b"2026-02-11T08:01:17.204Z  INFO frontend::http: listening on 8000\n"
    relayed = b"2026-02-11T08:01:18.004Z  INFO frontend::engine: " + engine + b": started\n"
    shape = learn_shape(frontend)
    assert shape is not None
    assert relays_workers((frontend + relayed).translate(FOLD), shape)


def test_every_file_of_a_bundle_shares_one_filter():
    matcher = CheckpointMatcher()
    assert BlockFilter.build(PREFILTER, matcher) is BlockFilter.build(PREFILTER, matcher)
    assert BlockFilter.build(PREFILTER, None) is BlockFilter.build(PREFILTER, None)
    own = BlockFilter.build(PREFILTER, CheckpointMatcher([r"step \d+ ok"]))
    assert own.checkpoint_literals != BlockFilter.build(PREFILTER, matcher).checkpoint_literals


def test_the_graph_engines_unplaced_op_is_an_error_without_code_or_level():
    """The refusal to place an op on any kernel store carries no error word; quoted alone, with
    no EZ3002 code or level in front, it is still the failure. An op kernel that is supported
    or selected is progress, not an error."""
    bare = (
        "Optype [Gather] of Ops kernel [AIcoreEngine] is unsupported. "
        "Reason: op type Gather is not found in this op store."
    )
    selected = "Optype [Gather] of Ops kernel [AIcoreEngine] is selected for node gather_3"
    supported = "op type Gather of ops kernel AIcoreEngine is supported"
    block = f"model loaded\n{bare}\n{selected}\n".encode()
    hits = BlockFilter.build(PREFILTER, None).candidates(block.translate(FOLD))
    assert block.index(bare.encode()) in hits
    assert classify(parse_line(bare), PREFILTER) == EventKind.ERROR
    assert classify(parse_line(selected), PREFILTER) is None
    assert classify(parse_line(supported), PREFILTER) is None


def test_second_person_advice_that_quotes_an_error_is_no_error():
    """A library warns about its set-up and adds "If you get `CUDA error: invalid device
    function` errors, the above might be the cause ...": the quoted error is a condition of
    the advice, not one this run met. The same error raised by a call still is one (guide:
    "Device error advice is not an error")."""
    advice = parse_line(
        "If you get `CUDA error: invalid device function` errors, the above might be the cause "
        "and the solution is to make sure only one ['libcudart.so'] in the paths that we search."
    )
    assert classify(advice, PREFILTER) is None
    failed = parse_line("RuntimeError: CUDA error: invalid device function")
    assert classify(failed, PREFILTER) is EventKind.ERROR


def test_advice_that_names_the_error_it_works_around_is_no_error():
    """An engine adds "To work around this error, add --flag to your launch command." under the
    failure it falls back from; the clause names no failure of its own. An error stated on the
    same line is still one (guide: "Device error advice is not an error")."""
    advice = parse_line(
        "To work around this error, add --disable-piecewise-graph to the launch command."
    )
    assert classify(advice, PREFILTER) is None
    failed = parse_line(
        "RuntimeError: graph capture failed. To avoid this error, set enforce_eager=True"
    )
    assert classify(failed, PREFILTER) is EventKind.ERROR


class _Searched(bytes):
    """A block that notes the line heads looked for in it."""

    asked: list[bytes] = []

    def count(self, sub, *span):  # type: ignore[override]
        _Searched.asked.append(sub)
        return super().count(sub, *span)

    def find(self, sub, *span):  # type: ignore[override]
        if sub not in _Searched.asked:
            _Searched.asked.append(sub)
        return super().find(sub, *span)


def test_loud_words_no_line_of_the_shape_is_left_for_are_not_looked_for():
    """A rank log that ends on two lines of another shape (the watchdog's own records):
    once INFO and WARNING account for every line of the shape, ERROR, WARN, CRITICAL and
    FATAL lead none of them, and the lines found are those every word's search finds."""
    block = _SHAPED * 300 + _LOUD * 2 + _ODD * 2
    shape = learn_shape(_SHAPED)
    folded = block.translate(FOLD)
    _Searched.asked = []
    found = shaped_lines(_Searched(folded), shape, block.count(b"\n"))
    assert not any(word in head for head in _Searched.asked for word in (b"error", b"fatal"))
    assert (found.loud, found.quiet, found.odd) == (
        {300 * len(_SHAPED), 300 * len(_SHAPED) + len(_LOUD)},
        (b"info ",),
        2,
    )


def test_pythons_attribute_message_without_its_class_is_an_error():
    """Python's `module 'x' has no attribute 'y'`, quoted without `AttributeError:` in front (an
    FAQ entry, an issue title), is the exception itself; a sentence that only uses the words is
    not, and neither is the message at INFO level."""
    bare = "module 'torch_npu' has no attribute 'npu_demo_attention'"
    talk = "checking whether module torch_npu has no attribute for the fused path"
    info = "INFO 05-11 09:14:02 module 'torch_npu' has no attribute 'npu_demo_attention'"
    block = f"start\n{bare}\n{talk}\n".encode()
    hits = BlockFilter.build(PREFILTER, None).candidates(block.translate(FOLD))
    assert block.index(bare.encode()) in hits
    assert classify(parse_line(bare), PREFILTER) == EventKind.ERROR
    assert classify(parse_line(talk), PREFILTER) is None
    assert classify(parse_line(info), PREFILTER) is None


def test_a_missing_operator_entry_point_without_its_exception_class_is_an_error():
    """torch_npu's refusal of an aclnn entry point the operator library does not export, quoted
    without `RuntimeError:` in front (an issue title, a summary line), holds no error word of
    its own; the sentence is still the failure. A lookup that found the entry point is not."""
    bare = (
        "aclnnDemoGatherRows or aclnnDemoGatherRowsGetWorkspaceSize not in libopapi.so,"
        " or libopapi.sonot found."
    )
    titled = f"[Bug]: 服务启动 '{bare}'"
    found = "loaded aclnnDemoGatherRows from libopapi.so"
    block = f"start\n{titled}\n{found}\n".encode()
    hits = BlockFilter.build(PREFILTER, None).candidates(block.translate(FOLD))
    assert block.index(titled.encode()) in hits
    assert classify(parse_line(bare), PREFILTER) == EventKind.ERROR
    assert classify(parse_line(titled), PREFILTER) == EventKind.ERROR
    assert classify(parse_line(found), PREFILTER) is None
