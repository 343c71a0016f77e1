"""NCCL failing at start because of the host, and a connection of the wrong type.

docs/labelling.md#a-cuda-feature-the-host-does-not-offer-nccl: a CUDA call inside NCCL that
the runtime answers `operation not supported` is the host's (`driver_env`), ahead of the
`unhandled cuda error` that wraps it; other runtime answers stay with the generic rule.
docs/labelling.md#a-machine-topology-nccl-cannot-read: NCCL unable to read the machine's
topology (a sysfs path, a topology file, a link its path search finds one way only) is
`driver_env` and the first error, not a silent end nor the `internal error` torch wraps it in.
docs/labelling.md#network-links-that-fail-under-a-collective: an accepted connection of
another type than expected is the ranks disagreeing on the exchange, `hccl`; a fatal
asynchronous event of the NIC (port down, adapter or queue-pair error) is the link failing under
the collective, `hccl`, and the first error even when nothing follows it.
docs/labelling.md#config-driver_env-or-weight_load: the NIC refusing to create NCCL's verbs
objects (a queue pair, a completion queue) is the host's RDMA set-up, `driver_env`, before any
peer is involved; moving a queue pair to its peer stays the link's failure.
Values of our own in the real shapes.
"""

from __future__ import annotations

from tests.analyzers.excerpts import alternative_labels, assert_reads, diagnose_text, rules_of

NOT_SUPPORTED = """\
[2025-06-02 10:04:11] node-5:7301:7301 [2] init.cc:431 NCCL WARN Cuda failure 'operation not supported'
node-5:7301:7301 [2] NCCL INFO init.cc:1442 -> 1
node-5:7301:7301 [2] NCCL INFO init.cc:1840 -> 1
[rank2]: Traceback (most recent call last):
[rank2]:   File "/srv/app/serve.py", line 61, in <module>
[rank2]:     dist.barrier()
[rank2]: torch.distributed.DistBackendError: NCCL error in: /pytorch/torch/csrc/distributed/c10d/NCCLUtils.cpp:77, unhandled cuda error (run with NCCL_DEBUG=INFO for details), NCCL version 2.26.5
[rank2]: ncclUnhandledCudaError: Call to CUDA function failed.
[rank2]: Last error:
[rank2]: Cuda failure 'operation not supported'
"""


def test_a_cuda_feature_the_host_refuses_is_the_machine_and_the_first_error() -> None:
    diagnosis = diagnose_text("rank2.log", NOT_SUPPORTED)
    assert diagnosis.category == "driver_env"
    assert diagnosis.first_error is not None
    assert "init.cc:431 NCCL WARN Cuda failure 'operation not supported'" in (
        diagnosis.first_error.text
    )
    assert "env.nccl_cuda_feature_unsupported" in rules_of(diagnosis)
    assert "hccl.nccl_cuda_call_failed" not in rules_of(diagnosis)
    assert "config" in alternative_labels(diagnosis)


def test_another_runtime_answer_inside_nccl_stays_the_collective_layer() -> None:
    text = NOT_SUPPORTED.replace("'operation not supported'", "1 'invalid argument'")
    diagnosis = diagnose_text("rank2.log", text)
    assert diagnosis.category == "hccl"
    assert "env.nccl_cuda_feature_unsupported" not in rules_of(diagnosis)
    assert "hccl.nccl_cuda_call_failed" in rules_of(diagnosis)


def test_nvlink_sharp_refusing_the_feature_keeps_its_own_rule() -> None:
    line = (
        "h200-a:6110:6172 [1] transport/nvls.cc:97 NCCL WARN Cuda failure 801 "
        "'operation not supported'\n"
    )
    diagnosis = diagnose_text("rank1.log", line)
    assert diagnosis.category == "driver_env"
    assert "env.nccl_nvls_setup_failed" in rules_of(diagnosis)


