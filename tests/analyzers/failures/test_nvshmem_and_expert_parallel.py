"""NVSHMEM's start-up and the expert-parallel kernels that run on it.

docs/labelling.md: NVSHMEM's own queue-pair set-up failing is a network link that failed
(hccl, driver_env beside it); its GPU-direct transport that cannot start at all is the host's
set-up (driver_env); its symmetric heap refused by the driver for memory is oom, and the CUDA
errors that follow without a heap are its cascade; DeepEP's kernel timeouts are collective
timeouts (hccl), symptoms that yield to an earlier line saying why. Fixtures are written in
these libraries' formats with our own values.
"""

from __future__ import annotations

from tests.analyzers.excerpts import alternative_labels, assert_reads, diagnose_text, rules_of

HEAP_REFUSED = """\
/opt/nvshmem/src/host/mem/mem_heap.cpp:1488: non-zero status: 2 cuMemCreate failed

/opt/nvshmem/src/host/mem/mem_heap.cpp:1571: non-zero status: 7 allocate_physical_memory_to_heap failed

[/opt/nvshmem/src/host/coll/barrier/barrier.cpp:24] cuda failed with an illegal memory access was encountered
[/opt/nvshmem/src/host/coll/barrier/barrier.cpp:24] cuda failed with an illegal memory access was encountered
"""

QUEUE_PAIR_THEN_TIMEOUTS = """\
Allocating buffer size: 1830.5 MB ...
/opt/nvshmem/src/modules/transport/ibrc/ibrc.cpp:420: non-zero status: 110 ibv_modify_qp failed
/opt/nvshmem/src/modules/transport/ibrc/ibrc.cpp:1440: non-zero status: 7 ep_connect failed
DeepEP timeout check failed: rank = 3, thread = 0)
DeepEP dispatch NVL receiver timeout, channel: 2, RDMA: 0, nvl: 3, src RDMA: 1, src nvl: 0, start: 0, end: 0
"""

TIMEOUTS_ALONE = """\
[testing] Running with FP8, with top-k (async=True, previous=False) ... passed
[testing] Running with BF16, without top-k (async=False, previous=True) ...
DeepEP RDMA sender coordinator timeout, channel: 6, IB: 1, nvl 2, dst IB: 0, tail: 130, remaining: 4
DeepEP timeout check failed: rank = 9, thread = 0)
"""

TRANSPORT_NOT_STARTED = """\
WARN: device mlx5_0 cannot allocate buffer on the specified memory type. Skipping...

WARN: device mlx5_1 cannot allocate buffer on the specified memory type. Skipping...

/opt/nvshmem/src/host/transport/transport.cpp:nvshmemi_transport_init:281: init failed for transport: IBGDA
"""

HEAP_HANDLES_NOT_EXCHANGED = """\
WORLD_SIZE=2 RANK=1 MASTER_ADDR=10.30.0.5 python3 tests/test_internode.py
IPC failure: Sending data over socket failed: Connection refused
/opt/nvshmem/src/host/mem/mem_heap.cpp:exchange_heap_memory_handle:781: Fatal IPC Failure
"""

IPC_NOTE_BESIDE_A_BUFFER_CHECK = """\
NVSHMEM INFO IPC handles exchanged with 7 local peers
[rank3]: RuntimeError: Failed: Assertion error /opt/DeepEP/csrc/deep_ep.cpp:1190 'x.size(0) == topk_idx.size(0) and x.size(0) <= num_max_dispatch_tokens_per_rank'
"""

BARE_FINGERPRINT_MISMATCH = """\
Exception has occurred: RuntimeError
Detected mismatch between collectives on ranks. Rank 3 is running collective: CollectiveFingerPrint(SequenceNumber=17, OpType=ALLREDUCE, TensorShape=[1024], TensorDtypes=Float), but Rank 0 is running collective: CollectiveFingerPrint(SequenceNumber=17, OpType=ALLREDUCE, TensorShape=[512], TensorDtypes=Float).
"""


