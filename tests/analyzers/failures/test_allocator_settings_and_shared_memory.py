"""Allocator settings and assertions; memory shared with or registered for another process.

docs/labelling.md#an-allocator-that-refuses-its-settings-or-fails-its-own-checks and
docs/labelling.md#memory-shared-with-or-registered-for-another-process. The caching allocator
refuses settings it cannot read (by name, or with its tokenizer's bounds assertion) and hides an
out-of-memory behind an NVML assertion where NVML does not answer; processes that share CUDA
memory (IPC), pin host buffers for their peers, or register buffers with a NIC or a transfer
library are refused by the machine before any work runs. Fixtures are written here in the real
shapes with their own values.
"""

from __future__ import annotations

from tests.analyzers.excerpts import alternative_labels, assert_reads, diagnose_files, diagnose_text

SETTINGS_TOKENIZER = """\
terminate called after throwing an instance of 'c10::Error'
  what():  i < config_.size() INTERNAL ASSERT FAILED at "/build/c10/core/AllocatorConfig.h":131, please report a bug to PyTorch. Index out of bounds in ConfigTokenizer
Exception raised from checkIndex at /build/c10/core/AllocatorConfig.h:131 (most recent call first):
frame #0: c10::Error::Error(c10::SourceLocation, std::string) + 0x98 (0x7f01aa10 in /venv/lib/python3.12/site-packages/torch/lib/libc10.so)
"""

SETTINGS_UNKNOWN_KEY = """\
Traceback (most recent call last):
  File "/work/train.py", line 40, in <module>
    model = model.cuda()
  File "/venv/lib/python3.9/site-packages/torch/cuda/__init__.py", line 247, in _lazy_init
    torch._C._cuda_init()
RuntimeError: Unrecognized CachingAllocator option: expandable_segments
"""

SETTINGS_DEPRECATION_ONLY = """\
[W AllocatorConfig.cpp:28] Warning: PYTORCH_CUDA_ALLOC_CONF is deprecated, use PYTORCH_ALLOC_CONF instead (function operator())
step 10 loss 2.31
"""

NVML_ASSERT = """\
Traceback (most recent call last):
  File "/work/bench.py", line 12, in <module>
    y = torch.empty(40000, 40000, device="cuda")
RuntimeError: NVML_SUCCESS == r INTERNAL ASSERT FAILED at "/build/torch/c10/cuda/CUDACachingAllocator.cpp":1154, please report a bug to PyTorch.
"""

IPC_REBUILD = """\
Traceback (most recent call last):
  File "<string>", line 1, in <module>
  File "/env/lib/python3.11/multiprocessing/spawn.py", line 122, in spawn_main
    exitcode = _main(fd, parent_sentinel)
  File "/env/lib/python3.11/site-packages/torch/multiprocessing/reductions.py", line 181, in rebuild_cuda_tensor
    storage = storage_cls._new_shared_cuda(
  File "/env/lib/python3.11/site-packages/torch/storage.py", line 1457, in _new_shared_cuda
    return torch.UntypedStorage._new_shared_cuda(*args, **kwargs)
torch.AcceleratorError: CUDA error: invalid resource handle
Compile with `TORCH_USE_CUDA_DSA` to enable device-side assertions.
"""

ENGINE_IPC_DESERIALIZE = """\
[2026-04-02 08:15:44 TP5] Failed to deserialize from CUDA IPC handle (HIP error: invalid device pointer)
Traceback (most recent call last):
  File "/opt/sglang/python/sglang/srt/utils/cuda_ipc_transport_utils.py", line 471, in reconstruct_on_target_device
    storage = torch.UntypedStorage._new_shared_cuda(
torch.AcceleratorError: HIP error: invalid device pointer
[2026-04-02 08:15:45] SIGQUIT received. It usually means one child failed.
"""

ENGINE_IPC_NOTE = """\
[2026-04-02 08:15:44 TP5] Multimodal features are passed through CUDA IPC handles (tp_size=8)
[2026-04-02 08:15:45 TP5] Deserialized 4 tensors from CUDA IPC handles in 3.1 ms
"""

EP_CHECK_SAME_ANSWER = """\
RuntimeError: Failed: CUDA error /opt/DeepEP/csrc/deep_ep.cpp:97 'invalid resource handle'
"""

