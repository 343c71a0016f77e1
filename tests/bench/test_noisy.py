"""The noisy-job bundle: warnings on every step, the one real error at the end."""

import tarfile
from pathlib import Path

from bench.noisy import write_noisy_bundle


def test_every_rank_logs_its_lines_then_the_failing_rank_its_error(tmp_path: Path) -> None:
    out = tmp_path / "noisy.tar.gz"
    write_noisy_bundle(out, ranks=2, lines=600)
    with tarfile.open(out) as tar:
        logs = {
            member.name: tar.extractfile(member).read().decode().splitlines()  # type: ignore[union-attr]
            for member in tar.getmembers()
            if member.name.endswith("train.log")
        }
    assert len(logs) == 2
    for lines in logs.values():
        assert len(lines) >= 600
        kinds = ("UserWarning", "WARN", "Token indices", "huggingface/tokenizers")
        assert all(any(kind in line for line in lines[:200]) for kind in kinds)
    failing = logs["job/node-0/rank_0/train.log"] + logs["job/node-0/rank_1/train.log"]
    assert any("error code is 507015" in line for line in failing)