def test_a_heap_the_driver_refused_for_memory_is_oom_before_the_barriers_cuda_errors() -> None:
    diagnosis = diagnose_text("node1.log", HEAP_REFUSED)
    assert_reads(diagnosis, "oom", first_error="cuMemCreate failed")


def test_kernel_timeouts_yield_to_the_queue_pair_that_never_connected() -> None:
    diagnosis = diagnose_text("test_low_latency.log", QUEUE_PAIR_THEN_TIMEOUTS)
    assert_reads(diagnosis, "hccl", first_error="ibv_modify_qp failed")
    assert any(alt.category == "driver_env" for alt in diagnosis.alternatives)


def test_kernel_timeouts_alone_are_a_collective_timeout() -> None:
    diagnosis = diagnose_text("node0.log", TIMEOUTS_ALONE)
    assert_reads(diagnosis, "hccl", first_error="RDMA sender coordinator timeout")


def test_a_gpu_direct_transport_that_does_not_start_is_the_host() -> None:
    diagnosis = diagnose_text("test_low_latency.log", TRANSPORT_NOT_STARTED)
    assert_reads(diagnosis, "driver_env", first_error="init failed for transport: IBGDA")


def test_a_fingerprint_mismatch_printed_without_its_class_is_read() -> None:
    """A debugger prints the exception's class on one line and its message on the next; the
    message is the error, and the header that names only the class is not."""
    diagnosis = diagnose_text("train.log", BARE_FINGERPRINT_MISMATCH)
    assert_reads(diagnosis, "hccl", first_error="Detected mismatch between collectives")


# docs/labelling.md#expert-parallel-library-checks-before-the-kernels
RANK_LAYOUT_REFUSED = """\
Traceback (most recent call last):
  File "/opt/ep/tests/test_internode.py", line 241, in test_loop
    buffer = deep_ep.Buffer(group, int(2e9), int(1e9), low_latency_mode=False)
  File "/opt/ep/deep_ep/buffer.py", line 88, in __init__
    self.runtime = deep_ep_cpp.Buffer(self.rank, self.group_size, num_nvl_bytes, num_rdma_bytes, low_latency_mode)
RuntimeError: Failed: Assertion error /opt/ep/csrc/deep_ep.cpp:47 'num_ranks > NUM_MAX_NVL_PEERS or low_latency_mode'
"""

NODE_COUNT_REFUSED = """\
-- Process 2 terminated with the following error:
Traceback (most recent call last):
  File "/usr/lib/python3.11/site-packages/torch/multiprocessing/spawn.py", line 90, in _wrap
    fn(i, *args)
  File "/opt/ep/deep_ep/buffer.py", line 430, in internode_dispatch
    recv_src_meta, send_rdma_head, send_nvl_head, event = self.runtime.internode_dispatch(
RuntimeError: Failed: Assertion error /opt/ep/csrc/kernels/internode.cu:340 'false and "Unsupported RDMA ranks"'
"""

TOKENS_OVER_BUFFER = """\
[2026-02-03 08:14:55 DP3 TP3] Scheduler hit an exception: Traceback (most recent call last):
  File "/srv/sglang/python/sglang/srt/layers/moe/token_dispatcher/deepep.py", line 512, in _dispatch_core
    self.buffer.low_latency_dispatch(
RuntimeError: Failed: Assertion error /build/ep/csrc/deep_ep.cpp:1190 'x.size(0) == topk_idx.size(0) and x.size(0) <= num_max_dispatch_tokens_per_rank'
"""

CHUNKS_OVER_BUFFER = """\
[tuning] SMs 24, NVL chunk 2, RDMA chunk 16: 31.02 GB/s (RDMA), 60.11 GB/s (NVL)
torch.multiprocessing.spawn.ProcessRaisedException: 

-- Process 3 terminated with the following error:
Traceback (most recent call last):
  File "/opt/ep/deep_ep/buffer.py", line 420, in internode_combine
    combined_x, combined_topk_weights, event = self.runtime.internode_combine(
RuntimeError: Failed: Assertion error /opt/ep/csrc/kernels/internode.cu:1688 'num_max_nvl_chunked_recv_tokens / num_rdma_ranks > std::max(num_max_rdma_chunked_send_tokens, num_max_nvl_chunked_send_tokens)'
"""

