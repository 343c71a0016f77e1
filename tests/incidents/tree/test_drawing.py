"""The diagnosis tree drawn for one incident: its switches follow the job's accelerator."""

from __future__ import annotations

import pytest

from incidents.tree.drawing import build_tree_view
from tests.incidents.library_helpers import CUDA_WALK, hung_report

pytestmark = pytest.mark.django_db


def _env_of(report: dict) -> dict[str, list[str]]:
    return {view.id: view.env for view in build_tree_view(report).nodes() if view.node.env}


def test_a_cuda_incident_is_shown_cuda_switches():
    shown = _env_of({"environment": {"accelerator": "cuda"}, "diagnosis": {}})
    every = [switch for switches in shown.values() for switch in switches]
    assert any(s.startswith("PYTORCH_CUDA_ALLOC_CONF=") for s in every)
    assert not [s for s in every if s.startswith(("ASCEND_", "HCCL_", "PYTORCH_NPU_"))]


def test_an_ascend_incident_and_the_bare_tree_show_the_switches_as_written():
    ascend = _env_of({"environment": {"accelerator": "ascend"}, "diagnosis": {}})
    assert ascend == {
        view.id: list(view.node.env) for view in build_tree_view().nodes() if view.node.env
    }
    assert any("PYTORCH_NPU_ALLOC_CONF" in s for switches in ascend.values() for s in switches)


def _texts_of(report: dict) -> dict[str, tuple[str, tuple[str, ...]]]:
    return {
        v.id: (v.texts.guidance, tuple(v.texts.commands)) for v in build_tree_view(report).nodes()
    }


def test_a_cuda_incident_is_told_to_read_nvidia_smi_not_npu_smi():
    cuda = _texts_of({"environment": {"accelerator": "cuda"}, "diagnosis": {}})
    ascend = _texts_of({"environment": {"accelerator": "ascend"}, "diagnosis": {}})

    assert "nvidia-smi" in cuda["no_explicit_error"][1]
    assert "npu-smi" not in cuda["start"][0]
    assert "npu-smi info" in ascend["start"][1]
    # no CUDA text: shown as written
    assert cuda["hccl_divergent_paths"] == ascend["hccl_divergent_paths"]


def test_a_cpu_incident_is_shown_no_accelerator_tool_or_switch():
    """Every switch the tree names is Ascend's (HCCL_, ASCEND_, the NPU allocator's)."""
    report = {"environment": {"accelerator": "cpu"}, "diagnosis": {}}
    texts, switches = _texts_of(report), _env_of(report)

    assert texts["start"][1] == ("dmesg -T | tail -200",)
    assert "npu-smi" not in texts["start"][0]
    assert "npu-smi" not in texts["no_explicit_error"][0]
    assert not any(switches.values())


def test_an_incident_is_shown_the_stack_its_advice_was_written_for():
    """The bundle showed no stack; its first error named CUDA, so the advice is CUDA's."""
    report = {"environment": {}, "diagnosis": {"stack": "cuda"}}
    texts, switches = _texts_of(report), _env_of(report)

    assert "nvidia-smi" in texts["start"][1]
    assert any(s.startswith("CUDA_LAUNCH_BLOCKING=") for s in switches["aicore_bisect_stage"])


@pytest.mark.parametrize(
    "report",
    [
        {"environment": {}, "diagnosis": {"stack": "unknown"}},
        {"environment": {}, "diagnosis": {"tree_path": ["start"]}},  # written before the stack
    ],
    ids=["stack unknown", "older report"],
)
def test_an_incident_on_no_known_stack_is_shown_device_neutral_steps(report):
    texts, switches = _texts_of(report), _env_of(report)

    assert "nvidia-smi" in " ".join(texts["start"][1])
    assert "npu-smi info" in " ".join(texts["start"][1])
    assert "CANN" not in texts["explicit_error"][0]
    assert not [s for ss in switches.values() for s in ss if s.startswith(("ASCEND_", "HCCL_"))]


def _checklist_of(report: dict | None) -> dict[str, str]:
    return {item.id: item.how for item in build_tree_view(report).verification}


def test_the_checklist_follows_the_stack_of_the_incident():
    cuda = _checklist_of({"environment": {}, "diagnosis": {"stack": "cuda"}})
    unknown = _checklist_of({"environment": {}, "diagnosis": {"stack": "unknown"}})

    assert "torch.cuda.synchronize()" in cuda["verify_single_step"]
    assert "torch.cuda.synchronize()" in unknown["verify_single_step"]
    assert "torch.npu.synchronize()" in unknown["verify_single_step"]
    assert "torch.npu.synchronize()" in _checklist_of(None)["verify_single_step"]


def test_a_cuda_incidents_tree_is_drawn_in_its_words_off_the_path_too():
    views = {v.id: v for v in build_tree_view(hung_report("cuda", CUDA_WALK)).nodes()}

    assert views["hang_leftover_processes"].label == "leftover processes on the GPUs"
    assert views["no_processes"].label == "no job process on the GPUs"  # not walked
    assert views["no_explicit_error"].words.question == (
        "What do nvidia-smi and the ranks' stacks show for the job's processes?"
    )
    assert views["deploy_ranks_missing"].label == (
        "ranks missing or device memory uneven (missing: ‹missing ranks›)"
    )


def test_the_bare_tree_and_an_ascend_incident_are_drawn_as_written():
    bare = {v.id: v for v in build_tree_view().nodes()}
    ascend = {v.id: v for v in build_tree_view(hung_report("ascend", [None] * 4)).nodes()}

    for views in (bare, ascend):
        assert views["no_processes"].label == "no job process on the NPUs"
        assert views["no_explicit_error"].words.question == (
            "What does npu-smi show for the job's processes?"
        )