SYSFS_PATH = """\
vm-11:3310:3310 [0] NCCL INFO Bootstrap : Using [0]ens192:10.30.5.14<0>
vm-11:3310:3310 [0] NCCL INFO NET/IB : No device found.
vm-11:3310:3310 [0] NCCL INFO Using network Socket
NCCL version 2.8.4+cuda11.2

vm-11:3310:3377 [0] graph/xml.cc:332 NCCL WARN Could not find real path of /sys/class/pci_bus/0000:13/../../0000:13:00.0
vm-11:3310:3377 [0] NCCL INFO graph/xml.cc:648 -> 2
vm-11:3310:3377 [0] NCCL INFO graph/topo.cc:523 -> 2
vm-11:3310:3377 [0] NCCL INFO init.cc:581 -> 2
vm-11:3310:3377 [0] NCCL INFO group.cc:73 -> 2 [Async thread]
"""


def test_a_gpu_path_nccl_cannot_resolve_is_the_machine_not_a_hang() -> None:
    diagnosis = diagnose_text("train.log", SYSFS_PATH)
    assert_reads(
        diagnosis,
        "driver_env",
        first_error="Could not find real path of /sys/class/pci_bus/0000:13",
        rule="env.nccl_topology_unreadable",
    )


def test_the_topology_failure_outranks_the_exception_that_wraps_it() -> None:
    text = SYSFS_PATH + (
        "Traceback (most recent call last):\n"
        '  File "train.py", line 40, in <module>\n'
        "    model = DDP(model, device_ids=[rank])\n"
        "RuntimeError: NCCL error in: /pytorch/torch/lib/c10d/ProcessGroupNCCL.cpp:825, "
        "unhandled system error, NCCL version 2.8.4\n"
    )
    diagnosis = diagnose_text("train.log", text)
    assert_reads(diagnosis, "driver_env", first_error="Could not find real path")


def test_a_topology_file_missing_an_attribute_is_the_machine() -> None:
    text = (
        "p5-node:4401:4480 [3] graph/xml.h:101 NCCL WARN Attribute vendor of node cpu not found\n"
        "p5-node:4401:4480 [3] NCCL INFO graph/topo.cc:493 -> 3\n"
        "p5-node:4401:4480 [3] NCCL INFO graph/topo.cc:623 -> 3\n"
    )
    diagnosis = diagnose_text("worker3.log", text)
    assert_reads(
        diagnosis,
        "driver_env",
        first_error="Attribute vendor of node cpu not found",
        beside=("config",),
    )


REVERSE_PATH_UNDER_TORCH = """\
  File "/srv/venv/lib/python3.10/site-packages/torch/distributed/distributed_c10d.py", line 2530, in all_gather_into_tensor
    work = default_pg._allgather_base(output_tensor, input_tensor)
torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:1275, internal error, NCCL version 2.14.3
ncclInternalError: Internal check failed.
Last error:
Failed to find reverse path from remNode 0/a1000 nlinks 3 to node 0/3b000
WARNING:torch.distributed.elastic.multiprocessing.api:Sending process 7012 closing signal SIGTERM
ERROR:torch.distributed.elastic.multiprocessing.api:failed (exitcode: 1) local_rank: 0 (pid: 7011) of binary: /srv/venv/bin/python3.10
"""


def test_a_path_nccl_finds_one_way_only_is_the_machine_under_the_torch_headline() -> None:
    diagnosis = diagnose_text("train.log", REVERSE_PATH_UNDER_TORCH)
    assert_reads(
        diagnosis,
        "driver_env",
        first_error="Failed to find reverse path from remNode 0/a1000",
        rule="env.nccl_topology_unreadable",
        beside=("hccl",),
    )


def test_the_old_reverse_path_wording_in_nccls_own_warn_is_the_machine() -> None:
    text = (
        "gpu-07:2210:2290 [2] graph/paths.cc:81 NCCL WARN Failed to find reverse path from "
        "remNode id 5 type 0 nlinks 2 to node id 2 type 1\n"
        "gpu-07:2210:2290 [2] NCCL INFO graph/paths.cc:270 -> 3\n"
        "gpu-07:2210:2290 [2] NCCL INFO init.cc:760 -> 3\n"
    )
    diagnosis = diagnose_text("worker2.log", text)
    assert_reads(diagnosis, "driver_env", first_error="Failed to find reverse path")


