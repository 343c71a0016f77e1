"""Start-up downloads a remote host refuses, and locks of shared caches a process cannot take.

docs/labelling.md#a-download-host-that-refuses-or-does-not-answer: a hub that answers HTTP 429,
does not answer inside the client's deadline or drops the connection (named, or raised under a
hub client's frames) is no class of the taxonomy (`other`, with `config` beside it); a proxy or TLS path out of the node that fails is the host's set-up
(`driver_env`); a retry notice and a request to a server on the same host are not this.
docs/labelling.md#a-lock-on-a-shared-cache-that-a-process-cannot-take: a lock file of a shared
cache that a process cannot take, or does not find held, is `config` with `driver_env` beside
it, read before the loader's retry wrapper; a stack dump parked in torch's JIT build lock is a
`hang`. The excerpts follow the real shapes with values and names of our own.
"""

from __future__ import annotations

import pytest

from tests.analyzers.excerpts import (
    alternative_labels,
    assert_reads,
    diagnose_files,
    diagnose_text,
    rules_of,
    scan_text,
)

RATE_LIMITED = """\
Rate limited. Waiting 45.0s before retry [Retry 1/5].
/srv/venv/lib/python3.11/site-packages/torch/distributed/device_mesh.py:604: UserWarning: Slicing a flattened dim from root mesh will be deprecated.
  sliced_mesh_layout = self._get_slice_mesh_layout(mesh_dim_names)
HTTP Error 429 thrown while requesting GET https://huggingface.co/api/datasets/org/webtext-en/tree/7c21d0e/en?expand=false&recursive=true&limit=1000
Rate limited. Waiting 45.0s before retry [Retry 1/5].
[rank212]: Traceback (most recent call last):
[rank212]:   File "<frozen runpy>", line 198, in _run_module_as_main
"""

READ_TIMEOUT = """\
[rank3]:[W1102 10:11:02.118000 4410 torch/distributed/c10d.py:88] starting data loader
[rank41]: urllib3.exceptions.ReadTimeoutError: HTTPSConnectionPool(host='huggingface.co', port=443): Read timed out. (read timeout=10)
"""

LOCAL_SERVER_TIMEOUT = """\
Traceback (most recent call last):
  File "/srv/bench/client.py", line 52, in send
    r = session.post(url, json=payload, timeout=600)
requests.exceptions.ReadTimeout: HTTPConnectionPool(host='localhost', port=8000): Read timed out. (read timeout=600)
"""

TLS_CUT = """\
  File "/srv/venv/lib/python3.10/site-packages/requests/adapters.py", line 517, in send
    raise SSLError(e, request=request)
requests.exceptions.SSLError: HTTPSConnectionPool(host='huggingface.co', port=443): Max retries exceeded with url: /api/models/org/seq2seq-base (Caused by SSLError(SSLEOFError(8, 'EOF occurred in violation of protocol (_ssl.c:997)')))
"""

PROXY_GONE = """\
http.client.RemoteDisconnected: Remote end closed connection without response

The above exception was the direct cause of the following exception:

urllib3.exceptions.ProxyError: ('Unable to connect to proxy', RemoteDisconnected('Remote end closed connection without response'))
"""

CONFIG_LOCK_TIMEOUT = """\
filelock._error.Timeout: The file lock '/root/.cache/huggingface/.cfg_lock_0a9e4c2d.lock' could not be acquired.
ValueError: Failed to load configuration from org/moe-large after 4 attempts. This might be due to network issues or concurrent access conflicts. Last error: ...
"""

METRIC_LOCK_NODE0 = """\
[node0:3]:ValueError: Couldn't acquire lock on /shared/hf/metrics/f1/default/run-8-rdv.lock from process 3.
"""

METRIC_LOCK_NODE1 = """\
[node1:6]:ValueError: Expected to find locked file /shared/hf/metrics/f1/default/run-8-0.arrow.lock from process 14 but it doesn't exist.
"""

LOCK_CHATTER = """\
2026-03-01 12:00:01,101 - filelock - DEBUG: Attempting to acquire lock 140211 on /home/u/.triton/autotune/mm_kernel.pickle.lock
2026-03-01 12:00:01,103 - filelock - DEBUG: Lock 140211 acquired on /home/u/.triton/autotune/mm_kernel.pickle.lock
step 100 loss 2.31
"""

