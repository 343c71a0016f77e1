"""A job whose ranks log their time in different layouts: two ranks write ISO times, one
writes seconds since the epoch (`%(created)f`). The epoch rank's lines are timed like the
others, so its clock is aligned with theirs and its error takes its place in time."""

from __future__ import annotations

from analyzers import AnalyzeOptions, analyze
from tests.analyzers.job_bundles import decoder_steps, pack

CLOSED = (
    "[/__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp/pair.cc:553] Connection closed "
    "by peer [127.0.0.1]:{port}. This is typically caused by a remote worker crashing. Check the "
    "logs of the remote worker before reporting an error. GLHF! 🏖️"
)
STEPS = decoder_steps(2, [" norm passed", " attention passed"], loaded=True)
OPEN = (
    "init process group: backend=gloo rank={rank} world_size=3 master=127.0.0.1:30133",
    "building toy decoder: layers=4 hidden=32 experts=8 tp=3",
)


def iso_rank(rank: int, failed_at: str, port: int) -> str:
    """`%(asctime)s %(levelname)s [rank%(rank)s] %(message)s` with ISO times."""
    lines = [f"2026-12-07T01:45:41.5714{rank:02d} INFO [rank{rank}] {OPEN[0].format(rank=rank)}"]
    lines.append(f"2026-12-07T01:45:42.1166{rank:02d} INFO [rank{rank}] {OPEN[1]}")
    for i, step in enumerate(STEPS):
        lines.append(f"2026-12-07T01:45:42.{158770 + i * 17000} INFO [rank{rank}] {step}")
    lines.append(f"{failed_at} ERROR [rank{rank}] model run failed: {CLOSED.format(port=port)}")
    return "\n".join(lines) + "\n"


def epoch_rank(rank: int, failed_at: str, port: int) -> str:
    """`%(created)f [rank%(rank)s] %(levelname)s %(message)s`: the same clock, as seconds."""
    lines = [f"1796607941.4249{rank:02d} [rank{rank}] INFO {OPEN[0].format(rank=rank)}"]
    lines.append(f"1796607942.1253{rank:02d} [rank{rank}] INFO {OPEN[1]}")
    for i, step in enumerate(STEPS):
        lines.append(f"1796607942.{178665 + i * 17000} [rank{rank}] INFO {step}")
    lines.append(f"{failed_at} [rank{rank}] ERROR model run failed: {CLOSED.format(port=port)}")
    return "\n".join(lines) + "\n"


def report_of(tmp_path):
    logs = {
        "log_0.log": iso_rank(0, "2026-12-07T01:45:47.487189", 11405),
        "log_1.log": iso_rank(1, "2026-12-07T01:45:53.931592", 213),
        "log_2.log": epoch_rank(2, "1796607943.821538", 17107),
        "env.txt": "WORLD_SIZE=3\n",
    }
    bundle = pack(tmp_path / "job.tar.gz", logs, "job-a4ea3ee0")
    return analyze(bundle, AnalyzeOptions(workers=1)).to_dict()


def test_the_epoch_rank_has_a_clock_offset_like_the_others(tmp_path):
    offsets = report_of(tmp_path)["correlation"]["clock_offsets"]
    assert sorted(offsets) == ["0", "1", "2"]
    assert abs(offsets["2"]) < 0.1


def test_the_epoch_ranks_earlier_error_is_the_first(tmp_path):
    first = report_of(tmp_path)["diagnosis"]["first_error"]
    assert first["rank"] == 2
    assert first["file"].endswith("log_2.log")
    assert first["timestamp"] == "2026-12-07T01:45:43.821538"
