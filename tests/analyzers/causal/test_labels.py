"""A first error whose own line names no failure kind takes its block's label."""

from analyzers.causal.first_error import find_first_error
from analyzers.causal.labels import first_error_label, first_error_reading
from analyzers.classify.rules import load_knowledge
from analyzers.classify.tiers import classify_event
from analyzers.core.types import Event, EventKind
from analyzers.formats.codes import extract_codes
from tests.analyzers.excerpts import assert_reads, diagnose_files

KNOWLEDGE = load_knowledge()


def items(*messages: str):
    events = [
        Event(
            file="job/log_0.log",
            line=n,
            text=text,
            kind=EventKind.ERROR,
            message=text,
            codes=extract_codes(text),
        )
        for n, text in enumerate(messages, start=1)
    ]
    return [classify_event(event, 0, KNOWLEDGE) for event in events]


def test_a_labelled_first_error_keeps_its_own_label():
    chain = find_first_error(items("RuntimeError: NPU out of memory. Tried to allocate 2.00 GiB"))
    assert first_error_label(chain) == ("oom", "memory")


def test_a_generic_manager_line_takes_the_label_of_the_wrapper_in_its_block():
    chain = find_first_error(
        items(
            "RuntimeError: create_config:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:102 "
            "HCCL function error: hcclCommInitRootInfoConfig(numRanks, &rootInfo, rank, config, "
            "&(comm->hcclComm_)), error code is 7",
            "EE9999: [PID: 6610] 2026-01-15-10:20:30.405.506 get error: phyid:2 realDeviceId:2 "
            "is err:0x7010003[FUNC:GetDeviceIndexByPhyId]",
        )
    )
    assert "realDeviceId" in chain.first.event.message
    assert first_error_label(chain) == ("hccl", "communication")


def test_a_refused_write_takes_its_label_from_a_full_disk_found_later():
    """`label_from_bundle`: the refused write stays first and the later line gives the label."""
    chain = find_first_error(
        items(
            "RuntimeError: [enforce fail at inline_container.cc:595] . PytorchStreamWriter "
            "failed writing file data/31: file write failed",
            "OSError: [Errno 28] No space left on device",
        )
    )
    assert "PytorchStreamWriter" in chain.first.event.message
    assert first_error_label(chain) == ("driver_env", "environment")


def test_a_refused_write_alone_keeps_its_own_label():
    chain = find_first_error(
        items(
            "RuntimeError: [enforce fail at inline_container.cc:595] . PytorchStreamWriter "
            "failed writing file data/31: file write failed"
        )
    )
    assert first_error_label(chain)[0] == "other"


def test_nothing_in_the_block_names_a_kind():
    chain = find_first_error(
        items("EE9999: [PID: 1] 2026-01-15-10:20:30.405.506 something went wrong somewhere")
    )
    assert first_error_label(chain)[0] == "other"


# A first error in wording no rule knows, whose words are those of a rule's examples
# (oom.kv_cache_no_room: `... gpu_memory_utilization ...`), and on which the hints find no winner.
KV_CACHE_SHORT = "kv cache memory too small to hold one block, raise gpu_memory_utilization"


def unread(text: str, kind: EventKind = EventKind.ERROR, level: str | None = None):
    event = Event("job/log_0.log", 1, text, kind, text, level=level, source="logging")
    return find_first_error([classify_event(event, 0, KNOWLEDGE)])


def test_an_error_line_no_rule_or_hint_reads_takes_the_label_its_words_share():
    reading = first_error_reading(unread(f"ValueError: {KV_CACHE_SHORT}"))
    assert (reading.category, reading.subsystem) == ("oom", "memory")
    assert reading.words is not None
    assert "gpu_memory_utilization" in reading.words.words


def test_the_same_words_logged_at_a_quiet_level_stay_unlabelled():
    for level in ("INFO", "WARNING", "DEBUG"):
        reading = first_error_reading(unread(KV_CACHE_SHORT, level=level))
        assert (reading.category, reading.words) == ("other", None)


def test_the_same_words_under_a_level_field_no_format_parsed_stay_unlabelled():
    line = f"2026-04-11 06:20:28,640 - INFO - engine: {KV_CACHE_SHORT}"
    reading = first_error_reading(unread(line))
    assert (reading.category, reading.words) == ("other", None)


def test_the_same_words_on_a_warning_line_stay_unlabelled():
    reading = first_error_reading(unread(KV_CACHE_SHORT, kind=EventKind.WARNING))
    assert (reading.category, reading.words) == ("other", None)


def test_the_hints_answer_before_the_learned_words():
    """`DistStoreError` is the store's class to the hints: their label stands."""
    reading = first_error_reading(unread(f"DistStoreError: {KV_CACHE_SHORT}"))
    assert (reading.category, reading.words) == ("hccl", None)


