"""Hugging Face jobs on NPU that stop before the model runs: a package the options ask for is
missing, or the graph engine cannot build an operator the model calls.

Excerpts are written in the shapes these stacks print (a Python traceback from a model load,
torch_npu's operator headline with its CANN block) with values of our own. Guide sections:
docs/labelling.md#config-driver_env-or-weight_load and docs/labelling.md#wrappers.
"""

from __future__ import annotations

from analyzers.core.types import Diagnosis
from tests.analyzers.excerpts import diagnose_text

LOAD_FRAMES = (
    "Traceback (most recent call last):\n"
    '  File "/srv/jobs/load_model.py", line 12, in <module>\n'
    "    model = AutoModelForCausalLM.from_pretrained(path, attn_implementation=impl)\n"
    '  File "/opt/py/site-packages/transformers/modeling_utils.py", line 4120, in from_pretrained\n'
    "    model = cls(config, *model_args, **model_kwargs)\n"
)


def first_text(diagnosis: Diagnosis) -> str:
    assert diagnosis.first_error is not None
    return diagnosis.first_error.text


def test_a_missing_package_the_options_ask_for_is_a_config_problem() -> None:
    text = (
        LOAD_FRAMES + "importlib.metadata.PackageNotFoundError: No package metadata was found for "
        "fast_attn_kernels\n"
    )
    diagnosis = diagnose_text("load.log", text)
    assert diagnosis.category == "config"
    assert "No package metadata was found for fast_attn_kernels" in first_text(diagnosis)


def test_a_registry_miss_that_was_only_logged_does_not_decide() -> None:
    text = (
        "INFO attention: fast_attn_kernels metadata missing (PackageNotFoundError), using sdpa\n"
        + LOAD_FRAMES
        + "RuntimeError: NPU out of memory. Tried to allocate 2.00 GiB (NPU 0; 29.50 GiB total "
        "capacity; 28.10 GiB already allocated; 0 bytes free; 28.90 GiB reserved in total by "
        "PyTorch)\n"
    )
    diagnosis = diagnose_text("load.log", text)
    assert diagnosis.category == "oom"
    assert "NPU out of memory" in first_text(diagnosis)


def test_a_graph_engine_headline_alone_is_the_operator() -> None:
    text = (
        "[rank0]:     return F.max_pool3d(x, kernel_size)\n"
        "[rank0]: RuntimeError: InnerRun:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:230 "
        "OPS function error: MaxPool3D, error code is 500002\n"
    )
    diagnosis = diagnose_text("train.log", text)
    assert diagnosis.category == "operator"
    assert "OPS function error: MaxPool3D" in first_text(diagnosis)


def test_the_graph_engine_block_under_the_headline_decides() -> None:
    text = (
        "RuntimeError: InnerRun:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:230 OPS "
        "function error: MaxPool3D, error code is 500002\n"
        "[ERROR] 2026-03-04-05:06:07 (PID:812, Device:0, RankID:-1) ERR01100 OPS call acl api "
        "failed\n"
        "[Error]: A GE error occurs in the system.\n"
        "E40021: [PID: 812] 2026-03-04-05:06:06.101.202 Failed to compile Op [MaxPool3D_1,]. "
        "(oppath: [Compile /opt/cann/opp/max_pool3d.py failed with errormsg/stack: "
        "max_pool3d.cpp:14:10: fatal error: 'kernel_tiling.h' file not found\n"
    )
    diagnosis = diagnose_text("train.log", text)
    assert diagnosis.category == "driver_env"
    assert "OPS function error" not in first_text(diagnosis)
