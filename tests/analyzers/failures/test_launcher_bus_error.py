"""A launcher's record of a rank ended by a bus error offers the machine's set-up beside it.

docs/labelling.md#config-driver_env-or-weight_load: SIGBUS in a multi-device job is most often
a `/dev/shm` too small for the ranks' shared buffers, so torchrun's `exitcode: -7` keeps the
crash reading (`device_fault`) with `driver_env` as the alternative, as a shell's `Bus error`
report does. A segfault in the same record offers no set-up. Excerpts follow torchrun's real
shapes with values of our own.
"""

from __future__ import annotations

from tests.analyzers.excerpts import alternative_labels, assert_reads, diagnose_text


def _agent_report(code: int, signal: str) -> str:
    return f"""\
E0304 11:02:09.417000 9120 torch/distributed/elastic/multiprocessing/api.py:874] failed (exitcode: {code}) local_rank: 2 (pid: 9187) of binary: /opt/conda/bin/python
Traceback (most recent call last):
  File "/opt/conda/bin/torchrun", line 8, in <module>
    sys.exit(main())
torch.distributed.elastic.multiprocessing.errors.ChildFailedError: 
============================================================
pretrain.py FAILED
------------------------------------------------------------
Failures:
  <NO_OTHER_FAILURES>
------------------------------------------------------------
Root Cause (first observed failure):
[0]:
  time      : 2026-03-04_11:02:09
  host      : worker-2
  rank      : 2 (local_rank: 2)
  exitcode  : {code} (pid: 9187)
  error_file: <N/A>
  traceback : Signal {-code} ({signal}) received by PID 9187
============================================================
"""


def test_torchruns_bus_error_is_a_crash_that_could_be_shared_memory() -> None:
    diagnosis = diagnose_text("launcher.log", _agent_report(-7, "SIGBUS"))
    assert_reads(
        diagnosis,
        "device_fault",
        first_error="exitcode: -7",
        rule="dev.launcher_child_sigbus",
        beside=("driver_env",),
    )
    assert diagnosis.culprit_ranks == [2]


def test_torchruns_segfault_offers_no_set_up() -> None:
    diagnosis = diagnose_text("launcher.log", _agent_report(-11, "SIGSEGV"))
    assert_reads(diagnosis, "device_fault", first_error="exitcode: -11")
    assert "driver_env" not in alternative_labels(diagnosis)


def test_the_summary_record_alone_reads_the_same() -> None:
    line = (
        "torch.distributed.elastic.multiprocessing.errors.ChildFailedError: rank 5 "
        "(local_rank: 1) exitcode: -7 (pid: 4410) signal: SIGBUS\n"
    )
    diagnosis = diagnose_text("launcher.log", line)
    assert_reads(
        diagnosis,
        "device_fault",
        first_error="exitcode: -7",
        rule="dev.elastic_record_sigbus",
        beside=("driver_env",),
    )
