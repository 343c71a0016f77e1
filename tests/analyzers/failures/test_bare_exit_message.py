"""A rank that leaves through `sys.exit("<why>")`: Python prints the message bare on the
rank's stderr (no level, no traceback) and the process ends with status 1 (labelling guide,
"A rank that exits without a word").

Shaped like torchrun 2.13 on gloo with `--max-restarts 1 --log-dir ... --redirects 3`: in
attempt 0 rank 1's pre-flight check exits before init_process_group, the agent stops the
others and restarts the group; in attempt 1 the ranks die in gloo's connectFullMesh on the
addresses attempt 0 left in the store.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_files

TREE = "job/torchrun_logs/none_137z"
AGENT = "E1206 08:37:00.170000 18662 torch/distributed/elastic/multiprocessing/api.py:1002]"
START = "init process group: backend=gloo rank={r} world_size=4 master=127.0.0.1:29831"
REFUSED = (
    "[/__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp/debug_logger.cc:9] ERROR failed "
    "to connect, willRetry=1, retry=1, retryLimit=3, rank={r}, size=4, local=[127.0.0.1]:49369, "
    "remote=[127.0.0.1]:43399${r}, error=SO_ERROR: Connection refused, remote="
)
MESH = (
    "RuntimeError: Gloo connectFullMesh failed with [/__w/pytorch/pytorch/third_party/gloo/"
    "gloo/transport/tcp/pair.cc:152] timed out connecting: SO_ERROR: Connection refused, "
    "remote=[127.0.0.1]:43399${r}"
)


def _text(lines: list[str]) -> str:
    return "".join(line + "\n" for line in lines)


def _job(exit_line: str) -> dict[str, str]:
    files = {}
    for r in range(4):
        if r == 1:
            files[f"{TREE}/attempt_0/1/stderr.log"] = _text([exit_line])
            files[f"{TREE}/attempt_0/1/stdout.log"] = ""
        else:
            files[f"{TREE}/attempt_0/{r}/stdout.log"] = _text(
                ["preflight passed", START.format(r=r)]
            )
        files[f"{TREE}/attempt_1/{r}/stdout.log"] = _text(["preflight passed", START.format(r=r)])
        if r in (1, 2):
            files[f"{TREE}/attempt_1/{r}/stderr.log"] = _text(
                [
                    REFUSED.format(r=r),
                    "Traceback (most recent call last):",
                    '  File "/home/mlops/dp-train/train.py", line 224, in run',
                    MESH.format(r=r),
                ]
            )
    files["job/launcher.log"] = _text(
        [
            f"{AGENT} failed (exitcode: 1) local_rank: 1 (pid: 18716) of binary: /opt/venv/bin/python3",
            f"{AGENT} failed (exitcode: 1) local_rank: 1 (pid: 19041) of binary: /opt/venv/bin/python3",
        ]
    )
    return files


MISSING = "preflight failed on rank 1: dataset index data/train.idx not found; exiting"


def test_a_bare_exit_message_naming_a_missing_input_is_the_first_error():
    diagnosis = diagnose_files(_job(MISSING))
    assert_reads(diagnosis, "config", first_error=MISSING)
    assert diagnosis.culprit_ranks == [1]


def test_a_bare_exit_message_that_names_no_input_is_the_ranks_own_error():
    line = "pre-flight check failed on rank 1: run 7f3a was already marked finished, aborting"
    diagnosis = diagnose_files(_job(line))
    assert_reads(diagnosis, "other", first_error=line)
    assert diagnosis.culprit_ranks == [1]


def test_a_bare_line_that_only_reports_its_way_out_is_no_failure():
    """Counterexample: no failure words before the exit word (a rank that finished)."""
    diagnosis = diagnose_files(_job("rank 1 has nothing to do in this run, exiting"))
    assert diagnosis.first_error is not None
    assert "nothing to do" not in diagnosis.first_error.text
