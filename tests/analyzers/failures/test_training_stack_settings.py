"""Training frameworks refusing their settings, and CUDA refusing peer access under NCCL.

DeepSpeed, Lightning and FSDP check their settings and say which do not fit (the batch
arithmetic and a batch setting that came out as 0, devices the machine does not have,
parameters of mixed dtypes in one flat unit, a layer class to wrap that the model lacks);
a script that calls a collective before any process group exists was started without its
launcher. All are `config` (the job's settings, docs/labelling.md#config-driver_env-or-weight_load).
CUDA refusing peer access between two GPUs, as NCCL reports it, is the host's topology or
driver, `driver_env`, as for the NPU driver's refusal. Values of our own in real shapes.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

DEEPSPEED_BATCH = """\
[2025-03-02 11:20:31,402] [INFO] [config.py:988:print]   train_batch_size ............. 96
Traceback (most recent call last):
  File "/srv/sft/train.py", line 210, in <module>
    engine, optimizer, _, _ = deepspeed.initialize(model=model, config=ds_config)
AssertionError: Check batch related parameters. train_batch_size is not equal to micro_batch_per_gpu * gradient_acc_step * world_size 96 != 6 * 2 * 4
"""


def test_deepspeed_batch_arithmetic_that_does_not_add_up_is_config() -> None:
    diagnosis = diagnose_text("rank0.log", DEEPSPEED_BATCH)
    assert_reads(
        diagnosis,
        "config",
        first_error="Check batch related parameters",
        rule="cfg.training_stack_settings",
    )


def test_the_printed_batch_setting_alone_is_no_failure() -> None:
    diagnosis = diagnose_text("rank0.log", DEEPSPEED_BATCH.splitlines()[0] + "\n")
    assert "cfg.training_stack_settings" not in rules_of(diagnosis)


ZERO_MICRO_BATCH = """\
[rank2]: Traceback (most recent call last):
[rank2]:   File "/srv/rlhf/train_dpo.py", line 88, in <module>
[rank2]:     engine, *_ = deepspeed.initialize(model=model, config=ds_config)
[rank2]:   File "/opt/py3.11/site-packages/deepspeed/runtime/config.py", line 962, in _batch_assertion
[rank2]:     assert micro_batch > 0, f"Micro batch size per gpu: {micro_batch} has to be greater than 0"
[rank2]: AssertionError: Micro batch size per gpu: 0 has to be greater than 0
"""


def test_deepspeed_deriving_a_batch_of_zero_is_config() -> None:
    # A global batch below the world size leaves each GPU a micro batch of 0; DeepSpeed's check
    # that each batch setting is positive comes before the product check above.
    diagnosis = diagnose_text("rank2.log", ZERO_MICRO_BATCH)
    assert_reads(
        diagnosis,
        "config",
        first_error="Micro batch size per gpu: 0",
        rule="cfg.training_stack_settings",
    )


def test_a_printed_accumulation_setting_is_no_batch_refusal() -> None:
    text = "INFO gradient accumulation steps: 8 (micro batch size per gpu: 2)\nstep 1 loss 2.1\n"
    diagnosis = diagnose_text("rank0.log", text)
    assert "cfg.training_stack_settings" not in rules_of(diagnosis)


WRAP_CLASS_MISSING = """\
Traceback (most recent call last):
  File "/home/dev/sft/train.py", line 140, in main
    model = accelerator.prepare(model)
  File "/opt/py3.10/site-packages/accelerate/utils/dataclasses.py", line 1502, in set_auto_wrap_policy
    raise ValueError(f"Could not find the transformer layer class {layer_class} in the model.")
ValueError: Could not find the transformer layer class MistralDecoderLayer in the model.
"""


def test_fsdp_told_to_wrap_a_class_the_model_lacks_is_config() -> None:
    diagnosis = diagnose_text("train.log", WRAP_CLASS_MISSING)
    assert_reads(
        diagnosis,
        "config",
        first_error="MistralDecoderLayer in the model",
        rule="cfg.training_stack_settings",
    )


def test_the_trainers_older_wording_of_the_missing_wrap_class_is_config() -> None:
    text = (
        '  File "/opt/py3.9/site-packages/transformers/trainer.py", line 1390, in _wrap_model\n'
        '    raise Exception("Could not find the transformer layer class to wrap in the model.")\n'
        "Exception: Could not find the transformer layer class to wrap in the model.\n"
    )
    diagnosis = diagnose_text("train.log", text)
    assert diagnosis.category == "config"


def test_lightning_asked_for_devices_the_machine_lacks_is_config() -> None:
    text = (
        "lightning_fabric.utilities.exceptions.MisconfigurationException: You requested gpu: "
        "[0, 1, 2] But your machine only has: [0]\n"
    )
    diagnosis = diagnose_text("train.log", text)
    assert diagnosis.category == "config"


def test_fsdp_refusing_mixed_dtypes_in_one_unit_is_config() -> None:
    text = "[rank3]: ValueError: Must flatten tensors with uniform dtype but got torch.float16 and torch.float32\n"
    diagnosis = diagnose_text("rank3.log", text)
    assert_reads(diagnosis, "config", first_error="uniform dtype")


PEER_ACCESS = """\
gpu-2:811:870 [3] include/alloc.h:125 NCCL WARN Cuda failure 'peer access is not supported between these two devices'
[rank3]: torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/NCCLUtils.hpp:317, unhandled cuda error (run with NCCL_DEBUG=INFO for details), NCCL version 2.21.5
[rank3]: ncclUnhandledCudaError: Call to CUDA function failed.
"""


def test_cuda_refusing_peer_access_under_nccl_is_the_host() -> None:
    # docs/labelling.md#config-driver_env-or-weight_load: the peer-to-peer refusal row.
    diagnosis = diagnose_text("rank3.log", PEER_ACCESS)
    assert_reads(diagnosis, "driver_env", first_error="peer access is not supported")


def test_cuda_refusing_peer_access_offers_the_setting_not_a_broken_device() -> None:
    """The pair of GPUs never had a peer path: the job can stop asking for one (config); a
    device gone bad is no reading of CUDA's refusal, unlike the NPU driver's."""
    diagnosis = diagnose_text("rank3.log", PEER_ACCESS)
    alternatives = {alt.category for alt in diagnosis.alternatives}
    assert "config" in alternatives
    assert "device_fault" not in alternatives
    assert "env.gpu_peer_access_unsupported" in rules_of(diagnosis)


def test_the_npu_driver_refusing_peer_access_keeps_a_failed_device_beside_it() -> None:
    text = (
        "EL9999[PID: 7136] 2026-04-17-11:29:42.001.734 (EL9999):  [drv api] halDeviceEnableP2P "
        "failed: drv devId=6, phyIdSrc=0, drvRetCode=17![FUNC:EnableP2P][FILE:npu_driver.cc]"
        "[LINE:4088]\n"
    )
    diagnosis = diagnose_text("plog/plog-7136.log", text)
    assert diagnosis.category == "driver_env"
    assert "device_fault" in {alt.category for alt in diagnosis.alternatives}


def test_another_cuda_failure_under_nccl_is_not_a_peer_refusal() -> None:
    text = PEER_ACCESS.replace(
        "peer access is not supported between these two devices", "out of memory"
    )
    diagnosis = diagnose_text("rank3.log", text)
    assert diagnosis.category == "oom"
    assert "env.peer_access_refused" not in rules_of(diagnosis)
    assert "env.gpu_peer_access_unsupported" not in rules_of(diagnosis)