BATON_DUMP = """\
Process 3301: /srv/venv/bin/python -u train.py --local_rank=0 --deepspeed
Python v3.10.12 (/srv/venv/bin/python3.10)

Thread 3301 (idle): "MainThread"
    wait (torch/utils/file_baton.py:42)
    _jit_compile (torch/utils/cpp_extension.py:1522)
    load (torch/utils/cpp_extension.py:1284)
    main (train.py:210)
"""

# The same wait dumped by faulthandler's timer (a test runner's per-test timeout, or
# `faulthandler.dump_traceback_later` in the job): Python's frame layout with no comma before
# `in`. Once with its thread header, once as a paste that lost the header and the indentation.
BATON_TIMER_DUMP = """\
Timeout (0:05:00)!
Thread 0x00007f3a2c1b5740 (most recent call first):
  File "/srv/venv/lib/python3.11/site-packages/torch/utils/file_baton.py", line 47 in wait
  File "/srv/venv/lib/python3.11/site-packages/torch/utils/cpp_extension.py", line 1735 in _jit_compile
  File "/srv/venv/lib/python3.11/site-packages/torch/utils/cpp_extension.py", line 1312 in load
  File "/srv/kernels/rope/__init__.py", line 18 in <module>
  File "/srv/train.py", line 9 in <module>
"""

BATON_TIMER_DUMP_CUT = """\
Timeout (0:05:00)!
File "/srv/venv/lib/python3.11/site-packages/torch/utils/file_baton.py", line 47 in wait
File "/srv/venv/lib/python3.11/site-packages/torch/utils/cpp_extension.py", line 1735 in _jit_compile
File "/srv/kernels/rope/__init__.py", line 18 in <module>
"""

# A timer dump whose thread stands elsewhere: the innermost frame is handed on but names no
# known stall, and a frame in a file called `errors.py` is code, not a failure.
OTHER_TIMER_DUMP = """\
Timeout (0:05:00)!
Thread 0x00007f3a2c1b5740 (most recent call first):
  File "/srv/app/errors.py", line 12 in raise_on_fault
  File "/srv/venv/lib/python3.11/site-packages/torch/utils/file_baton.py", line 30 in try_acquire
  File "/srv/train.py", line 9 in <module>
"""

CUT_OUTPUT = """\
Using /home/u/.cache/torch_extensions/py310_cu121 as PyTorch extensions root...
Traceback (most recent call last):
  File "/srv/train.py", line 260, in <module>
"""


def test_a_hub_refusing_too_many_requests_is_the_first_error() -> None:
    diagnosis = diagnose_text("train.log", RATE_LIMITED)
    assert_reads(
        diagnosis,
        "other",
        first_error="HTTP Error 429 thrown while requesting",
        rule="other.download_host_rate_limited",
        beside=("config",),
    )


def test_a_hub_that_does_not_answer_in_time_is_no_collective_failure() -> None:
    diagnosis = diagnose_text("train.log", READ_TIMEOUT)
    assert_reads(
        diagnosis, "other", first_error="Read timed out", rule="other.download_host_timed_out"
    )


def test_a_local_server_that_does_not_answer_is_not_a_download_host() -> None:
    diagnosis = diagnose_text("client.log", LOCAL_SERVER_TIMEOUT)
    assert "other.download_host_timed_out" not in rules_of(diagnosis)


def test_a_cut_tls_handshake_to_the_hub_is_the_host_network() -> None:
    diagnosis = diagnose_text("train.log", TLS_CUT)
    assert_reads(
        diagnosis,
        "driver_env",
        first_error="EOF occurred in violation of protocol",
        rule="env.download_proxy_or_tls_failed",
    )


def test_a_proxy_that_closes_the_connection_is_the_host_network() -> None:
    diagnosis = diagnose_text("train.log", PROXY_GONE)
    assert_reads(diagnosis, "driver_env", first_error="Unable to connect to proxy")


def test_a_cache_lock_timeout_is_read_before_the_loaders_retry_wrapper() -> None:
    diagnosis = diagnose_text("worker.log", CONFIG_LOCK_TIMEOUT)
    assert_reads(
        diagnosis,
        "config",
        first_error="could not be acquired",
        rule="cfg.shared_cache_lock_not_taken",
        beside=("driver_env",),
    )


def test_metric_locks_not_seen_across_nodes_read_the_same() -> None:
    diagnosis = diagnose_files({"node0.log": METRIC_LOCK_NODE0, "node1.log": METRIC_LOCK_NODE1})
    assert diagnosis.category == "config"
    assert "cfg.shared_cache_lock_not_taken" in rules_of(diagnosis)


