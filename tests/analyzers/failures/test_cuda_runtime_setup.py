"""CUDA's runtime saying the machine or the job's process setup does not fit.

docs/labelling.md#config-driver_env-or-weight_load: no device the process can see, or a driver
that does not fit the runtime, is the machine, `driver_env`; torch refusing to start CUDA in a
forked child is the job's multiprocessing setting, `config`. A kernel the display watchdog cut
off (`the launch timed out and was terminated`) is the device's, `device_fault`. Lines that
only report devices or a start method are no failure.

Fixtures are written in the shapes of torch's tracebacks, with paths of our own.
"""

from __future__ import annotations

import pytest

from tests.analyzers.excerpts import diagnose_text, rules_of

HEAD = """\
Traceback (most recent call last):
  File "bench/run.py", line 41, in <module>
    main(args)
"""

CASES = [
    ("RuntimeError: CUDA error: no CUDA-capable device is detected", "driver_env"),
    (
        "RuntimeError: CUDA error: system has unsupported display driver / cuda driver combination",
        "driver_env",
    ),
    (
        "RuntimeError: Cannot re-initialize CUDA in forked subprocess. To use CUDA with"
        " multiprocessing, you must use the 'spawn' start method",
        "config",
    ),
    ("RuntimeError: CUDA error: the launch timed out and was terminated", "device_fault"),
]


@pytest.mark.parametrize(("line", "category"), CASES)
def test_a_cuda_runtime_refusal_names_its_layer(line: str, category: str) -> None:
    diagnosis = diagnose_text("bench/rank0.log", HEAD + line + "\n")
    assert diagnosis.category == category, diagnosis.root_cause
    assert diagnosis.first_error is not None
    assert line[:40] in diagnosis.first_error.text


def test_device_and_start_method_reports_are_no_failure() -> None:
    text = (
        "2026-02-11 10:01:02,003 INFO found 4 CUDA-capable devices, the first is detected as sm_90\n"
        "2026-02-11 10:01:02,118 INFO multiprocessing start method set to 'spawn' so CUDA can be"
        " initialized in subprocesses\n"
        "2026-02-11 10:09:40,551 INFO model run success\n"
    )
    diagnosis = diagnose_text("bench/rank0.log", text)
    assert diagnosis.first_error is None
    assert diagnosis.category not in {"driver_env", "config"}


# Python's multiprocessing refusing to spawn a child while the main module is still being
# imported: a script that builds a tensor-parallel engine at module level, without the
# `if __name__ == '__main__':` guard. The refusal prints its message over several indented
# lines under a bare `RuntimeError:`; the job's script is what has to change (`config`).
SPAWN_BEFORE_MAIN_GUARD = """\
Traceback (most recent call last):
  File "<string>", line 1, in <module>
  File "/usr/lib/python3.11/multiprocessing/spawn.py", line 122, in spawn_main
    exitcode = _main(fd, parent_sentinel)
  File "/usr/lib/python3.11/multiprocessing/spawn.py", line 131, in _main
    prepare(preparation_data)
  File "/srv/bench/tp_generate.py", line 9, in <module>
    engine = build_engine(model_dir, tensor_parallel=4)
  File "/usr/lib/python3.11/multiprocessing/spawn.py", line 140, in _check_not_importing_main
    raise RuntimeError('''
RuntimeError: 
        An attempt has been made to start a new process before the
        current process has finished its bootstrapping phase.

        This probably means that you are not using fork to start your
        child processes and you have forgotten to use the proper idiom
        in the main module:

            if __name__ == '__main__':
                freeze_support()
                ...
"""

# Counterexample: a launcher that reports its workers finishing their own start-up uses the
# same words without a refusal.
BOOTSTRAP_PROGRESS = """\
2026-03-02 10:11:12,004 INFO launcher: worker 0 finished its bootstrapping phase in 1.2 s
2026-03-02 10:11:12,090 INFO launcher: worker 1 finished its bootstrapping phase in 1.3 s
2026-03-02 10:14:40,551 INFO model run success
"""


def test_a_child_spawned_before_the_main_guard_is_config() -> None:
    diagnosis = diagnose_text("bench/rank0.log", SPAWN_BEFORE_MAIN_GUARD)
    assert diagnosis.category == "config", diagnosis.root_cause
    rules = rules_of(diagnosis)
    assert "cfg.spawn_before_main_guard" in rules
    assert diagnosis.first_error is not None
    assert "start a new process before the" in diagnosis.first_error.text


def test_the_same_one_rank_prefixed_is_config() -> None:
    text = "".join(f"[rank0]: {line}\n" for line in SPAWN_BEFORE_MAIN_GUARD.splitlines())
    diagnosis = diagnose_text("bench/rank0.log", text)
    assert diagnosis.category == "config", diagnosis.root_cause


def test_a_worker_finishing_its_start_up_is_no_refusal() -> None:
    diagnosis = diagnose_text("bench/launcher.log", BOOTSTRAP_PROGRESS)
    rules = rules_of(diagnosis)
    assert "cfg.spawn_before_main_guard" not in rules
    assert diagnosis.first_error is None
