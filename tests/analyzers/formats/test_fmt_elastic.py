"""torch elastic: the agent's per-child line and the ChildFailedError summary become facts."""

import io

from analyzers.core.types import EventKind, FileInfo, FileKind
from analyzers.scan.member import scan_file

LAUNCHER = """\
W1129 07:25:37.303000 26576 torch/distributed/elastic/multiprocessing/api.py:1028] Sending process 26690 closing signal SIGTERM
E1129 07:25:37.499000 26576 torch/distributed/elastic/multiprocessing/api.py:1002] failed (exitcode: -11) local_rank: 1 (pid: 26691) of binary: /opt/venv/bin/python
Traceback (most recent call last):
  File "/opt/venv/lib/python3.11/site-packages/torch/distributed/launcher/api.py", line 383, in launch_agent
    raise ChildFailedError(
torch.distributed.elastic.multiprocessing.errors.ChildFailedError: 
===========================================================
/home/user/llm-infer/infer.py FAILED
-----------------------------------------------------------
Failures:
[1]:
  time      : 2026-11-29_07:25:37
  host      : localhost
  rank      : 0 (local_rank: 0)
  exitcode  : -15 (pid: 26690)  (SIGTERM)
  error_file: <N/A>
  traceback : Signal 15 (SIGTERM) received by PID 26690
-----------------------------------------------------------
Root Cause (first observed failure):
[0]:
  time      : 2026-11-29_07:25:37
  host      : localhost
  rank      : 1 (local_rank: 1)
  exitcode  : -11 (pid: 26691)  (SIGSEGV)
  error_file: <N/A>
  traceback : Signal 11 (SIGSEGV) received by PID 26691
===========================================================
"""


def scan(text: str):
    return scan_file(io.BytesIO(text.encode()), FileInfo("launcher.log", FileKind.LAUNCHER, None))


def test_failures_are_merged_per_child_and_marked_root_cause():
    failures = scan(LAUNCHER).facts["elastic_failures"]
    assert failures == [
        {
            "rank": 1,
            "local_rank": 1,
            "exitcode": -11,
            "signal": "SIGSEGV",
            "pid": 26691,
            "time": "2026-11-29T07:25:37",
            "root_cause": True,
        },
        {
            "rank": 0,
            "local_rank": 0,
            "exitcode": -15,
            "signal": "SIGTERM",
            "pid": 26690,
            "time": "2026-11-29T07:25:37",
            "root_cause": False,
        },
    ]


def test_a_double_spaced_paste_of_the_summary_gives_the_same_records():
    """A page copy puts an empty line after every line: the summary's opening rule then sits
    four lines below the `raise`, and still opens the summary rather than closing it."""
    double = "".join(line + "\n\n" for line in LAUNCHER.splitlines())
    assert scan(double).facts["elastic_failures"] == scan(LAUNCHER).facts["elastic_failures"]


def test_events_name_the_rank_and_signal():
    events = [e for e in scan(LAUNCHER).events if e.kind == EventKind.ERROR]
    agent = events[0]
    assert (agent.line, agent.rank, agent.message) == (
        2,
        1,
        "failed (exitcode: -11) local_rank: 1 (pid: 26691) of binary: /opt/venv/bin/python",
    )
    assert agent.timestamp.isoformat() == "2026-11-29T07:25:37.499000"
    summary = [(e.line, e.rank, e.message) for e in events if e.source == "elastic"]
    assert summary == [
        (
            15,
            0,
            "ChildFailedError: rank 0 (local_rank: 0) exitcode: -15 (pid: 26690) signal: SIGTERM"
            " traceback: Signal 15 (SIGTERM) received by PID 26690",
        ),
        (
            24,
            1,
            "ChildFailedError: rank 1 (local_rank: 1) exitcode: -11 (pid: 26691) signal: SIGSEGV"
            " [root cause: first observed failure] traceback: Signal 11 (SIGSEGV) received by PID 26691",
        ),
    ]


