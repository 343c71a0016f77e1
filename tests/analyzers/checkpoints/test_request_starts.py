"""A server's line that opens a request's phase (`request 2 prefill start: 46 tokens`) is no
checkpoint of its own, as a step's start line is not, but it opens that request: the parts
after it are the new request's, not the decode loop of the request before it, even when the
new request fails inside its prefill and never passes a phase (docs/labelling.md#training-steps
and the request lines of `knowledge/checkpoints.yaml`)."""

from __future__ import annotations

from analyzers import AnalyzeOptions, analyze
from tests.analyzers.job_bundles import pack

ABORTED = (
    "RuntimeError: [/__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp/pair.cc:553] "
    "Connection closed by peer [127.0.0.1]:52110. This is typically caused by a remote worker "
    "crashing. Check the logs of the remote worker before reporting an error."
)


def _rank(rank: int, second: list[str]) -> str:
    lines = [f"[09:14:0{rank}] rank {rank} | request 7 prefill start: 40 tokens, 10 on this rank"]
    for layer in range(2):
        lines += [
            f"[09:14:0{rank}] rank {rank} |   norm passed",
            f"[09:14:0{rank}] rank {rank} |   attention passed",
            f"[09:14:0{rank}] rank {rank} | layer {layer} passed",
        ]
    lines.append(f"[09:14:0{rank}] rank {rank} | request 7 prefill passed")
    return (
        "\n".join(lines + [f"[09:14:0{rank}] rank {rank} | {line}" for line in second] + [ABORTED])
        + "\n"
    )


def _last(tmp_path, files: dict[str, str]) -> tuple[dict[int, str | None], str | None]:
    bundle = pack(tmp_path / "job.tar.gz", files, "job-3e0b")
    report = analyze(bundle, AnalyzeOptions(workers=1)).to_dict()
    last = {r["rank"]: r.get("last_checkpoint_qualified") for r in report["ranks"]}
    return last, report["correlation"]["last_common_checkpoint_qualified"]


def test_the_parts_after_a_request_start_are_that_requests(tmp_path):
    second = ["request 8 prefill start: 38 tokens, 9 on this rank", "  norm passed"]
    further = [*second, "  attention passed", "layer 0 passed", "  norm passed"]
    last, common = _last(tmp_path, {"log_0.log": _rank(0, further), "log_1.log": _rank(1, second)})
    assert last == {0: "request 8 / layer 1 / norm passed", 1: "request 8 / layer 0 / norm passed"}
    assert common == "request 8 / layer 0 / norm passed"


def test_a_request_start_alone_is_no_checkpoint(tmp_path):
    """Counterexample: a rank that printed the start line and nothing after it stopped at what
    it did before; the start line is never its last checkpoint nor the common one."""
    started = ["request 8 prefill start: 38 tokens, 9 on this rank"]
    last, common = _last(tmp_path, {"log_0.log": _rank(0, started), "log_1.log": _rank(1, started)})
    assert last == {0: "request 7 / prefill passed", 1: "request 7 / prefill passed"}
    assert common == "request 7 / prefill passed"
