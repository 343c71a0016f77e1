"""Environment dumps (`formats.env`): `env`, `printenv`, `export` and `declare -x` lines, of
which only a distributed job's settings are kept, with every variable's name."""

from __future__ import annotations

import pytest

from analyzers.formats import env

DUMP = """\
WORLD_SIZE=16
export HCCL_CONNECT_TIMEOUT=1200
declare -x ASCEND_RT_VISIBLE_DEVICES="0,1,2,3"
PYTORCH_NPU_ALLOC_CONF='expandable_segments:True'
HOME=/root
LS_COLORS=rs=0:di=01;34
"""


def test_env_keeps_the_job_variables_only():
    facts = env.parse(DUMP.splitlines())
    assert facts["env"] == {
        "WORLD_SIZE": "16",
        "HCCL_CONNECT_TIMEOUT": "1200",
        "ASCEND_RT_VISIBLE_DEVICES": "0,1,2,3",
        "PYTORCH_NPU_ALLOC_CONF": "expandable_segments:True",
    }
    assert facts["world_size"] == 16


def test_every_variables_name_is_kept_sorted():
    facts = env.parse(DUMP.splitlines())
    assert facts["env_names"] == [
        "ASCEND_RT_VISIBLE_DEVICES",
        "HCCL_CONNECT_TIMEOUT",
        "HOME",
        "LS_COLORS",
        "PYTORCH_NPU_ALLOC_CONF",
        "WORLD_SIZE",
    ]


def test_a_launcher_dump_gives_the_world_from_nodes_and_processes():
    dump = [
        "  NNODES=2",
        "NPROC_PER_NODE=8",
        "MASTER_ADDR=10.20.3.17",
        "NCCL_SOCKET_IFNAME=bond0",
        "VLLM_USE_V1=0",
    ]
    facts = env.parse(dump)
    assert facts["world_size"] == 16
    assert facts["env"]["MASTER_ADDR"] == "10.20.3.17"
    assert facts["env"]["NCCL_SOCKET_IFNAME"] == "bond0"
    assert facts["env"]["VLLM_USE_V1"] == "0"


def test_a_dump_without_job_settings_gives_no_facts():
    assert env.parse(["HOME=/root", "SHELL=/bin/bash", "LANG=C.UTF-8"]) == {}


def test_a_long_value_is_cut():
    facts = env.parse(["HCCL_WHITELIST=" + "10.0.0.1," * 200])
    assert len(facts["env"]["HCCL_WHITELIST"]) == 500


@pytest.mark.parametrize(
    ("variables", "expected"),
    [
        ({"WORLD_SIZE": "8"}, 8),
        ({"NPROC_PER_NODE": "8", "NNODES": "4"}, 32),
        # NNODES unset or not a number: one node
        ({"NPROC_PER_NODE": "8"}, 8),
        ({"NPROC_PER_NODE": "8", "NNODES": "$NODES"}, 8),
        # WORLD_SIZE wins over the product
        ({"WORLD_SIZE": "12", "NPROC_PER_NODE": "8", "NNODES": "2"}, 12),
        ({"RANK": "1"}, None),
    ],
)
def test_world_size(variables, expected):
    assert env.world_size(variables) == expected