NCCL_IPC_OPEN = """\
node-7:6120:6180 [0] transport/p2p.cu:530 WARN failed to open CUDA IPC handle : 11 invalid argument
node-7:6120:6180 [0] INFO init.cu:480 -> 1
node-7:6120:6180 [0] INFO init.cu:541 -> 1

node-7:6121:6183 [1] include/shm.h:50 WARN failed to register host buffer 0x7f22bc00e000 : invalid argument
node-7:6121:6183 [1] INFO transport/shm.cu:215 -> 1
Traceback (most recent call last):
  File "/work/train.py", line 88, in <module>
    hvd.broadcast_parameters(model.state_dict(), root_rank=0)
"""

RDMA_REGISTRATION = """\
I0301 08:10:01.902120 5120 rdma_context.cpp:125] RDMA device: mlx5_2, LID: 12, GID: (GID_Index 0) fe:80:00:00:00:00:00:00:00:11:22:ff:fe:33:44:55
E0301 08:10:02.441120 5120 rdma_context.cpp:590] Failed to register memory 0x7f2a10000000: Invalid argument [22]
E0301 08:10:02.441150 5120 rdma_transport.cpp:300] Failed to register memory region with context 0
[2026-03-01 08:10:02 TP3] Mooncake memory registration failed.
[2026-03-01 08:10:02 TP3] Scheduler hit an exception: Traceback (most recent call last):
  File "/srv/sglang/srt/managers/scheduler.py", line 2310, in run_scheduler_process
"""

ASCEND_REGISTER = """\
Worker_TP0 pid=6120 INFO 03-01 08:10:02 [mooncake_connector.py:1260] block shape: torch.Size([128, 1, 128])
I0301 08:10:02.763092 6120 ascend direct transport.cpp:444 AscendDirectTransport register mem addr:0x12da73a00000, length:183369728, location:, mem type:0
E0301 08:10:02.763501 6120 ascend direct transport.cpp:460 Register mem ret:103900.
Worker_TP0 pid=6120 ERROR 03-01 08:10:02 [multiproc_executor.py:962] WorkerProc hit an exception.
Traceback (most recent call last):
File "/srv/vllm/v1/executor/multiproc_executor.py", line 957, in worker_busy_loop
"""

ASCEND_REGISTER_OK = """\
I0301 08:10:02.763501 6120 ascend_direct_transport.cpp:460] Register mem ret:0.
Worker_TP0 pid=6120 INFO 03-01 08:10:03 [worker.py:210] KV cache registered
"""

SPAWN_PICKLE = """\
AttributeError: Can't pickle local object 'Trainer._make_loader.<locals>.collate'
  0%|          | 0/120 [00:04<?, ?it/s]
[W CudaIPCTypes.cpp:16] Producer process has been terminated before all shared CUDA tensors released. See Note [Sharing CUDA tensors]
"""


def test_a_settings_string_the_tokenizer_runs_off_is_config() -> None:
    diagnosis = diagnose_text("job/rank_0.log", SETTINGS_TOKENIZER)
    assert_reads(diagnosis, "config", first_error="Index out of bounds in ConfigTokenizer")
    assert "other" in alternative_labels(diagnosis)


def test_an_allocator_option_the_release_does_not_know_is_config() -> None:
    diagnosis = diagnose_text("job/rank_0.log", SETTINGS_UNKNOWN_KEY)
    assert_reads(diagnosis, "config", first_error="Unrecognized CachingAllocator option")


def test_the_deprecation_warning_of_the_settings_variable_is_no_refusal() -> None:
    diagnosis = diagnose_text("job/rank_0.log", SETTINGS_DEPRECATION_ONLY)
    assert diagnosis.category != "config"


def test_the_nvml_assertion_in_the_out_of_memory_path_is_memory() -> None:
    diagnosis = diagnose_text("job/rank_0.log", NVML_ASSERT)
    assert_reads(diagnosis, "oom", first_error="NVML_SUCCESS == r")
    assert "driver_env" in alternative_labels(diagnosis)
    assert diagnosis.confidence < 0.8


def test_a_shared_tensor_the_child_cannot_open_is_the_machine() -> None:
    diagnosis = diagnose_text("job/tracker.log", IPC_REBUILD)
    assert_reads(diagnosis, "driver_env", first_error="invalid resource handle")
    assert {"config", "device_fault"} <= set(alternative_labels(diagnosis))
    assert diagnosis.confidence < 0.8


