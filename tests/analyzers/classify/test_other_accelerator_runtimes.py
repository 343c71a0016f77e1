"""Failures written by the runtimes under PyTorch on accelerators that are neither CUDA nor
Ascend: XLA on TPU, the Neuron runtime, Tenstorrent's fabric, poptorch.
docs/labelling.md#runtimes-of-other-accelerators. Fixtures follow the real formats with
numbers, hosts and paths of our own.
"""

from __future__ import annotations

from tests.analyzers.excerpts import alternative_labels, assert_reads, diagnose_text, rules_of

_E = "2023-02-14 03:12:44.{:06d}: E tensorflow/compiler/xla/xla_client/xla_util.cc:90] "
XRT_OOM = "\n".join(
    _E.format(500200 + i) + text
    for i, text in enumerate(
        [
            "",
            "Status: RESOURCE_EXHAUSTED: From /job:localservice/replica:0/task:0:",
            "2 root error(s) found.",
            "  (0) RESOURCE_EXHAUSTED: Attempting to reserve 2.10G at the bottom of memory."
            " That was not possible. There are 1.90G free, 0B reserved, and 0.88G reservable.",
            "\t [[{{node XRTExecute}}]]",
            "0 successful operations.",
        ]
    )
) + (
    "\nException in device=TPU:2: RESOURCE_EXHAUSTED: From /job:localservice/replica:0/task:0:\n"
    "2 root error(s) found.\n"
)

PJRT_OOM = """\
RuntimeError: Bad StatusOr access: RESOURCE_EXHAUSTED: Error allocating device buffer: Attempting to allocate 320.00M. That was not possible. There are 211.70M free.; (0x1x0_HBM0): while running replica 0 and partition 0 of a replicated computation (other replicas may have failed as well).
##### Command execution on worker 1 failed with exit status 1. Continuing.
"""

NEURON_START = """\
2024-Mar-07 08:01:55.301004 7713:7713 ERROR  TDRV:notification_destroy                    Notifications not initialized! 
2024-Mar-07 08:01:55.302100 7711:7711 ERROR   NRT:nrt_infodump                            Kernel: Linux 6.1.0-1019-aws #19-Ubuntu SMP
2024-Mar-07 08:01:55.318204 7715:7715 ERROR  TDRV:tdrv_init_mla_phase1                    Could not open the nd6

2024-Mar-07 08:01:55.318233 7715:7715 ERROR  TDRV:notification_destroy                    Notifications not initialized! 
2024-Mar-07 08:01:55.401120 7715:7715 ERROR   NRT:nrt_init                                Failed to initialize devices, error:1
2024-Mar-07 08:01:55.402377 7715:7715 ERROR   NRT:nrt_infodump                            Driver version: 2.18.12.0
"""

# No Neuron device at all inside the process (a container started without the device nodes,
# an instance type without them): the device layer cannot read a device's architecture, the
# runtime's start says it finds no device, its info dump names the failed call, and
# torch-neuronx raises its own sentence at the first load.
NEURON_NO_DEVICE = """\
2026-Feb-03 11:42:07.114201 8812:8812 ERROR  TDRV:tdrv_get_dev_info                       unable to retrieve device architecture
2026-Feb-03 11:42:07.114390 8812:8812 ERROR   NRT:nrt_init                                Cannot find Neuron devices. Please run on an instance type that supports Neuron, such as inf2 or trn1.
2026-Feb-03 11:42:07.114455 8812:8812 ERROR   NRT:nrt_init                                If you are using Neuron Containers, make sure the neuron devices are exposed to the container.
2026-Feb-03 11:42:07.114900 8812:8812 ERROR   NRT:nrt_infodump                            Driver version: 2.27.4.0
2026-Feb-03 11:42:07.114960 8812:8812 ERROR   NRT:nrt_infodump                            Failure: NRT_INVALID in nrt_init()
ERROR 02-03 11:42:07 [core.py:1006] RuntimeError: The PyTorch Neuron Runtime could not be initialized. Neuron Driver issues are logged
ERROR 02-03 11:42:07 [core.py:1006] to your system logs.
"""