TENSOR_CONDITION = """\
RuntimeError: Failed: Assertion error /opt/ep/csrc/deep_ep.cpp:301 'x.dim() == 2 and x.is_contiguous()'
"""


def test_a_rank_layout_the_ep_library_does_not_build_for_is_its_limit() -> None:
    for text in (RANK_LAYOUT_REFUSED, NODE_COUNT_REFUSED):
        diagnosis = diagnose_text("node0.log", text)
        assert_reads(diagnosis, "op_constraint", first_error="Assertion error")
        assert any(alt.category == "config" for alt in diagnosis.alternatives)


def test_a_dispatch_over_the_buffer_it_was_sized_for_is_a_collective_buffer() -> None:
    for text, words in (
        (TOKENS_OVER_BUFFER, "num_max_dispatch_tokens_per_rank"),
        (CHUNKS_OVER_BUFFER, "num_max_nvl_chunked_recv_tokens"),
    ):
        diagnosis = diagnose_text("worker.log", text)
        assert_reads(diagnosis, "hccl", first_error=words)
        assert any(alt.category == "config" for alt in diagnosis.alternatives)


def test_an_assertion_on_the_calls_own_tensor_is_not_read_as_a_limit() -> None:
    diagnosis = diagnose_text("worker.log", TENSOR_CONDITION)
    assert diagnosis.category not in ("op_constraint", "hccl")


# docs/labelling.md#expert-parallel-kernels-that-time-out
COUNT_DUMP_ALONE = """\
[testing] Running with BF16, with top-k (async=False, previous=False) ...Global rank: 5, num_recv_tokens: -1, num_rdma_recv_tokens: -1
moe_recv_expert_counter[0]: -1
moe_recv_expert_counter[1]: -1
Global rank: 7, num_recv_tokens: -1, num_rdma_recv_tokens: -1
moe_recv_expert_counter[0]: -1
"""

QUEUE_PAIR_THEN_COUNT_DUMP = """\
/opt/nvshmem/src/modules/transport/ibrc/ibrc.cpp:420: non-zero status: 110 ibv_modify_qp failed
Global rank: 5, num_recv_tokens: -1, num_rdma_recv_tokens: -1
moe_recv_expert_counter[0]: -1
"""

RECEIVE_CHECK = """\
Allocating buffer size: 1830.5 MB ...
Assertion failed: /opt/ep/csrc/kernels/internode_ll.cu:305, condition: num_recv_tokens != 0
Assertion failed: /opt/ep/csrc/kernels/internode_ll.cu:305, condition: num_recv_tokens != 0
"""

FINISHED_COUNTS = """\
[rank 3] dispatch done, num_recv_tokens: 4096
[rank 3] Dispatch + combine bandwidth: 41.20 GB/s, avg_t=120.51 us
"""


def test_the_dispatch_count_dump_is_the_host_side_timeout() -> None:
    diagnosis = diagnose_text("node1.log", COUNT_DUMP_ALONE)
    assert_reads(diagnosis, "hccl", first_error="Global rank: 5, num_recv_tokens: -1")


def test_the_count_dump_yields_to_the_link_that_never_came_up() -> None:
    diagnosis = diagnose_text("node1.log", QUEUE_PAIR_THEN_COUNT_DUMP)
    assert diagnosis.first_error is not None
    assert "ibv_modify_qp failed" in diagnosis.first_error.text


def test_a_missing_peer_count_checked_on_the_device_is_the_exchange() -> None:
    diagnosis = diagnose_text("node0.log", RECEIVE_CHECK)
    assert_reads(diagnosis, "hccl", first_error="num_recv_tokens != 0")
    assert any(alt.category == "device_fault" for alt in diagnosis.alternatives)


