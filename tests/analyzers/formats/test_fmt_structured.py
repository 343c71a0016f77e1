"""Small structured files read whole at the end of the file (`formats.structured`): npu-smi
tables, version listings and environment dumps, mixed in one collection file or alone."""

from __future__ import annotations

import io

from analyzers.core.types import FileInfo, FileKind
from analyzers.formats import structured
from analyzers.scan.member import scan_file

# what a support script gathers into one file after a failure
COLLECTION = """\
cat /usr/local/Ascend/driver/version.info
Version=24.1.rc2
+------------------------------------------------------------------------------------------------+
| npu-smi 24.1.rc2                 Version: 24.1.rc2                                             |
+---------------------------+---------------+----------------------------------------------------+
| NPU   Name                | Health        | Power(W)    Temp(C)           Hugepages-Usage(page)|
| Chip                      | Bus-Id        | AICore(%)   Memory-Usage(MB)  HBM-Usage(MB)        |
+===========================+===============+====================================================+
| 3     910B3               | Critical      | 101.2       52                0    / 0             |
| 0                         | 0000:C2:00.0  | 0           0    / 0          3402 / 65536         |
+===========================+===============+====================================================+
torch_npu==2.5.1.post1
export HCCL_EXEC_TIMEOUT=900
"""


def test_a_collection_gives_every_parsers_facts():
    facts = structured.parse(FileKind.VERSIONS, COLLECTION.splitlines(), "node1/npu_info.txt")
    assert facts["versions"] == {
        "driver": "24.1.rc2",
        "npu_smi": "24.1.rc2",
        "torch_npu": "2.5.1.post1",
    }
    assert facts["env"] == {"HCCL_EXEC_TIMEOUT": "900"}
    (device,) = facts["npu_smi"]["devices"]
    assert (device["npu"], device["health"]) == (3, "Critical")


def test_a_file_none_of_them_reads_gives_nothing():
    lines = ["training finished", "saved checkpoint to /ckpt/step_1200"]
    assert structured.parse(FileKind.OTHER, lines) == {}


def test_the_scanner_reads_an_env_file_whole():
    dump = b"WORLD_SIZE=16\nexport HCCL_CONNECT_TIMEOUT=1200\nHOME=/root\n"
    scan = scan_file(io.BytesIO(dump), FileInfo("job/env.txt", FileKind.ENV, None))
    assert scan.facts["world_size"] == 16
    assert scan.facts["env"]["HCCL_CONNECT_TIMEOUT"] == "1200"
    assert scan.events == []