# torch-neuronx's sentence alone, the runtime's own lines kept in the system log.
NEURON_NOT_INITIALIZED = """\
Traceback (most recent call last):
  File "/srv/serve.py", line 31, in <module>
    model.load(compiled_path)
RuntimeError: The PyTorch Neuron Runtime could not be initialized. Neuron Driver issues are logged
to your system logs. See the Neuron Runtime's troubleshooting guide for help on this
"""

NEURON_ALLOC = """\
ERROR 05-21 10:02:44 engine.py:389]     return torch.ops.neuron._parallel_to_neuron(tensors)
ERROR 05-21 10:02:44 engine.py:389] RuntimeError: nrt_tensor_allocate status=4 message="Allocation Failure"
"""

NEURON_TOPOLOGY = """\
2024-Jul-11 19:30:02.118200   611:804   ERROR   NRT:nrt_load_collectives                    Unsupported topology. Supported number of Neuron Cores is 1, 2, 8, 16 or a multiple of 32.  For other configurations, such as multiples of 2, consider using inf2 instances
2024-Jul-11 19:30:02.118261   611:804   ERROR   NRT:nrt_load_collectives                    Unsupported topology. Supported number of Neuron Cores is 1, 2, 8, 16 or a multiple of 32.  For other configurations, such as multiples of 2, consider using inf2 instances
"""

# An XRT client started with none of the variables that tell it where its devices are: the
# runtime's own refusal comes first, a trainer's verdict that no TPU was found follows it.
XRT_UNCONFIGURED = """\
Traceback (most recent call last):
  File "/srv/venv/lib/python3.8/site-packages/torch_xla/core/xla_model.py", line 18, in <lambda>
    _DEVICES = xu.LazyProperty(lambda: torch_xla._XLAC._xla_get_devices())
RuntimeError: tensorflow/compiler/xla/xla_client/computation_client.cc:280 : Missing XLA configuration
Traceback (most recent call last):
  File "/srv/fit.py", line 40, in <module>
    trainer = Trainer(accelerator="tpu", devices=8)
lightning.pytorch.utilities.exceptions.MisconfigurationException: No TPU devices were found.
"""

TT_LINKS = """\
2026-01-09 14:02:10.311 | info     |          Device | Opening user mode device driver (tt_cluster.cpp:189)
2026-01-09 14:02:11.876 | critical |          Always | Error during physical chip discovery: missing connections in 2D mesh. Please check ethernet connection status (assert.hpp:103)
"""

TT_FATAL = """\
E     RuntimeError: TT_FATAL @ /work/tt-metal/tt_metal/fabric/control_plane.cpp:902: connected_eth_cores.size() >= edge.connected_chip_ids.size()
E     info:
E     Expected 4 eth links from physical chip 2 to physical chip 6
"""

REPLICATE = """\
Exception in device=TPU:1: Cannot replicate if number of devices (1) is different from 8
Traceback (most recent call last):
  File "/usr/local/lib/python3.8/dist-packages/torch_xla/core/xla_model.py", line 286, in xla_replication_devices
    raise RuntimeError(
RuntimeError: Cannot replicate if number of devices (1) is different from 8
"""

NO_DEVICE = """\
RuntimeError: Cannot replicate if number of devices (0) is different from 8
"""

MESH = """\
RuntimeError: tensorflow/compiler/xla/xla_client/mesh_service.cc:316 : Check failed: impl_->channel->WaitForConnected( std::chrono::system_clock::now() + std::chrono::seconds(connect_wait_seconds)) 
*** Begin stack trace ***
	xla::service::MeshClient::MeshClient(std::string const&)
*** End stack trace ***
Failed to connect to client mesh master: tpu-vm-3.c.proj.internal:45123
"""

RENDEZVOUS = """\
Exception in device=TPU:2: tensorflow/compiler/xla/xla_client/mesh_service.cc:301 : Failed to meet rendezvous 'val_loss': Socket closed (14)
Traceback (most recent call last):
  File "/opt/conda/lib/python3.7/site-packages/torch_xla/distributed/xla_multiprocessing.py", line 231, in _start_fn
    fn(gindex, *args)
Exception in device=TPU:4: tensorflow/compiler/xla/xla_client/mesh_service.cc:301 : Failed to meet rendezvous 'val_loss': Socket closed (14)
  File "/kaggle/working/loop.py", line 88, in validate
    mean_loss = xm.mesh_reduce('val_loss', loss, np.mean)
"""

