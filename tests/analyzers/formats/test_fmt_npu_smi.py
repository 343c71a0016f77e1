"""`npu-smi info` tables of 910B, A3 (two dies per NPU) and 310P, with the process table."""

import io

import pytest

from analyzers.core.types import FileInfo, FileKind
from analyzers.formats import npu_smi
from analyzers.scan.member import scan_file
from tests.corpus_path import CORPUS as SHARED_CORPUS

SEP = "+---------------------------+---------------+----------------------------------------------------+"
B910 = f"""\
+------------------------------------------------------------------------------------------------+
| npu-smi 24.1.rc3                 Version: 24.1.rc3                                             |
{SEP}
| NPU   Name                | Health        | Power(W)    Temp(C)           Hugepages-Usage(page)|
| Chip                      | Bus-Id        | AICore(%)   Memory-Usage(MB)  HBM-Usage(MB)        |
+===========================+===============+====================================================+
| 0     910B3               | OK            | 94.6        49                0    / 0             |
| 0                         | 0000:C1:00.0  | 0           0    / 0          61313/ 65536         |
+===========================+===============+====================================================+
| 1     910B3               | Warning       | 92.1        47                0    / 0             |
| 0                         | 0000:01:00.0  | 37          0    / 0          3404 / 65536         |
+===========================+===============+====================================================+
{SEP}
| NPU     Chip              | Process id    | Process name             | Process memory(MB)      |
+===========================+===============+====================================================+
| 0       0                 | 2919830       | python3.10               | 57356                   |
+===========================+===============+====================================================+
| No running processes found in NPU 1                                                            |
+===========================+===============+====================================================+
"""
A3 = """\
| npu-smi 25.0.rc1.1               Version: 25.0.rc1.1                                           |
| NPU     Name                  | Health          | Power(W)     Temp(C)           Hugepages-Usage(page) |
| Chip    Phy-ID                | Bus-Id          | AICore(%)    Memory-Usage(MB)  HBM-Usage(MB)         |
| 0       Ascend910             | OK              | 178.5        36                0     / 0             |
| 0       0                     | 0000:9D:00.0    | 0            0     / 0          3404  / 65536        |
| 0       Ascend910             | OK              | -            36                0     / 0             |
| 1       1                     | 0000:9F:00.0    | 0            0     / 0          33178/ 65536         |
"""
P310 = """\
| npu-smi 23.0.0                   Version: 23.0.0                                               |
| NPU     Name                  | Health          | Power(W)     Temp(C)           Hugepages-Usage(page) |
| Chip    Device                | Bus-Id          | AICore(%)    Memory-Usage(MB)                        |
| 0       310P3                 | OK              | NA           52                0     / 0             |
| 0       0                     | 0000:01:00.0    | 0            1782 / 44280                            |
"""


def test_910b_devices_and_processes():
    table = npu_smi.parse(B910.splitlines())
    assert table["version"] == "24.1.rc3"
    assert table["devices"] == [
        {
            "npu": 0,
            "name": "910B3",
            "health": "OK",
            "power_w": 94.6,
            "temp_c": 49.0,
            "chip": 0,
            "bus_id": "0000:C1:00.0",
            "aicore_pct": 0.0,
            "hbm_used_mb": 61313,
            "hbm_total_mb": 65536,
        },
        {
            "npu": 1,
            "name": "910B3",
            "health": "Warning",
            "power_w": 92.1,
            "temp_c": 47.0,
            "chip": 0,
            "bus_id": "0000:01:00.0",
            "aicore_pct": 37.0,
            "hbm_used_mb": 3404,
            "hbm_total_mb": 65536,
        },
    ]
    assert table["processes"] == [
        {"npu": 0, "chip": 0, "pid": 2919830, "name": "python3.10", "memory_mb": 57356}
    ]
    assert table["no_process_npus"] == [1]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (A3, [(0, 0, 178.5, 3404, 65536), (0, 1, None, 33178, 65536)]),
        (P310, [(0, 0, None, 1782, 44280)]),
    ],
    ids=["a3-two-dies", "310p-memory-only"],
)
def test_other_layouts(text, expected):
    devices = npu_smi.parse(text.splitlines())["devices"]
    found = [
        (d["npu"], d["chip"], d["power_w"], d["hbm_used_mb"], d["hbm_total_mb"]) for d in devices
    ]
    assert found == expected


def test_scanner_puts_the_table_in_facts():
    info = FileInfo("env/npu-smi.txt", FileKind.NPU_SMI, None)
    scan = scan_file(io.BytesIO(B910.encode()), info)
    assert len(scan.facts["npu_smi"]["devices"]) == 2
    assert scan.info.lines == B910.count("\n")


CORPUS = SHARED_CORPUS / "ascend-fd"


@pytest.mark.parametrize(
    ("member", "expected"),
    [
        (
            "st_module_testcase/kg_parse/npu_info_before.txt",
            {"health_checks": ["OK"], "driver": "23.0.5", "firmware": "7.1.0.7.220"},
        ),
        (
            "st_testcase/modelarts-job-testdt/ascend/environment_check/worker-0/npu_info_before.txt",
            {
                "driver": "23.0.7",
                "firmware": "7.1.0.11.220",
                "cann": "7.0.T10",
                "torch": "1.11.0",
                "torch_npu": "2.1.0.post8.dev20241009",
            },
        ),
    ],
    ids=["health-and-board", "version-info-files"],
)
def test_collected_environment_checks(member, expected):
    path = CORPUS / member
    if not path.exists():
        pytest.skip("shared corpus not present")
    with path.open("rb") as stream:
        facts = scan_file(stream, FileInfo(member, FileKind.NPU_SMI, None)).facts
    for key, value in expected.items():
        found = (
            facts.get("npu_smi", {}).get(key) if key == "health_checks" else facts["versions"][key]
        )
        assert found == value


def test_a_usage_cell_of_digits_only_holds_no_pair_and_pairs_still_read() -> None:
    from analyzers.formats.npu_smi import _USAGE

    assert _USAGE.findall("0" * 8192) == []
    assert _USAGE.findall("12 " * 2000 + "3 / 4  56/789") == [("3", "4"), ("56", "789")]
