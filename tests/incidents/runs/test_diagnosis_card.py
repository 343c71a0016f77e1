"""The diagnosis card says why the culprit ranks are not the rank of the first error, and
reads in the page's language."""

from __future__ import annotations

import copy
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.utils.html import escape

from analyzers.classify.rules import load_knowledge
from analyzers.core.bilingual import CJK_CHAR as CJK
from analyzers.report.advise import Situation, next_actions
from incidents.runs import services
from incidents.runs.analysis import analyze_run
from tests.incidents.library_helpers import make_incident, page_in, shape_report
from tests.incidents.meeting.reports import crash_report

pytestmark = pytest.mark.django_db


def test_card_explains_a_first_error_reported_by_a_peer(alice_client, alice, corpus: Path):
    path = corpus / "torch" / "divergent_monitored_barrier.tar.gz"
    upload = SimpleUploadedFile(path.name, path.read_bytes())
    incident = services.incident_create(upload=upload, title="", created_by=alice)
    analyze_run(run_id=incident.latest_run().pk)

    html = alice_client.get(incident.get_absolute_url()).content.decode()

    note = "Rank 0 reported first; rank 2 caused it: rank 0&#x27;s error names it."
    culprits = html.index("<dt>Culprit ranks</dt>")
    assert html.index(note) > culprits
    assert html.index("<dt>First error</dt>") > html.index(note)
    assert "(rank 0)" in html


def test_card_says_a_hang_singles_nobody_out(alice_client, alice):
    report = copy.deepcopy(shape_report())
    reason = (
        "Every rank stopped making progress after 'layer 2 / norm passed'; no rank stopped "
        "earlier or went further, so none is singled out."
    )
    report["diagnosis"].update(
        category="hang", first_error=None, culprit_ranks=[], culprit_reason=reason
    )
    incident = make_incident(report, alice)

    html = alice_client.get(incident.get_absolute_url()).content.decode()

    assert "<dt>Culprit ranks</dt>" in html
    assert "none singled out" in html
    assert "No error line found." in html


def test_card_without_a_reason_shows_the_culprit_ranks_alone(alice_client, alice):
    incident = make_incident(shape_report(), alice)

    html = alice_client.get(incident.get_absolute_url()).content.decode()

    assert "<dt>Culprit ranks</dt>" in html
    assert 'class="culprit-reason"' not in html


def test_card_names_the_last_common_checkpoint_with_its_layer(alice_client, alice):
    """`attention passed` is printed in every layer: the card names which one, as the
    timeline's dashed line, the rank table and the meeting screen do."""
    incident = make_incident(crash_report(), alice)

    html = alice_client.get(incident.get_absolute_url()).content.decode()

    card = html[html.index('id="diagnosis"') : html.index('id="triage"')]
    assert '<dd class="mono">layer 2 / attention passed</dd>' in card


def test_card_of_a_report_without_the_layer_names_the_checkpoint_alone(alice_client, alice):
    report = crash_report()
    del report["diagnosis"]["last_common_checkpoint_qualified"]
    incident = make_incident(report, alice)

    html = alice_client.get(incident.get_absolute_url()).content.decode()

    assert '<dd class="mono">attention passed</dd>' in html


def test_card_says_no_checkpoint_was_common_when_one_rank_never_reached_any(alice_client, alice):
    """Rank 3 died before its first checkpoint: no checkpoint is common, and the card says so
    rather than dropping the row."""
    report = crash_report(last_common_checkpoint=None, last_common_checkpoint_qualified=None)
    for rank in report["ranks"]:
        if rank["rank"] == 3:
            rank.update(checkpoints=0, last_checkpoint=None, last_checkpoint_qualified=None)
    incident = make_incident(report, alice)

    html = alice_client.get(incident.get_absolute_url()).content.decode()

    card = html[html.index('id="diagnosis"') : html.index('id="triage"')]
    assert "<dt>Last common checkpoint</dt>" in card
    assert "no checkpoint was reached by every rank" in card


def test_card_of_a_job_without_checkpoints_leaves_the_row_out(alice_client, alice):
    report = crash_report(last_common_checkpoint=None, last_common_checkpoint_qualified=None)
    for rank in report["ranks"]:
        rank.update(checkpoints=0, last_checkpoint=None, last_checkpoint_qualified=None)
    incident = make_incident(report, alice)

    html = alice_client.get(incident.get_absolute_url()).content.decode()

    card = html[html.index('id="diagnosis"') : html.index('id="triage"')]
    assert "Last common checkpoint" not in card


def bilingual_report() -> dict:
    """A shape-mismatch report whose next actions are the shipped ones for its category."""
    report = copy.deepcopy(shape_report())
    book = load_knowledge().actions
    report["diagnosis"]["next_actions"] = next_actions(book, Situation(category="shape_mismatch"))
    return report