NO_TPU_ON_WORKER = """\
  % Total    % Received % Xferd  Average Speed   Time    Time     Time  Current
                                 Dload  Upload   Total   Spent    Left  Speed
100    19  100    19    0     0   2911      0 --:--:-- --:--:-- --:--:--  3166
 2021-10-02 05:17:44.610032: E    3391 tensorflow/compiler/xla/xla_client/tf_logging.cc:11] Check failed: session.Run({tensorflow::Output(result, 0)}, &outputs) == ::tensorflow::Status::OK() (Invalid argument: No matching devices found for '/job:c_tpu_worker/replica:0/task:1/device:TPU_SYSTEM:0' vs. OK)
"""

DEVICE_MAP = """\
Traceback (most recent call last):
  File "/opt/venv/lib/python3.8/site-packages/trainer_lib/tpu_probe.py", line 40, in _probe
    return len(xm.get_xla_supported_devices("TPU")) > 0
  File "/opt/venv/lib/python3.8/site-packages/torch_xla/core/xla_model.py", line 136, in get_xla_supported_devices
    xla_devices = _DEVICES.value
RuntimeError: tensorflow/compiler/xla/xla_client/xrt_computation_client.cc:263 : Check failed: default_device_target != options_.global_device_map.end() 
*** Begin stack trace ***
	tensorflow::CurrentStackTrace()
"""

PARTICIPANT_STUCK = """\
WARNING:root:MASTER_ADDR environment variable is not set, defaulting to localhost
Rank 0 finished the epoch, waiting for the others.
E0000 00:00:1731002213.900114  220871 collective_ops_utils.h:310] This thread has been waiting for 5000ms for and may be stuck: participant AllReduceParticipantData{rank=0, element_count=512, type=F32, rendezvous_key=RendezvousKey{run_id=RunId: 1, global_devices=[0,1,2,3], num_local_participants=4, collective_op_kind=cross_replica, op_id=4}} waiting for all participants to arrive at rendezvous RendezvousKey{run_id=RunId: 1, global_devices=[0,1,2,3], num_local_participants=4, collective_op_kind=cross_replica, op_id=4}
"""

HOST_SYNC = """\
[10:02:41.552] [poptorch::python] [critical] RuntimeError: ERROR in poptorch/python/poptorch.cpp:710: 'std::exception' exception: IPUDevice: still waiting for host sync after: 600 seconds. Use the engine option target.hostSyncTimeout to increase the timeout.
"""


def test_xrt_error_block_reads_the_sized_reservation_first() -> None:
    diagnosis = diagnose_text("logs/train.log", XRT_OOM)
    assert_reads(diagnosis, "oom", first_error="Attempting to reserve 2.10G")


def test_pjrt_device_buffer_is_oom() -> None:
    diagnosis = diagnose_text("logs/train.log", PJRT_OOM)
    assert_reads(diagnosis, "oom", first_error="Error allocating device buffer")


def test_neuron_device_that_does_not_open_outranks_the_report_and_teardown() -> None:
    diagnosis = diagnose_text("logs/train.log", NEURON_START)
    assert_reads(diagnosis, "driver_env", first_error="Could not open the nd6", beside=("config",))


def test_no_neuron_device_in_the_process_is_the_machine() -> None:
    diagnosis = diagnose_text("logs/slurm-serve.out", NEURON_NO_DEVICE)
    assert_reads(
        diagnosis,
        "driver_env",
        first_error="unable to retrieve device architecture",
        rule="env.neuron_device_not_found",
        beside=("config",),
    )


def test_torch_neuronx_runtime_not_initialized_alone_is_the_machine() -> None:
    diagnosis = diagnose_text("logs/serve.log", NEURON_NOT_INITIALIZED)
    assert_reads(
        diagnosis,
        "driver_env",
        first_error="could not be initialized",
        rule="env.neuron_runtime_not_initialized",
    )


def test_neuron_status_four_is_oom() -> None:
    diagnosis = diagnose_text("logs/engine.log", NEURON_ALLOC)
    assert_reads(diagnosis, "oom", first_error="nrt_tensor_allocate")


def test_neuron_collectives_topology_is_a_platform_limit() -> None:
    diagnosis = diagnose_text("logs/train.log", NEURON_TOPOLOGY)
    assert diagnosis.category == "config"
    assert "hccl" in alternative_labels(diagnosis)


