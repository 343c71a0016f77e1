"""Environment dumps: `env`, `printenv`, `export KEY=value`, `declare -x KEY="value"`.

    WORLD_SIZE=4
    export HCCL_CONNECT_TIMEOUT=1200
    declare -x ASCEND_RT_VISIBLE_DEVICES="0,1,2,3"

Only variables that matter for a distributed NPU/GPU job are kept (facts["env"]); the world
size comes from WORLD_SIZE, else NPROC_PER_NODE x NNODES. The names of all the dump's
variables are kept too (facts["env_names"]): a setting that one node's dump carries and the
others' do not says that node ran otherwise (`causal/node_settings.py`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

_ASSIGNMENT = re.compile(r"^\s*(?:export\s+|declare -x\s+)?([A-Za-z_][A-Za-z0-9_]*)=(.*)$")
KEPT_NAMES = frozenset(
    [
        "RANK",
        "LOCAL_RANK",
        "WORLD_SIZE",
        "LOCAL_WORLD_SIZE",
        "NODE_RANK",
        "GROUP_RANK",
        "ROLE_RANK",
        "NNODES",
        "NPROC_PER_NODE",
        "MASTER_ADDR",
        "MASTER_PORT",
        "OMP_NUM_THREADS",
        "CUDA_VISIBLE_DEVICES",
        "TASK_QUEUE_ENABLE",
        "COMBINED_ENABLE",
        "INF_NAN_MODE_ENABLE",
        "HOSTNAME",
    ]
)
KEPT_PREFIXES = (
    "HCCL_",
    "ASCEND_",
    "PYTORCH_",
    "TORCH",
    "NCCL_",
    "GLOO_",
    "ATB_",
    "VLLM_",
    "MS_",
    "CANN_",
    "ACL_",
    "HCCN_",
    "RAY_",
    "DEEPSPEED_",
    "ACCELERATE_",
)
_MAX_VALUE = 500
_MAX_NAMES = 2000


def parse(lines: Iterable[str]) -> dict[str, Any]:
    env: dict[str, str] = {}
    names: set[str] = set()
    for text in lines:
        found = _ASSIGNMENT.match(text)
        if found and len(names) < _MAX_NAMES:
            names.add(found.group(1))
        if found and _kept(found.group(1)):
            env[found.group(1)] = _unquote(found.group(2))[:_MAX_VALUE]
    if not env:
        return {}
    facts: dict[str, Any] = {"env": env, "env_names": sorted(names)}
    size = world_size(env)
    if size:
        facts["world_size"] = size
    return facts


def world_size(env: dict[str, str]) -> int | None:
    if env.get("WORLD_SIZE", "").isdigit():
        return int(env["WORLD_SIZE"])
    per_node, nodes = env.get("NPROC_PER_NODE", ""), env.get("NNODES", "1")
    if per_node.isdigit():
        return int(per_node) * (int(nodes) if nodes.isdigit() else 1)
    return None


def _kept(name: str) -> bool:
    return name in KEPT_NAMES or name.startswith(KEPT_PREFIXES)


def _unquote(value: str) -> str:
    value = value.strip()
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
        return value[1:-1]
    return value
