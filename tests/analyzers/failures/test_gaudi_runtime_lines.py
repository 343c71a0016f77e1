"""Gaudi failures worded by the PyTorch bridge and by the collective library (HCL).

docs/labelling.md#gaudi-graph-compiler-refusals reads the bridge's bare compile failure and
its workspace allocation failure; #gaudi-lazy-mode-bridge-failures reads the lazy-mode bridge's
own check failures; #collective-libraries-of-other-accelerators reads HCL's
failed condition checks and the process group's report of a collective call that failed;
#gaudi-device-and-host-set-up-failures reads SynapseAI's critical-event and device-acquire lines,
the habanalabs driver's boards that do not come up, a host with no Gaudi scale-out interfaces and
the runtime refusing a HABANA_VISIBLE_MODULES value.
Fixtures follow the real formats with numbers and paths of our own.
"""

from __future__ import annotations

from tests.analyzers.excerpts import alternative_labels, assert_reads, diagnose_text, rules_of

BRIDGE_COMPILE_ONLY = """\
[rank5]:   File "/usr/local/lib/python3.10/dist-packages/torch/_tensor_str.py", line 140, in __init__
[rank5]:     vals = torch.masked_select(
[rank5]: RuntimeError: [Rank:5] FATAL ERROR :: MODULE:PT_BRIDGE Exception in Launch thread...
[rank5]: Check $HABANA_LOGS/ for detailsGraph compile failed. synStatus=synStatus 26 [Generic failure].
[rank5]: [Rank:5] Habana exception raised from compile at graph.cpp:612
[rank1]: Traceback (most recent call last):
[rank1]:   File "/usr/local/lib/python3.10/dist-packages/torch/distributed/distributed_c10d.py", line 3301, in all_gather_into_tensor
[rank1]:     work = group._allgather_base(output_tensor, input_tensor, opts)
[rank1]: RuntimeError: Graph compile failed. synStatus=synStatus 26 [Generic failure].
"""

NODE_THEN_COMPILE = """\
[rank3]: RuntimeError: synNodeCreateWithId failed for node: batch_gemm with synStatus 26 [Generic failure]. .
[rank3]: RuntimeError: Graph compile failed. synStatus=synStatus 26 [Generic failure].
"""

WORKSPACE = """\
  File "/srv/train/loop.py", line 88, in step
    loss.backward()
  File "/usr/local/lib/python3.10/dist-packages/torch/_tensor.py", line 522, in backward
    torch.autograd.backward(
RuntimeError: FATAL ERROR :: MODULE:SYNHELPER workspace Allocation of size ::6442450944 failed!
"""

HCL_BUFFER = """\
/srv/build/repos/hcl/src/platform/gen2_arch_common/credit_manager.cpp:31(allocNextCredit): The condition [ prevTargetValue != targetValue ] failed. No available intermediate buffer
HCCL demo error: In function hcclAllReduceWrapper(): hcclAllReduce(sendbuff, recvbuff, recvcount, getDataType(envData), getReductionOp(envData), resources.comm, resources.collectiveStream) failed: A device is busy or an internal check failed
terminate called without an active exception
"""

HCL_SERVER_TYPE = """\
Running HCCL Demo :: A simple program demonstrating HCCL usage from C++
/opt/src/hcl/src/platform/gaudi_common/hcl_device_control_factory.cpp::71(initDevice): The condition [ false ] failed. Invalid server type (4[OCP1]) requested to generate controller.
HCCL demo error: In function initDevice(): synDeviceAcquire(&resources.deviceHandle, nullptr) failed with synapse error: 20
"""

# habana's process group throws when a collective's HCL call fails; a Ray worker's runtime logs
# the uncaught error with its source place on the next line.
COLLECTIVE_CALL_FAILED = """\
(TrainWorker pid=3311) [2024-02-07 10:41:12,508 E 3311 3390] logging.cc:97: Unhandled exception: N3c105ErrorE. what(): Collective call returned error
(TrainWorker pid=3311) Exception raised from operator() at /opt/habana/torch/distributed/hccl/process_group_hccl_base.cpp:286 (most recent call first):
"""

# A serving engine's worker process logs the bridge's lazy-mode check failure right after the
# weights are loaded, before its traceback.
LAZY_BRIDGE_CHECK = """\
INFO 05-06 07:08:01 hpu_model_runner.py:794] Loading model weights took in total 12.4 GiB of device memory
ERROR 05-06 07:08:09 engine.py:387] [Rank:0] FATAL ERROR :: MODULE:PT_LAZY Error, ValidateSyncInputTensors tensor_data is empty. Tensorid:120 QueueStatus:ThreadPool m_tasks size: 0 irValue:id_402_hpu__input Uniqueid: 120
ERROR 05-06 07:08:09 engine.py:387] Traceback (most recent call last):
ERROR 05-06 07:08:09 engine.py:387]   File "/srv/vllm/vllm/engine/multiprocessing/engine.py", line 378, in run_mp_engine
"""