def test_tenstorrent_missing_links_are_the_machines() -> None:
    for text in (TT_LINKS, TT_FATAL):
        diagnosis = diagnose_text("logs/server.log", text)
        assert diagnosis.category == "driver_env", diagnosis.root_cause
        assert diagnosis.first_error is not None


def test_replication_over_more_devices_than_seen() -> None:
    diagnosis = diagnose_text("logs/train.log", REPLICATE)
    assert diagnosis.category == "config"
    assert "driver_env" in alternative_labels(diagnosis)
    assert diagnose_text("logs/train.log", NO_DEVICE).category == "driver_env"


def test_mesh_master_out_of_reach_is_a_rendezvous_failure() -> None:
    diagnosis = diagnose_text("logs/train.log", MESH)
    assert_reads(diagnosis, "hccl", first_error="WaitForConnected", beside=("config",))


def test_ipu_host_sync_timeout_is_a_synchronisation_failure() -> None:
    diagnosis = diagnose_text("logs/train.log", HOST_SYNC)
    assert diagnosis.category == "stream_sync"
    assert "hang" in alternative_labels(diagnosis)


def test_replicas_that_lose_the_mesh_master_at_a_rendezvous() -> None:
    # Only the `Exception in device=TPU:<n>:` copies, no glog header: the rendezvous line is
    # still the first error, a collective-layer symptom with a dead master beside it.
    diagnosis = diagnose_text("logs/kernel.log", RENDEZVOUS)
    assert diagnosis.category == "hccl", diagnosis.root_cause
    assert diagnosis.first_error is not None
    assert "Failed to meet rendezvous 'val_loss'" in diagnosis.first_error.text
    assert "TPU:2" in diagnosis.first_error.text
    assert "device_fault" in alternative_labels(diagnosis)


def test_worker_without_tpu_devices_is_the_machine() -> None:
    diagnosis = diagnose_text("logs/xla_dist.log", NO_TPU_ON_WORKER)
    assert_reads(
        diagnosis, "driver_env", first_error="No matching devices found", beside=("config",)
    )


def test_process_outside_the_launchers_device_map_is_config() -> None:
    diagnosis = diagnose_text("logs/worker_2.log", DEVICE_MAP)
    assert_reads(diagnosis, "config", first_error="default_device_target", beside=("driver_env",))


def test_xla_collective_waiting_for_a_participant_is_a_stall() -> None:
    diagnosis = diagnose_text("logs/console.log", PARTICIPANT_STUCK)
    assert_reads(diagnosis, "hang", first_error="may be stuck", beside=("hccl",))


def test_an_xla_client_with_no_device_configuration_is_the_launch() -> None:
    diagnosis = diagnose_text("logs/train.log", XRT_UNCONFIGURED)
    assert_reads(
        diagnosis, "config", first_error="Missing XLA configuration", beside=("driver_env",)
    )


TT_ROUTER_SYNC = """\
2026-04-02 07:51:19.044 | info     |          Device | Opening user mode device driver (tt_cluster.cpp:189)
2026-04-02 07:51:31.610 | critical |          Always | TT_THROW: Fabric Router Sync: Timeout after 10000 ms on Device 5: expected status 0xa2b2c2d2. Master chan=3 got 0xa0b0c0d0. (assert.hpp:104)
Traceback (most recent call last):
  File "/srv/bringup/open_mesh.py", line 12, in <module>
    mesh = ttnn.open_mesh_device(
RuntimeError: TT_THROW @ /srv/tt-metal/tt_metal/impl/device/firmware/fabric_firmware_initializer.cpp:271: tt::exception
info:
Fabric Router Sync: Timeout after 10000 ms on Device 5: expected status 0xa2b2c2d2.
"""

TT_CORES_DOWN = """\
2026-04-03 11:20:08.118 | critical |          Always | Device 2: Timeout (10000 ms) waiting for physical cores to finish: (x=20,y=25). (assert.hpp:103)
2026-04-03 11:20:08.119 | critical |          Always | Device 2 init: failed to initialize FW! Try resetting the board. (assert.hpp:103)
terminate called after throwing an instance of 'std::runtime_error'
  what():  TT_THROW @ /srv/tt-metal/tt_metal/impl/context/metal_context.cpp:1248: tt::exception
info:
Device 2 init: failed to initialize FW! Try resetting the board.
"""

