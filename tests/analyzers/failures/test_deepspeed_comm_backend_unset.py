"""A DeepSpeed communication call made before DeepSpeed set its backend up.

docs/labelling.md#a-deepspeed-communication-call-before-its-backend-is-set: DeepSpeed keeps
its own communication layer beside torch's process group and asserts that it was set up
before any of its calls (gather of ZeRO-3 partitions, a barrier). A script that reaches such
a call without DeepSpeed having initialised it (the engine was never built on this path, or
the launch did not hand the job to DeepSpeed) stops on the assertion. Nothing failed on a
link: the label is `config`, with `hccl` beside it, and the assertion is the first error, even
when two ranks print it run together on one line.

The fixtures are written in the shape of a multi-rank script's stderr, with our own paths.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

UNSET_BACKEND = """\
[rank1]: Traceback (most recent call last):
[rank1]:   File "/work/job/export_state.py", line 88, in <module>
[rank1]:     weights = accelerator.get_state_dict(model)
[rank1]:   File "/opt/venv/lib/python3.11/site-packages/deepspeed/comm/comm.py", line 411, in get_world_group
[rank1]:     assert cdb is not None and cdb.is_initialized(), 'DeepSpeed backend not set, please initialize it using init_process_group()'
[rank1]: AssertionError: DeepSpeed backend not set, please initialize it using init_process_group()
"""


def test_an_unset_deepspeed_backend_is_the_setup() -> None:
    diagnosis = diagnose_text("stderr.log", UNSET_BACKEND)
    assert_reads(diagnosis, "config", first_error="DeepSpeed backend not set")
    assert diagnosis.confidence >= 0.8, diagnosis.confidence


def test_two_ranks_printing_it_run_together_is_the_same_failure() -> None:
    text = (
        "AssertionErrorAssertionError: : DeepSpeed backend not set, please initialize it using "
        "init_process_group()DeepSpeed backend not set, please initialize it using "
        "init_process_group()\n"
    )
    diagnosis = diagnose_text("stderr.log", text)
    assert_reads(diagnosis, "config", first_error="DeepSpeed backend not set")


def test_a_log_line_that_sets_the_backend_is_no_failure() -> None:
    text = "[INFO] [comm.py:652:init_distributed] Initializing TorchBackend in DeepSpeed with backend nccl\n"
    diagnosis = diagnose_text("stderr.log", text)
    assert diagnosis.first_error is None
