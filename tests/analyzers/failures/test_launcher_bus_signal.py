"""A launcher's report that a rank died of a bus error (SIGBUS).

docs/labelling.md#config-driver_env-or-weight_load: a rank that ended on SIGBUS crashed, and the
label stays `device_fault`; but the kernel sends SIGBUS to a process that touched a page of a
mapped file it could not back, and a multi-process job in a container whose `/dev/shm` is
smaller than its shared buffers usually meets it that way, so the machine's set-up
(`driver_env`) is offered beside it. The shell's job notice already offered it; the launchers'
own spellings of the same end (torchrun's `exitcode: -7`, DeepSpeed's `return code = -7`,
mp.spawn's `terminated with signal SIGBUS`, the old launcher's `<Signals.SIGBUS: 7>`) now do
too. Counterexamples: a segmentation fault (-11) and an illegal instruction (-4) are the
rank's own crash with no set-up beside them. Fixtures follow the launchers' formats with
numbers and paths of our own.
"""

from __future__ import annotations

import pytest

from tests.analyzers.excerpts import alternative_labels, assert_reads, diagnose_text

BUS_REPORTS = [
    (
        "W0305 10:02:11.530000 811 torch/distributed/elastic/multiprocessing/api.py:897] Sending"
        " process 905 closing signal SIGTERM\n"
        "E0305 10:02:12.118000 811 torch/distributed/elastic/multiprocessing/api.py:869] failed"
        " (exitcode: -7) local_rank: 1 (pid: 906) of binary: /opt/venv/bin/python3\n",
        "failed (exitcode: -7) local_rank: 1",
    ),
    (
        "[2024-03-02 10:00:31,250] [ERROR] [launch.py:321:sigkill_handler]"
        " ['/opt/venv/bin/python3', '-u', 'finetune.py', '--local_rank=0'] exits with return"
        " code = -7\n",
        "exits with return code = -7",
    ),
    (
        "Root Cause (first observed failure):\n[0]:\n  time      : 2024-03-02_10:00:31\n"
        "  host      : node1\n  rank      : 1 (local_rank: 1)\n  exitcode  : -7 (pid: 1523)\n"
        "  error_file: <N/A>\n  traceback : Signal 7 (SIGBUS) received by PID 1523\n",
        "exitcode  : -7 (pid: 1523)",
    ),
    (
        "torch.multiprocessing.spawn.ProcessExitedException: process 2 terminated with signal"
        " SIGBUS\n",
        "terminated with signal SIGBUS",
    ),
    (
        "subprocess.CalledProcessError: Command '['/opt/conda/bin/python', '-u', 'train.py',"
        " '--local_rank=3']' died with <Signals.SIGBUS: 7>.\n",
        "died with <Signals.SIGBUS: 7>",
    ),
]


@pytest.mark.parametrize(("text", "line"), BUS_REPORTS)
def test_a_launchers_bus_error_report_offers_the_set_up(text: str, line: str) -> None:
    diagnosis = diagnose_text("launcher.log", text)
    assert_reads(diagnosis, "device_fault", first_error=line, beside=("driver_env",))


@pytest.mark.parametrize("code", ["-11", "-4"])
def test_another_crash_signal_offers_no_set_up(code: str) -> None:
    text = (
        "E0305 10:02:12.118000 811 torch/distributed/elastic/multiprocessing/api.py:869] failed"
        f" (exitcode: {code}) local_rank: 1 (pid: 906) of binary: /opt/venv/bin/python3\n"
    )
    diagnosis = diagnose_text("launcher.log", text)
    assert_reads(diagnosis, "device_fault", first_error=f"exitcode: {code}")
    assert "driver_env" not in alternative_labels(diagnosis), alternative_labels(diagnosis)
