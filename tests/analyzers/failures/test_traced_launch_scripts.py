"""A launch script run with `set -x` echoes each command before it runs it, behind `+ `.

The echoed commands often hold the words of a failure (a grep for errors, the `[ERROR]`
message an echo is about to print, a path named `failed_run`), but they say only what the
script did next: the first error is what a command printed. Each scenario is a bash trace as
bash 5 writes it, scanned and diagnosed end to end.
"""

from __future__ import annotations

from tests.analyzers.excerpts import diagnose_text

# a launch script that checks the previous run's log, then runs a step that fails
TRACED_RUN = """\
+ LOG=train.log
+ check_log train.log
+ grep -qi error train.log
+ echo '[WARN] previous run had errors, continuing'
[WARN] previous run had errors, continuing
++ grep -ci failed train.log
+ n=0
+ echo 'train.log: 0 failed lines'
train.log: 0 failed lines
+ python3 train.py --resume /ckpt/failed_run_3
load weights passed
layer 0 passed
Traceback (most recent call last):
  File "/srv/train/train.py", line 10, in <module>
    torch.save(state, path)
OSError: [Errno 28] No space left on device
+ rc=1
+ '[' 1 -ne 0 ']'
+ echo '[ERROR] training failed with exit code 1'
[ERROR] training failed with exit code 1
+ exit 1
"""

# the trace holds the only error words: the job itself printed nothing wrong
TRACE_ONLY = """\
+ python3 eval.py --model /ckpt/step_900
eval accuracy 0.71
+ grep -i -E 'error|Traceback|failed' eval.log
+ echo '[ERROR] check eval.log for errors'
+ exit 0
"""


def test_the_first_error_is_what_a_traced_command_printed():
    diagnosis = diagnose_text("job/launch.log", TRACED_RUN)

    assert diagnosis.first_error is not None
    assert diagnosis.first_error.text == "OSError: [Errno 28] No space left on device"


def test_no_echoed_command_is_cited_as_evidence():
    diagnosis = diagnose_text("job/launch.log", TRACED_RUN)

    assert not [e.ref.text for e in diagnosis.evidence if e.ref.text.startswith("+")]


def test_a_trace_whose_commands_name_errors_holds_no_error_line():
    diagnosis = diagnose_text("job/launch.log", TRACE_ONLY)

    assert diagnosis.first_error is None