def test_a_reverse_path_outside_nccl_is_not_the_topology() -> None:
    text = "route planner: failed to find reverse path from node 4 to the depot\n"
    diagnosis = diagnose_text("planner.log", text)
    assert "env.nccl_topology_unreadable" not in rules_of(diagnosis)


def test_nccl_naming_its_topology_file_is_no_failure() -> None:
    text = (
        "vm-11:3310:3377 [1] NCCL INFO NCCL_TOPO_FILE set by environment to /opt/topo/node.xml\n"
        "vm-11:3310:3377 [1] NCCL INFO graph/xml.cc:648 -> 2\n"
    )
    diagnosis = diagnose_text("train.log", text)
    assert "env.nccl_topology_unreadable" not in rules_of(diagnosis)


WRONG_TYPE = """\
node-a:40211:40255 [0] NCCL INFO Channel 01/0 : 9[1] -> 0[0] [receive] via NET/Socket/0
node-b:61302:61340 [2] NCCL INFO Channel 00/0 : 10[2] -> 11[3] via P2P/IPC/read

node-a:40211:40290 [0] misc/socket.cc:441 NCCL WARN socketFinalizeAccept: wrong type 3 != 4
node-a:40211:40290 [0] NCCL INFO misc/socket.cc:561 -> 3
node-a:40211:40290 [0] NCCL INFO transport/net_socket.cc:378 -> 3
node-a: Test NCCL failure common.cu:1005 'internal error - please report this issue to the NCCL developers / '
"""


def test_a_connection_of_another_type_is_the_exchange_the_ranks_disagree_on() -> None:
    diagnosis = diagnose_text("all_reduce_perf.log", WRONG_TYPE)
    assert_reads(
        diagnosis,
        "hccl",
        first_error="socketFinalizeAccept: wrong type 3 != 4",
        rule="hccl.nccl_socket_type_mismatch",
        beside=("driver_env",),
    )


def test_the_accept_path_returning_an_error_code_is_no_type_mismatch() -> None:
    text = "\n".join(line for line in WRONG_TYPE.splitlines() if "NCCL INFO" in line)
    diagnosis = diagnose_text("all_reduce_perf.log", text + "\n")
    assert "hccl.nccl_socket_type_mismatch" not in rules_of(diagnosis)


PORT_DOWN = """\
step 4112 | loss 2.0817 | 6120.4 ms
cn-4:8112:8170 [0] transport/net_ib.cc:93 NCCL WARN NET/IB : Got async event : port error

cn-4:8113:8181 [1] transport/net_ib.cc:93 NCCL WARN NET/IB : Got async event : port error
"""


def test_a_port_that_went_down_is_the_collective_network_and_the_first_error() -> None:
    diagnosis = diagnose_text("node4.out", PORT_DOWN)
    assert diagnosis.category == "hccl"
    assert diagnosis.first_error is not None
    assert "[0] transport/net_ib.cc:93 NCCL WARN NET/IB : Got async event : port error" in (
        diagnosis.first_error.text
    )
    assert "hccl.nccl_ib_async_event" in rules_of(diagnosis)
    assert "driver_env" in alternative_labels(diagnosis)


def test_a_queue_pair_fatal_event_comes_before_the_completions_it_breaks() -> None:
    text = (
        "cn-4:8112:8201 [5] transport/net_ib.cc:154 NCCL WARN NET/IB : mlx5_6:1 async fatal "
        "event on QP (0x7f20c4a1b0d8): local access violation work queue error\n"
        "cn-4:8112:8230 [5] transport/net_ib.cc:2451 NCCL WARN NET/IB: Got completion from peer "
        "10.12.0.9<40117> with status=4 opcode=0 len=0 vendor err 83 (Send) hca mlx5_6\n"
    )
    diagnosis = diagnose_text("node4.out", text)
    assert_reads(diagnosis, "hccl", first_error="async fatal event on QP")