def test_a_rules_label_is_never_reread_by_the_words():
    reading = first_error_reading(
        unread("RuntimeError: NPU out of memory. Tried to allocate 2 GiB")
    )
    assert (reading.category, reading.words) == ("oom", None)


# docs/labelling.md#a-helper-thread-that-died-while-its-rank-went-on: four gloo ranks (torch
# 2.13 CPU, Python logging); rank 3's prefetch thread meets a malformed record and dies, its
# main thread finishes the batch it holds and then waits for the next one, and the other ranks
# time out in the next step's first all_reduce.
def _logged(rank: int, lines: list[str]) -> str:
    return "".join(
        f"2026-12-07 10:01:08,{300 + n:03d} [rank{rank}] INFO trainer: {line}\n"
        for n, line in enumerate(lines)
    )


_STEP = ["layer 0 norm passed", "layer 0 attention passed", "layer 0 mlp passed", "layer 0 passed"]
_THREAD_DIED = """\
Exception in thread Thread-1 (worker):
Traceback (most recent call last):
  File "/usr/lib/python3.11/threading.py", line 1045, in _bootstrap_inner
    self.run()
  File "/usr/lib/python3.11/threading.py", line 982, in run
    self._target(*self._args, **self._kwargs)
  File "/srv/train/prefetch.py", line 51, in worker
    self.batches.append(sample["input_ids"])
                        ~~~~~~^^^^^^^^^^^^^
KeyError: 'input_ids'
"""
# the main thread's own traceback: it starts in the job's code, not in threading's bootstrap
_MAIN_RAISED = """\
Traceback (most recent call last):
  File "/srv/train/train.py", line 97, in main
    batch = prefetcher.next_batch()
  File "/srv/train/prefetch.py", line 51, in next_batch
    self.batches.append(sample["input_ids"])
                        ~~~~~~^^^^^^^^^^^^^
KeyError: 'input_ids'
"""
_PEER_TIMEOUT = """\
[rank{rank}]: Traceback (most recent call last):
[rank{rank}]:   File "/srv/train/train.py", line 118, in attention
[rank{rank}]:     dist.all_reduce(out)
[rank{rank}]:   File "/opt/venv/lib/python3.11/site-packages/torch/distributed/distributed_c10d.py", line 3252, in all_reduce
[rank{rank}]:     work.wait()
[rank{rank}]: RuntimeError: [/__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp/unbound_buffer.cc:78] Timed out waiting 15000ms for recv operation to complete
"""


def _job(culprit_log: str) -> dict[str, str]:
    peers = {
        f"job/log_{rank}.log": _logged(
            rank, [*_STEP, "step 0 done loss=6.8940", "layer 0 norm passed"]
        )
        + _PEER_TIMEOUT.format(rank=rank)
        for rank in range(3)
    }
    return {**peers, "job/log_3.log": culprit_log}


def test_an_unlabelled_exception_that_ended_a_helper_thread_is_the_stall_it_left():
    culprit = (
        _logged(3, _STEP[:1]) + _THREAD_DIED + _logged(3, [*_STEP[1:], "step 0 done loss=6.8940"])
    )
    diagnosis = diagnose_files(_job(culprit))
    assert_reads(diagnosis, "hang", first_error="KeyError: 'input_ids'", beside=["hccl", "other"])
    assert diagnosis.culprit_ranks == [3]
    assert diagnosis.confidence < 0.6  # what the thread starved is inferred


def test_the_same_exception_raised_by_the_main_thread_keeps_no_label():
    """Counterexample: under a plain traceback header whose frames start in the job's own code
    the exception ended the process's own work, not a helper's, and nothing says a stall
    followed: it stays unlabelled."""
    culprit = _logged(3, _STEP[:1]) + _MAIN_RAISED
    diagnosis = diagnose_files(_job(culprit))
    assert diagnosis.category == "other"
    assert "KeyError: 'input_ids'" in diagnosis.first_error.text


def test_a_helper_threads_exception_that_a_rule_reads_keeps_that_label():
    """Counterexample: a thread's exception with a label of its own is that failure."""
    shape = _THREAD_DIED.replace(
        "KeyError: 'input_ids'",
        "RuntimeError: mat1 and mat2 shapes cannot be multiplied (8x16 and 32x32)",
    )
    culprit = _logged(3, _STEP[:1]) + shape + _logged(3, _STEP[1:])
    assert diagnose_files(_job(culprit)).category == "shape_mismatch"


def test_a_helper_threads_unlabelled_exception_with_no_peer_waiting_stays_unlabelled():
    """Counterexample: one process's log, no other rank failing after it: nothing shows a
    stall, so the exception keeps its own silence."""
    culprit = _logged(3, _STEP[:1]) + _THREAD_DIED + _logged(3, _STEP[1:])
    assert diagnose_files({"job/log_3.log": culprit}).category == "other"
