"""Libraries with their own distributed layers: sharded embedding tables, swarms, XLA workers.

docs/labelling.md#a-sharded-tensor-whose-ranks-disagree-on-its-size: ranks that build one
ShardedTensor with different global sizes are `shape_mismatch`, `config` beside it, and the
line comes before the harness's assertion on the child's exit code.
docs/labelling.md#a-swarm-daemon-that-reaches-no-bootstrap-peer: hivemind's DHT node that finds
none of its initial peers answering is the link to the swarm, `hccl`; its warning form is not.
docs/labelling.md#operator-installation-or-platform-limit: XLA's report of a ptxas run is
`config`, and `driver_env` when the status says the assembler could not be run at all.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

SITE = "/opt/conda/lib/python3.10/site-packages"

# Two spawned ranks shard a 4093-row table row-wise; each computes its own remainder.
SHARDED_SIZE_DISAGREES = f"""\
[rank1]: Traceback (most recent call last):
[rank1]:   File "{SITE}/torchrec/distributed/model_parallel.py", line 266, in __init__
[rank1]:     self._dmp_wrapped_module: nn.Module = self._init_dmp(module)
[rank1]:   File "{SITE}/torch/distributed/_shard/sharded_tensor/utils.py", line 228, in build_global_metadata
[rank1]:     _raise_if_mismatch(
[rank1]: ValueError: ShardedTensor global_size property does not match from different ranks! Found global_size=torch.Size([2047]) on rank:0, and global_size=torch.Size([2046]) on rank:1.
Traceback (most recent call last):
  File "/work/rec/tests/shard_mc_table.py", line 97, in <module>
    assert all(p.exitcode == 0 for p in procs)
AssertionError
"""

# Counterexample: the same check about the dtype is no size and is not this rule's.
SHARDED_DTYPE_DISAGREES = """\
[rank0]: ValueError: ShardedTensor dtype property does not match from different ranks! Found dtype=torch.float32 on rank:0, and dtype=torch.float16 on rank:1.
"""

# A swarm trainer whose peer list names nodes that no longer answer.
DHT_NO_PEER = f"""\
Mar 02 09:14:47.008 [INFO] Connecting to the swarm through 3 initial peers
Traceback (most recent call last):
  File "/srv/swarm/trainer/run_node.py", line 58, in main
    dht = hivemind.DHT(start=True, initial_peers=peers, startup_timeout=30)
  File "{SITE}/hivemind/dht/dht.py", line 88, in __init__
    self.run_in_background(await_ready=await_ready)
  File "{SITE}/hivemind/dht/dht.py", line 152, in wait_until_ready
    self._ready.result(timeout=timeout)
RuntimeError: DHTNode bootstrap failed: none of the initial_peers responded to a ping. (set ensure_bootstrap_success=False to ignore)
"""

# Counterexample: with the switch off the node warns and starts alone; the job fails later.
DHT_WARNING_ONLY = """\
Mar 02 09:14:51.220 [WARN] [hivemind.dht.node.create:279] DHTNode bootstrap failed: none of the initial_peers responded to a ping.
torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.50 GiB. GPU 0 has a total capacity of 23.64 GiB of which 412.00 MiB is free.
"""

# An XLA worker on a Ray node cannot run ptxas at all (status 127, shifted).
XLA_PTXAS_NOT_RUNNABLE = """\
(MeshHostWorker pid=3120, ip=10.0.3.7) 2024-05-06 07:08:09.101112: F external/xla/xla/service/gpu/nvptx_compiler.cc:612] ptxas returned an error during compilation of ptx to sass: 'INTERNAL: ptxas exited with non-zero error code 32512, output: '  If the error message indicates that a file could not be written, please verify that sufficient filesystem space is provided.
(MeshHostWorker pid=3120, ip=10.0.3.7) *** SIGABRT received at time=1714979289 on cpu 5 ***
(MeshHostWorker pid=3120, ip=10.0.3.7) PC: @     0x7f31a2e1e9fc  (unknown)  pthread_kill
"""

# The assembler ran and refused the card's architecture.
XLA_PTXAS_REFUSED = """\
jaxlib.xla_extension.XlaRuntimeError: INTERNAL: ptxas exited with non-zero error code 256, output: 
"""


def test_ranks_that_disagree_on_a_sharded_size_are_a_shape_mismatch() -> None:
    diagnosis = diagnose_text("logs/shard_test.log", SHARDED_SIZE_DISAGREES)
    assert_reads(
        diagnosis,
        "shape_mismatch",
        first_error="global_size property does not match",
        beside=("config",),
    )


def test_a_sharded_dtype_disagreement_is_not_read_as_a_size() -> None:
    diagnosis = diagnose_text("logs/shard_test.log", SHARDED_DTYPE_DISAGREES)
    assert diagnosis.category != "shape_mismatch"


def test_a_dht_node_no_peer_answered_is_the_link_to_the_swarm() -> None:
    diagnosis = diagnose_text("logs/node.log", DHT_NO_PEER)
    assert_reads(diagnosis, "hccl", first_error="DHTNode bootstrap failed")
    assert {"driver_env", "config"} <= {alt.category for alt in diagnosis.alternatives}


def test_the_dht_warning_alone_is_no_failure() -> None:
    diagnosis = diagnose_text("logs/node.log", DHT_WARNING_ONLY)
    assert_reads(diagnosis, "oom", first_error="out of memory")


def test_an_xla_ptxas_that_cannot_run_is_the_machine() -> None:
    diagnosis = diagnose_text("logs/ray_worker.log", XLA_PTXAS_NOT_RUNNABLE)
    assert diagnosis.category == "driver_env"
    assert diagnosis.confidence >= 0.5
    assert diagnosis.first_error is not None
    assert "error code 32512" in diagnosis.first_error.text


def test_an_xla_ptxas_that_refused_the_ptx_is_the_release_set() -> None:
    diagnosis = diagnose_text("logs/train.log", XLA_PTXAS_REFUSED)
    assert_reads(diagnosis, "config", first_error="ptxas exited")
