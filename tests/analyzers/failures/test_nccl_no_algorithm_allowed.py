"""NCCL refusing a collective for which the job allows no algorithm and protocol.

docs/labelling.md#an-nccl-call-no-allowed-algorithm-can-run. NCCL_ALGO / NCCL_PROTO (or a
feature switched on) left nothing the call can run: `config`, with `hccl` beside it, the WARN
line first and torch's wrapper after it. The fixtures are in the shapes NCCL and torch print
(values are ours).
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

# srun's task prefixes; several tasks refuse the same barrier while one prints its traceback.
SEVERAL_TASKS = """\
17: gpu-b:30514:30514 [1] enqueue.cc:422 NCCL WARN Error : no algorithm/protocol available
17: Traceback (most recent call last):
17:   File "/srv/train/pretrain.py", line 40, in <module>
18: gpu-b:30515:30515 [2] enqueue.cc:422 NCCL WARN Error : no algorithm/protocol available
17:     torch.distributed.barrier()
23: gpu-c:41101:41101 [7] enqueue.cc:422 NCCL WARN Error : no algorithm/protocol available
"""

# torch's wrapper with NCCL's reason repeated under `Last error:`.
UNDER_TORCH_WRAPPER = """\
[rank4]: torch.distributed.DistBackendError: NCCL error in: /opt/pytorch/torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:3101, invalid usage (run with NCCL_DEBUG=WARN for details), NCCL version 2.21.5
[rank4]: ncclInvalidUsage: This usually reflects invalid usage of NCCL library.
[rank4]: Last error:
[rank4]: Error : no algorithm/protocol available for function Broadcast with datatype ncclFloat32. NCCL_ALGO was set to Tree.
"""

# Counterexample: the tuner's report of what it chose is no failure.
CHOICE_REPORTED = """\
gpu-b:30514:30514 [1] NCCL INFO NCCL_ALGO set by environment to Ring
gpu-b:30514:30514 [1] NCCL INFO AllReduce: 4194304 Bytes -> Algo 1 proto 2 time 38.120000
"""


def test_the_refusal_is_the_settings_with_the_collective_layer_beside_it() -> None:
    diagnosis = diagnose_text("logs/srun.log", SEVERAL_TASKS)
    assert_reads(
        diagnosis, "config", first_error="no algorithm/protocol available", beside=("hccl",)
    )


def test_the_reason_under_torchs_wrapper_is_the_first_error() -> None:
    diagnosis = diagnose_text("logs/train.log", UNDER_TORCH_WRAPPER)
    assert_reads(diagnosis, "config", first_error="NCCL_ALGO was set to Tree")


def test_the_tuners_choice_is_no_failure() -> None:
    diagnosis = diagnose_text("logs/train.log", CHOICE_REPORTED)
    assert diagnosis.category != "config", diagnosis.root_cause