def test_summary_field_lines_are_not_events_of_their_own():
    lines = {e.line for e in scan(LAUNCHER).events}
    assert not lines & {8, 10, 16, 17, 19, 25, 26}


def test_sigterm_notice_is_a_warning():
    [warning] = [e for e in scan(LAUNCHER).events if e.kind == EventKind.WARNING and e.line == 1]
    assert warning.message == "Sending process 26690 closing signal SIGTERM"


# A summary pasted without its line breaks and cut off after its last field.
GLUED_AND_CUT = """\
torch.distributed.elastic.multiprocessing.errors.ChildFailedError:
train/finetune.py FAILED
Failures:
<NO OTHER FAILURES>
Root Cause (first observed failure) :
[0]:
time
2026-03-02 11:04:17
rank5 (local rank: 5)exitcode: -9 (pid: 48120)error file: <N/A>
traceback : signal 9 (SIGKILL) received by PID 48120
"""


def test_glued_fields_of_a_summary_cut_off_at_the_end_still_make_a_record():
    failures = scan(GLUED_AND_CUT).facts["elastic_failures"]
    assert [(f["rank"], f["exitcode"], f["signal"], f["pid"]) for f in failures] == [
        (5, -9, "SIGKILL", 48120)
    ]
    errors = [e for e in scan(GLUED_AND_CUT).events if e.source == "elastic"]
    assert errors[0].message.startswith("ChildFailedError: rank 5 exitcode: -9 (pid: 48120)")


def test_a_line_with_one_field_word_is_not_read_as_glued_fields():
    text = GLUED_AND_CUT.replace(
        "rank5 (local rank: 5)exitcode: -9 (pid: 48120)error file: <N/A>",
        "the agent saw exitcode: -9 for this child",
    )
    assert "elastic_failures" not in scan(text).facts


# A second node's agent (labelling guide, "A second launcher agent numbers its ranks from 0"):
# its children are local ranks 0 and 1, global ranks 2 and 3.
SECOND_AGENT = """\
W1203 17:02:58.396000 24037 torch/distributed/elastic/multiprocessing/api.py:1028] Sending process 24162 closing signal SIGTERM
E1203 17:02:58.680000 24037 torch/distributed/elastic/multiprocessing/api.py:1002] failed (exitcode: 1) local_rank: 1 (pid: 24163) of binary: /opt/venv/bin/python
Traceback (most recent call last):
torch.distributed.elastic.multiprocessing.errors.ChildFailedError: 
============================================================
/home/user/llm-infer/infer.py FAILED
------------------------------------------------------------
Failures:
[1]:
  time      : 2026-12-03_17:02:58
  host      : localhost
  rank      : 2 (local_rank: 0)
  exitcode  : -15 (pid: 24162)  (SIGTERM)
  error_file: <N/A>
  traceback : Signal 15 (SIGTERM) received by PID 24162
------------------------------------------------------------
Root Cause (first observed failure):
[0]:
  time      : 2026-12-03_17:02:58
  host      : localhost
  rank      : 3 (local_rank: 1)
  exitcode  : 1 (pid: 24163) 
  error_file: <N/A>
  traceback : To enable traceback see: https://pytorch.org/docs/stable/elastic/errors.html
============================================================
"""


def test_the_agent_line_takes_the_global_rank_of_its_summary_record():
    [agent] = [e for e in scan(SECOND_AGENT).events if e.line == 2]
    assert agent.rank == 3


def test_an_agent_line_without_its_summary_keeps_the_local_rank():
    line = SECOND_AGENT.splitlines()[1] + "\n"
    [agent] = scan(line).events
    assert agent.rank == 1


# A paste that begins at the summary's root-cause record, the exception line and the
# `FAILED` header above it left out; the child ended in SIGABRT.
ROOT_CAUSE_ONLY = """\
------------------------------------------------------------
Root Cause (first observed failure):
[0]:
  time      : 2026-05-14_03:12:40
  host      : node-a7
  rank      : 2 (local_rank: 2)
  exitcode  : -6 (pid: 73114)
  error_file: <N/A>
  traceback : Signal 6 (SIGABRT) received by PID 73114
"""


