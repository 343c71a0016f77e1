"""The words only Ascend has, as the tree's and the advice's stack tests look for them.

A job not on Ascend must not be sent after Ascend's tools, switches, logs, packages,
operators, modes or machines: npu-smi, HCCL and its switches, CANN and its plog, torch_npu
(`torch.npu`, its `npu_*` operators such as npu_format_cast), the fused MC2 communication
operators, the NZ (fractal) tensor format, aclgraph and the single-operator aclop path, NPU
graph mode, the AI Cores and their HBM, hccn_tool, and the Atlas generations (A2, A3, 910B,
310P). A job on no stack anyone can tell may read them beside another stack's way.
"""

from __future__ import annotations

import re

ASCEND_ONLY_WORDS = re.compile(
    r"npu-smi|HCCL_|\bHCCL\b|\bCANN\b|\bplog\b|\bAI ?Cores?\b|\bHBM\b|torch\.npu|torch_npu"
    r"|\bnpu_[a-z]\w*|hccn_tool|ASCEND_|\bMC2\b|\bNZ\b|FRACTAL_NZ|\bacl(?:graph|op)\b"
    r"|NPU graph mode|NPU 图模式|\bA[23]\b|\b910[A-Z]?\b|\b310P\b"
)
# an Ascend word beside another stack's, or named as Ascend's way
OTHER_STACKS_WORDS = re.compile(r"nvidia-smi|NCCL|CUDA|\bGPUs?\b|on Ascend|昇腾")
