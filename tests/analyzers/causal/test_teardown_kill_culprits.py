"""docs/labelling.md, "A launcher's own kill of the survivors", read in the rank comparison.

When the first error is a torchrun summary record of a rank's plain exit status whose own
output the paste cut short (its traceback head is there, its exception is not), the record is
not promoted to the rank's own failure and the culprits come from comparing the ranks. The
rank the agent killed with SIGKILL half a minute later, while it stopped the survivors, is no
suspect there: that kill is the teardown, not why the job stopped. A SIGKILL recorded before
any rank's own exit keeps its reading as a kill from outside.
"""

from __future__ import annotations

from analyzers.causal.culprits import teardown_killed
from tests.analyzers.excerpts import diagnose_text, scan_text

RULE = "-" * 60


def _record(index: int, time: str, rank: int, exitcode: str) -> list[str]:
    return [
        f"[{index}]:",
        f"  time      : 2026-10-14_{time}",
        "  host      : npu-node-07",
        f"  rank      : {rank} (local_rank: {rank})",
        f"  exitcode  : {exitcode}",
        "  error_file: <N/A>",
        "  traceback : To enable traceback see: https://pytorch.org/docs/stable/elastic/errors.html",
    ]


def _job(failures: list[list[str]], root: list[str]) -> str:
    """A rank's traceback cut before its exception, then torchrun's closing report, the paste
    ending inside its `Root Cause` record (before the record's exit status)."""
    lines = [
        "[rank3]: Traceback (most recent call last):",
        '[rank3]:   File "/srv/pretrain/run_sft.py", line 41, in <module>',
        "[rank3]:     trainer.fit()",
        '[rank3]:   File "/srv/pretrain/trainer.py", line 212, in fit',
        "[rank3]:",
        "Traceback (most recent call last):",
        '  File "/usr/local/bin/torchrun", line 8, in <module>',
        "    sys.exit(main())",
        '  File "/usr/local/lib/python3.11/site-packages/torch/distributed/launcher/api.py", '
        "line 286, in launch_agent",
        "    raise ChildFailedError(",
        "torch.distributed.elastic.multiprocessing.errors.ChildFailedError: ",
        "=" * 60,
        "/srv/pretrain/run_sft.py FAILED",
        RULE,
        "Failures:",
    ]
    for record in failures:
        lines += record
    lines += [RULE, "Root Cause (first observed failure):", *root]
    return "\n".join(lines) + "\n"


def _cut_root(time: str, rank: int) -> list[str]:
    return [
        "[0]:",
        f"  time      : 2026-10-14_{time}",
        "  host      : npu-node-07",
        f"  rank      : {rank} (local_rank: {rank})",
    ]


# ranks 1 and 3 exit with status 1 in the same second (torchrun names rank 1 first); the
# agent sends the others SIGTERM, rank 2 stops, rank 0 is still running 30 s later and the
# agent kills it
STOPPED_AFTER_A_FAILURE = _job(
    [
        _record(1, "08:15:42", 3, "1 (pid: 7703)"),
        _record(2, "08:16:13", 0, "-9 (pid: 7700)"),
        _record(3, "08:16:13", 2, "-15 (pid: 7702)"),
    ],
    _cut_root("08:15:42", 1),
)
# rank 0 is killed first (the host's OOM killer); rank 3 exits 1 after losing it
KILLED_BEFORE_ANY_FAILURE = _job(
    [
        _record(1, "08:15:42", 0, "-9 (pid: 7700)"),
        _record(2, "08:15:49", 3, "1 (pid: 7703)"),
    ],
    _cut_root("08:15:42", 0),
)
CONSOLE = "train_sft_npu.log"


def test_the_agents_kill_of_a_survivor_is_no_suspect() -> None:
    diagnosis = diagnose_text(CONSOLE, STOPPED_AFTER_A_FAILURE)
    assert diagnosis.first_error is not None
    assert "exitcode  : 1 (pid: 7703)" in diagnosis.first_error.text
    assert 0 not in diagnosis.culprit_ranks


def test_a_kill_recorded_before_any_failure_keeps_its_reading() -> None:
    diagnosis = diagnose_text(CONSOLE, KILLED_BEFORE_ANY_FAILURE)
    assert diagnosis.culprit_ranks == [0]


def test_teardown_killed_names_only_a_kill_after_another_ranks_own_exit() -> None:
    after = scan_text(CONSOLE, STOPPED_AFTER_A_FAILURE)
    before = scan_text(CONSOLE, KILLED_BEFORE_ANY_FAILURE)
    assert teardown_killed([after]) == {0}
    assert teardown_killed([before]) == set()
