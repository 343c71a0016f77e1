"""A runtime asks the NPU driver about the card before it places work on it (the AI CPU layout,
a capability, a topology) through the HAL or DSMI device-information calls. A driver that does
not offer that query answers 65534, its status for "not supported": the driver answered, so the
machine is up, but the release pairing is wrong - the runtime asks for something this driver or
this card does not provide. The runtime then reports its own probe as failed and refuses to
start. The status line is the reason and the first error (`config`, with `driver_env` beside
it); the probe's failure alone is a start-up probe like the others, `driver_env`.

docs/labelling.md#probes-yield-to-their-reason
"""

from __future__ import annotations

from analyzers.classify.rules import load_knowledge
from tests.analyzers.excerpts import alternative_labels, assert_reads, diagnose_text

KNOWLEDGE = load_knowledge()

# a kernel runtime's device init: the driver's answer at warning level, then the runtime's verdict
NOT_SUPPORTED_THEN_PROBE = """\
2026-08-02 10:11:12.300 [W] topo.cpp:88 dsmi_get_device_info(main=14, sub=CPU_TOPO) failed, ret=65534
2026-08-02 10:11:12.300 [W] topo.cpp:97 halGetDeviceInfoByBuff(CPU_TOPO) rc=65534 len=0
2026-08-02 10:11:12.301 [E] runner.cpp:225 AICPU topology probe failed, no scheduler thread can be placed
Traceback (most recent call last):
  File "/opt/kernels/run_case.py", line 40, in <module>
    runner.run(case)
RuntimeError: device init returned -1
"""

# the same verdict with nothing that says why
PROBE_ALONE = """\
2026-08-02 10:11:12.301 [E] runner.cpp:225 AICPU topology probe failed, no scheduler thread can be placed
Traceback (most recent call last):
  File "/opt/kernels/run_case.py", line 40, in <module>
    runner.run(case)
RuntimeError: device init returned -1
"""


def _rule(rule_id: str):
    return next(sig for sig in KNOWLEDGE.signatures if sig.id == rule_id)


def test_a_driver_query_answered_not_supported_is_the_reason() -> None:
    diagnosis = diagnose_text("case/stdout.log", NOT_SUPPORTED_THEN_PROBE)
    assert diagnosis.category == "config"
    assert "driver_env" in alternative_labels(diagnosis)
    # the runtime or the driver may be the one to change: not a confident answer
    assert diagnosis.confidence < 0.8
    assert diagnosis.first_error is not None
    assert "ret=65534" in diagnosis.first_error.text


def test_a_device_probe_that_failed_alone_is_the_machine() -> None:
    diagnosis = diagnose_text("case/stdout.log", PROBE_ALONE)
    assert_reads(diagnosis, "driver_env", first_error="topology probe failed", beside=("config",))


def test_the_rules_read_only_failed_queries_and_probes() -> None:
    query = _rule("cfg.driver_query_not_supported")
    probe = _rule("env.device_probe_failed")
    for line in (
        "[INFO] topo.cpp:97 halGetDeviceInfoByBuff(CPU_TOPO) rc=0 len=9",
        "dsmi_get_device_info(main=14, sub=CPU_TOPO) ok, ret=0",
        "(EngineCore_DP0 pid=31877) Unable to halHostRegister: 65534",
        "[INFO] runner.cpp:220 AICPU topology probe done: 5 scheduler threads",
        "[WARN] topology probe failed once, retrying",
    ):
        assert not query.regex.search(line), line
        assert not probe.regex.search(line), line
