"""Pipeline stages that print a line per microbatch they pushed through.

docs/labelling.md#pipeline-stages-that-log-each-microbatch: `stage 1 microbatch 3 forward
passed` is the checkpoint `microbatch 3 / forward passed` (the stage is the rank's own slice);
upstream stages are microbatches ahead of downstream ones by the schedule, so neither the
stages ahead nor the ones with the fewest lines are blamed for it. A stage that stopped
without a word while its neighbours timed out in send/recv is the culprit; a receiver that
aborts on a message longer than its buffer names no sender. Fixtures follow gloo pipeline
runs on torch 2.13 (plain prints and Python logging), with values of our own.
"""

from __future__ import annotations

from analyzers.checkpoints.patterns import CheckpointMatcher
from analyzers.timeline.correlate import correlate
from tests.analyzers.excerpts import diagnose_files, scan_text

GLOO = "/__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp"


def _timeout(rank: int, op: str) -> str:
    cc = "unbound_buffer.cc:129" if op == "send" else "unbound_buffer.cc:78"
    return (
        f"[rank{rank}]: Traceback (most recent call last):\n"
        f'[rank{rank}]:   File "/srv/pp/train.py", line 61, in {op}\n'
        f"[rank{rank}]:     dist.{op}(t, peer)\n"
        f"[rank{rank}]: RuntimeError: [{GLOO}/{cc}] Timed out waiting 8000ms for {op}"
        " operation to complete\n"
    )


def _stage(
    rank: int, done: int, tail: str = "", form: str = "stage {s} microbatch {m} forward passed"
) -> str:
    lines = [f"pipeline stage {rank} ready"]
    lines += [form.format(s=rank, m=m) for m in range(done)]
    return "\n".join(lines) + "\n" + tail


STALLED_STAGE = {
    "job/log_0.log": _stage(0, 3, _timeout(0, "send")),
    "job/log_1.log": _stage(1, 2, _timeout(1, "send")),
    "job/log_2.log": _stage(2, 1),
    "job/log_3.log": _stage(3, 1, _timeout(3, "recv")),
    "job/log_4.log": _stage(4, 1, _timeout(4, "recv")),
    "job/log_5.log": _stage(5, 1, _timeout(5, "recv")),
}


def _abort(rank: int) -> str:
    return (
        "terminate called after throwing an instance of 'gloo::EnforceNotMet'\n"
        f"  what():  [enforce fail at {GLOO}/pair.cc:456] op.preamble.length <= op.nbytes."
        " 2048 vs 1024. Received data size doesn't match expected size.\n"
    )


def _closed(rank: int, port: int) -> str:
    return (
        f"[rank{rank}]: RuntimeError: [{GLOO}/pair.cc:553] Connection closed by peer"
        f" [127.0.0.1]:{port}. This is typically caused by a remote worker crashing.\n"
    )


LOGGED = "INFO:root:stage {s}: microbatch {m} forward passed"
LONGER_MESSAGE = {
    "job/log_0.log": _stage(0, 3, _closed(0, 16808), LOGGED),
    "job/log_1.log": _stage(1, 2, _closed(1, 15232), LOGGED),
    "job/log_2.log": _stage(2, 1, _abort(2), LOGGED),
    "job/log_3.log": _stage(3, 1, _closed(3, 21643), LOGGED),
}


def _correlation(files: dict[str, str]):
    matcher = CheckpointMatcher(())
    return correlate([scan_text(p, t, matcher) for p, t in files.items()], None)


def test_a_stage_line_per_microbatch_is_the_microbatch_phase() -> None:
    correlation = _correlation(STALLED_STAGE)
    last = {r.rank: r.last_checkpoint_qualified for r in correlation.ranks}
    assert last == {
        0: "microbatch 2 / forward passed",
        1: "microbatch 1 / forward passed",
        2: "microbatch 0 / forward passed",
        3: "microbatch 0 / forward passed",
        4: "microbatch 0 / forward passed",
        5: "microbatch 0 / forward passed",
    }
    assert correlation.last_common.qualified == "microbatch 0 / forward passed"


def test_upstream_stages_ahead_by_the_schedule_are_not_blamed_for_a_silent_stage() -> None:
    diagnosis = diagnose_files(STALLED_STAGE)
    assert diagnosis.culprit_ranks == [2]


def test_a_receiver_aborting_on_a_longer_message_names_no_stage() -> None:
    """The downstream stages logged the fewest lines by the schedule, not by stopping first."""
    diagnosis = diagnose_files(LONGER_MESSAGE)
    assert "op.preamble.length <= op.nbytes" in diagnosis.first_error.text
    assert diagnosis.culprit_ranks == []


def test_tensor_parallel_ranks_one_short_of_the_pack_are_still_behind() -> None:
    """Counterexample: ranks that log the same layers are compared by their counts."""
    files = {
        f"job/log_{r}.log": "\n".join(f"layer {n} passed" for n in range(3 if r != 1 else 2)) + "\n"
        for r in range(4)
    }
    assert _correlation(files).behind_ranks == [1]
