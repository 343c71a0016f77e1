"""What torch itself says when the NPU side of a stack is missing or only half there.

torch learns the `npu` device from the torch_npu plugin, a process group needs a backend for
the tensors' device type, and extension packages keep their own registry of ops per device.
Each refusal names a different layer; a warning's guess at a cause names none.

docs/labelling.md#config-driver_env-or-weight_load
docs/labelling.md#operator-installation-or-platform-limit
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

UNKNOWN_DEVICE = """\
Traceback (most recent call last):
  File "/srv/app/parse.py", line 30, in <module>
    model = load_model(device="npu")
  File "/srv/app/models.py", line 112, in load_model
    return Model(cfg).to(torch.device(device))
RuntimeError: Expected one of cpu, cuda, ipu, xpu, mkldnn, opengl, opencl, ideep, hip, ve, fpga, ort, xla, lazy, vulkan, mps, meta, hpu, mtia, privateuseone device type at start of device string: npu
"""

# Counterexample: a typo in the device name is the script's, not a missing plugin.
TYPO_DEVICE = UNKNOWN_DEVICE.replace("device string: npu", "device string: gpu")

NO_BACKEND = """\
  File "/opt/py/lib/python3.10/site-packages/torch/nn/parallel/distributed.py", line 795, in __init__
    _verify_param_shape_across_processes(self.process_group, parameters)
  File "/opt/py/lib/python3.10/site-packages/torch/distributed/utils.py", line 282, in _verify_param_shape_across_processes
    return dist._verify_params_across_processes(process_group, tensors, logger)
RuntimeError: No backend type associated with device type npu
"""

REGISTRY_MISS = """\
[W compiler_depend.ts:631] Warning: expandable_segments feature is not supportted                     and the possible cause is that driver and firmware packages do not match. (function operator())
Traceback (most recent call last):
  File "/work/det/tools/train.py", line 121, in <module>
    main()
  File "/opt/py/lib/python3.9/site-packages/mmengine/runner/loops.py", line 113, in run_epoch
    self.run_iter(idx, data_batch)
RuntimeError: roi_align_forward_impl: implementation for device npu:0 not found.
"""

# Counterexample: the hedged warning alone is not a finding.
HEDGED_WARNING_ONLY = """\
[W compiler_depend.ts:631] Warning: expandable_segments feature is not supportted                     and the possible cause is that driver and firmware packages do not match. (function operator())
epoch 1 step 10 loss 2.31
"""

# Counterexample: a line that states the mismatch keeps the machine's label.
STATED_MISMATCH = """\
[ERROR] DRV(2201,python3):2026-04-08-07:20:00.000.100 [dev_mgr.c:402] Firmware version incompatible (600001)
RuntimeError: roi_align_forward_impl: implementation for device npu:0 not found.
"""


def test_a_device_string_torch_does_not_know_is_a_missing_plugin() -> None:
    diagnosis = diagnose_text("job/worker.log", UNKNOWN_DEVICE)
    assert_reads(diagnosis, "driver_env", first_error="device string: npu", beside=("config",))


def test_another_device_name_is_not_read_as_the_missing_plugin() -> None:
    diagnosis = diagnose_text("job/worker.log", TYPO_DEVICE)
    assert diagnosis.category != "driver_env"


def test_a_process_group_without_a_backend_for_npu_is_the_setup() -> None:
    diagnosis = diagnose_text("job/rank0.log", NO_BACKEND)
    assert_reads(diagnosis, "config", first_error="No backend type associated with device type npu")


def test_an_op_registry_without_an_npu_entry_outranks_a_hedged_warning() -> None:
    diagnosis = diagnose_text("job/train.log", REGISTRY_MISS)
    assert_reads(diagnosis, "operator", first_error="implementation for device npu:0 not found")


def test_a_hedged_warning_alone_is_no_driver_mismatch() -> None:
    diagnosis = diagnose_text("job/train.log", HEDGED_WARNING_ONLY)
    assert diagnosis.category != "driver_env"


def test_a_stated_firmware_mismatch_keeps_the_machine_label() -> None:
    diagnosis = diagnose_text("job/train.log", STATED_MISMATCH)
    assert_reads(diagnosis, "driver_env", first_error="Firmware version incompatible")
