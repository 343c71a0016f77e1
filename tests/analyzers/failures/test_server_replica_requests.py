"""A server's data-parallel replicas serving queues of their own, several requests per run.

Each replica (a tensor-parallel group) serves its own requests, of uneven lengths, and its ranks
tag every phase line with the request (`[req 1] decode step 2 passed`, `request_id=2 ...`). The
checkpoints are request-qualified, replicas that part between request lines are no divergence,
and a healthy run whose replicas served different numbers of requests stays healthy. When one
rank stalls in a later request, its replica peer times out in the collective, the other
replica (done with its queue) times out in the final barrier, and the silent rank alone is to
blame.

Fixtures are written here in the shapes of real gloo runs with their own values.

docs/labelling.md#a-servers-replicas-that-serve-requests-of-their-own
"""

from __future__ import annotations

from pathlib import Path

from tests.analyzers.job_bundles import RECV_TIMEOUT, RankLog, analyze_job, ranks

SEND_TIMEOUT = RECV_TIMEOUT.replace("unbound_buffer.cc:81", "unbound_buffer.cc:129").replace(
    "recv", "send"
)


def _serve(log: RankLog, lengths: list[int], tag: str, stop: tuple[int, int] | None = None):
    """Prefill and decode steps per request; `stop`: (request, step) before which it stalls."""
    for request, steps in enumerate(lengths):
        log.info(tag.format(request=request) + " prefill passed")
        for step in range(steps):
            if stop == (request, step):
                return log
            log.info(tag.format(request=request) + f" decode step {step} passed")
    return log


def _replicas() -> list[RankLog]:
    logs = ranks(4)
    for log in logs:
        log.loaded()
    return logs


def _by_rank(report: dict) -> dict[int, str]:
    return {r["rank"]: r["last_checkpoint_qualified"] for r in report["ranks"]}


def test_replicas_with_uneven_queues_finish_healthy(tmp_path: Path) -> None:
    logs = _replicas()
    for log in logs:
        lengths = [4, 2, 5] if log.rank < 2 else [6, 3]
        _serve(log, lengths, "[req {request}]").info("model run success")
    report = analyze_job(tmp_path, logs).to_dict()
    assert report["diagnosis"]["category"] == "healthy"
    assert report["correlation"]["divergent_ranks"] == []
    assert _by_rank(report) == {r: "model run success" for r in range(4)}


def test_a_rank_stalled_in_a_later_request_is_the_culprit(tmp_path: Path) -> None:
    logs = _replicas()
    for log in logs:
        if log.rank < 2:
            _serve(log, [3, 5, 2], "request_id={request}").at(8000)
            log.log("ERROR", f"worker loop failed: {SEND_TIMEOUT}")
        else:
            _serve(log, [2, 3, 4], "request_id={request}", stop=(2, 1))
            if log.rank == 3:
                log.at(7990).log("ERROR", f"worker loop failed: {RECV_TIMEOUT}")
    report = analyze_job(tmp_path, logs).to_dict()
    diagnosis = report["diagnosis"]
    assert diagnosis["culprit_ranks"] == [2]
    assert "Timed out waiting 10000ms" in diagnosis["first_error"]["text"]
    assert report["correlation"]["divergent_ranks"] == []
    assert _by_rank(report) == {
        0: "request 2 / decode step 1 passed",
        1: "request 2 / decode step 1 passed",
        2: "request 2 / decode step 0 passed",
        3: "request 2 / decode step 0 passed",
    }
    assert report["correlation"]["last_common_checkpoint_qualified"] == (
        "request 2 / decode step 0 passed"
    )
