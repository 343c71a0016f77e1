"""A launcher's report that quotes the rank's whole command as a Python list.

docs/labelling.md#a-launchers-report-that-quotes-the-ranks-command: DeepSpeed's launcher and
the old `torch.distributed.launch` report a rank that ended by a signal with the command that
started it (`['/opt/venv/bin/python3', '-u', 'train.py', '--local_rank=0', '--deepspeed',
'/data/config/zero2.json'] exits with return code = -11`). The list says how the rank was
started, not what failed: its options and the words of its paths are no hint of a setting the
job got wrong, and they no longer offer `config` beside the crash. Words outside the list
keep their vote, and so does a list that runs no interpreter or script (a build tool's
`['ninja', '-v']`). Fixtures follow the launchers' formats with paths and numbers of our own.
"""

from __future__ import annotations

from analyzers.classify.hints import tally
from tests.analyzers.excerpts import alternative_labels, assert_reads, diagnose_text

DEEPSPEED_SEGFAULT = (
    "[2024-03-02 10:00:01,100] [INFO] [launch.py:315:sigkill_handler] Killing subprocess 40211\n"
    "[2024-03-02 10:00:31,250] [ERROR] [launch.py:321:sigkill_handler] ['/opt/venv/bin/python3',"
    " '-u', 'finetune.py', '--local_rank=0', '--deepspeed', '/data/run/config/zero2.json']"
    " exits with return code = -11\n"
)

LEGACY_LAUNCH_SEGFAULT = (
    "subprocess.CalledProcessError: Command '['/opt/venv/bin/python3', '-u', 'train.py',"
    " '--local_rank=2', '--config', 'configs/base.yaml']' died with <Signals.SIGSEGV: 11>.\n"
)


def test_a_deepspeed_report_offers_no_setting_from_its_command() -> None:
    diagnosis = diagnose_text("train.log", DEEPSPEED_SEGFAULT)
    assert_reads(diagnosis, "device_fault", first_error="exits with return code = -11")
    assert "config" not in alternative_labels(diagnosis), alternative_labels(diagnosis)


def test_the_old_launcher_report_offers_no_setting_from_its_command() -> None:
    diagnosis = diagnose_text("train.log", LEGACY_LAUNCH_SEGFAULT)
    assert_reads(diagnosis, "device_fault", first_error="died with <Signals.SIGSEGV: 11>")
    assert "config" not in alternative_labels(diagnosis), alternative_labels(diagnosis)


def test_options_outside_the_list_still_vote() -> None:
    line = "ValueError: --offload_optimizer needs --zero_stage 2 or 3 in the deepspeed config"
    assert tally(line)["config"] > 0


def test_a_list_that_runs_no_script_still_votes() -> None:
    with_option = "subprocess.CalledProcessError: Command '['make', '--jobs=8']' returned non-zero exit status 2."
    without = (
        "subprocess.CalledProcessError: Command '['make', 'all']' returned non-zero exit status 2."
    )
    assert tally(with_option)["config"] > tally(without)["config"] > 0