def test_a_paste_cut_below_the_header_still_gives_the_root_cause_record():
    failures = scan(ROOT_CAUSE_ONLY).facts["elastic_failures"]
    assert [
        (f["rank"], f["exitcode"], f["signal"], f["pid"], f["root_cause"]) for f in failures
    ] == [(2, -6, "SIGABRT", 73114, True)]
    [event] = [e for e in scan(ROOT_CAUSE_ONLY).events if e.source == "elastic"]
    assert (event.line, event.rank) == (7, 2)


def test_a_root_cause_word_outside_the_summary_opens_nothing():
    text = "analysis: Root Cause (first observed failure) was a slow disk\n  exitcode  : -6\n"
    assert "elastic_failures" not in scan(text).facts


# A child that wrote an error file: its whole Python traceback is quoted in its record, under the
# `traceback :` field, and the record then goes on (or the next record starts).
QUOTED_TRACEBACK = """\
torch.distributed.elastic.multiprocessing.errors.ChildFailedError: 
============================================================
trainer.main FAILED
------------------------------------------------------------
Failures:
  <NO_OTHER_FAILURES>
------------------------------------------------------------
Root Cause (first observed failure):
[0]:
  time      : 2026-04-09_16:20:05
  host      : gpu-b12
  rank      : 3 (local_rank: 3)
  exitcode  : 1 (pid: 90412)
  error_file: /tmp/torchelastic_zz81/none_k2/attempt_0/3/error.json
  traceback : Traceback (most recent call last):
    File "/srv/trainer/main.py", line 74, in __init__
      self.loader = build_loader(cfg)
    File "/srv/trainer/data.py", line 31, in build_loader
      raise ValueError(f"shard list {path} is empty")
  ValueError: shard list /data/shards/val is empty
  
============================================================
"""


def test_a_quoted_traceback_in_a_record_is_the_ranks_own_error():
    result = scan(QUOTED_TRACEBACK)
    [record] = result.facts["elastic_failures"]
    assert (record["rank"], record["exitcode"]) == (3, 1)
    [error] = [e for e in result.events if "shard list" in e.message and e.kind == EventKind.ERROR]
    assert (error.line, error.rank) == (20, 3)
    assert error.source != "elastic"
    # the record's own line stays one event of the launcher's, not a second copy of the error
    [summary] = [e for e in result.events if e.source == "elastic"]
    assert summary.line == 13


def test_a_signal_record_quotes_no_traceback_and_reads_as_before():
    result = scan(LAUNCHER)
    assert not [
        e
        for e in result.events
        if e.kind == EventKind.ERROR and e.source != "elastic" and e.line > 16
    ]


# The summary's closing rule ends it: whatever the same output prints next (a wrapper's own
# traceback, the harness that ran the launcher, the next run typed into the same terminal) is
# read as usual, not taken for more of the summary.
AFTER_THE_SUMMARY = (
    LAUNCHER
    + """\
Traceback (most recent call last):
  File "/usr/local/lib/python3.12/dist-packages/nbrunner/engine.py", line 153, in save
    handle.write(buf)
OSError: [Errno 28] No space left on device
"""
)


def test_the_lines_after_the_summarys_closing_rule_are_read():
    result = scan(AFTER_THE_SUMMARY)
    [error] = [e for e in result.events if "No space left on device" in e.message]
    assert (error.kind, error.line) == (EventKind.ERROR, 31)
    assert len(result.facts["elastic_failures"]) == 2


def test_a_rule_inside_a_record_still_separates_records():
    """The dashed rule between the failures and the root cause closes nothing."""
    failures = scan(LAUNCHER).facts["elastic_failures"]
    assert sorted(f["rank"] for f in failures) == [0, 1]
