"""A process started as a daemon that tries to start processes of its own.

docs/labelling.md#a-process-that-may-not-start-children-of-its-own: Python's multiprocessing
refuses to start a child from a process created with `daemon=True` (`AssertionError:
daemonic processes are not allowed to have children`). The job placed work that forks (the
operator compiler's parallel build, a data loader's workers, a pool) inside such a process: the
way the job starts its processes does not fit, `config`, with `driver_env` beside it when the
toolkit's start-up is what failed. The assertion is the first error, ahead of CANN's
`init env failed` block that restates the compiler's start-up failing. Lines of our own in the
real shapes.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

RULE = "cfg.daemonic_process_children"

# The TBE compiler's worker pool started from a daemonic process; CANN's block follows.
COMPILER_IN_DAEMON = """\
Traceback (most recent call last):
  File "/usr/local/Ascend/ascend-toolkit/8.0.RC1/python/site-packages/te_fusion/parallel_compilation.py", line 1040, in init_multi_process_env
    res = compiler.start()
  File "/usr/local/Ascend/ascend-toolkit/8.0.RC1/python/site-packages/te_fusion/parallel_compilation.py", line 630, in start
    worker.start()
  File "/opt/conda/lib/python3.10/multiprocessing/process.py", line 118, in start
    assert not _current_process._config.get('daemon'), \\
AssertionError: daemonic processes are not allowed to have children
EH9999: Inner Error!
EH9999  [Init][Env]init env failed![FUNC:ReportInnerError][FILE:log_inner.cpp][LINE:152]
        TraceBack (most recent call last):
        build op model failed, result = 500001[FUNC:ReportInnerError][FILE:log_inner.cpp][LINE:152]
"""

# A data-loader worker that opens a pool of its own.
POOL_IN_LOADER_WORKER = """\
Traceback (most recent call last):
  File "/opt/conda/lib/python3.10/site-packages/torch/utils/data/_utils/worker.py", line 308, in _worker_loop
    data = fetcher.fetch(index)
  File "/work/data/augment.py", line 77, in __getitem__
    with multiprocessing.Pool(4) as pool:
  File "/opt/conda/lib/python3.10/multiprocessing/pool.py", line 215, in __init__
    self._repopulate_pool()
  File "/opt/conda/lib/python3.10/multiprocessing/process.py", line 118, in start
    assert not _current_process._config.get('daemon'), \\
AssertionError: daemonic processes are not allowed to have children
"""

# Python's own documentation of the rule is no failure.
DOC_SENTENCE = """\
note: a daemonic process is not allowed to create child processes; see the multiprocessing docs
"""


def test_the_compilers_pool_in_a_daemon_is_the_first_error_over_init_env_failed() -> None:
    diagnosis = diagnose_text("train.log", COMPILER_IN_DAEMON)
    assert_reads(
        diagnosis,
        "config",
        first_error="daemonic processes are not allowed to have children",
        rule=RULE,
        beside=["driver_env"],
    )


def test_a_pool_opened_in_a_loader_worker_reads_the_same() -> None:
    diagnosis = diagnose_text("rank0.log", POOL_IN_LOADER_WORKER)
    assert_reads(
        diagnosis,
        "config",
        first_error="daemonic processes are not allowed to have children",
        rule=RULE,
    )


def test_the_rule_stated_in_prose_is_no_failure() -> None:
    assert RULE not in rules_of(diagnose_text("notes.log", DOC_SENTENCE))