def test_a_loggers_lock_chatter_is_no_failure() -> None:
    diagnosis = diagnose_text("train.log", LOCK_CHATTER)
    assert "cfg.shared_cache_lock_not_taken" not in rules_of(diagnosis)


def test_a_stack_dump_parked_in_the_jit_build_lock_is_a_hang() -> None:
    diagnosis = diagnose_files({"py-spy.txt": BATON_DUMP, "training.log": CUT_OUTPUT})
    assert_reads(
        diagnosis, "hang", first_error="file_baton.py", rule="hang.extension_build_lock_wait"
    )


def test_the_baton_wait_line_of_a_stack_dump_is_kept_by_the_scan() -> None:
    scan = scan_text("py-spy.txt", BATON_DUMP)
    assert any("file_baton.py" in event.text for event in scan.events)


# The hub dropped the connection: urllib3 names the host and the reset under ProtocolError.
HUB_DROPPED = """\
[rank5]:[W1102 10:11:02.118000 4410 torch/distributed/c10d.py:88] starting data loader
[rank5]: requests.exceptions.ConnectionError: (MaxRetryError("HTTPSConnectionPool(host='cdn-lfs.hf.co', port=443): Max retries exceeded with url: /repos/9e/02/9e02/model-00003-of-00004.safetensors (Caused by ProtocolError('Connection aborted.', ConnectionResetError(104, 'Connection reset by peer')))"), '(Request ID: 71c0e4)')
"""

LOCAL_SERVER_DROPPED = """\
Traceback (most recent call last):
  File "/srv/bench/client.py", line 52, in send
    r = session.post(url, json=payload, timeout=600)
requests.exceptions.ConnectionError: HTTPConnectionPool(host='localhost', port=8000): Max retries exceeded with url: /v1/completions (Caused by ProtocolError('Connection aborted.', RemoteDisconnected('Remote end closed connection without response')))
"""

# Without the host: the traceback's innermost library frames are the hub client's.
HUB_CLIENT_DROPPED = """\
Traceback (most recent call last):
  File "/srv/train/main.py", line 31, in <module>
    tokenizer = AutoTokenizer.from_pretrained(args.model)
  File "/srv/venv/lib/python3.10/site-packages/transformers/utils/hub.py", line 402, in cached_file
    resolved_file = hf_hub_download(
  File "/srv/venv/lib/python3.10/site-packages/huggingface_hub/file_download.py", line 1646, in get_hf_file_metadata
    r = _request_wrapper(
  File "/srv/venv/lib/python3.10/site-packages/huggingface_hub/utils/_http.py", line 93, in send
    return super().send(request, *args, **kwargs)
  File "/srv/venv/lib/python3.10/site-packages/requests/adapters.py", line 682, in send
    raise ConnectionError(err, request=request)
requests.exceptions.ConnectionError: ('Connection aborted.', {reason})
"""

# The same words from a socket of the job's own process group: no hub frame above them.
COLLECTIVE_CLIENT_DROPPED = """\
Traceback (most recent call last):
  File "/srv/train/main.py", line 88, in <module>
    dist.barrier()
  File "/srv/venv/lib/python3.10/site-packages/torch/distributed/c10d_logger.py", line 81, in wrapper
    return func(*args, **kwargs)
  File "/srv/venv/lib/python3.10/site-packages/torch/distributed/distributed_c10d.py", line 4159, in barrier
    work = group.barrier(opts=opts)
requests.exceptions.ConnectionError: ('Connection aborted.', ConnectionResetError(104, 'Connection reset by peer'))
"""

_DROPS = {
    "closed": "RemoteDisconnected('Remote end closed connection without response')",
    "reset": "ConnectionResetError(104, 'Connection reset by peer')",
}


def test_a_hub_that_drops_the_connection_is_no_collective_failure() -> None:
    diagnosis = diagnose_text("train/rank5.log", HUB_DROPPED)
    assert_reads(diagnosis, "other", first_error="cdn-lfs.hf.co", beside=("config",))


def test_a_local_server_that_drops_the_connection_is_not_a_download_host() -> None:
    diagnosis = diagnose_text("bench/client.log", LOCAL_SERVER_DROPPED)
    assert "other.download_host_dropped" not in {e.rule for e in diagnosis.evidence}


