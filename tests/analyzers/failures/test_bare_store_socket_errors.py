"""Store failures that older torch releases raise with nothing but the system's words.

Before the c10d store had error classes of its own, a store call whose socket failed raised
the bare answer: `RuntimeError: Connection reset by peer` from the store-based barrier that
ends `init_process_group` (docs/labelling.md#a-peer-that-stopped-answering), and
`RuntimeError: connect() timed out.` from the `TCPStore` of a `tcp://` rendezvous, before the
timeout was quoted in the message (docs/labelling.md, "A rendezvous host with no address").
Excerpts in the shapes such jobs print (a DeepSpeed launcher's tail, a spawned worker's
traceback), paths and numbers of our own.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_files, diagnose_text, rules_of

BARRIER_LOST_STORE = """\
[2024-02-05 08:12:40,101] [INFO] [runner.py:555:main] cmd = /opt/conda/bin/python -u -m deepspeed.launcher.launch --world_info=e30= --master_addr=10.9.0.4 --master_port=29611 train.py
Traceback (most recent call last):
  File "/srv/job/train.py", line 40, in <module>
    deepspeed.init_distributed()
  File "/opt/conda/lib/python3.9/site-packages/torch/distributed/distributed_c10d.py", line 786, in init_process_group
    _store_based_barrier(rank, store, timeout)
  File "/opt/conda/lib/python3.9/site-packages/torch/distributed/distributed_c10d.py", line 318, in _store_based_barrier
    store.add(store_key, 1)
RuntimeError: Connection reset by peer
[2024-02-05 08:12:47,530] [INFO] [launch.py:318:sigkill_handler] Killing subprocess 4410
[2024-02-05 08:12:47,541] [ERROR] [launch.py:324:sigkill_handler] ['/opt/conda/bin/python', '-u', 'train.py', '--local_rank=1'] exits with return code = 1
"""

STORE_HOST_OWN_FAILURE = """\
Traceback (most recent call last):
  File "/srv/job/train.py", line 44, in <module>
    model = build(cfg).cuda()
RuntimeError: CUDA out of memory. Tried to allocate 1.50 GiB (GPU 0; 15.78 GiB total capacity; 14.02 GiB already allocated)
"""

SPAWNED_CONNECT_TIMEOUT = """\
Use GPU: 0 for training
Process SpawnProcess-1:
Traceback (most recent call last):
  File "/opt/py37/lib/python3.7/site-packages/torch/multiprocessing/spawn.py", line 19, in _wrap
    fn(i, *args)
  File "/srv/job/train.py", line 52, in worker
    dist.init_process_group(backend="nccl", init_method="tcp://10.9.0.4:23456", world_size=2, rank=1)
  File "/opt/py37/lib/python3.7/site-packages/torch/distributed/rendezvous.py", line 120, in _tcp_rendezvous_handler
    store = TCPStore(result.hostname, result.port, world_size, start_daemon)
RuntimeError: connect() timed out.
"""


def test_a_bare_reset_under_the_store_barrier_is_a_lost_store() -> None:
    diagnosis = diagnose_text("launcher.log", BARRIER_LOST_STORE)
    assert diagnosis.category == "hccl"
    assert diagnosis.first_error is not None
    assert diagnosis.first_error.text.strip() == "RuntimeError: Connection reset by peer"
    assert "hccl.store_connection_lost" in rules_of(diagnosis)
    assert "device_fault" in {a.category for a in diagnosis.alternatives}
    assert diagnosis.confidence >= 0.5


def test_the_store_hosts_own_failure_outranks_the_bare_reset() -> None:
    diagnosis = diagnose_files(
        {"rank0.log": STORE_HOST_OWN_FAILURE, "rank1.log": BARRIER_LOST_STORE}
    )
    assert_reads(diagnosis, "oom", first_error="CUDA out of memory")


def test_a_reset_that_gloo_words_keeps_the_peer_reading() -> None:
    text = BARRIER_LOST_STORE.replace(
        "RuntimeError: Connection reset by peer",
        "RuntimeError: [../third_party/gloo/gloo/transport/tcp/pair.cc:534] "
        "Connection reset by peer [10.9.0.5]:40112",
    )
    diagnosis = diagnose_text("launcher.log", text)
    assert "hccl.store_connection_lost" not in rules_of(diagnosis)


def test_the_oldest_bare_connect_timeout_is_the_store_out_of_reach() -> None:
    diagnosis = diagnose_text("train.log", SPAWNED_CONNECT_TIMEOUT)
    assert_reads(
        diagnosis, "hccl", first_error="connect() timed out.", rule="hccl.store_unreachable"
    )


def test_the_phrase_in_a_sentence_is_not_the_timeout() -> None:
    text = SPAWNED_CONNECT_TIMEOUT.replace(
        "RuntimeError: connect() timed out.",
        "RuntimeError: setup failed: connect() timed out. before the retry, giving up",
    )
    diagnosis = diagnose_text("train.log", text)
    assert "hccl.store_unreachable" not in rules_of(diagnosis)
