"""Disaggregated serving whose instances wait on each other, and the services they start from.

SGLang gives each request a fixed time to pass each step of a transfer between the prefill
and decode instances and records the request as failed with the step it stood in (`timed out
after 300.0s in KVPoll.Bootstrapping`); its decode instance asks the prefill's bootstrap server
for the prefill's layout and logs a request that found nobody there. Mooncake's store client
reports a master it could not reach at all in gRPC's words (`rpc error, code: 14`) or as a call
that failed with the socket's reason. All are the link to the other side (`hccl`), and a wait
yields to the failure of the instance it waited for. Dynamo's runtime stops when it finds no
etcd at the address it was given: the deployment's settings (`config`).
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_files, diagnose_text, rules_of

# a prefill instance whose decode peer never took the request's KV slots
BOOTSTRAP_STEP_TIMEOUT = """\
[2026-04-07 13:02:10 TP0] Prefill batch, #new-seq: 4, #new-token: 8192, #cached-token: 0, token usage: 0.11, #unbootstrapped-req: 4, #queue-req: 60, #transferring-req: 0
[2026-04-07 13:07:10 TP0] Prefill bootstrap failed for request rank=0 req.rid='9c1e52d0a7b84f6e9d3a11c0f2b6e8d4' req.bootstrap_room=3308815527710042 with exception KVTransferError(bootstrap_room=3308815527710042): Request 3308815527710042 timed out after 300.0s in KVPoll.Bootstrapping
[2026-04-07 13:07:10] INFO:     10.8.0.21:50122 - "POST /generate HTTP/1.1" 200 OK
"""

# a decode instance that cannot reach the prefill instance's bootstrap server
BOOTSTRAP_UNREACHABLE = """\
[2026-04-07 13:05:02] INFO:     10.8.0.21:50330 - "GET /health HTTP/1.1" 200 OK
[2026-04-07 13:05:40 TP0] Error fetching prefill parallel info from bootstrap: HTTPConnectionPool(host='pd-prefill-svc', port=8998): Max retries exceeded with url: /route?engine_rank=-1&target_dp_group=-1&target_pp_rank=-1 (Caused by ConnectTimeoutError(<urllib3.connection.HTTPConnection object at 0x7f0c1d2e3f40>, 'Connection to pd-prefill-svc timed out. (connect timeout=None)'))
[2026-04-07 13:05:40 TP1] Error fetching prefill parallel info from bootstrap: HTTPConnectionPool(host='pd-prefill-svc', port=8998): Max retries exceeded with url: /route?engine_rank=-1&target_dp_group=-1&target_pp_rank=-1 (Caused by ConnectTimeoutError(<urllib3.connection.HTTPConnection object at 0x7f0c1d2e4a90>, 'Connection to pd-prefill-svc timed out. (connect timeout=None)'))
"""

# the prefill the decode above asked: it ran out of device memory first
PREFILL_OUT_OF_MEMORY = """\
[2026-04-07 13:05:31 TP0] Scheduler hit an exception: Traceback (most recent call last):
  File "/opt/sglang/python/sglang/srt/managers/scheduler.py", line 2710, in run_scheduler_process
    scheduler.event_loop_overlap_disagg_prefill()
torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.50 GiB. GPU 0 has a total capacity of 79.10 GiB of which 1.02 GiB is free.
"""

# a KV-store client (gRPC era) whose master does not answer
STORE_MASTER_UNREACHABLE = """\
E0611 02:14:09.118207  9120 client.cpp:29] MountSegment: rpc error, code: 14, message: failed to connect to all addresses
E0611 02:14:09.118231  9120 distributed_object_store.cpp:190] Failed to mount segment: UNKNOWN_ERROR
"""

# a serving runtime component started before its etcd
ETCD_UNREACHABLE = """\
2026-04-07T13:00:02.118Z  INFO dynamo_runtime::distributed: Starting distributed runtime
ERROR dynamo_runtime::worker: Application shutdown with error: Failed to connect to etcd server with config ClientOptions { etcd_url: ["http://etcd-0.svc:2379"], etcd_connect_options: None, attach_lease: true }