def test_an_engine_that_cannot_open_a_shared_ipc_handle_is_the_platform() -> None:
    # ROCm answers the refused import with HIP's `invalid device pointer`; the engine's own line
    # comes first and names the IPC handle.
    diagnosis = diagnose_text("serve/sglang_tp8.log", ENGINE_IPC_DESERIALIZE)
    assert_reads(diagnosis, "driver_env", first_error="Failed to deserialize from CUDA IPC handle")
    assert {"config", "device_fault"} <= set(alternative_labels(diagnosis))
    assert diagnosis.confidence < 0.8


def test_an_engine_that_uses_ipc_handles_reports_no_failure() -> None:
    diagnosis = diagnose_text("serve/sglang_tp8.log", ENGINE_IPC_NOTE)
    assert diagnosis.category != "driver_env", diagnosis.root_cause


def test_an_expert_parallel_check_with_the_same_answer_keeps_its_own_rule() -> None:
    diagnosis = diagnose_text("job/rank_0.log", EP_CHECK_SAME_ANSWER)
    assert diagnosis.category == "hccl"


def test_nccl_warns_that_it_cannot_share_memory_between_the_ranks() -> None:
    diagnosis = diagnose_files({"job/rank_0.log": NCCL_IPC_OPEN})
    assert_reads(diagnosis, "driver_env", first_error="failed to open CUDA IPC handle")
    assert "hccl" in alternative_labels(diagnosis)


def test_a_buffer_the_nic_refuses_to_register_is_the_host_set_up() -> None:
    diagnosis = diagnose_text("prefill/tp3.log", RDMA_REGISTRATION)
    assert diagnosis.category == "driver_env"
    assert diagnosis.first_error is not None
    assert "Failed to register memory 0x7f2a10000000: Invalid argument [22]" in (
        diagnosis.first_error.text
    )
    assert "config" in alternative_labels(diagnosis)


def test_the_ascend_transport_return_code_is_an_error_line() -> None:
    diagnosis = diagnose_text("decode/worker_0.log", ASCEND_REGISTER)
    assert_reads(diagnosis, "driver_env", first_error="Register mem ret:103900")


def test_a_zero_return_of_the_ascend_registration_is_no_failure() -> None:
    diagnosis = diagnose_text("decode/worker_0.log", ASCEND_REGISTER_OK)
    assert diagnosis.category != "driver_env"


def test_a_worker_the_spawn_cannot_pickle_is_config_and_the_ipc_warning_is_noise() -> None:
    diagnosis = diagnose_text("train/rank_0.log", SPAWN_PICKLE)
    assert_reads(diagnosis, "config", first_error="Can't pickle local object")


SETTINGS_THAT_EXCLUDE_EACH_OTHER = """\
[rank3]: Traceback (most recent call last):
[rank3]:   File "/work/finetune_npu.py", line 58, in <module>
[rank3]:     torch.npu.set_device(local_rank)
[rank3]: RuntimeError: `max_split_size_mb` or `garbage_collection_threshold`, cannot be enabled with `expandable_segments`, please set `expandable_segments` to `False`.
"""


def test_allocator_options_that_exclude_each_other_are_the_settings() -> None:
    # docs/labelling.md#an-allocator-that-refuses-its-settings-or-fails-its-own-checks: two
    # options the allocator reads fine one by one but refuses together (torch_npu's check)
    diagnosis = diagnose_text("rank3.log", SETTINGS_THAT_EXCLUDE_EACH_OTHER)
    assert_reads(
        diagnosis,
        "config",
        first_error="cannot be enabled with `expandable_segments`",
        rule="cfg.allocator_settings_refused",
    )


def test_advice_to_enable_expandable_segments_is_no_refusal() -> None:
    text = (
        "RuntimeError: NPU out of memory. Tried to allocate 2.00 GiB (NPU 0; 60.96 GiB total "
        "capacity; 57.10 GiB already allocated). If reserved memory is >> allocated memory try "
        "setting max_split_size_mb to avoid fragmentation.\n"
    )
    diagnosis = diagnose_text("rank0.log", text)
    assert diagnosis.category == "oom"
    assert "cfg.allocator_settings_refused" not in {ev.rule for ev in diagnosis.evidence}