def test_counts_printed_after_a_dispatch_that_finished_are_no_error() -> None:
    diagnosis = diagnose_text("node0.log", FINISHED_COUNTS)
    assert diagnosis.first_error is None


# docs/labelling.md#network-links-that-fail-under-a-collective
BOOTSTRAP_TRUNCATED = """\
Allocating buffer size: 1830.5 MB ...
/opt/nvshmem_src/src/modules/bootstrap/uid/bootstrap_uid.cpp:bootstrap_net_recv:99: Message truncated : received 24 bytes instead of 1

/opt/nvshmem_src/src/modules/bootstrap/uid/bootstrap_uid.cpp:499: non-zero status: -3 /opt/nvshmem_src/src/host/topo/topo.cpp:530: non-zero status: -3 allgather of ipc handles failed

/opt/nvshmem_src/src/host/team/team.cu:nvshmem_team_split_strided:63: NVSHMEM API called before NVSHMEM initialization has completed
"""

USED_BEFORE_INIT_ALONE = """\
Allocating buffer size: 1830.5 MB ...
/opt/nvshmem_src/src/host/team/team.cu:nvshmem_team_split_strided:63: NVSHMEM API called before NVSHMEM initialization has completed
"""

BOOTSTRAP_NOTICE = """\
node-3:5120:5230 [2] NCCL INFO Bootstrap : Using eth0:10.1.2.3<0>
WARNING: log message truncated to 4096 bytes
"""


def test_a_bootstrap_message_of_another_size_is_the_ranks_disagreeing() -> None:
    diagnosis = diagnose_text("node1.log", BOOTSTRAP_TRUNCATED)
    assert_reads(diagnosis, "hccl", first_error="Message truncated")
    assert any(alt.category == "driver_env" for alt in diagnosis.alternatives)


def test_nvshmem_used_before_its_start_is_read_when_it_is_all_there_is() -> None:
    diagnosis = diagnose_text("node1.log", USED_BEFORE_INIT_ALONE)
    assert_reads(diagnosis, "hccl", first_error="API called before")


def test_a_bootstrap_notice_and_a_truncated_log_message_are_no_error() -> None:
    diagnosis = diagnose_text("node1.log", BOOTSTRAP_NOTICE)
    assert diagnosis.category != "hccl"


# docs/labelling.md#a-gpu-direct-transport-that-does-not-start
TOPOLOGY_NOT_READ = """\
prefill-2 vllm /opt/nvshmem_src/src/host/init/init.cu:1029: non-zero status: 28 nvshmem detect topo failed 
prefill-2 vllm 
prefill-2 vllm /opt/nvshmem_src/src/host/init/init.cu:1029: non-zero status: 28 nvshmem detect topo failed 
prefill-2 vllm (APIServer pid=1) Traceback (most recent call last):
prefill-2 vllm (APIServer pid=1)   File "/opt/vllm/bin/vllm", line 10, in <module>
"""


def test_nvshmem_that_cannot_read_the_topology_is_the_host() -> None:
    diagnosis = diagnose_text("prefill.log", TOPOLOGY_NOT_READ)
    assert_reads(diagnosis, "driver_env", first_error="detect topo failed")
    assert any(alt.category == "hccl" for alt in diagnosis.alternatives)


PEER_UNREACHABLE = """\
2026-03-02 11:20:05.104211873  [s2]: /build/nvshmem/src/host/topo/topo.cpp:472: [GPU 2] Peer GPU 9 is not accessible, exiting ... 
2026-03-02 11:20:05.104219002  [s2]: /build/nvshmem/src/host/init/init.cu:1038: non-zero status: 3 building transport map failed 
2026-03-02 11:20:05.104990345  [s2]: 
2026-03-02 11:20:05.131870114  [s2]: /build/nvshmem/src/host/init/init.cu:nvshmemi_check_state_and_init:1120: nvshmem initialization failed, exiting 
2026-03-02 11:20:05.134507720  [s2]: /build/nvshmem/src/host/util/cs.cpp:21: non-zero status: 16: Device or resource busy, exiting... mutex destroy failed 
2026-03-02 11:20:05.139112458  [s2]: /build/nvshmem/src/host/topo/topo.cpp:472: [GPU 5] Peer GPU 9 is not accessible, exiting ... 
2026-03-02 11:20:05.139114931  [s2]: /build/nvshmem/src/host/init/init.cu:1038: non-zero status: 3 building transport map failed 
"""


