"""A process that Python marks as a daemon may not start processes of its own.

docs/labelling.md#a-process-that-may-not-start-children-of-its-own: multiprocessing refuses
to start a child from a daemonic process (a DataLoader worker, a pool worker). Whatever then
fails because its helpers never started (the operator compiler's environment on an NPU) is the
consequence; the refusal is the first error and the job's process layout, `config`, the
label. The fixtures are in the formats a torch_npu job and a DataLoader worker print, with our
own paths and values.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_files, diagnose_text, rules_of

# The operator compiler starts its parallel compile workers from a process that is a daemon;
# its environment then fails to initialise and the op build is refused with ACL's code.
COMPILER_WORKERS_REFUSED = """\
Traceback (most recent call last):
  File "/usr/local/Ascend/ascend-toolkit/latest/python/site-packages/te_fusion/parallel_compilation.py", line 1040, in init_multi_process_env
    res = compiler.start()
  File "/usr/local/Ascend/ascend-toolkit/latest/python/site-packages/te_fusion/parallel_compilation.py", line 630, in start
    worker.start()
  File "/opt/venv/lib/python3.10/multiprocessing/process.py", line 118, in start
    assert not _current_process._config.get('daemon'), \\
AssertionError: daemonic processes are not allowed to have children

EH9999: Inner Error!
EH9999  [Init][Env]init env failed![FUNC:ReportInnerError][FILE:log_inner.cpp][LINE:145]
        TraceBack (most recent call last):
        build op model failed, result = 500001[FUNC:ReportInnerError][FILE:log_inner.cpp][LINE:145]
"""

# A data set whose __getitem__ opens a process pool, read by DataLoader workers (daemons).
LOADER_WORKER_POOL = """\
[rank2]: Traceback (most recent call last):
[rank2]:   File "/srv/job/train.py", line 141, in <module>
[rank2]:     for step, batch in enumerate(loader):
[rank2]:   File "/opt/venv/lib/python3.10/site-packages/torch/utils/data/dataloader.py", line 1465, in _process_data
[rank2]:     data.reraise()
[rank2]: AssertionError: Caught AssertionError in DataLoader worker process 1.
[rank2]: Original Traceback (most recent call last):
[rank2]:   File "/srv/job/data/audio.py", line 77, in __getitem__
[rank2]:     with multiprocessing.Pool(4) as pool:
[rank2]:   File "/opt/venv/lib/python3.10/multiprocessing/process.py", line 118, in start
[rank2]:     assert not _current_process._config.get('daemon'), \\
[rank2]: AssertionError: daemonic processes are not allowed to have children
"""


def test_a_refused_compiler_worker_is_first_over_the_environment_it_left_unstarted() -> None:
    diagnosis = diagnose_text("train.log", COMPILER_WORKERS_REFUSED)
    assert_reads(
        diagnosis,
        "config",
        first_error="daemonic processes are not allowed to have children",
        rule="cfg.daemonic_process_children",
        beside=["driver_env"],
    )


def test_a_loader_worker_that_opens_a_pool_is_the_job_s_process_layout() -> None:
    diagnosis = diagnose_text("rank2.log", LOADER_WORKER_POOL)
    assert_reads(
        diagnosis,
        "config",
        first_error="daemonic processes are not allowed to have children",
        rule="cfg.daemonic_process_children",
        beside=["other"],
    )


def test_a_note_about_daemon_workers_is_no_refusal() -> None:
    diagnosis = diagnose_text(
        "train.log",
        "INFO loader: workers run as daemonic processes; children are not allowed, pool disabled\n",
    )
    assert "cfg.daemonic_process_children" not in rules_of(diagnosis)


def test_the_rule_stated_in_prose_is_no_refusal() -> None:
    diagnosis = diagnose_text(
        "notes.log",
        "note: a daemonic process is not allowed to create child processes; see the docs\n",
    )
    assert "cfg.daemonic_process_children" not in rules_of(diagnosis)


def test_the_refusal_in_another_file_still_explains_the_environment_failure() -> None:
    # A paste split by stream: the traceback went to one file, the error-manager block of
    # the compiler's environment to another, and neither carries a time to order them by.
    traceback, block = COMPILER_WORKERS_REFUSED.split("\n\n")
    diagnosis = diagnose_files({"stdout.log": traceback + "\n", "stderr.log": block})
    assert_reads(
        diagnosis,
        "config",
        first_error="daemonic processes are not allowed to have children",
        rule="cfg.daemonic_process_children",
        beside=["driver_env"],
    )


def test_the_environment_failure_alone_keeps_its_reading() -> None:
    _, block = COMPILER_WORKERS_REFUSED.split("\n\n")
    diagnosis = diagnose_files({"stderr.log": block})
    assert_reads(diagnosis, "driver_env", first_error="init env failed", rule="env.init_env_failed")
