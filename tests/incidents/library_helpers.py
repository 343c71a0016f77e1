"""Builders for case-library tests: a small library of cases and incidents with reports.

The cases read like the seeded library's (see analyzers/knowledge/cases/); the reports
follow the analyzer's schema with the fields the library pages use.
"""

from __future__ import annotations

import copy
from typing import Any

from django.utils import translation

from incidents.library.models import Case, CaseSource
from incidents.models import AnalysisRun, Bundle, Incident, RunState

LIBRARY: list[dict[str, Any]] = [
    {
        "slug": "mc2-dispatch-experts-per-rank",
        "title": "MC2 dispatch on A2 with too many experts per rank hangs",
        "category": "op_constraint",
        "symptoms": ["decode hangs inside the dispatch step on every rank"],
        "operators": ["npu_moe_distribute_dispatch_v2", "aclnnMoeDistributeDispatchV2"],
        "hardware": ["A2"],
        "root_cause": "The fused kernel supports at most 24 routed experts per rank on A2.",
        "fix": "Use more expert-parallel ranks or fall back to the all-to-all path.",
    },
    {
        "slug": "moe-dispatch-v1-tiling",
        "title": "First-generation MoE dispatch rejects the token count at tiling",
        "category": "op_constraint",
        "symptoms": ["tiling fails before the first decode step"],
        "operators": ["npu_moe_distribute_dispatch"],
        "hardware": ["A3"],
        "root_cause": "The v1 dispatch kernel needs the batch to fit its tiling limits.",
        "fix": "Move to the v2 dispatch operator.",
    },
    {
        "slug": "aicore-timeout",
        "title": "AI Core execution timed out on one rank",
        "category": "aicore_timeout",
        "symptoms": ["the task scheduler reports an AI Core timeout", "later ranks fail in HCCL"],
        "codes": ["507014", "EZ9999"],
        "hardware": ["any"],
        "root_cause": "An operator loops forever or reads past its inputs.",
        "fix": "Bisect the stage, layer and module with ASCEND_LAUNCH_BLOCKING=1.",
    },
    {
        "slug": "decoy-mentions-code",
        "title": "Driver health check after a device error",
        "category": "device_fault",
        "symptoms": ["npu-smi shows the device as unhealthy"],
        "hardware": ["any"],
        "root_cause": "A hardware fault was reported by the driver.",
        "fix": "Unlike code 507014, this needs a driver reset and a health check.",
    },
    {
        "slug": "hccl-buffsize-too-small",
        "title": "HCCL buffer too small for MoE dispatch and combine",
        "category": "hccl",
        "symptoms": ["the error names HCCL_BUFFSIZE and the size it needs"],
        "signatures": ["HCCL_BUFFSIZE is too small"],
        "codes": ["561002"],
        "hardware": ["any"],
        "root_cause": "The communication buffer each rank reserves is too small.",
        "fix": "Raise HCCL_BUFFSIZE to the size the message asks for.",
    },
    {
        "slug": "oom-fragmentation",
        "title": "Out of memory with plenty reserved: allocator fragmentation",
        "category": "oom",
        "symptoms": ["reserved memory is far above allocated memory"],
        "hardware": ["any"],
        "root_cause": "Many differently sized blocks leave no contiguous region.",
        "fix": "Set PYTORCH_NPU_ALLOC_CONF=expandable_segments:True.",
    },
    {
        "slug": "hbm-exhausted-zh",
        "title": "显存不足导致训练中断",
        "category": "oom",
        "symptoms": ["日志出现 NPU out of memory，随后进程退出"],
        "hardware": ["any"],
        "root_cause": "每张卡上的模型权重和激活值超过了可用显存。",
        "fix": "减小批大小或者增加张量并行的卡数。",
    },
]


def make_case(**values: Any) -> Case:
    values = {"source": CaseSource.SEEDED, **values}
    case = Case(**values)
    case.save()
    return case


