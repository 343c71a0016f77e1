"""A serving controller that gets no answer to its health check in time.

Ray Serve's controller asks each replica for a health check at a fixed period and gives it a
deadline; a replica that does not answer in time is marked unhealthy and restarted
(`Didn't receive health check response for replica ... after 10.0s, marking it unhealthy.`).
Kubelet does the same from outside a pod with its liveness and readiness probes, which time out
as `context deadline exceeded` on the probe's request. Nothing in the line says what failed:
the replica or server was alive and did not answer within the deadline, so the stall reading is
`hang`, with `config` (a deadline set too short for the load) and `other` beside it
(docs/labelling.md#a-serving-scheduler-that-stops-making-progress).
"""

from __future__ import annotations

from tests.analyzers.excerpts import alternative_labels, assert_reads, diagnose_text, rules_of

RULE = "hang.serving_health_check_no_answer"

# A replica of a tensor-parallel vLLM deployment under heavy load: the engine is busy and says
# so, and the controller's check times out.
RAY_SERVE_REPLICA = """\
(ServeController pid=2210) WARNING 2026-05-14 09:31:07,112 controller 2210 -- Didn't receive health check response for replica Replica(id='k3p9x1aa', deployment='LLMServer:llama-70b', app='llm') after 10.0s, marking it unhealthy.
(_EngineBackgroundProcess pid=3381) INFO 05-14 09:31:09 [metrics.py:486] Avg prompt throughput: 21877.2 tokens/s, Avg generation throughput: 6.1 tokens/s, Running: 40 reqs, Swapped: 0 reqs, Pending: 812 reqs, GPU KV cache usage: 18.2%, CPU KV cache usage: 0.0%.
(ServeController pid=2210) INFO 2026-05-14 09:31:09,405 controller 2210 -- Replica(id='k3p9x1aa', deployment='LLMServer:llama-70b', app='llm') is stopped.
"""

# The same line where the paste began inside it, with no level before it.
CUT_AT_ITS_START = """\
2210 -- Didn't receive health check response for replica Replica(id='k3p9x1aa', deployment='LLMServer:llama-70b', app='llm') after 10.0s, marking it unhealthy.
(_EngineBackgroundProcess pid=3381) INFO 05-14 09:31:09 [metrics.py:486] Avg prompt throughput: 21877.2 tokens/s, Avg generation throughput: 6.1 tokens/s, Running: 40 reqs, Swapped: 0 reqs, Pending: 812 reqs, GPU KV cache usage: 18.2%, CPU KV cache usage: 0.0%.
"""

KUBELET_PROBE = """\
  Warning  Unhealthy  2m (x3 over 4m)  kubelet  Liveness probe failed: Get "http://10.42.1.17:8000/health": context deadline exceeded (Client.Timeout exceeded while awaiting headers)
  Normal   Killing    2m               kubelet  Container vllm failed liveness probe, will be restarted
"""

# Counterexamples: the controller's settings, a probe refused because nothing listens yet.
SETTINGS_ONLY = """\
(ServeController pid=2210) INFO 2026-05-14 09:20:00,001 controller 2210 -- Deploying new version of Deployment(name='LLMServer:llama-70b', app='llm') (initial target replicas: 2). health_check_period_s=10.0, health_check_timeout_s=30.0
"""

PROBE_REFUSED = """\
  Warning  Unhealthy  40s (x5 over 80s)  kubelet  Readiness probe failed: Get "http://10.42.1.17:8000/health": dial tcp 10.42.1.17:8000: connect: connection refused
"""


def test_a_replica_that_missed_its_health_check_is_a_stall() -> None:
    diagnosis = diagnose_text("serve.log", RAY_SERVE_REPLICA)
    assert_reads(
        diagnosis,
        "hang",
        first_error="Didn't receive health check response for replica",
        rule=RULE,
        beside=("config",),
    )


def test_the_line_cut_at_its_start_is_read_the_same() -> None:
    diagnosis = diagnose_text("serve.log", CUT_AT_ITS_START)
    assert_reads(diagnosis, "hang", first_error="Didn't receive health check response")


def test_a_probe_that_timed_out_is_read_the_same() -> None:
    diagnosis = diagnose_text("events.txt", KUBELET_PROBE)
    assert_reads(diagnosis, "hang", first_error="Liveness probe failed")
    assert "config" in alternative_labels(diagnosis)


def test_health_check_settings_are_no_stall() -> None:
    diagnosis = diagnose_text("serve.log", SETTINGS_ONLY)
    assert RULE not in rules_of(diagnosis)
    assert diagnosis.category != "hang"


def test_a_probe_refused_by_a_closed_port_is_not_a_stall() -> None:
    diagnosis = diagnose_text("events.txt", PROBE_REFUSED)
    assert RULE not in rules_of(diagnosis)
    assert diagnosis.category != "hang"
