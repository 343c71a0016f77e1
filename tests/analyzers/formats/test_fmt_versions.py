"""Software versions (`formats.versions`): `pip freeze` and `pip list` lines, version prints,
and the `version.info` files a `cat` line names."""

from __future__ import annotations

import pytest

from analyzers.formats import versions


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("torch==2.13.0+cpu", {"torch": "2.13.0+cpu"}),
        ("torch-npu==2.1.0.post8", {"torch_npu": "2.1.0.post8"}),
        ("torch_npu          2.5.1", {"torch_npu": "2.5.1"}),
        ("vllm-ascend==0.9.1rc1", {"vllm_ascend": "0.9.1rc1"}),
        ("Megatron-Core     0.12.0", {"megatron_core": "0.12.0"}),
        ("Python 3.8.18 (default, Sep 11 2023, 13:19:25)", {"python": "3.8.18"}),
        ("CANN version: 8.0.RC2", {"cann": "8.0.RC2"}),
        # npu-smi's board info: the driver
        ("Software Version               : 24.1.rc2", {"driver": "24.1.rc2"}),
        ("torchvision-extra==1.0", {}),
        ("torch==", {}),
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


def test_a_version_file_takes_its_name_from_its_path():
    assert versions.parse(["Version=7.0.0.5.242"], "node2/firmware/version.info") == {
        "firmware": "7.0.0.5.242"
    }


def test_a_bare_version_line_under_no_named_file_is_not_read():
    assert versions.parse(["Version=23.0.7"]) == {}


def test_the_first_listing_of_a_package_wins():
    freeze = ["torch==2.5.1", "numpy==1.26.4", "torch==2.1.0"]
    assert versions.parse(freeze) == {"torch": "2.5.1", "numpy": "1.26.4"}
