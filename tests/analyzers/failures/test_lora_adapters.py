"""LoRA adapters in serving engines and in sharded training: what each refusal is read as.

Multi-LoRA engines run adapters through batched kernels that check the widths and layout of
every call, and size their adapter slots at start; ZeRO's optimizer refuses a gradient
produced twice. The excerpts are written in the shapes those stacks print (Ray and
multiprocessing worker prefixes, engine-core wrappers, ranked tracebacks) with values of our
own; each test checks the label and the line an engineer should read first.
"""

from __future__ import annotations

import pytest

from tests.analyzers.excerpts import assert_reads, diagnose_text

RAY = "(RayWorkerWrapper pid=40412) ERROR 02-11 09:14:05 worker_base.py:150] "
TP1 = "(Worker_TP1 pid=7301) ERROR 05-03 11:20:44 [multiproc_executor.py:700] "
CORE = "(EngineCore_DP0 pid=2290) ERROR 08-09 17:02:31 [core.py:690] "

EXCERPTS = [
    pytest.param(
        RAY + '  File "/opt/venv/lib/python3.10/site-packages/vllm/lora/punica.py", line 83, '
        "in add_lora\n"
        + RAY
        + "    punica_kernels.dispatch_bgmv(y, x, wa_t_all, indicies, layer_idx, 1.0)\n"
        + RAY
        + "RuntimeError: No suitable kernel. h_in=32 h_out=6912 dtype=Float out_dtype=Half\n",
        "No suitable kernel. h_in=32 h_out=6912",
        "operator",
        id="punica-kernel-without-the-shard-width",
    ),
    pytest.param(
        TP1 + '  File "/opt/vllm-ascend/vllm_ascend/lora/punica_npu.py", line 211, '
        "in add_expand\n"
        + TP1
        + "    torch.ops._C_ascend.sgmv_expand(x, w, y, slice_offset, slice_size)\n"
        + TP1
        + "RuntimeError: hidden in should be smaller than hidden out.\n"
        "RuntimeError: Engine core initialization failed. See root cause above. "
        "Failed core proc(s): {}\n",
        "hidden in should be smaller than hidden out",
        "operator",
        id="ascend-expand-kernel-rank-over-slice",
    ),
    pytest.param(
        "ERROR 07-22 13:40:02 worker_base.py:140] Error executing method "
        "determine_num_available_blocks. This might cause deadlock in distributed execution.\n"
        "ERROR 07-22 13:40:02 worker_base.py:140] Traceback (most recent call last):\n"
        "RuntimeError: y must be contiguous\n"
        "Exception raised from dispatch_bgmv at csrc/punica/punica_ops.cu:301\n",
        "y must be contiguous",
        "operator",
        id="punica-dispatcher-refuses-a-sliced-view",
    ),
    pytest.param(
        CORE
        + "    raise RuntimeError(\n"
        + CORE
        + "RuntimeError: Worker failed with error 'LoRA rank 64 is greater than max_lora_rank "
        "32.', please check the stack trace above for the root cause\n",
        "LoRA rank 64 is greater than max_lora_rank 32",
        "config",
        id="adapter-rank-over-engine-maximum",
    ),
    pytest.param(
        "INFO 01-05 10:00:01 llm_engine.py:90] Initializing an LLM engine with config: "
        "enable_lora=True, max_loras=2, max_lora_rank=16\n"
        '  File "/opt/venv/lib/python3.10/site-packages/vllm/lora/worker_manager.py", '
        "line 190, in _apply_adapters\n"
        "RuntimeError: Number of requested LoRAs (3) is greater than the number of GPU LoRA "
        "slots (2).\n",
        "Number of requested LoRAs (3)",
        "config",
        id="batch-names-more-adapters-than-slots",
    ),
    pytest.param(
        '[rank1]:   File "/opt/venv/lib/python3.10/site-packages/deepspeed/runtime/zero/'
        'stage_1_and_2.py", line 880, in reduce_independent_p_g_buckets_and_remove_grads\n'
        "[rank1]:     assert self.params_already_reduced[param_id] == False, \\\n"
        "[rank1]: AssertionError: The parameter 96 has already been reduced.             "
        "Gradient computed twice for this partition.             Multiple gradient reduction "
        "is currently not supported\n"
        "E0301 08:10:12.402000 5121 torch/distributed/elastic/multiprocessing/api.py:869] "
        "failed (exitcode: 1) local_rank: 1 (pid: 5188) of binary: /opt/venv/bin/python\n",
        "The parameter 96 has already been reduced",
        "config",
        id="zero2-gradient-produced-twice",
    ),
]


@pytest.mark.parametrize(("text", "first", "category"), EXCERPTS)
def test_lora_failure_gets_its_label_and_first_error(text: str, first: str, category: str):
    diagnosis = diagnose_text("issue/log.txt", text)
    assert_reads(diagnosis, category, first_error=first)


def test_a_kernel_width_refusal_offers_the_kernel_limit_and_the_setting() -> None:
    diagnosis = diagnose_text(
        "issue/log.txt",
        RAY + "RuntimeError: No suitable kernel. h_in=16 h_out=3696 dtype=Float "
        "out_dtype=BFloat16\n",
    )
    offered = {alternative.category for alternative in diagnosis.alternatives}
    assert diagnosis.category == "operator"
    assert {"op_constraint", "config"} <= offered


def test_a_collective_refusing_a_view_keeps_the_communication_reading() -> None:
    diagnosis = diagnose_text(
        "issue/log.txt", "[rank2]: RuntimeError: Tensors must be contiguous\n"
    )
    assert diagnosis.category == "hccl"


def test_an_adapter_over_the_engine_rank_is_told_which_option_to_raise() -> None:
    diagnosis = diagnose_text(
        "issue/log.txt", CORE + "ValueError: LoRA rank 128 is greater than max_lora_rank 64.\n"
    )
    assert any("max_lora_rank" in action for action in diagnosis.next_actions)