# The bridge's launch-thread headline over a compile failure is not a lazy-mode check.
BRIDGE_HEADLINE_ONLY = """\
[rank2]: RuntimeError: [Rank:2] FATAL ERROR :: MODULE:PT_BRIDGE Exception in Launch thread...
[rank2]: Check $HABANA_LOGS/ for detailsGraph compile failed. synStatus=synStatus 26 [Generic failure].
"""

OTHER_CONDITION = """\
/opt/src/mylib/src/pool.cpp:44(grow): The condition [ size > 0 ] failed. pool exhausted
RuntimeError: pool exhausted
"""


def test_bare_graph_compile_failure_is_operator_before_the_bridge_headline() -> None:
    diagnosis = diagnose_text("logs/train.log", BRIDGE_COMPILE_ONLY)
    assert_reads(diagnosis, "operator", first_error="Graph compile failed")
    assert diagnosis.first_error.rank == 5
    assert "config" in alternative_labels(diagnosis)


def test_node_line_stays_first_before_the_compile_failure() -> None:
    diagnosis = diagnose_text("logs/train.log", NODE_THEN_COMPILE)
    assert_reads(diagnosis, "operator", first_error="synNodeCreateWithId failed")


def test_graph_workspace_allocation_failure_is_oom() -> None:
    diagnosis = diagnose_text("logs/stdout.log", WORKSPACE)
    assert_reads(diagnosis, "oom", first_error="workspace Allocation of size")


def test_hcl_condition_check_comes_before_the_collective_call_error() -> None:
    diagnosis = diagnose_text("logs/hccl_demo.log", HCL_BUFFER)
    assert_reads(diagnosis, "hccl", first_error="No available intermediate buffer")


def test_hcl_server_type_refusal_is_the_collective_layer_with_the_host_beside_it() -> None:
    diagnosis = diagnose_text("logs/hccl_demo.log", HCL_SERVER_TYPE)
    assert_reads(diagnosis, "hccl", first_error="Invalid server type", beside=("driver_env",))


def test_condition_line_of_another_library_is_not_read_as_hcl() -> None:
    diagnosis = diagnose_text("logs/app.log", OTHER_CONDITION)
    assert diagnosis.category != "hccl", diagnosis.root_cause


def test_a_failed_collective_call_is_the_collective_layer_with_the_host_beside_it() -> None:
    diagnosis = diagnose_text("logs/worker.log", COLLECTIVE_CALL_FAILED)
    assert_reads(
        diagnosis, "hccl", first_error="Collective call returned error", beside=("driver_env",)
    )


def test_lazy_mode_bridge_check_failure_is_config_with_the_op_beside_it() -> None:
    diagnosis = diagnose_text("logs/server.log", LAZY_BRIDGE_CHECK)
    assert_reads(diagnosis, "config", first_error="MODULE:PT_LAZY", beside=("operator",))


def test_bridge_launch_headline_is_not_read_as_a_lazy_mode_check() -> None:
    diagnosis = diagnose_text("logs/train.log", BRIDGE_HEADLINE_ONLY)
    assert diagnosis.category == "operator", diagnosis.root_cause


# SynapseAI's own device-failure handler announces an event on the card that needs a restart and
# kills the process a few seconds later; the bridge's next call then fails with status 31.
# docs/labelling.md#gaudi-device-and-host-set-up-failures
SYNAPSE_DEVICE_CRITICAL = """\
bench.D3 [stderr] Synapse detected a device critical error that requires a restart. Killing process in
bench.D3 [stderr]  5 seconds (hl: 4) 09:12:07 [please check log files for dfa cause]
bench.D3 RuntimeError: [Rank:0] FATAL ERROR :: MODULE:PT_SYNHELPER synStatus 31 [Synapse is being terminated due to fatality]. Event creation failed
"""

# The habanalabs kernel driver could not bring some boards up while it loaded.
HABANALABS_BOARD_INIT = """\
[   41.100200] habanalabs hl0: Successfully loaded firmware to device
[   70.300400] habanalabs hl5: Failed to communicate with Device CPU (CPU-CP timeout)
[   70.300401] habanalabs hl5: failed to initialize CPU H/W queues -5
[   70.300500] habanalabs hl5: failed to initialize the H/W
[   70.300600] habanalabs 0000:b3:00.0: Failed to initialize hl5. Device is NOT usable !
"""

