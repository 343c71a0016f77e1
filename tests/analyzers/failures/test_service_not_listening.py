"""A service the job polls that nothing serves.

docs/labelling.md#a-service-the-job-polls-that-nothing-serves. A trainer's HTTP client that asks
a server the job depends on (an inference server for rollouts, a reward server) and is refused
by the host (`HTTPConnectionPool(host=..., port=...): Max retries exceeded with url: ...
(Caused by NewConnectionError(... [Errno 111] Connection refused))`) found nothing listening at
the address it was given: `config`, with the link (`hccl`) and a start that never completes
(`hang`) beside it. Fixtures follow requests' and urllib3's wording; hosts, ports, paths and
object ids are ours.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

# An RL trainer's client of its generation server, chained into the trainer's own traceback.
HEALTH_PROBE_REFUSED = """\
requests.exceptions.ConnectionError: HTTPConnectionPool(host='10.0.3.7', port=8100): Max retries exceeded with url: /health/ (Caused by NewConnectionError('<urllib3.connection.HTTPConnection object at 0x7f21c0a3d9d0>: Failed to establish a new connection: [Errno 111] Connection refused'))

The above exception was the direct cause of the following exception:

Traceback (most recent call last):
  File "/work/rl/train_grpo.py", line 140, in <module>
    trainer = build_trainer(cfg)
  File "/work/rl/train_grpo.py", line 96, in build_trainer
    client.wait_until_ready(timeout=240)
"""

# A reward server asked for scores, rank-prefixed, refused the same way.
REWARD_REQUEST_REFUSED = """\
[rank2]: urllib3.exceptions.MaxRetryError: HTTPConnectionPool(host='localhost', port=5005): Max retries exceeded with url: /score (Caused by NewConnectionError('<urllib3.connection.HTTPConnection object at 0x7fa8>: Failed to establish a new connection: [Errno 111] Connection refused'))
"""

# Counterexamples: the client's own retry notices are no failure; a refused proxy in front of a
# download host is the download rules' business, not a service the job runs.
CLIENT_RETRY_NOTICES = """\
2026-03-26 05:53:13 - INFO - rl.client - generation server is not up yet, retrying in 2.0 seconds
2026-03-26 05:53:15 - INFO - rl.client - generation server is not up yet, retrying in 2.0 seconds
"""

PROXY_REFUSED = """\
requests.exceptions.ProxyError: HTTPSConnectionPool(host='huggingface.co', port=443): Max retries exceeded with url: /api/models/org/model-7b (Caused by ProxyError('Cannot connect to proxy.', NewConnectionError('<urllib3.connection.HTTPSConnection object at 0x7f3a>: Failed to establish a new connection: [Errno 111] Connection refused')))
"""


def test_a_refused_health_probe_of_the_jobs_server_is_config() -> None:
    diagnosis = diagnose_text("train.log", HEALTH_PROBE_REFUSED)
    assert_reads(
        diagnosis,
        "config",
        first_error="Max retries exceeded with url: /health/",
        rule="cfg.http_service_not_listening",
        beside=("hccl",),
    )
    assert diagnosis.confidence >= 0.5


def test_a_refused_request_to_a_local_reward_server_is_config() -> None:
    diagnosis = diagnose_text("rank2.log", REWARD_REQUEST_REFUSED)
    assert_reads(diagnosis, "config", first_error="url: /score")


def test_the_clients_retry_notices_are_no_failure() -> None:
    diagnosis = diagnose_text("train.log", CLIENT_RETRY_NOTICES)
    assert "cfg.http_service_not_listening" not in rules_of(diagnosis)


def test_a_refused_proxy_before_a_download_host_is_not_a_service_of_the_job() -> None:
    diagnosis = diagnose_text("train.log", PROXY_REFUSED)
    assert "cfg.http_service_not_listening" not in rules_of(diagnosis)
