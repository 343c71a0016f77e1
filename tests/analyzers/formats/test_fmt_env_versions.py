"""Environment dumps and version listings become facts the report shows."""

import io

import pytest

from analyzers.core.types import FileInfo, FileKind
from analyzers.formats import env, versions
from analyzers.scan.member import scan_file

ENV = """\
WORLD_SIZE=16
export HCCL_CONNECT_TIMEOUT=1200
declare -x ASCEND_RT_VISIBLE_DEVICES="0,1,2,3"
PYTORCH_NPU_ALLOC_CONF='expandable_segments:True'
HOME=/root
LS_COLORS=rs=0:di=01;34
"""


def test_env_keeps_the_job_variables_only():
    facts = env.parse(ENV.splitlines())
    assert facts["env"] == {
        "WORLD_SIZE": "16",
        "HCCL_CONNECT_TIMEOUT": "1200",
        "ASCEND_RT_VISIBLE_DEVICES": "0,1,2,3",
        "PYTORCH_NPU_ALLOC_CONF": "expandable_segments:True",
    }
    assert facts["world_size"] == 16


@pytest.mark.parametrize(
    ("variables", "expected"),
    [({"WORLD_SIZE": "8"}, 8), ({"NPROC_PER_NODE": "8", "NNODES": "4"}, 32), ({"RANK": "1"}, None)],
)
def test_world_size_from_env(variables, expected):
    assert env.world_size(variables) == expected


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("torch==2.13.0+cpu", {"torch": "2.13.0+cpu"}),
        ("torch-npu==2.1.0.post8", {"torch_npu": "2.1.0.post8"}),
        ("torch_npu          2.5.1", {"torch_npu": "2.5.1"}),
        ("vllm-ascend==0.9.1rc1", {"vllm_ascend": "0.9.1rc1"}),
        ("Python 3.8.18 (default, Sep 11 2023, 13:19:25)", {"python": "3.8.18"}),
        ("CANN version: 8.0.RC2", {"cann": "8.0.RC2"}),
        ("torchvision-extra==1.0", {}),
    ],
)
def test_version_lines(line, expected):
    assert versions.parse([line]) == expected


def test_version_info_files_take_their_name_from_the_cat_line():
    text = [
        "cat /usr/local/Ascend/driver/version.info",
        "Version=23.0.7",
        "cat /usr/local/Ascend/ascend-toolkit/latest/aarch64-linux/ascend_toolkit_install.info",
        "version=8.0.RC3",
    ]
    assert versions.parse(text) == {"driver": "23.0.7", "cann": "8.0.RC3"}


def test_scanner_reads_env_files_whole():
    scan = scan_file(io.BytesIO(ENV.encode()), FileInfo("job/env.txt", FileKind.ENV, None))
    assert scan.facts["world_size"] == 16
    assert scan.facts["env"]["HCCL_CONNECT_TIMEOUT"] == "1200"
    assert scan.events == []