@pytest.mark.parametrize("reason", list(_DROPS.values()), ids=list(_DROPS))
def test_a_dropped_connection_raised_under_a_hub_client_is_the_download(reason: str) -> None:
    diagnosis = diagnose_text("train/rank0.log", HUB_CLIENT_DROPPED.format(reason=reason))
    assert diagnosis.category == "other"
    assert "other.download_client_dropped" in {e.rule for e in diagnosis.evidence}
    assert "config" in {a.category for a in diagnosis.alternatives}


def test_the_same_reset_under_a_collective_keeps_its_reading() -> None:
    diagnosis = diagnose_text("train/rank0.log", COLLECTIVE_CLIENT_DROPPED)
    assert diagnosis.category == "hccl"
    assert "other.download_client_dropped" not in {e.rule for e in diagnosis.evidence}


# The same exception pasted alone: no frame says whose request it was, but the type is the HTTP
# client's own (requests', urllib3's), which a collective never raises.
@pytest.mark.parametrize(
    "line",
    [
        "requests.exceptions.ConnectionError: ('Connection aborted.', ConnectionResetError(104, 'Connection reset by peer'))",
        "urllib3.exceptions.ProtocolError: ('Connection aborted.', RemoteDisconnected('Remote end closed connection without response'))",
        "requests.exceptions.ConnectionError: (ProtocolError('Connection aborted.', ConnectionResetError(104, 'Connection reset by peer'))",
    ],
    ids=["requests-reset", "urllib3-closed", "requests-protocol-error"],
)
def test_an_http_clients_dropped_request_pasted_alone_is_no_collective_failure(line: str) -> None:
    diagnosis = diagnose_text("notes.log", line + "\n")
    assert_reads(
        diagnosis,
        "other",
        first_error="Connection aborted.",
        rule="env.http_client_dropped_unframed",
        beside=("config",),
    )


def test_a_bare_peer_reset_without_the_http_clients_type_keeps_its_reading() -> None:
    diagnosis = diagnose_text(
        "rank0.log", "ConnectionResetError: [Errno 104] Connection reset by peer\n"
    )
    assert "env.http_client_dropped_unframed" not in rules_of(diagnosis)
    assert diagnosis.category != "other"


@pytest.mark.parametrize("dump", [BATON_TIMER_DUMP, BATON_TIMER_DUMP_CUT])
def test_a_timer_dump_parked_in_the_jit_build_lock_is_a_hang(dump: str) -> None:
    diagnosis = diagnose_files({"rank0.log": dump, "training.log": CUT_OUTPUT})
    assert_reads(
        diagnosis,
        "hang",
        first_error="file_baton.py",
        rule="hang.extension_build_lock_wait",
        beside=("config",),
    )


def test_a_timer_dump_standing_elsewhere_gives_no_event() -> None:
    scan = scan_text("rank0.log", OTHER_TIMER_DUMP)
    assert not scan.events


# The hub client's summary when the request for a file failed to reach the hub and no copy is
# cached: the node cannot get the model; nothing in the job's devices or collectives failed.
HUB_UNREACHABLE_NOT_CACHED = """\
  File "/opt/venv/lib/python3.10/site-packages/huggingface_hub/file_download.py", line 1857, in _raise_on_head_call_error
    raise LocalEntryNotFoundError(
huggingface_hub.errors.LocalEntryNotFoundError: An error happened while trying to locate the file on the Hub and we cannot find the requested files in the local cache. Please check your connection and try again or make sure your Internet connection is on.
"""

OLDER_CLIENT_WORDING = """\
[rank1]: huggingface_hub.utils._errors.LocalEntryNotFoundError: Connection error, and we cannot find the requested files in the disk cache. Please try again or make sure your Internet connection is on.
"""

# With the cause kept above it, the cause is the first error.
CAUSE_ABOVE_THE_SUMMARY = """\
urllib3.exceptions.ConnectTimeoutError: (<urllib3.connection.HTTPSConnection object at 0x7f2a10c3d0>, 'Connection to huggingface.co timed out. (connect timeout=10)')

The above exception was the direct cause of the following exception:

huggingface_hub.errors.LocalEntryNotFoundError: An error happened while trying to locate the file on the Hub and we cannot find the requested files in the local cache. Please check your connection and try again or make sure your Internet connection is on.
"""

