"""Software versions from `pip freeze`, `pip list`, version.info files and version prints.

    torch==2.13.0+cpu                 torch-npu          2.1.0.post8.dev20241009
    cat /usr/local/Ascend/driver/version.info      then   Version=23.0.7
    cat /usr/local/Ascend/ascend-toolkit/latest/aarch64-linux/ascend_toolkit_install.info
    version=7.0.T10
    Software Version               : 23.0.5     (npu-smi board info: the driver)
    Python 3.8.18 (default, Sep 11 2023, 13:19:25)
    CANN version: 8.0.RC2

facts["versions"] keys: cann, nnae, driver, firmware, npu_smi, python, torch, torch_npu,
vllm, vllm_ascend, ... (package names with '-' as '_').
"""

from __future__ import annotations

import re
from collections.abc import Iterable

_PACKAGES = (
    "torch",
    "torch-npu",
    "torch_npu",
    "torchvision",
    "torchaudio",
    "vllm",
    "vllm-ascend",
    "vllm_ascend",
    "transformers",
    "deepspeed",
    "accelerate",
    "mindspore",
    "mindie",
    "numpy",
    "triton",
    "apex",
    "megatron-core",
    "sglang",
    "lmdeploy",
    "ray",
    "mindspeed",
)
_PIP = re.compile(
    r"^\s*(?P<name>" + "|".join(re.escape(n) for n in _PACKAGES) + r")\s*(?:==\s*|\s+)"
    r"(?P<version>\d[\w.+\-]*)\s*$",
    re.IGNORECASE,
)
_NAMED = re.compile(
    r"\b(?P<name>CANN|python|driver|firmware|npu-smi|software)(?: version)?\s*[:= ]\s*v?"
    r"(?P<version>\d+\.\d[\w.\-]*)",
    re.IGNORECASE,
)
_ALIASES = {"software": "driver"}  # `npu-smi info -t board`: "Software Version : 23.0.5"
_INFO_VERSION = re.compile(r"^\s*(?:Version|version|package_version)=(\S+)")
_INFO_CONTEXT = (
    ("driver/version.info", "driver"),
    ("firmware/version.info", "firmware"),
    ("ascend-toolkit", "cann"),
    ("ascend_toolkit", "cann"),
    ("nnae", "nnae"),
    ("nnal", "nnal"),
)


def parse(lines: Iterable[str], path: str = "") -> dict[str, str]:
    versions: dict[str, str] = {}
    context = _context(path)
    for text in lines:
        context = _context(text) or context
        if found := _PIP.match(text):
            versions.setdefault(_key(found.group("name")), found.group("version"))
        elif (found := _INFO_VERSION.match(text)) and context:
            versions.setdefault(context, found.group(1))
        elif found := _NAMED.search(text):
            versions.setdefault(_key(found.group("name")), found.group("version"))
    return versions


def _context(text: str) -> str | None:
    lowered = text.lower()
    for marker, name in _INFO_CONTEXT:
        if marker in lowered:
            return name
    return None


def _key(name: str) -> str:
    name = name.lower().replace("-", "_")
    return _ALIASES.get(name, name)