def test_a_peer_no_transport_reaches_is_the_host() -> None:
    # docs/labelling.md#a-gpu-direct-transport-that-does-not-start
    diagnosis = diagnose_text("node0.log", PEER_UNREACHABLE)
    assert_reads(diagnosis, "driver_env", first_error="[GPU 2] Peer GPU 9 is not accessible")
    assert {"hccl", "config"} <= {alt.category for alt in diagnosis.alternatives}


def test_nvshmem_giving_up_is_read_when_it_is_all_there_is() -> None:
    text = (
        "/build/nvshmem/src/host/init/init.cu:1038: non-zero status: 3 building transport map failed \n"
        "/build/nvshmem/src/host/init/init.cu:nvshmemi_check_state_and_init:1120: "
        "nvshmem initialization failed, exiting \n"
    )
    diagnosis = diagnose_text("node0.log", text)
    assert_reads(diagnosis, "driver_env", first_error="building transport map failed")


TIMEOUT_THEN_TRAP = """\
DeepEP dispatch NVL receiver timeout, channel: 3, RDMA: 1, nvl: 5, src RDMA: 0, src nvl: 2, start: 0, end: 0
DeepEP dispatch forwarder timeout (RDMA meta), channel: 1, RDMA: 1, nvl: 5, src RDMA lane: 0, dst NVL: 6, meta: 0, 0, 0, 0

terminate called after throwing an instance of 'c10::Error'
  what():  CUDA error: unspecified launch failure
CUDA kernel errors might be asynchronously reported at some other API call, so the stacktrace below might be incorrect.
"""

TRAP_ALONE = """\
[testing] Running with BF16, with top-k (async=False, previous=False) ...
terminate called after throwing an instance of 'c10::Error'
  what():  CUDA error: unspecified launch failure
CUDA kernel errors might be asynchronously reported at some other API call, so the stacktrace below might be incorrect.
"""

ENDPOINT_REFUSED_BESIDE_CRASHES = """\
python3 tests/test_internode.py
[gpu-n4:40211:0:40211] Caught signal 11 (Segmentation fault: address not mapped to object at address 0x48)
/opt/nvshmem/src/modules/transport/ibrc/ibrc.cpp:298: NULL value cq creation failed

/opt/nvshmem/src/modules/transport/ibrc/ibrc.cpp:1388: non-zero status: 7 ep_create failed

[gpu-n4:40213:0:40213] Caught signal 11 (Segmentation fault: address not mapped to object at address 0x10)
"""

CRASHES_ALONE = """\
python3 tests/test_internode.py
[gpu-n4:40211:0:40211] Caught signal 11 (Segmentation fault: address not mapped to object at address 0x48)
[gpu-n4:40213:0:40213] Caught signal 11 (Segmentation fault: address not mapped to object at address 0x10)
"""


def test_the_device_stop_after_a_kernel_timeout_is_the_timeouts_cascade() -> None:
    diagnosis = diagnose_text("test_internode.log", TIMEOUT_THEN_TRAP)
    assert_reads(diagnosis, "hccl", first_error="NVL receiver timeout")


def test_the_device_stop_without_a_timeout_stays_a_device_failure() -> None:
    diagnosis = diagnose_text("test_internode.log", TRAP_ALONE)
    assert_reads(diagnosis, "device_fault", first_error="unspecified launch failure")


def test_an_endpoint_the_nic_refused_outranks_the_crashes_printed_beside_it() -> None:
    diagnosis = diagnose_text("test_internode.log", ENDPOINT_REFUSED_BESIDE_CRASHES)
    assert_reads(diagnosis, "driver_env", first_error="cq creation failed")
    assert any(alt.category == "hccl" for alt in diagnosis.alternatives)


