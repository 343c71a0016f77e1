"""How a rank's process ended, from its launcher's records: a `--tee` console's progress
copied late is no recovery, and a SIGKILL the launcher sent survivors after another rank failed
is its teardown, not a kill from outside."""

from __future__ import annotations

import pytest

from analyzers.classify.events import classify_scans
from analyzers.classify.matches import Classified
from analyzers.classify.rules import load_knowledge
from analyzers.classify.tiers import TIER_CAUSE, TIER_TEARDOWN_KILL
from tests.analyzers.excerpts import assert_reads, diagnose_text, scan_text

KNOWLEDGE = load_knowledge()

# torchrun --tee 3 (no --log-dir), plain prints: the agent copies each rank's stdout and stderr
# from two files read in turn, so rank 1's traceback (stderr, torch's `[rank1]:` prefix) lands
# above the last progress lines it printed before the failure (torch 2.13, gloo, DDP comm hook).
TEE_REORDERED = """\
[default0]:layer 1 passed
[default1]:layer 1 passed
[default0]:  norm passed
[default1]:  norm passed
[default1]:[rank1]: Traceback (most recent call last):
[default1]:[rank1]:   File "/srv/ddp/train.py", line 143, in quantize_hook
[default1]:[rank1]:     blocks = buf.view(-1, 48)
[default1]:[rank1]: RuntimeError: shape '[-1, 48]' is invalid for input of size 6561
[default0]:  attention passed
[default1]:  attention passed
[default1]:  MoE passed
[default1]:layer 2 passed
[default1]:model run failed
{tail}"""

AGENT_SAW_RANK_1_FAIL = """\
E1205 01:46:12.127000 12508 torch/distributed/elastic/multiprocessing/api.py:1002] failed (exitcode: 1) local_rank: 1 (pid: 12621) of binary: /usr/bin/python3
Traceback (most recent call last):
  File "/usr/local/bin/torchrun", line 8, in <module>
    sys.exit(main())
torch.distributed.elastic.multiprocessing.errors.ChildFailedError: 
============================================================
/srv/ddp/train.py FAILED
------------------------------------------------------------
Failures:
  <NO_OTHER_FAILURES>
------------------------------------------------------------
Root Cause (first observed failure):
[0]:
  time      : 2026-12-05_01:46:12
  host      : localhost
  rank      : 1 (local_rank: 1)
  exitcode  : 1 (pid: 12621) 
  error_file: <N/A>
  traceback : To enable traceback see: https://pytorch.org/docs/stable/elastic/errors.html
============================================================
"""


def _shape_error(text: str) -> object:
    items = classify_scans([scan_text("ddp-int8/host-a/train.log", text)], KNOWLEDGE)
    return next(i for i in items if "is invalid for input of size" in i.event.text)


def test_tee_console_progress_after_a_failed_ranks_traceback_is_no_recovery() -> None:
    """The agent reports rank 1 failed and rank 1 never logged its success line: the progress
    copied below its traceback was printed before it, and the error keeps its weight."""
    item = _shape_error(TEE_REORDERED.format(tail=AGENT_SAW_RANK_1_FAIL))
    assert not item.recovered
    assert item.tier == TIER_CAUSE


def test_tee_console_rank_that_finished_after_its_error_recovered() -> None:
    """Counterexample: no failure of rank 1 reported, and rank 1 logs its success line."""
    item = _shape_error(TEE_REORDERED.format(tail="[default1]:model run success\n"))
    assert item.recovered


# torchrun --tee 3, logging to stdout: rank 3 died of SIGSEGV in its MoE step; the agent's own
# report of the child's end is written as soon as it sees it, while the ranks' stdout (their
# progress before the crash) is copied into the console only after it (torch 2.13, gloo).
TEE_AGENT_REPORT_BEFORE_PROGRESS = """\
[default0]:[rank0]: RuntimeError: [../third_party/gloo/gloo/transport/tcp/pair.cc:553] Connection closed by peer [127.0.0.1]:26810. This is typically caused by a remote worker crashing.
E1205 05:05:07.891000 4805 torch/distributed/elastic/multiprocessing/api.py:1002] failed (exitcode: -11) local_rank: 3 (pid: 4864) of binary: /usr/bin/python3
[default3]:2026-12-05 05:05:07,520 [rank3] INFO layer 0 passed
[default3]:2026-12-05 05:05:07,531 [rank3] INFO   norm passed
[default3]:2026-12-05 05:05:07,557 [rank3] INFO   attention passed
torch.distributed.elastic.multiprocessing.errors.ChildFailedError: 
============================================================
train.py FAILED
------------------------------------------------------------
Root Cause (first observed failure):
[0]:
  time      : 2026-12-05_05:05:07
  host      : localhost
  rank      : 3 (local_rank: 3)
  exitcode  : -11 (pid: 4864)
  error_file: <N/A>
  traceback : Signal 11 (SIGSEGV) received by PID 4864
============================================================
"""


