"""The three incidents the list, its API and its filters are tried on, made the way the
worker and the triage services make them (a finished run copies its report's summary onto
the incident; triage goes through `triage_update`)."""

from __future__ import annotations

from incidents.models import Incident
from incidents.triage.services import triage_update
from tests.incidents.library_helpers import error_ref, make_incident, shape_report

HCCL_ERROR = "[rank2]: RuntimeError: HCCL function error: HcclAllReduce, error code is 7"


def make_triaged(
    alice, bob, *, hccl_error: str = HCCL_ERROR, shape_owner: str | None = None
) -> dict[str, Incident]:
    """`shape` (a shape crash bob resolved), `hccl` (investigating, owner bob, tag moe,
    ticket NPU-77, a plog among its files), `queued` (new, not analysed yet); created in
    that order."""
    hccl = shape_report()
    hccl["diagnosis"] |= {"category": "hccl", "error_codes": ["EI0006"], "culprit_ranks": [2]}
    hccl["diagnosis"]["first_error"] = error_ref(line=812, text=hccl_error)
    hccl["bundle"]["files"] = [{"path": "job/plog/plog-4242.log", "kind": "plog", "rank": None}]
    made = {
        "shape": make_incident(shape_report(), user=alice, title="shape job"),
        "hccl": make_incident(hccl, user=alice, title="hccl job"),
        "queued": make_incident(None, user=alice, title="queued job"),
    }
    triage_update(
        incident=made["hccl"],
        actor=alice,
        changes={
            "triage_status": "investigating",
            "owner": "bob",
            "tags": ["moe"],
            "tickets": ["https://jira.example.com/browse/NPU-77"],
        },
    )
    resolved = {"triage_status": "resolved"} | ({"owner": shape_owner} if shape_owner else {})
    triage_update(incident=made["shape"], actor=bob, changes=resolved)
    return made