def test_crash_banners_alone_stay_a_crash() -> None:
    diagnosis = diagnose_text("test_internode.log", CRASHES_ALONE)
    assert_reads(diagnosis, "device_fault", first_error="Caught signal 11")


def test_heap_handles_not_exchanged_between_local_processes_is_the_collective_set_up() -> None:
    diagnosis = diagnose_text("test_internode_rank1.log", HEAP_HANDLES_NOT_EXCHANGED)
    assert_reads(diagnosis, "hccl", first_error="IPC failure: Sending data over socket failed")
    assert any(alt.category == "driver_env" for alt in diagnosis.alternatives)


def test_an_ipc_note_leaves_the_buffer_check_its_own_reading() -> None:
    diagnosis = diagnose_text("node0.log", IPC_NOTE_BESIDE_A_BUFFER_CHECK)
    assert diagnosis.first_error is not None
    assert "num_max_dispatch_tokens_per_rank" in diagnosis.first_error.text


# docs/labelling.md#expert-parallel-kernels-that-time-out
HOST_RECV_TIMEOUT = """\
[2025-03-02 04:05:06 TP2 EP2] Scheduler hit an exception: Traceback (most recent call last):
  File "/srv/engine/python/engine/srt/managers/scheduler.py", line 2201, in run_scheduler_process
    scheduler.event_loop_overlap()
  File "/srv/engine/python/engine/srt/layers/moe/token_dispatcher/deepep.py", line 351, in _dispatch_core
    ) = buffer.dispatch(
  File "/usr/lib/python3/site-packages/deep_ep/buffer.py", line 318, in dispatch
    self.runtime.intranode_dispatch(
RuntimeError: DeepEP error: CPU recv timeout
[2025-03-02 04:05:07] Received sigquit from a child process. It usually means the child failed.
"""

HOST_TIMEOUT_SETTING_REFUSED = """\
[2025-03-02 04:05:06 TP2 EP2] Scheduler hit an exception: Traceback (most recent call last):
  File "/usr/lib/python3/site-packages/deep_ep/buffer.py", line 96, in __init__
    self.runtime = deep_ep_cpp.Buffer(self.rank, self.group_size, num_nvl_bytes, num_rdma_bytes)
RuntimeError: DeepEP error: invalid timeout value -1
"""


def test_the_host_side_receive_timeout_in_its_other_word_order_is_a_collective_timeout() -> None:
    diagnosis = diagnose_text("node0.log", HOST_RECV_TIMEOUT)
    assert_reads(diagnosis, "hccl", first_error="DeepEP error: CPU recv timeout")
    assert any(alt.category == "hang" for alt in diagnosis.alternatives)


def test_a_refused_timeout_setting_is_no_timeout() -> None:
    diagnosis = diagnose_text("node0.log", HOST_TIMEOUT_SETTING_REFUSED)
    assert diagnosis.category != "hccl"


# docs/labelling.md#network-links-that-fail-under-a-collective
# Several processes of one node print into one paste: one of them prints its failed all-gather
# and the start giving up before another prints the size mismatch that explains them.
BOOTSTRAP_TRUNCATED_PRINTED_LAST = """\
/opt/nvshmem/src/modules/bootstrap/uid/bootstrap_uid.cpp:92: non-zero status: -6 /opt/nvshmem/src/host/topo/topo.cpp:481: non-zero status: -6 allgather of ipc handles failed

/opt/nvshmem/src/host/init/init.cu:1002: non-zero status: 7 building transport map failed

/opt/nvshmem/src/host/init/init.cu:nvshmemi_check_state_and_init:1084: nvshmem initialization failed, exiting

/opt/nvshmem/src/modules/bootstrap/uid/bootstrap_uid.cpp:bootstrap_net_recv:101: Message truncated : received 40 bytes instead of 4
"""