# Newer NCCL releases print every NIC event under one wording, `Got async error event:`, with
# the port's name before it; the failed port reads as the older `Got async event`, and a port
# that came back (`port active`) under the same wording is still no failure.
PORT_FLAP_NEW_WORDING = """\
[2026-03-02 09:12:40] prefill-3:411:502 [0] transport/net_ib.cc:199 NCCL WARN NET/IB : mlx5_12:1 Got async error event: port error
[2026-03-02 09:12:47] prefill-3:411:502 [0] transport/net_ib.cc:199 NCCL WARN NET/IB : mlx5_12:1 Got async error event: port active
 WorkerProc hit an exception.
"""


def test_a_port_error_in_the_newer_event_wording_is_the_network_and_the_first_error() -> None:
    diagnosis = diagnose_text("prefill-3.log", PORT_FLAP_NEW_WORDING)
    assert_reads(
        diagnosis,
        "hccl",
        first_error="mlx5_12:1 Got async error event: port error",
        rule="hccl.nccl_ib_async_event",
        beside=["driver_env"],
    )


def test_a_port_that_came_back_in_the_newer_wording_is_no_failure() -> None:
    text = (
        "prefill-3:411:502 [0] transport/net_ib.cc:199 NCCL WARN NET/IB : mlx5_12:1 Got async "
        "error event: port active\n"
    )
    diagnosis = diagnose_text("prefill-3.log", text)
    assert "hccl.nccl_ib_async_event" not in rules_of(diagnosis)


def test_an_informational_nic_event_is_no_failure() -> None:
    text = (
        "cn-4:8112:8170 [0] transport/net_ib.cc:93 NCCL WARN NET/IB : Got async event : "
        "port active\n"
        "cn-4:8112:8170 [0] transport/net_ib.cc:101 NCCL WARN NET/IB : mlx5_3:1 Got async "
        "event : GID table change\n"
    )
    diagnosis = diagnose_text("node4.out", text)
    assert "hccl.nccl_ib_async_event" not in rules_of(diagnosis)


QP_CREATE_OLD = """\
node-a:4410:4502 [0] NCCL INFO NET/IB : Using [0]mlx5_0:1/IB ; OOB ib0:10.9.0.11<0>
node-a:4410:4502 [0] NCCL INFO Using network IB
NCCL version 2.7.8+cuda11.1

node-a:4410:4561 [0] misc/ibvwrap.cc:280 NCCL WARN Call to ibv_create_qp failed
node-a:4410:4561 [0] NCCL INFO transport/net_ib.cc:371 -> 2
node-a:4410:4561 [0] NCCL INFO transport/net_ib.cc:449 -> 2
node-a:4410:4561 [0] NCCL INFO init.cc:300 -> 2
node-a:4410:4561 [0] NCCL INFO group.cc:73 -> 2 [Async thread]
RuntimeError: NCCL error in: /opt/pytorch/torch/lib/c10d/ProcessGroupNCCL.cpp:825, unhandled system error, NCCL version 2.7.8
"""

CQ_CREATE = """\
rdma-2:2210:2301 [0] NCCL INFO NET/IB : Using [0]mlx5_1:1/RoCE ; OOB eth2:10.40.7.2<0>
rdma-2:2210:2301 [0] NCCL INFO Channel 00 : 1[3000] -> 0[3000] [receive] via NET/IB/0

rdma-2:2210:2301 [0] misc/ibvwrap.cc:268 NCCL WARN Call to ibv_create_cq failed
"""


