"""Serving engines on Ascend that stop before the model runs.

- an engine that derives its per-node parallel layout from the deployment refuses a count it
  cannot use (`Invalid DP number per node: 0`) and then aborts with an uncaught C++ exception:
  the refusal is the first error and the label is `config`, with the crash (`device_fault`)
  offered; a crash without such a refusal keeps its own reading;
- a graph runner (lmdeploy's dlinfer/dicp) cannot build an ATB operation from the JSON
  parameters written for it (`<Name>Operation parse json fail`): one operator node could not
  be built, `operator`; the same creator reporting success is no failure.

Fixtures follow the shapes MindIE's daemon and dicp print; the values are made up.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

LAYOUT_REFUSED_THEN_ABORT = """\
[2026-02-03 04:05:06.070809] [311] [318] [llm] [ERROR] [executor.cpp:512] Invalid DP number per node: 0
terminate called after throwing an instance of 'std::out_of_range'
  what():  _Map_base::at
[2026-02-03 04:05:06.071+08:00] [311] [318] [server] [WARN] [llm_daemon.cpp:204] : [MIE04W01011A] [daemon] Received exit signal[6], pid[311].
Daemon is killing, please wait about 15 seconds...
/run-engine.sh: line 40:   311 Aborted                 (core dumped) /opt/mindie/bin/mindieservice_daemon
"""

ABORT_WITHOUT_REFUSAL = """\
[2026-02-03 04:05:06.071+08:00] [311] [318] [server] [WARN] [llm_daemon.cpp:204] : [MIE04W01011A] [daemon] Received exit signal[11], pid[311].
Daemon is killing, please wait about 15 seconds...
/run-engine.sh: line 40:   311 Segmentation fault      (core dumped) /opt/mindie/bin/mindieservice_daemon
"""

OPERATION_NOT_BUILT = """\
[2026-01-02 03:04:05.678] [dicp] [error] [operation_creator.cpp:23] LinearOperation parse json fail, error:[json.exception.type_error.302] type must be boolean, but is null
[2026-01-02 03:04:05.690] [dicp] [error] [operation_creator.cpp:23] LinearOperation parse json fail, error:[json.exception.type_error.302] type must be boolean, but is null
"""

OPERATION_BUILT = """\
[2026-01-02 03:04:05.678] [dicp] [info] [operation_creator.cpp:19] LinearOperation parse json success
"""


def test_a_refused_parallel_count_before_an_abort_is_the_deployments_setting() -> None:
    diagnosis = diagnose_text("mindie_instance.log", LAYOUT_REFUSED_THEN_ABORT)
    assert_reads(
        diagnosis, "config", first_error="Invalid DP number per node: 0", beside=("device_fault",)
    )


def test_an_abort_without_a_refused_count_is_not_read_as_a_setting() -> None:
    diagnosis = diagnose_text("mindie_instance.log", ABORT_WITHOUT_REFUSAL)
    assert diagnosis.category != "config"


def test_an_atb_operation_the_graph_runner_could_not_build_is_an_operator_failure() -> None:
    diagnosis = diagnose_text("console.txt", OPERATION_NOT_BUILT)
    assert_reads(diagnosis, "operator", first_error="LinearOperation parse json fail")
    assert diagnosis.first_error.line == 1


def test_an_operation_the_creator_reports_as_parsed_is_no_failure() -> None:
    diagnosis = diagnose_text("console.txt", OPERATION_BUILT)
    assert diagnosis.category != "operator"
    assert diagnosis.first_error is None
