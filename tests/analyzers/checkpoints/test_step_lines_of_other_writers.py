"""Training-step lines as three more writers put them (docs/labelling.md#training-steps):
loguru's default format since 0.8 (the zone after a space, step lines at its SUCCESS level),
Lightning's `[rank: N]` prefix under a progress bar redrawn with carriage returns, and JSON
lines whose step is a field of the record. Each step line closes its step, so the parts after
it are qualified with the next step as they are for a plain `step 3 done`."""

from __future__ import annotations

from analyzers import AnalyzeOptions, analyze
from tests.analyzers.job_bundles import pack

GLOO_CLOSED = (
    "RuntimeError: [/__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp/pair.cc:553] "
    "Connection closed by peer [127.0.0.1]:41207. This is typically caused by a remote worker "
    "crashing. Check the logs of the remote worker before reporting an error."
)


def _last(files: dict[str, str], tmp_path) -> tuple[dict[int, str | None], str | None]:
    bundle = pack(tmp_path / "job.tar.gz", files, "job-7c21")
    report = analyze(bundle, AnalyzeOptions(workers=1)).to_dict()
    last = {r["rank"]: r.get("last_checkpoint_qualified") for r in report["ranks"]}
    return last, report["correlation"]["last_common_checkpoint_qualified"]


def _loguru(rank: int, steps: int, tail: list[str]) -> str:
    lines = []
    for step in range(1, steps + 1):
        lines.append(
            f"2026-11-03 08:12:4{step}.100 +02:00 | DEBUG    | fit:loop:51 - step {step} start"
        )
        lines.append(
            f"2026-11-03 08:12:4{step}.300 +02:00 | INFO     | fit:loop:55 - forward passed"
        )
        lines.append(
            f"2026-11-03 08:12:4{step}.500 +02:00 | INFO     | fit:loop:58 - backward passed"
        )
        lines.append(
            f"2026-11-03 08:12:4{step}.700 +02:00 | SUCCESS  | fit:loop:61 - step {step} done, loss=3.{rank}1"
        )
    return "\n".join(lines + tail) + "\n"


def test_loguru_0_8_step_lines_close_their_steps(tmp_path):
    stopped = [
        "2026-11-03 08:12:49.100 +02:00 | DEBUG    | fit:loop:51 - step 3 start",
        "2026-11-03 08:12:49.300 +02:00 | INFO     | fit:loop:55 - forward passed",
        "2026-11-03 08:12:49.310 +02:00 | ERROR    | fit:<module>:90 - An error has been caught in function '<module>'",
        "FloatingPointError: loss is inf at step 3",
    ]
    waited = [
        "2026-11-03 08:12:49.100 +02:00 | DEBUG    | fit:loop:51 - step 3 start",
        "2026-11-03 08:12:49.300 +02:00 | INFO     | fit:loop:55 - forward passed",
        "2026-11-03 08:12:49.500 +02:00 | INFO     | fit:loop:58 - backward passed",
        GLOO_CLOSED,
    ]
    last, common = _last(
        {"log_0.log": _loguru(0, 2, waited), "log_1.log": _loguru(1, 2, stopped)}, tmp_path
    )
    assert last == {0: "step 3 / backward passed", 1: "step 3 / forward passed"}
    assert common == "step 3 / forward passed"


def _lightning(rank: int, bar: bool) -> str:
    lines = [f"[rank: {rank}] Seed set to 7"]
    for step in range(1, 4):
        frame = f"\rEpoch 0:  {25 * (step - 1)}%|███  | {step - 1}/4 [00:01<00:02, 2.1it/s, v_num=3]\r{' ' * 40}\r"
        for part in ("forward passed", "backward passed", f"train step {step} passed"):
            lines.append((frame if bar else "") + f"[rank: {rank}] {part}")
    lines.append((frame if bar else "") + f"[rank: {rank}] forward passed")
    lines.append(GLOO_CLOSED)
    return "\n".join(lines) + "\n"


def test_lightning_rank_prefixes_under_a_redrawn_bar_keep_their_steps(tmp_path):
    last, common = _last(
        {"log_0.log": _lightning(0, True), "log_1.log": _lightning(1, False)}, tmp_path
    )
    assert last == {0: "step 4 / forward passed", 1: "step 4 / forward passed"}
    assert common == "step 4 / forward passed"


def _json(rank: int, parts_in_last: int) -> str:
    lines = []
    for step in range(1, 4):
        parts = ("forward passed", "backward passed", "optimizer passed")
        if step == 3:
            parts = parts[:parts_in_last]
        for part in parts:
            lines.append(
                f'{{"time": "2026-11-03T08:12:4{step}.1+00:00", "rank": {rank}, "step": {step}, "msg": "{part}"}}'
            )
        if step < 3:
            lines.append(
                f'{{"time": "2026-11-03T08:12:4{step}.9+00:00", "rank": {rank}, "step": {step}, "msg": "step done", "loss": 2.5}}'
            )
    lines.append(
        f'{{"time": "2026-11-03T08:12:49.0+00:00", "rank": {rank}, "level": "error", "msg": "{GLOO_CLOSED}"}}'
    )
    return "\n".join(lines) + "\n"


def test_json_step_records_close_their_steps(tmp_path):
    last, common = _last({"log_0.log": _json(0, 3), "log_1.log": _json(1, 1)}, tmp_path)
    assert last == {0: "step 3 / optimizer passed", 1: "step 3 / forward passed"}
    assert common == "step 3 / forward passed"


def test_json_records_without_a_step_line_keep_their_parts_unstepped(tmp_path):
    """Counterexample: a step field on the parts alone closes no step."""
    text = "\n".join(
        f'{{"rank": 0, "step": {step}, "msg": "{part}"}}'
        for step in (1, 2)
        for part in ("forward passed", "backward passed")
    )
    last, _ = _last({"log_0.log": text + "\n" + GLOO_CLOSED + "\n"}, tmp_path)
    assert last[0] is not None
    assert not last[0].startswith("step ")