def test_card_reads_in_chinese_on_a_chinese_page(alice_client, alice):
    incident = make_incident(bilingual_report(), alice)

    html = page_in(alice_client, incident.get_absolute_url(), "zh-hans")

    card = html[html.index('id="diagnosis"') :]
    assert "张量形状不匹配" in card  # the category's name
    assert escape("张量维度对不上，常见原因是并行切分") in card  # its description
    assert escape("检查按并行度切分的维度：切分的权重用 hidden // tp_size") in card
    assert "Check the dimensions divided by parallelism" not in card
    assert "Matrix shapes cannot be multiplied, rank 3" in card  # the evidence sentence


def test_card_reads_in_english_on_an_english_page(alice_client, alice):
    incident = make_incident(bilingual_report(), alice)

    html = page_in(alice_client, incident.get_absolute_url(), "en")

    card = html[html.index('id="diagnosis"') :]
    assert "Shape mismatch" in card
    assert "Check the dimensions divided by parallelism" in card
    assert 'class="root-cause-note"' not in card
    assert not CJK.search(card)


def analyzed_barrier_incident(alice, corpus: Path):
    """The real monitored-barrier job: rank 0 reports, rank 2 caused it."""
    path = corpus / "torch" / "divergent_monitored_barrier.tar.gz"
    upload = SimpleUploadedFile(path.name, path.read_bytes())
    incident = services.incident_create(upload=upload, title="", created_by=alice)
    analyze_run(run_id=incident.latest_run().pk)
    return incident


def test_root_cause_and_culprit_note_read_in_chinese_on_a_chinese_page(
    alice_client, alice, corpus: Path
):
    incident = analyzed_barrier_incident(alice, corpus)

    html = page_in(alice_client, incident.get_absolute_url(), "zh-hans")

    card = html[html.index('id="diagnosis"') :]
    note = "rank 0 最先报错；起因在 rank 2：rank 0 的报错点名了该 rank。"
    assert f'<p class="culprit-reason">{note}</p>' in card
    assert "有 rank 未能到达 monitored barrier，由 rank 0 上报" in card  # the root cause
    assert escape("“[Rank 0]: Rank 2 failed to pass monitoredBarrier in 5000 ms”") in card
    assert "rank 1、3 随后受其影响而失败。" in card
    assert "reported first" not in card
    assert "failed afterwards as a consequence" not in card


def test_the_same_report_reads_in_english_on_an_english_page(alice_client, alice, corpus: Path):
    incident = analyzed_barrier_incident(alice, corpus)

    html = page_in(alice_client, incident.get_absolute_url(), "en")

    card = html[html.index('id="diagnosis"') :]
    assert "Rank 0 reported first; rank 2 caused it" in card
    assert "Ranks 1, 3 failed afterwards as a consequence." in card
    assert not CJK.search(card)


def test_a_report_written_before_the_chinese_sentence_falls_back_to_english(alice_client, alice):
    report = copy.deepcopy(shape_report())
    report["diagnosis"]["culprit_reason"] = "Rank 3 failed the same way; ranks 2, 3 started it."
    assert "root_cause_zh" not in report["diagnosis"]
    incident = make_incident(report, alice)

    html = page_in(alice_client, incident.get_absolute_url(), "zh-hans")

    card = html[html.index('id="diagnosis"') :]
    assert "张量形状不匹配" in card  # the page itself is Chinese
    assert "Matrix shapes cannot be multiplied, rank 3" in card
    assert "Rank 3 failed the same way; ranks 2, 3 started it." in card


def test_alternatives_read_in_chinese_on_a_chinese_page(alice_client, alice):
    report = bilingual_report()
    report["diagnosis"]["alternatives"] = [
        {
            "category": "weight_load",
            "evidence": "Weight split does not fit the parallel size",
            "evidence_zh": "权重切分与并行规模不符",
            "score": 0.42,
        }
    ]
    incident = make_incident(report, alice)

    chinese = page_in(alice_client, incident.get_absolute_url(), "zh-hans")
    english = page_in(alice_client, incident.get_absolute_url(), "en")

    assert "权重切分与并行规模不符" in chinese
    assert "Weight split does not fit the parallel size" not in chinese
    assert "Weight split does not fit the parallel size" in english


def test_an_alternatives_evidence_links_to_its_log_line(alice_client, alice):
    report = bilingual_report()
    report["diagnosis"]["alternatives"] = [
        {
            "category": "weight_load",
            "evidence": "Weight split does not fit the parallel size",
            "score": 0.42,
            "ref": {"file": "logs/rank3.log", "line": 118, "text": "ValueError: split 3 of 2"},
        }
    ]
    incident = make_incident(report, alice)

    html = page_in(alice_client, incident.get_absolute_url(), "en")

    alternatives = html[html.index('class="alternatives"') :]
    alternatives = alternatives[: alternatives.index("</ul>")]
    assert "logs/rank3.log:118" in alternatives
    assert "line=118" in alternatives