# Counterexample: offline mode was asked for; the job's setting, not the route.
OFFLINE_MODE = """\
huggingface_hub.errors.LocalEntryNotFoundError: Cannot find the requested files in the disk cache and outgoing traffic has been disabled. To enable hf.co look-ups and downloads online, set 'local_files_only' to False.
"""


@pytest.mark.parametrize("text", [HUB_UNREACHABLE_NOT_CACHED, OLDER_CLIENT_WORDING])
def test_a_file_the_hub_could_not_be_asked_for_and_no_cache_holds(text: str) -> None:
    diagnosis = diagnose_text("serve.log", text)
    assert_reads(
        diagnosis,
        "other",
        first_error="LocalEntryNotFoundError",
        rule="env.hub_unreachable_not_cached",
        beside=("config", "driver_env"),
    )
    assert "hccl" not in alternative_labels(diagnosis)


def test_the_cause_kept_above_the_summary_comes_first() -> None:
    diagnosis = diagnose_text("serve.log", CAUSE_ABOVE_THE_SUMMARY)
    assert_reads(diagnosis, "other", first_error="Connection to huggingface.co timed out")


def test_offline_mode_is_not_an_unreachable_hub() -> None:
    diagnosis = diagnose_text("serve.log", OFFLINE_MODE)
    assert "env.hub_unreachable_not_cached" not in rules_of(diagnosis)


# A local model folder the host does not have: the hub client is handed the path as a repo id.
LOCAL_PATH_AS_REPO_ID = """\
vllm serve /models/DeepSeek-V2-Lite --tensor-parallel-size 8
huggingface_hub.errors.HFValidationError: Repo id must be in the form 'repo_name' or 'namespace/repo_name': '/models/DeepSeek-V2-Lite'. Use `repo_type` argument if needed.
"""

# Counterexample: an id that is no path, only badly written.
BAD_REPO_ID = """\
huggingface_hub.errors.HFValidationError: Repo id must use alphanumeric chars or '-', '_', '.', '--' and '..' are forbidden, '-' and '.' cannot start or end the name, max length is 96: 'org/model name'.
"""


def test_a_local_path_read_as_a_repo_id_is_a_folder_that_is_not_there() -> None:
    diagnosis = diagnose_text("serve.log", LOCAL_PATH_AS_REPO_ID)
    assert_reads(
        diagnosis,
        "config",
        first_error="Repo id must be in the form",
        rule="cfg.local_model_path_read_as_repo_id",
        beside=("weight_load",),
    )


def test_a_badly_written_repo_id_is_not_a_missing_folder() -> None:
    diagnosis = diagnose_text("serve.log", BAD_REPO_ID)
    assert "cfg.local_model_path_read_as_repo_id" not in rules_of(diagnosis)


# A loader worker that lost the connection to where its data comes from: torch re-raises the
# worker's exception in the rank under its own sentence, and the paste may stop inside the
# worker's traceback before the exception's own line.
LOADER_WORKER_LOST_HOST = """\
  File "/srv/venv/lib/python3.11/site-packages/torch/utils/data/dataloader.py", line 1402, in _process_data
    data.reraise()
  File "/srv/venv/lib/python3.11/site-packages/torch/_utils.py", line 733, in reraise
    raise exception
ConnectionError: Caught ConnectionError in DataLoader worker process 3.
Original Traceback (most recent call last):
  File "/srv/venv/lib/python3.11/site-packages/aiohttp/connector.py", line 1160, in _create_direct_connection
    hosts = await self._resolve_host(host, port, traces=traces)
"""


@pytest.mark.parametrize(
    "caught", ["ConnectionError", "ClientConnectorError", "ServerDisconnectedError", "ReadTimeout"]
)
def test_a_loader_worker_that_lost_its_data_host_is_no_collective_failure(caught: str) -> None:
    text = LOADER_WORKER_LOST_HOST.replace("Caught ConnectionError", f"Caught {caught}")
    diagnosis = diagnose_text("train/rank2.log", text)
    assert_reads(
        diagnosis,
        "other",
        first_error=f"Caught {caught} in DataLoader worker process 3",
        rule="other.loader_worker_lost_data_host",
        beside=("driver_env",),
    )


def test_a_loader_worker_that_failed_otherwise_is_not_a_lost_host() -> None:
    text = LOADER_WORKER_LOST_HOST.replace("ConnectionError", "KeyError")
    diagnosis = diagnose_text("train/rank2.log", text)
    assert "other.loader_worker_lost_data_host" not in rules_of(diagnosis)