BOOTSTRAP_ALLGATHER_ALONE = """\
/opt/nvshmem/src/modules/bootstrap/uid/bootstrap_uid.cpp:92: non-zero status: -6 /opt/nvshmem/src/host/topo/topo.cpp:481: non-zero status: -6 allgather of ipc handles failed

/opt/nvshmem/src/host/init/init.cu:nvshmemi_check_state_and_init:1084: nvshmem initialization failed, exiting
"""


def test_a_size_mismatch_printed_after_another_processs_cascade_is_still_first() -> None:
    diagnosis = diagnose_text("node0.log", BOOTSTRAP_TRUNCATED_PRINTED_LAST)
    assert_reads(diagnosis, "hccl", first_error="Message truncated", beside=["driver_env"])


def test_a_failed_allgather_alone_still_says_the_bootstrap_failed() -> None:
    diagnosis = diagnose_text("node0.log", BOOTSTRAP_ALLGATHER_ALONE)
    assert_reads(diagnosis, "hccl", first_error="allgather of ipc handles failed")


# docs/labelling.md#network-links-that-fail-under-a-collective
# IBGDA's connect step for a peer: the address handle to the peer's port, then the shared
# DC target it could not set up, then the endpoint connect that gave up.
ADDRESS_HANDLE_REFUSED = """\
/opt/nvshmem/src/modules/transport/ibgda/ibgda.cpp:2240: NULL value Unable to create ah.

/opt/nvshmem/src/modules/transport/ibgda/ibgda.cpp:2971: non-zero status: 7 create DCT share err.
/opt/nvshmem/src/host/transport/transport.cpp:421: non-zero status: 7 connect EPS failed
"""

ADDRESS_HANDLE_NOTE = """\
/opt/nvshmem/src/modules/transport/ibgda/ibgda.cpp:2240: NVSHMEM INFO created ah for peer 3 on mlx5_1
"""


def test_an_address_handle_ibgda_cannot_create_leads_the_connect_steps() -> None:
    diagnosis = diagnose_text("node0.log", ADDRESS_HANDLE_REFUSED)
    assert_reads(
        diagnosis,
        "hccl",
        first_error="Unable to create ah",
        rule="hccl.nvshmem_connect_failed",
        beside=["driver_env"],
    )


def test_an_address_handle_that_was_created_is_no_failure() -> None:
    diagnosis = diagnose_text("node0.log", ADDRESS_HANDLE_NOTE)
    assert diagnosis.first_error is None


# docs/labelling.md#communication-resources-refused-for-want-of-memory
# The heap's physical memory refused with a driver answer that is not the out-of-memory one
# (101: the device the call named is not one the driver will make that memory on).
HEAP_REFUSED_NOT_MEMORY = """\
/opt/nvshmem/src/host/mem/mem_heap.cpp:1512: non-zero status: 101 cuMemCreate failed

/opt/nvshmem/src/host/mem/mem_heap.cpp:1593: non-zero status: 7 allocate_physical_memory_to_heap failed

/opt/nvshmem/src/host/init/init.cu:nvshmemi_check_state_and_init:1084: nvshmem initialization failed, exiting
"""


def test_a_heap_refused_with_another_driver_answer_is_the_host_not_memory() -> None:
    diagnosis = diagnose_text("node0.log", HEAP_REFUSED_NOT_MEMORY)
    assert_reads(
        diagnosis,
        "driver_env",
        first_error="101 cuMemCreate failed",
        rule="env.nvshmem_heap_create_refused",
        beside=["config"],
    )
    assert diagnosis.category != "oom"


def test_a_heap_refused_for_memory_stays_a_shortage() -> None:
    text = HEAP_REFUSED_NOT_MEMORY.replace("status: 101 cuMemCreate", "status: 2 cuMemCreate")
    diagnosis = diagnose_text("node0.log", text)
    assert_reads(diagnosis, "oom", first_error="2 cuMemCreate failed")
    assert "env.nvshmem_heap_create_refused" not in rules_of(diagnosis)
    assert "hccl" in alternative_labels(diagnosis)