TT_ETH_CORE_IDLE = """\
Device 1: Timed out while waiting for active ethernet core (x=20,y=25) to become active again. Try resetting the board. Minimum tt-firmware version is 18.10.0
"""

TT_ROUTER_SYNC_DONE = """\
2026-04-02 07:51:21.002 | info     |         Fabric | Fabric Router Sync: all routers on Device 5 reported ready (fabric_firmware_initializer.cpp:240)
2026-04-02 07:51:24.310 | info     |          Always | Device 2: waiting for physical cores to finish firmware init (metal_context.cpp:1190)
"""


def test_tenstorrent_fabric_routers_that_never_finish_the_handshake_are_the_links() -> None:
    diagnosis = diagnose_text("logs/stdout.log", TT_ROUTER_SYNC)
    assert_reads(
        diagnosis,
        "driver_env",
        first_error="Fabric Router Sync: Timeout after 10000 ms",
        rule="env.tt_fabric_router_sync_timeout",
        beside=("hccl", "device_fault"),
    )
    assert "(assert.hpp:104)" in diagnosis.first_error.text


def test_tenstorrent_cores_that_do_not_come_up_are_the_device() -> None:
    diagnosis = diagnose_text("logs/stdout.log", TT_CORES_DOWN)
    assert_reads(
        diagnosis,
        "device_fault",
        first_error="waiting for physical cores to finish",
        rule="dev.tt_cores_not_up",
        beside=("driver_env",),
    )
    diagnosis = diagnose_text("logs/vllm.log", TT_ETH_CORE_IDLE)
    assert_reads(
        diagnosis,
        "device_fault",
        first_error="active ethernet core (x=20,y=25)",
        rule="dev.tt_cores_not_up",
        beside=("driver_env",),
    )


def test_tenstorrent_start_up_notes_are_no_failure() -> None:
    diagnosis = diagnose_text("logs/stdout.log", TT_ROUTER_SYNC_DONE)
    assert "env.tt_fabric_router_sync_timeout" not in rules_of(diagnosis)
    assert "dev.tt_cores_not_up" not in rules_of(diagnosis)


# llama.cpp's ggml on an Apple GPU: ggml's line that a command buffer failed, then Metal's
# reason with its IOGPU code.
METAL_OUT_OF_MEMORY = """\
srv  update_slots: decoding batch, n_tokens = 1024
ggml_metal_graph_compute: command buffer 2 failed with status 5
error: Insufficient Memory (00000008:kIOGPUCommandBufferCallbackErrorOutOfMemory)
graph_compute: ggml_backend_sched_graph_compute_async failed with error -1
llama_decode: failed to decode, ret = -3
"""

METAL_INTERNAL_ERROR = """\
ggml_metal_graph_compute: command buffer 1 failed with status 5
error: Internal Error (0000000e:Internal Error)
clip_image_batch_encode: ggml_backend_sched_graph_compute failed with error -1
"""


def test_metal_out_of_memory_under_a_failed_command_buffer_is_memory() -> None:
    """docs/labelling.md#runtimes-of-other-accelerators: Metal's reason decides."""
    assert_reads(
        diagnose_text("server.log", METAL_OUT_OF_MEMORY),
        "oom",
        first_error="kIOGPUCommandBufferCallbackErrorOutOfMemory",
        rule="oom.metal_command_buffer_out_of_memory",
    )


def test_metal_internal_error_is_the_device_with_memory_beside_it() -> None:
    """docs/labelling.md#runtimes-of-other-accelerators"""
    assert_reads(
        diagnose_text("server.log", METAL_INTERNAL_ERROR),
        "device_fault",
        first_error="Internal Error (0000000e:Internal Error)",
        rule="dev.metal_command_buffer_error",
        beside=("oom",),
    )


def test_a_failed_metal_command_buffer_alone_is_the_first_error() -> None:
    """docs/labelling.md#runtimes-of-other-accelerators: with the reason cut, ggml's line."""
    text = "ggml_metal_graph_compute: command buffer 4 failed with status 5\n"
    assert_reads(
        diagnose_text("server.log", text),
        "device_fault",
        first_error="command buffer 4 failed with status 5",
        rule="dev.metal_command_buffer_failed",
        beside=("oom",),
    )