def test_a_queue_pair_the_nic_will_not_create_is_the_host_setup() -> None:
    diagnosis = diagnose_text("rank0.log", QP_CREATE_OLD)
    assert_reads(
        diagnosis,
        "driver_env",
        first_error="Call to ibv_create_qp failed",
        rule="env.ib_verbs_object_creation",
        beside=("hccl",),
    )


def test_a_completion_queue_refused_alone_is_the_host_setup_and_the_first_error() -> None:
    diagnosis = diagnose_text("node1.log", CQ_CREATE)
    assert_reads(diagnosis, "driver_env", first_error="Call to ibv_create_cq failed")


def test_a_queue_pair_that_cannot_reach_its_peer_stays_the_link() -> None:
    text = CQ_CREATE.replace(
        "Call to ibv_create_cq failed",
        "Call to ibv_modify_qp failed with error Connection timed out",
    )
    diagnosis = diagnose_text("node1.log", text)
    assert diagnosis.category == "hccl"
    assert "env.ib_verbs_object_creation" not in rules_of(diagnosis)


# A multi-node start in containers: the graph search falls back, then the topology lookup of a
# network device by its id fails and torch wraps it as an internal error.
NET_ID_LOOKUP = """\
dgx-a7:30114:30290 [2] graph/search.cc:1135 NCCL WARN Could not find a path for pattern 4, falling back to simple order
dgx-a7:30114:30290 [2] graph/topo.h:230 NCCL WARN Could not find NET with id 1
dgx-a7:30114:30290 [2] NCCL INFO graph/search.cc:1041 -> 3
[rank2]: torch.distributed.DistBackendError: NCCL error in: /opt/pytorch/torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:3376, internal error - please report this issue to the NCCL developers, NCCL version 2.25.1
"""


def test_a_network_device_the_topology_does_not_hold_is_the_machine_and_the_first_error() -> None:
    diagnosis = diagnose_text("train.log", NET_ID_LOOKUP)
    assert_reads(
        diagnosis,
        "driver_env",
        first_error="Could not find NET with id 1",
        rule="env.nccl_topology_unreadable",
        beside=("hccl",),
    )


def test_a_device_id_missing_from_an_inventory_is_not_the_topology() -> None:
    text = "inventory: could not find GPU with id 7 in the reservation list\n"
    diagnosis = diagnose_text("planner.log", text)
    assert "env.nccl_topology_unreadable" not in rules_of(diagnosis)


# docs/labelling.md#a-machine-topology-nccl-cannot-read: a channel graph handed to NCCL in an
# XML file (NCCL_GRAPH_FILE, often set by an image's nccl.conf for another machine size) that
# names a GPU or NIC this host does not have is the same host-view failure as a topology file
# that does not fit: `driver_env`, with `config` (the setting that injects the file) beside it.
GRAPH_FILE_FOR_ANOTHER_SIZE = """\
vm-a100-2:5110:5230 [0] NCCL INFO NCCL_GRAPH_FILE set by environment to /etc/nccl/graph-8gpu.xml
vm-a100-2:5110:5230 [0] graph/search.cc:703 NCCL WARN XML Import Channel : dev 3 not found.
vm-a100-2:5110:5230 [0] NCCL INFO graph/search.cc:733 -> 2
vm-a100-2:5110:5230 [0] NCCL INFO graph/search.cc:840 -> 2
"""


def test_a_channel_graph_naming_a_device_the_host_lacks_is_the_machine() -> None:
    diagnosis = diagnose_text("worker0.log", GRAPH_FILE_FOR_ANOTHER_SIZE)
    assert_reads(
        diagnosis,
        "driver_env",
        first_error="XML Import Channel : dev 3 not found",
        rule="env.nccl_topology_unreadable",
        beside=("config",),
    )


def test_nccl_naming_its_graph_file_is_no_failure() -> None:
    text = GRAPH_FILE_FOR_ANOTHER_SIZE.splitlines()[0] + "\n"
    diagnosis = diagnose_text("worker0.log", text)
    assert "env.nccl_topology_unreadable" not in rules_of(diagnosis)