HABANALABS_BOARD_LOADED = """\
[   41.100200] habanalabs hl0: Successfully loaded firmware to device
[   41.100300] habanalabs hl1: Successfully loaded firmware to device
"""

# The bridge asks SynapseAI for a card when the process first touches the HPU; the status names
# why it got none (no card visible to the process, the card held by another process).
DEVICE_ACQUIRE_NOT_FOUND = """\
  File "/srv/app/embed.py", line 31, in load
    model = model.to("hpu")
RuntimeError: synStatus=8 [Device not found] Device acquire failed.
"""

DEVICE_ACQUIRE_AFTER_HCL = """\
/opt/src/hcl/src/platform/gaudi_common/hcl_device_control_factory.cpp::71(initDevice): The condition [ false ] failed. Invalid server type (4[OCP1]) requested to generate controller.
RuntimeError: synStatus=26 [Generic failure] Device acquire failed.
"""

# The host tool that brings the cards' scale-out ports up finds none to manage.
NO_GAUDI_NICS = """\
# manage_network_ifs.sh --up
Warning: no habanalabs network interfaces were detected
"""


def test_synapse_device_critical_event_is_a_device_fault_before_the_status_31_line() -> None:
    diagnosis = diagnose_text("logs/bench.log", SYNAPSE_DEVICE_CRITICAL)
    assert_reads(diagnosis, "device_fault", first_error="device critical error")


def test_status_31_alone_is_a_device_fault() -> None:
    text = SYNAPSE_DEVICE_CRITICAL.splitlines()[2] + "\n"
    diagnosis = diagnose_text("logs/bench.log", text)
    assert diagnosis.category == "device_fault", diagnosis.root_cause


def test_habanalabs_board_that_does_not_come_up_is_a_device_fault_with_the_host_beside_it() -> None:
    diagnosis = diagnose_text("logs/dmesg.log", HABANALABS_BOARD_INIT)
    assert_reads(diagnosis, "device_fault", first_error="CPU-CP timeout", beside=("driver_env",))


def test_habanalabs_firmware_loaded_reports_no_failure() -> None:
    diagnosis = diagnose_text("logs/dmesg.log", HABANALABS_BOARD_LOADED)
    assert diagnosis.category != "device_fault", diagnosis.root_cause


def test_device_acquire_refusal_is_the_host_set_up() -> None:
    diagnosis = diagnose_text("logs/app.log", DEVICE_ACQUIRE_NOT_FOUND)
    assert_reads(diagnosis, "driver_env", first_error="Device acquire failed")


def test_hcl_condition_stays_first_before_device_acquire() -> None:
    diagnosis = diagnose_text("logs/app.log", DEVICE_ACQUIRE_AFTER_HCL)
    assert diagnosis.first_error is not None
    assert "Invalid server type" in diagnosis.first_error.text


def test_no_gaudi_network_interfaces_is_the_host_set_up() -> None:
    diagnosis = diagnose_text("logs/nics.log", NO_GAUDI_NICS)
    assert diagnosis.category == "driver_env", diagnosis.root_cause
    assert "hccl" in alternative_labels(diagnosis)


# The Gaudi runtime refuses a HABANA_VISIBLE_MODULES id outside the modules the process was
# given; a worker that set it from its local rank inside a one-card container meets it.
# docs/labelling.md#gaudi-device-and-host-set-up-failures
VISIBLE_MODULES_REFUSED = """\
INFO 02-09 10:11:12 [hpu_worker.py:88] HABANA_VISIBLE_MODULES=2 set for local rank 2
  File "/srv/engine/hpu_worker.py", line 95, in init_device
    torch.hpu.set_device(self.device)
RuntimeError: Invalid HABANA_VISIBLE_MODULES=2. Module IDs should be between 0 and 0.
"""

VISIBLE_MODULES_SET = """\
export HABANA_VISIBLE_MODULES=0,1,2,3
INFO 02-09 10:11:12 [hpu_worker.py:88] HABANA_VISIBLE_MODULES=2 set for local rank 2
"""


def test_visible_modules_refusal_is_the_jobs_setting_with_the_host_beside_it() -> None:
    diagnosis = diagnose_text("logs/worker.log", VISIBLE_MODULES_REFUSED)
    assert_reads(
        diagnosis,
        "config",
        first_error="Invalid HABANA_VISIBLE_MODULES=2",
        rule="cfg.habana_visible_modules_rejected",
        beside=("driver_env",),
    )


def test_visible_modules_that_are_only_set_report_no_failure() -> None:
    diagnosis = diagnose_text("logs/worker.log", VISIBLE_MODULES_SET)
    assert "cfg.habana_visible_modules_rejected" not in rules_of(diagnosis)
