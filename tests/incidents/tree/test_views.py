"""The diagnosis tree on the incident page, on its own page, in the library; triage marks."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.utils.html import escape

from analyzers.tree.walk import load_tree
from incidents.runs import services
from incidents.runs.analysis import analyze_run
from incidents.tree.models import TreeMark
from tests.incidents.library_helpers import (
    CUDA_WALK,
    hung_report,
    make_incident,
    page_in,
    shape_report,
)

pytestmark = pytest.mark.django_db

PATH = ["start", "explicit_error", "shape_mismatch", "shape_matmul_operands"]


def node_ids(html: str, prefix: str) -> set[str]:
    return set(re.findall(rf'<li class="tree-node[^"]*" id="{prefix}([a-z0-9_]+)"', html))


def taken(html: str, prefix: str) -> set[str]:
    return set(re.findall(rf'<li class="tree-node is-taken[^"]*" id="{prefix}([a-z0-9_]+)"', html))


def mark_url(incident, node: str) -> str:
    return f"/incidents/INC-{incident.pk}/tree/{node}/mark/"


def test_library_tree_page_renders_every_node_with_a_permalink(alice_client):
    html = alice_client.get("/library/tree/").content.decode()

    ids = set(load_tree().nodes)
    assert node_ids(html, "node-") == ids
    assert all(f'href="#node-{i}"' in html for i in ids)


def test_library_tree_page_shows_the_verification_checklist(alice_client):
    html = alice_client.get("/library/tree/").content.decode()

    for item in load_tree().verification:
        assert f'id="node-verify-{item.id}"' in html


def test_incident_tree_page_highlights_the_path_taken(alice_client, alice):
    incident = make_incident(shape_report(), alice)

    html = alice_client.get(f"/incidents/INC-{incident.pk}/tree/").content.decode()

    assert node_ids(html, "node-") == set(load_tree().nodes)
    assert taken(html, "node-") == set(PATH)


def test_incident_page_draws_the_tree_with_tree_anchors(alice_client, alice):
    incident = make_incident(shape_report(), alice)

    html = alice_client.get(incident.get_absolute_url()).content.decode()

    assert taken(html, "tree-") == set(PATH)
    assert 'href="#tree-shape_matmul_operands"' in html


def test_taken_node_cites_its_evidence_with_a_log_viewer_link(alice_client, alice):
    incident = make_incident(shape_report(), alice)

    html = alice_client.get(f"/incidents/INC-{incident.pk}/tree/").content.decode()

    link = f"/incidents/INC-{incident.pk}/files/job-f0dddebb/log_3.log?line=48#L48"
    assert f'href="{link}"' in html
    assert "mat1 and mat2 shapes cannot be multiplied" in html


def test_an_undecided_node_is_marked_as_an_open_question(alice_client, alice):
    report = shape_report()
    report["diagnosis"]["tree_steps"][-1]["answer"] = None
    incident = make_incident(report, alice)

    html = alice_client.get(f"/incidents/INC-{incident.pk}/tree/").content.decode()

    assert 'class="tree-node is-taken is-open" id="node-shape_matmul_operands"' in html
    assert "could not decide" in html


def test_tree_page_of_an_incident_without_analysis_shows_the_bare_tree(alice_client, alice):
    incident = make_incident(None, alice)

    html = alice_client.get(f"/incidents/INC-{incident.pk}/tree/").content.decode()

    assert node_ids(html, "node-") == set(load_tree().nodes)
    assert taken(html, "node-") == set()


def test_triage_marks_a_node_checked(alice_client, alice):
    incident = make_incident(shape_report(), alice)

    response = alice_client.post(
        mark_url(incident, "shape_mismatch"),
        {"state": "checked", "note": "weights look right", "next": "/incidents/"},
    )

    mark = TreeMark.objects.get()
    assert response["Location"] == "/incidents/"
    assert (mark.incident, mark.node_id, mark.state, mark.user) == (
        incident,
        "shape_mismatch",
        "checked",
        alice,
    )
    assert mark.note == "weights look right"


def test_triage_overrides_a_branch_and_the_diagram_shows_it(alice_client, alice):
    incident = make_incident(shape_report(), alice)
    alice_client.post(
        mark_url(incident, "shape_mismatch"), {"state": "override", "branch": "shape_kv_heads"}
    )

    html = alice_client.get(f"/incidents/INC-{incident.pk}/tree/").content.decode()

    assert TreeMark.objects.get().branch == "shape_kv_heads"
    assert re.search(r'class="tree-node[^"]*is-chosen[^"]*" id="node-shape_kv_heads"', html)
    assert re.search(r'class="tree-node[^"]*is-override[^"]*" id="node-shape_mismatch"', html)


def test_override_needs_a_branch_of_that_node(alice_client, alice):
    incident = make_incident(shape_report(), alice)

    alice_client.post(mark_url(incident, "shape_mismatch"), {"state": "override"})
    alice_client.post(
        mark_url(incident, "shape_mismatch"), {"state": "override", "branch": "hccl_buffsize"}
    )

    assert TreeMark.objects.count() == 0


def test_a_later_mark_replaces_the_earlier_one_and_clear_removes_it(alice_client, alice):
    incident = make_incident(shape_report(), alice)
    url = mark_url(incident, "start")

    alice_client.post(url, {"state": "checked"})
    alice_client.post(url, {"state": "checked", "note": "again"})
    assert TreeMark.objects.get().note == "again"

    alice_client.post(url, {"state": "clear"})
    assert TreeMark.objects.count() == 0


def test_triage_redirects_back_to_the_node_and_refuses_other_sites(alice_client, alice):
    incident = make_incident(shape_report(), alice)

    response = alice_client.post(
        mark_url(incident, "start"), {"state": "checked", "next": "https://evil.example/"}
    )

    assert response["Location"] == f"/incidents/INC-{incident.pk}/#tree-start"


def test_triage_of_an_unknown_node_is_404(alice_client, alice):
    incident = make_incident(shape_report(), alice)

    assert (
        alice_client.post(mark_url(incident, "no_such_node"), {"state": "checked"}).status_code
        == 404
    )


def test_triage_needs_login(client, alice):
    incident = make_incident(shape_report(), alice)

    response = client.post(mark_url(incident, "start"), {"state": "checked"})

    assert response.status_code == 302
    assert TreeMark.objects.count() == 0


def test_incident_tree_page_needs_login(client, alice):
    incident = make_incident(shape_report(), alice)

    assert client.get(f"/incidents/INC-{incident.pk}/tree/").status_code == 302


@pytest.mark.slow
def test_real_bundle_page_shows_path_evidence_and_the_known_case(
    alice_client, alice, crash_bundle: Path
):
    call_command("load_knowledge", verbosity=0)
    upload = SimpleUploadedFile(crash_bundle.name, crash_bundle.read_bytes())
    incident = services.incident_create(upload=upload, title="", created_by=alice)
    analyze_run(run_id=incident.latest_run().pk)

    html = alice_client.get(incident.get_absolute_url()).content.decode()

    assert taken(html, "tree-") == set(PATH)
    assert f"/incidents/INC-{incident.pk}/files/job-f0dddebb/log_3.log?line=48#L48" in html
    cases = html[html.index('id="cases"') :]
    top3 = re.findall(r'<li>\s*<a href="/library/([a-z0-9-]+)/"', cases)[:3]
    assert "shape-matmul-operands" in top3
    assert incident.cases.filter(slug="shape-matmul-operands").exists()


@pytest.mark.slow
def test_a_real_gloo_job_is_not_told_to_run_npu_smi(alice_client, alice, crash_bundle: Path):
    """The bundle holds a CPU job (backend=gloo, no accelerator): the tree's root speaks to it
    in its CPU text, not in the Ascend text with npu-smi."""
    upload = SimpleUploadedFile(crash_bundle.name, crash_bundle.read_bytes())
    incident = services.incident_create(upload=upload, title="", created_by=alice)
    analyze_run(run_id=incident.latest_run().pk)

    html = alice_client.get(incident.get_absolute_url()).content.decode()

    start = html.index('id="tree-start"')
    root = html[start : html.index('<li class="tree-node', start)]  # up to its first child
    assert escape(load_tree().node("start").cpu.guidance) in root
    assert "<code>dmesg -T | tail -200</code>" in root
    assert "npu-smi" not in root


def test_tree_pages_read_in_the_page_language(alice_client):
    chinese = page_in(alice_client, "/library/tree/", "zh-hans")
    english = page_in(alice_client, "/library/tree/", "en")

    start = load_tree().node("start")
    assert f'<p class="node-question">{escape(start.question_zh)}</p>' in chinese
    assert f'<p class="node-guidance">{escape(start.guidance_zh)}</p>' in chinese
    assert escape(load_tree().verification[0].check_zh) in chinese
    assert '<span class="node-label">明确报错（‹category›）</span>' in chinese
    assert f'<p class="node-question">{escape(start.question)}</p>' in english
    assert escape(start.guidance_zh) not in english


def test_incident_tree_answers_read_in_chinese(alice_client, alice):
    report = shape_report()
    report["diagnosis"]["tree_steps"][0]["answer"] = "explicit error (shape_mismatch)"
    incident = make_incident(report, alice)

    html = page_in(alice_client, f"/incidents/INC-{incident.pk}/tree/", "zh-hans")

    assert '<span class="node-label">明确报错（shape_mismatch）</span>' in html
    assert "<strong>回答：</strong> 明确报错（shape_mismatch）" in html


def test_a_cuda_incidents_tree_page_reads_in_its_stacks_words(alice_client, alice):
    incident = make_incident(hung_report("cuda", CUDA_WALK), alice)
    url = f"/incidents/INC-{incident.pk}/tree/"

    english = page_in(alice_client, url, "en")
    chinese = page_in(alice_client, url, "zh-hans")

    question = "What do nvidia-smi and the ranks' stacks show for the job's processes?"
    assert f'<p class="node-question">{escape(question)}</p>' in english
    assert "<strong>Answer:</strong> leftover processes on the GPUs" in english
    assert '<span class="node-label">no job process on the GPUs</span>' in english
    assert "npu-smi show" not in english
    assert (
        '<p class="node-question">nvidia-smi 和各 rank 的调用栈显示作业的进程处于什么状态？</p>'
        in (chinese)
    )
    assert "<strong>回答：</strong> GPU 上有残留进程" in chinese
    assert '<span class="node-label">GPU 上没有作业进程</span>' in chinese


def test_a_cuda_report_walked_before_its_words_were_its_stacks_still_reads_in_chinese(
    alice_client, alice
):
    """Its steps carry the tree's own labels; the page re-fills them all the same."""
    ascend_words = [*CUDA_WALK[:2], "leftover processes on the NPUs", None]
    incident = make_incident(hung_report("cuda", ascend_words), alice)

    chinese = page_in(alice_client, f"/incidents/INC-{incident.pk}/tree/", "zh-hans")

    assert "<strong>回答：</strong> NPU 上有残留进程" in chinese


def test_a_triage_mark_names_the_question_as_the_incident_reads_it(alice_client, alice):
    incident = make_incident(hung_report("cuda", CUDA_WALK), alice)

    response = alice_client.post(
        mark_url(incident, "no_explicit_error"), {"state": "checked"}, follow=True
    )

    shown = [str(m) for m in response.context["messages"]]
    assert shown == [
        "Saved your triage of “What do nvidia-smi and the ranks' stacks show for the job's "
        "processes?”."
    ]
