"""A board that nvidia-smi reports as stopped on a critical Xid is a device fault.

After the driver handled a fault it counts as critical (one that needs the board reset),
`nvidia-smi` answers for that board with its bus id and `Detected Critical Xid Error` instead
of its figures; container entrypoints and health probes that call it print the line right
above whatever the job then raised. The line carries no Xid number, but it is the driver's own
verdict on the board: `device_fault`, and the first error ahead of the job's traceback, with
`driver_env` beside it (a node whose set-up drives the board into the fault). Counterexample:
a probe saying it found no critical Xid, and a monitoring rule's description of the words.

docs/labelling.md#a-gpu-the-driver-no-longer-reaches
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

RULE = "dev.gpu_critical_xid_state"

# A pod's log: the entrypoint's nvidia-smi call, then the trainer dying in its start-up.
POD_AFTER_CRITICAL_XID = """\
GPU 00000000:1B:00.0: Detected Critical Xid Error
Traceback (most recent call last):
  File "/workspace/Megatron-LM/pretrain_gpt.py", line 231, in <module>
    pretrain(train_valid_test_datasets_provider,
  File "/workspace/Megatron-LM/megatron/training/training.py", line 201, in pretrain
    initialize_megatron(extra_args_provider=extra_args_provider,
  File "/workspace/Megatron-LM/megatron/training/initialize.py", line 88, in initialize_megatron
    _compile_dependencies()
  File "/workspace/Megatron-LM/megatron/training/initialize.py", line 142, in _compile_dependencies
    torch.distributed.barrier()
torch.distributed.DistBackendError: NCCL error in: /opt/pytorch/pytorch/torch/csrc/distributed/c10d/NCCLUtils.hpp:317, unhandled cuda error (run with NCCL_DEBUG=INFO for details), NCCL version 2.21.5
"""

# A node probe querying every board: one answers with its figures, one with the verdict.
PROBE_QUERY = """\
$ nvidia-smi --query-gpu=index,pci.bus_id,temperature.gpu --format=csv,noheader
0, 00000000:18:00.0, 34
GPU 00000000:3D:00.0: Detected Critical Xid Error
"""

PROBE_CLEAN = """\
2026-12-06 10:02:11 gpu-probe INFO no critical Xid error detected on 8 GPUs
2026-12-06 10:02:11 gpu-probe INFO alert rule: page when nvidia-smi prints "Detected Critical Xid Error"
"""


def test_the_verdict_above_a_start_up_traceback_is_the_first_error() -> None:
    diagnosis = diagnose_text("pod.log", POD_AFTER_CRITICAL_XID)
    assert_reads(
        diagnosis,
        "device_fault",
        first_error="GPU 00000000:1B:00.0: Detected Critical Xid Error",
        rule=RULE,
        beside=("driver_env",),
    )


def test_a_probe_that_queries_the_boards_reads_the_same() -> None:
    diagnosis = diagnose_text("probe.log", PROBE_QUERY)
    assert_reads(diagnosis, "device_fault", first_error="Detected Critical Xid Error", rule=RULE)


def test_a_probe_that_found_none_and_an_alert_rule_are_no_fault() -> None:
    diagnosis = diagnose_text("probe.log", PROBE_CLEAN)
    assert RULE not in rules_of(diagnosis)
