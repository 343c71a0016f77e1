"""Model-parallel inference outside the big serving engines: builds that lack their multi-GPU
path, and a llama.cpp client whose remote RPC backend went away.

Excerpts are written in the engines' shapes with made-up paths, numbers and addresses.
docs/labelling.md#a-build-without-its-multi-gpu-path,
docs/labelling.md#a-remote-backend-that-went-away
"""

from __future__ import annotations

import pytest

from tests.analyzers.excerpts import alternative_labels, assert_reads, diagnose_files, diagnose_text

TURBOMIND_NO_NCCL = """\
PS C:\\work> lmdeploy serve api_server models/qwen2-7b --tp 2
[TM][WARNING] [LlamaTritonModel] `max_context_token_num` is not set, default to 16384.
2026-03-02 10:11:12,345 - lmdeploy - WARNING - turbomind.py:240 - get 291 model params
[TM][FATAL] comm\\device_comm.cc(31): Check failed: 0 Unknown communication backend: nccl
"""

TURBOMIND_WINDOWS_BARRIER = """\
RuntimeError: [TM][ERROR]  Assertion fail: C:\\b\\engine\\src/turbomind/models/llama/Barrier.h:20
"""

GGML_SPLIT = """\
Traceback (most recent call last):
  File "/srv/app/serve.py", line 12, in <module>
    llm = Llama(model_path="/models/coder-33b.Q4_K_M.gguf", n_gpu_layers=60, tensor_split=[55, 45])
ValueError: Attempt to split tensors that exceed maximum supported devices. Current LLAMA_MAX_DEVICES=1
"""


@pytest.mark.parametrize(
    ("text", "line"),
    [
        (TURBOMIND_NO_NCCL, "Unknown communication backend: nccl"),
        (TURBOMIND_WINDOWS_BARRIER, "Barrier.h:20"),
        (GGML_SPLIT, "exceed maximum supported devices"),
    ],
    ids=["turbomind-no-nccl", "turbomind-windows-barrier", "llama-cpp-max-devices"],
)
def test_a_build_without_its_multi_gpu_path_is_config(text, line):
    diagnosis = diagnose_text("job/server.log", text)
    assert_reads(diagnosis, "config", first_error=line, beside=("driver_env",))


def test_another_turbomind_assertion_is_no_build_question():
    text = "RuntimeError: [TM][ERROR]  Assertion fail: /opt/engine/src/turbomind/models/llama/LlamaBatch.cc:812\n"
    assert diagnose_text("job/server.log", text).category != "config"


RPC_CLIENT = """\
/opt/llama.cpp/ggml/src/ggml-rpc/ggml-rpc.cpp:588: Remote RPC server crashed or returned malformed response
1.42.120.044 E recv failed (bytes_recv=0, size_to_recv=8)
0   libggml-base.so.0                   0x00007f00aa0153d0 ggml_print_backtrace + 276
1   libggml-base.so.0                   0x00007f00aa082d38 ggml_abort + 156
"""

RPC_SERVER = """\
CUDA error: an illegal memory access was encountered
  current device: 0, in function ggml_backend_cuda_synchronize at /build/ggml/src/ggml-cuda/ggml-cuda.cu:2790
  cudaStreamSynchronize(cuda_ctx->stream())
/build/ggml/src/ggml-cuda/ggml-cuda.cu:91: CUDA error
"""


def test_a_client_that_lost_its_rpc_backend_is_a_crashed_process():
    diagnosis = diagnose_text("client/llama-server.log", RPC_CLIENT)
    assert diagnosis.category == "device_fault"
    assert "Remote RPC server crashed" in diagnosis.first_error.text or (
        "recv failed (bytes_recv=0" in diagnosis.first_error.text
    )
    assert "hccl" in alternative_labels(diagnosis)


def test_the_rpc_servers_own_failure_comes_before_the_clients_lost_backend():
    diagnosis = diagnose_files(
        {"client/llama-server.log": RPC_CLIENT, "worker1/rpc-server.log": RPC_SERVER}
    )
    assert_reads(diagnosis, "device_fault", first_error="illegal memory access")


def test_a_partial_read_lost_no_backend():
    text = "1.42.120.044 E recv failed (bytes_recv=4096, size_to_recv=8192), retrying\n"
    assert diagnose_text("client/llama-server.log", text).category != "device_fault"