def make_library() -> dict[str, Case]:
    return {values["slug"]: make_case(**copy.deepcopy(values)) for values in LIBRARY}


def error_ref(line: int = 48, text: str | None = None) -> dict[str, Any]:
    return {
        "file": "job-f0dddebb/log_3.log",
        "line": line,
        "text": text
        or "[rank3]: RuntimeError: mat1 and mat2 shapes cannot be multiplied (8x8 and 32x32)",
        "rank": 3,
        "timestamp": None,
    }


def shape_report(fingerprint: str = "f" * 40, cases: list | None = None) -> dict[str, Any]:
    """A finished report of a shape mismatch on rank 3 (the real crash_one_rank shape)."""
    ref = error_ref()
    steps = [
        ("start", "Did any rank or component log an explicit error?", "explicit error"),
        ("explicit_error", "Which class does the first causal error belong to?", "shapes"),
        ("shape_mismatch", "Which dimension disagrees?", "projection input and weight"),
        ("shape_matmul_operands", "Was a projection's weight split by TP?", "projection"),
    ]
    return {
        "schema_version": 1,
        "bundle": {"name": "crash.tar.gz", "files": [], "warnings": []},
        "ranks": [],
        "diagnosis": {
            "category": "shape_mismatch",
            "subsystem": "framework",
            "first_error": ref,
            "error_codes": [],
            "culprit_ranks": [3],
            "root_cause": (
                "Matrix shapes cannot be multiplied, rank 3, at job-f0dddebb/log_3.log:48. "
                "Ranks 0, 1, 2 failed afterwards."
            ),
            "next_actions": ["Check the TP split of the projection weights."],
            "tree_path": [s[0] for s in steps],
            "tree_steps": [
                {"node": n, "question": q, "answer": a, "evidence": [ref]} for n, q, a in steps
            ],
            "evidence": [{"ref": ref, "role": "cause"}],
            "fingerprint": fingerprint,
            "fingerprint_template": "RuntimeError: mat1 and mat2 shapes cannot be multiplied "
            "(<*> and 32x32)",
        },
        "cases": cases if cases is not None else [],
    }


def hung_report(stack: str, answers: list[str | None]) -> dict:
    """A hung job's report whose walk ended on its leftover processes."""
    nodes = ["start", "no_explicit_error", "stuck_waiting", "hang_leftover_processes"]
    steps = [{"node": n, "answer": a, "evidence": []} for n, a in zip(nodes, answers, strict=True)]
    return {"environment": {}, "diagnosis": {"stack": stack, "tree_steps": steps}}


CUDA_WALK = [
    "no explicit error",
    "ranks waiting (communication or deadlock)",
    "leftover processes on the GPUs",
    "leftover processes on the GPUs",
]


def make_incident(report: dict[str, Any] | None, user=None, title: str = "job") -> Incident:
    """An incident whose latest run finished with `report` (None: still queued)."""
    incident = Incident.objects.create(title=title, created_by=user)
    Bundle.objects.create(
        incident=incident, sha256="0" * 64, original_name=f"{title}.tar.gz", size_bytes=1
    )
    state = RunState.DONE if report is not None else RunState.QUEUED
    run = AnalysisRun.objects.create(incident=incident, state=state, report=report)
    run.show_on_incident(state)  # as the worker does: status and the report's summary
    incident.refresh_from_db()
    return incident


def page_in(client, url: str, language: str, **params: str) -> str:
    """The page's HTML with `language` active: asked for in Accept-Language (which the
    locale middleware reads) and active around the request (for a stack without it)."""
    with translation.override(language):
        response = client.get(url, params, HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 200
    return response.content.decode()


def promote_form(client, incident: Incident) -> dict[str, Any]:
    """The promotion form's fields as the browser sends them back unchanged (GET stores
    nothing; POST this to save the draft)."""
    form = client.get(f"/incidents/INC-{incident.pk}/promote/").context["form"]
    return {bf.name: bf.field.prepare_value(bf.initial) for bf in form}
