"""A collective that finds no communicator to run on.

docs/labelling.md#a-communicator-that-could-not-be-created: a framework's own check that the
communicator handle it is about to hand HCCL exists (MindSpore's HCCL adapter:
`The pointer[hccl_comm] is null.`; an ATB runner: `hcclComm is null`) means no communicator was
built for the group the call used. It reads `hccl`, with `config` (the group set-up or the
launch) beside it, and is the first error when nothing says why. A creation failure printed
before it says why and stays first. Counterexample: a null stream handle keeps the stream's
reading.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

NULL_HANDLE = """\
[WARNING] HCCL_ADPT(40112,ffff9a2c1010,python):2024-02-11-09:12:30.118.402 [mindspore/ccsrc/plugin/device/ascend/hal/hccl_adapter/hccl_adapter.cc:47] GenHcclOptions] The environment variable DEPLOY_MODE is not set. Now set to default value 0
Traceback (most recent call last):
  File "tools/train.py", line 121, in <module>
    main(cfg)
  File "/work/det/utils/dist.py", line 77, in sync_start_time
    stamp = stamp[0].asnumpy().item()
  File "/usr/local/lib/python3.9/site-packages/mindspore/common/_stub_tensor.py", line 150, in stub_sync
    val = self.stub.get_value()
RuntimeError: The pointer[hccl_comm] is null.

----------------------------------------------------
- C++ Call Stack: (For framework developers)
----------------------------------------------------
mindspore/ccsrc/plugin/device/ascend/hal/hccl_adapter/hccl_adapter.cc:341 HcclBroadcast
"""

AFTER_CREATION_FAILURE = """\
[ERROR] HCCL(7710,llm_backend):2025-03-02-10:20:30.400.500 [op_base.cc:974][7744][Init][CommRootInfoConfig]errNo[0x0000000005000002]HcclCommInitRootInfo failed.
[2025-03-02 10:20:30.41000] [error] [7741] [all_gather_hccl_runner.cpp:38] hcclComm is null, rank: 2
[2025-03-02 10:20:30.41020] [error] [7741] [runner.cpp:115] AllGatherHcclRunner_1_1:1 Execute Failed. st: 3
"""

NULL_STREAM = """\
[ERROR] DEVICE(5120,ffff8e2bd0a0,python):2024-06-01-12:00:01.402.118 [mindspore/ccsrc/runtime/device/kernel_runtime_manager.cc:136] WaitTaskFinishOnDevice] SyncStream failed, exception:The pointer[stream] is null.
"""


def test_a_null_communicator_handle_is_a_communicator_never_built() -> None:
    diagnosis = diagnose_text("train.log", NULL_HANDLE)
    assert_reads(
        diagnosis,
        "hccl",
        first_error="The pointer[hccl_comm] is null.",
        rule="hccl.null_communicator_handle",
        beside=("config",),
    )


def test_a_creation_failure_before_it_stays_first() -> None:
    diagnosis = diagnose_text("server.log", AFTER_CREATION_FAILURE)
    assert_reads(diagnosis, "hccl", first_error="HcclCommInitRootInfo failed")


def test_a_null_stream_handle_keeps_the_stream_reading() -> None:
    diagnosis = diagnose_text("train.log", NULL_STREAM)
    assert diagnosis.category == "stream_sync"
    assert "hccl.null_communicator_handle" not in rules_of(diagnosis)
