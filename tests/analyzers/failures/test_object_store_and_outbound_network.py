"""A training job's requests to an object store, and requests that cannot leave the node.

docs/labelling.md#a-download-host-that-refuses-or-does-not-answer: an object store (S3, OBS
and the stores that speak their protocol) answers a read of a key it does not hold with its
`NoSuchKey` code, which the clients log or raise in their own records (`errorCode:NoSuchKey`,
`An error occurred (NoSuchKey) when calling the GetObject operation`): the job named an object
that is not there, `config`. A store the client cannot reach at all (the AWS SDK's `Unable to
connect to endpoint`, botocore's `Could not connect to the endpoint URL`) is the remote side,
`other`, like a download host that does not answer. A request that fails because the node has
no route out (`[Errno 101] Network is unreachable`) is the host's network, `driver_env`. Values
of our own in the real shapes.
"""

from __future__ import annotations

from tests.analyzers.excerpts import alternative_labels, assert_reads, diagnose_text, rules_of

OBS_RECORD = """\
ERROR:root:
stat:404
errorCode:NoSuchKey
errorMessage:The specified key does not exist.
"""

BOTO_RAISED = """\
Traceback (most recent call last):
  File "/opt/app/prepare.py", line 41, in <module>
    s3.download_file("train-data", "corpus/part-0007.parquet", "/cache/part-0007.parquet")
botocore.errorfactory.NoSuchKey: An error occurred (NoSuchKey) when calling the GetObject operation: The specified key does not exist.
"""


def test_an_object_the_store_does_not_hold_is_the_jobs_path() -> None:
    for text in (OBS_RECORD, BOTO_RAISED):
        diagnosis = diagnose_text("worker-0.log", text)
        assert_reads(
            diagnosis, "config", first_error="NoSuchKey", rule="cfg.object_store_key_missing"
        )


def test_a_listing_that_mentions_the_code_is_no_failure() -> None:
    diagnosis = diagnose_text("worker-0.log", "retry_codes = ['SlowDown', 'NoSuchKey']\n")
    assert "cfg.object_store_key_missing" not in rules_of(diagnosis)


ENDPOINT = """\
InternalError (see above for traceback): : Unable to connect to endpoint
"""

BOTO_ENDPOINT = """\
botocore.exceptions.EndpointConnectionError: Could not connect to the endpoint URL: "https://obs.example-region.example.com/train-data/ckpt/model.ckpt-300.index"
"""


def test_an_object_store_that_cannot_be_reached_is_the_remote_side() -> None:
    for text in (ENDPOINT, BOTO_ENDPOINT):
        diagnosis = diagnose_text("worker-0.log", text)
        assert diagnosis.category == "other"
        assert diagnosis.first_error is not None
        assert "other.object_store_unreachable" in rules_of(diagnosis)
        assert "driver_env" in alternative_labels(diagnosis)
        assert "hccl" not in alternative_labels(diagnosis)


UNREACHABLE = """\
  File "/usr/lib/python3.9/urllib/request.py", line 1349, in do_open
    raise URLError(err)
urllib.error.URLError: <urlopen error [Errno 101] Network is unreachable>
"""


def test_a_request_with_no_route_out_of_the_node_is_the_hosts_network() -> None:
    diagnosis = diagnose_text("worker-0.log", UNREACHABLE)
    assert_reads(
        diagnosis,
        "driver_env",
        first_error="Network is unreachable",
        rule="env.outbound_network_unreachable",
    )


def test_the_rendezvous_clients_own_wording_keeps_its_reading() -> None:
    line = (
        "[W socket.cpp:601] [c10d] The client socket has failed to connect to "
        "[10.7.0.3]:51217 (errno: 101 - Network is unreachable).\n"
    )
    diagnosis = diagnose_text("worker-0.log", line)
    assert "env.outbound_network_unreachable" not in rules_of(diagnosis)
