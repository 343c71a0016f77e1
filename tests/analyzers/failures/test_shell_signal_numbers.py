"""A shell that reports how a background job ended, in the spelling of macOS and the BSDs.

Their shells add the signal's number to the name (`Killed: 9`, `Illegal instruction: 4`,
`Bus error: 10`, `Terminated: 15`); the report is the one Linux's bash prints without it.
docs/labelling.md#a-rank-killed-for-host-memory: a SIGKILL is `device_fault` with `oom` beside
it. A progress bar that did not end its line may stand in front of the report. Lines and
values are our own, in the shells' format.
"""

from __future__ import annotations

from analyzers.core.report import Diagnosis
from tests.analyzers.excerpts import assert_reads, diagnose_files

HEALTHY = "".join(
    f"step {step} | loss {2.31 - step / 1000:.3f} | 412.0 samples/s\n"
    for step in range(100, 600, 100)
)


def diagnose(text: str) -> Diagnosis:
    return diagnose_files({"node0/console.log": HEALTHY + text})


def test_a_numbered_sigkill_is_a_killed_rank_with_host_memory_beside_it() -> None:
    diagnosis = diagnose(
        "./start_mac.sh: line 88: 50417 Killed: 9               python -m trainer.run --rank 0\n"
    )
    assert_reads(diagnosis, "device_fault", first_error="Killed: 9", beside=("oom",))


def test_a_numbered_sigkill_after_an_unfinished_progress_bar() -> None:
    diagnosis = diagnose(
        " 40%|████      | 8/20 [3:12:40<4:49:00, 867.0s/it]./train.sh: line 31: 7720 Killed: 9"
        "    python train.py --config cfg.yaml\n"
    )
    assert_reads(diagnosis, "device_fault", first_error="Killed: 9")


def test_a_numbered_native_crash_is_the_rank_dying() -> None:
    diagnosis = diagnose(
        "./bench_all.sh: line 58: 61207 Illegal instruction: 4  python bench.py --rank 1\n"
    )
    assert_reads(diagnosis, "device_fault", first_error="Illegal instruction: 4")
    assert "oom" not in {alt.category for alt in diagnosis.alternatives}


def test_a_numbered_termination_is_no_kill() -> None:
    """Counterexample: SIGTERM (15) is a process being stopped, left to the cascade."""
    diagnosis = diagnose(
        "./start_mac.sh: line 88: 50417 Terminated: 15          python -m trainer.run --rank 0\n"
    )
    assert not (
        diagnosis.first_error is not None
        and "Terminated: 15" in diagnosis.first_error.text
        and diagnosis.category == "device_fault"
    )
