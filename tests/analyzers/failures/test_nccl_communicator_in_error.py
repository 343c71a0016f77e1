"""NCCL refusing a call on a communicator whose earlier operation has not succeeded.

docs/labelling.md#nccl-failures-named-by-the-call: NCCL keeps the result of a communicator's
last asynchronous operation and refuses every later call while that result is not success,
saying so in a WARN line from its initialisation code. The collective layer is what failed:
`hccl`, and the WARN is the first error whenever the log kept it; the wrapper a library or torch
raises after it (an engine's `Failed, NCCL error <file>:<line> '...'`, torch's `invalid usage`)
only restates it. Values are our own, in the real wordings.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

# An engine's all-reduce plugin on four GPUs under mpirun: set-up completes, then the plugin's
# call is refused and its own NCCL check fails with a code it has no name for.
PLUGIN_AFTER_WARN = """\
gpu-node7:52011:52011 [1] NCCL INFO Connected all trees
gpu-node7:52011:52011 [1] NCCL INFO 24 coll channels, 0 nvls channels, 32 p2p channels, 32 p2p channels per peer
gpu-node7:52012:52012 [2] init.cc:288 NCCL WARN Attempt to use communicator before the previous operation returned ncclSuccess
gpu-node7:52012:52012 [2] NCCL INFO enqueue.cc:1580 -> 5
Failed, NCCL error /build/engine/cpp/plugins/ncclPlugin/allreducePlugin.cpp:170 'invalid usage (run with NCCL_DEBUG=WARN for details)'
gpu-node7:52010:52090 [0] NCCL INFO [Service thread] Connection closed by localRank 2
"""

# torch's wrapper of the same refusal, the WARN kept above it.
TORCH_AFTER_WARN = """\
[rank3]: node-2:8812:8812 [3] init.cc:291 NCCL WARN Attempt to use communicator before the previous operation returned ncclSuccess
[rank3]: torch.distributed.DistBackendError: NCCL error in: /opt/torch/csrc/distributed/c10d/NCCLUtils.cpp:77, invalid usage (run with NCCL_DEBUG=WARN for details), NCCL version 2.21.5
"""

# Counterexample: NCCL's INFO lines that trace a return code up name no failure.
TRACE_ONLY = """\
gpu-node7:52012:52012 [2] NCCL INFO enqueue.cc:1580 -> 5
gpu-node7:52012:52012 [2] NCCL INFO comm 0x55d0c1a0 rank 2 nranks 4 cudaDev 2 - Init COMPLETE
"""


def test_the_warning_comes_before_the_plugin_check_that_restates_it() -> None:
    diagnosis = diagnose_text("mpirun.log", PLUGIN_AFTER_WARN)
    assert_reads(
        diagnosis,
        "hccl",
        first_error="Attempt to use communicator before the previous operation",
        rule="hccl.nccl_comm_left_in_error",
    )


def test_torch_invalid_usage_after_the_warning_is_its_wrapper() -> None:
    diagnosis = diagnose_text("log_3.log", TORCH_AFTER_WARN)
    assert_reads(
        diagnosis,
        "hccl",
        first_error="Attempt to use communicator before the previous operation",
        rule="hccl.nccl_comm_left_in_error",
    )


def test_return_code_traces_are_no_failure() -> None:
    assert "hccl.nccl_comm_left_in_error" not in rules_of(diagnose_text("mpirun.log", TRACE_ONLY))