def test_tee_console_progress_copied_after_the_agents_report_of_a_rank_is_no_recovery() -> None:
    """The agent's own line that rank 3 died is no error rank 3 carried on from: the progress
    below it was printed before the crash and copied late, so the report keeps its weight."""
    items = classify_scans(
        [scan_text("job/launcher.log", TEE_AGENT_REPORT_BEFORE_PROGRESS)], KNOWLEDGE
    )
    report = next(i for i in items if "failed (exitcode: -11)" in i.event.text)
    assert not report.recovered
    assert report.tier == TIER_CAUSE


def _summary_record(index: str, time: str, rank: int, exitcode: str) -> list[str]:
    return [
        f"[{index}]:",
        f"  time      : 2026-11-30_{time}",
        "  host      : node-a",
        f"  rank      : {rank} (local_rank: {rank})",
        f"  exitcode  : {exitcode}",
        "  error_file: <N/A>",
        "  traceback : To enable traceback see: https://pytorch.org/docs/stable/elastic/errors.html",
    ]


def _torchrun_summary(failures: list[list[str]], root: list[str]) -> str:
    """torchrun's closing report as its agent prints it under its own traceback."""
    rule = "-" * 60
    lines = [
        "Traceback (most recent call last):",
        '  File "/opt/venv/bin/torchrun", line 8, in <module>',
        "    sys.exit(main())",
        '  File "/opt/venv/lib/python3.11/site-packages/torch/distributed/launcher/api.py", '
        "line 263, in launch_agent",
        "    raise ChildFailedError(",
        "torch.distributed.elastic.multiprocessing.errors.ChildFailedError: ",
        "=" * 60,
        "serve_llm.py FAILED",
        rule,
        "Failures:",
    ]
    for record in failures:
        lines += record
    lines += [rule, "Root Cause (first observed failure):", *root, "=" * 60]
    return "\n".join(lines) + "\n"


# rank 2 exits with status 1 first; the agent SIGTERMs the rest, rank 3 stops, and rank 1,
# still running 30 s later, is killed by the agent itself
KILLED_IN_TEARDOWN = _torchrun_summary(
    [
        _summary_record("1", "10:00:06", 3, "-15 (pid: 4403)"),
        _summary_record("2", "10:00:36", 1, "-9 (pid: 4401)"),
    ],
    _summary_record("0", "10:00:05", 2, "1 (pid: 4402)"),
)

# rank 1 is killed first (the OOM killer, an operator); its peers exit 1 after losing it
KILLED_FIRST = _torchrun_summary(
    [_summary_record("1", "10:00:09", 2, "1 (pid: 4402)")],
    _summary_record("0", "10:00:05", 1, "-9 (pid: 4401)"),
)

# every child killed by SIGKILL: the whole job was killed from outside
ALL_KILLED = _torchrun_summary(
    [_summary_record("1", "10:00:36", 1, "-9 (pid: 4401)")],
    _summary_record("0", "10:00:35", 2, "-9 (pid: 4402)"),
)


def _sigkill_record(text: str) -> Classified:
    items = classify_scans([scan_text("node-a/torchrun.log", text)], KNOWLEDGE)
    return next(item for item in items if "exitcode: -9" in (item.event.message or ""))


def test_a_sigkill_the_launcher_sent_after_another_rank_failed_is_its_teardown() -> None:
    """docs/labelling.md, "A launcher's own kill of the survivors": the SIGKILL recorded half
    a minute after rank 2's own exit is the agent stopping rank 1, not a kill from outside."""
    item = _sigkill_record(KILLED_IN_TEARDOWN)
    assert item.tier == TIER_TEARDOWN_KILL
    assert item.demoted
    diagnosis = diagnose_text("node-a/torchrun.log", KILLED_IN_TEARDOWN)
    assert diagnosis.first_error is not None
    assert "-9" not in diagnosis.first_error.text
    assert diagnosis.culprit_ranks == [2]


@pytest.mark.parametrize("text", [KILLED_FIRST, ALL_KILLED])
def test_a_sigkill_with_no_own_failure_before_it_keeps_its_reading(text: str) -> None:
    item = _sigkill_record(text)
    assert item.tier == TIER_CAUSE
    assert not item.demoted


def test_a_sigkill_recorded_first_stays_the_first_error() -> None:
    diagnosis = diagnose_text("node-a/torchrun.log", KILLED_FIRST)
    assert_reads(diagnosis, "device_fault", first_error="-9")
    assert diagnosis.culprit_ranks == [1]