Caused by:
    0: creating primary lease
    1: grpc request error: status: Unavailable, message: "tcp connect error: Connection refused (os error 111)", details: [], metadata: MetadataMap { headers: {} }
"""


def test_a_transfer_step_that_ran_out_of_time_is_the_link_between_instances() -> None:
    diagnosis = diagnose_text("prefill/server.log", BOOTSTRAP_STEP_TIMEOUT)
    assert_reads(
        diagnosis,
        "hccl",
        first_error="timed out after 300.0s in KVPoll.Bootstrapping",
        beside=("hang",),
    )


def test_an_unreachable_bootstrap_server_is_the_link_to_the_prefill() -> None:
    diagnosis = diagnose_text("decode/server.log", BOOTSTRAP_UNREACHABLE)
    assert_reads(
        diagnosis,
        "hccl",
        first_error="Error fetching prefill parallel info from bootstrap",
        beside=("config",),
    )


def test_the_prefills_own_failure_comes_before_the_decode_that_could_not_reach_it() -> None:
    diagnosis = diagnose_files(
        {"prefill/server.log": PREFILL_OUT_OF_MEMORY, "decode/server.log": BOOTSTRAP_UNREACHABLE}
    )
    assert_reads(diagnosis, "oom", first_error="CUDA out of memory")


def test_a_store_master_that_does_not_answer_is_the_link_to_the_store() -> None:
    diagnosis = diagnose_text("producer/vllm.log", STORE_MASTER_UNREACHABLE)
    assert_reads(
        diagnosis, "hccl", first_error="MountSegment: rpc error, code: 14", beside=("config",)
    )


def test_a_runtime_with_no_etcd_at_its_address_is_the_deployments_settings() -> None:
    diagnosis = diagnose_text("decode-worker/worker.log", ETCD_UNREACHABLE)
    assert_reads(
        diagnosis,
        "config",
        first_error="Failed to connect to etcd server with config",
        beside=("hccl",),
    )


# docs/labelling.md#a-kv-transfer-peer-that-went-away
# A worker whose request-plane stream to its caller broke, then every response it still had
# for it failed to go out; the runtime's tracing lines, our own values.
RESPONSE_STREAM_BROKEN = """\
Prefilling remotely for request 9a1b2c3d-0000-4e5f-8a9b-0c1d2e3f4a5b with length 3012
2026-03-04T05:06:07.123456Z ERROR dynamo_runtime::pipeline::network::tcp::client: failed to join reader and writer tasks
2026-03-04T05:06:07.123470Z ERROR dynamo_runtime::pipeline::network::ingress::push_handler: Failed to publish response for stream 0d6a2c1e-5b7f-4e3a-9c11-8f2e4d5a6b70
2026-03-04T05:06:07.150001Z ERROR _core: Failed to send response: SendError { .. }
2026-03-04T05:06:07.162310Z ERROR _core: Failed to send response: SendError { .. }
"""


def test_a_broken_response_stream_is_the_link_and_its_first_line_leads() -> None:
    diagnosis = diagnose_text("worker.log", RESPONSE_STREAM_BROKEN)
    assert_reads(
        diagnosis, "hccl", first_error="failed to join reader and writer tasks", beside=("hang",)
    )


def test_the_unsent_responses_alone_stay_a_cascade_of_the_link() -> None:
    lines = RESPONSE_STREAM_BROKEN.splitlines(keepends=True)
    text = "".join(line for line in lines if "failed to join" not in line)
    diagnosis = diagnose_text("worker.log", text)
    rules = rules_of(diagnosis)
    assert "hccl.serving_runtime_stream_broken" not in rules
    assert diagnosis.confidence < 0.5
