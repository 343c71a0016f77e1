"""Horovod's launcher gave up waiting for the other hosts before any worker started.

docs/labelling.md#a-launcher-that-never-started-its-workers: horovodrun waits until the task
server it started on every host has registered; a host that never answers ends the run with
Horovod's start timeout. It is the launcher's own rendezvous with the other hosts, read like
torchrun's rendezvous timeout: `hccl`, with `driver_env` and `config` beside it, and no worker
started. Paths, hosts and timeouts are our own, in the launcher's real wordings.
"""

from __future__ import annotations

from pathlib import Path

from analyzers import AnalyzeOptions, analyze
from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

RULE = "hccl.horovod_start_timeout"

OLD_DRIVER = """\
Traceback (most recent call last):
  File "/srv/env/bin/horovodrun", line 21, in <module>
    run.run()
  File "/srv/env/lib/python3.7/site-packages/horovod/run/run.py", line 221, in _driver_fn
    driver.wait_for_initial_registration(settings.timeout)
  File "/srv/env/lib/python3.7/site-packages/horovod/run/common/util/timeout.py", line 32, in check_time_out_for
    raise Exception(self._message.format(activity=activity))
Exception: Timed out waiting for tasks to start. Please check connectivity between servers. \
You may need to increase the --start-timeout parameter if you have too many servers.
"""

NEW_RUNNER_VERBOSE = """\
Filtering local host names.
Remote host found: gpu-b2
Checking ssh on all remote hosts.
SSH was successful into all the remote hosts.
Launched horovod server.
Attempted to launch horovod task servers.
Waiting for the hosts to acknowledge.
Traceback (most recent call last):
  File "/srv/env/lib/python3.9/site-packages/horovod/runner/common/util/timeout.py", line 37, in check_time_out_for
    raise TimeoutException(
horovod.runner.common.util.timeout.TimeoutException: Timed out waiting for tasks to start. \
Please check connectivity between servers. You may need to increase the --start-timeout \
parameter if you have too many servers. Timeout after 45 seconds.
"""

# Counterexample: elastic Horovod waiting for its host discovery to find enough slots.
ELASTIC_DISCOVERY_WAIT = """\
Traceback (most recent call last):
  File "/srv/env/lib/python3.9/site-packages/horovod/runner/elastic/driver.py", line 112, in wait_for_available_slots
    tmout.check_time_out_for('minimum number of hosts to become available')
horovod.runner.common.util.timeout.TimeoutException: Timed out waiting for minimum number of \
hosts to become available. Timeout after 600 seconds.
"""


def test_the_start_timeout_of_an_older_horovodrun_is_the_launcher_rendezvous() -> None:
    diagnosis = diagnose_text("horovodrun.log", OLD_DRIVER)
    assert_reads(diagnosis, "hccl", first_error="Timed out waiting for tasks to start", rule=RULE)
    assert {"driver_env", "config"} <= {alt.category for alt in diagnosis.alternatives}


def test_the_newer_runner_wording_reads_the_same_and_its_progress_lines_are_no_error() -> None:
    diagnosis = diagnose_text("horovodrun.log", NEW_RUNNER_VERBOSE)
    assert_reads(
        diagnosis,
        "hccl",
        first_error="TimeoutException: Timed out waiting for tasks to start",
        rule=RULE,
    )


def test_an_elastic_wait_for_enough_hosts_is_not_the_start_timeout() -> None:
    diagnosis = diagnose_text("horovodrun.log", ELASTIC_DISCOVERY_WAIT)
    assert RULE not in rules_of(diagnosis)


def test_no_worker_started_and_the_advice_is_about_reaching_the_hosts(tmp_path: Path) -> None:
    job = tmp_path / "hvd-run"
    job.mkdir()
    (job / "env.txt").write_text("WORLD_SIZE=4\nHOROVOD_GLOO_IFACE=ens9\n")
    (job / "horovodrun.log").write_text(OLD_DRIVER)
    report = analyze(job, AnalyzeOptions(workers=1))
    facts = report.to_dict()
    assert facts["correlation"]["workers_started"] is False
    assert facts["correlation"]["missing_ranks"] == []
    assert "No worker process was started" in report.diagnosis.root_cause
    actions = report.diagnosis.next_actions
    assert any("--network-interface" in action for action in actions)
    assert "same collectives in the same order" not in actions[0]
