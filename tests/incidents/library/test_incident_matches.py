"""The incident page's library sections: best case matches, similar incidents, and how
promoted cases match later incidents (the promotion pages: test_views.py)."""

from __future__ import annotations

import re

import pytest

from incidents.library.models import CaseIncident, CaseSource
from incidents.library.promotion import case_promote, case_publish, title_from_root_cause
from incidents.library.services import incident_cases_sync
from tests.incidents.library_helpers import make_case, make_incident, make_library, shape_report

pytestmark = pytest.mark.django_db

MATCHES = [
    {"id": "hccl-buffsize-too-small", "title": "HCCL buffer too small", "score": 0.8},
    {"id": "aicore-timeout", "title": "AI Core timeout", "score": 0.4},
]


def test_incident_page_links_its_best_case_matches_in_order(alice_client, alice):
    make_library()
    incident = make_incident(shape_report(cases=MATCHES), alice)

    html = alice_client.get(incident.get_absolute_url()).content.decode()

    first = html.index('href="/library/hccl-buffsize-too-small/"')
    assert first < html.index('href="/library/aicore-timeout/"')
    assert "80%" in html


def test_a_match_missing_from_the_library_is_shown_without_a_link(alice_client, alice):
    incident = make_incident(shape_report(cases=MATCHES[:1]), alice)

    html = alice_client.get(incident.get_absolute_url()).content.decode()

    section = html[html.index('id="cases"') :]
    assert "HCCL buffer too small" in section
    assert 'href="/library/hccl-buffsize-too-small/"' not in section


def test_similar_incidents_share_the_fingerprint_newest_first(alice_client, alice):
    older = make_incident(shape_report(fingerprint="a" * 40), alice, title="older")
    newer = make_incident(shape_report(fingerprint="a" * 40), alice, title="newer")
    make_incident(shape_report(fingerprint="b" * 40), alice, title="other fingerprint")
    incident = make_incident(shape_report(fingerprint="a" * 40), alice, title="this one")

    response = alice_client.get(incident.get_absolute_url())

    html = response.content.decode()
    section = html[html.index('id="similar"') :]
    assert section.index(newer.short_id) < section.index(older.short_id)
    assert "other fingerprint" not in section
    assert f"{incident.short_id}</a> this one" not in section


def test_similar_incidents_use_each_incidents_latest_analysis(alice_client, alice):
    moved_on = make_incident(shape_report(fingerprint="a" * 40), alice, title="reanalyzed")
    moved_on.runs.create(state="done", report=shape_report(fingerprint="c" * 40))
    incident = make_incident(shape_report(fingerprint="a" * 40), alice)

    html = alice_client.get(incident.get_absolute_url()).content.decode()

    assert "reanalyzed" not in html[html.index('id="similar"') :]


def test_finished_run_links_the_incident_to_its_matched_cases(alice):
    make_library()
    incident = make_incident(shape_report(cases=MATCHES), alice)

    incident_cases_sync(run_id=incident.latest_run().pk)

    links = {link.case.slug: link.score for link in CaseIncident.objects.all()}
    assert links == {"hccl-buffsize-too-small": 0.8, "aicore-timeout": 0.4}


def test_a_new_run_replaces_matched_links_but_keeps_promoted_ones(alice):
    library = make_library()
    incident = make_incident(shape_report(cases=MATCHES), alice)
    incident_cases_sync(run_id=incident.latest_run().pk)
    CaseIncident.objects.create(
        case=library["oom-fragmentation"], incident=incident, source=CaseIncident.Source.PROMOTED
    )
    run = incident.runs.create(state="done", report=shape_report(cases=MATCHES[1:]))

    incident_cases_sync(run_id=run.pk)

    assert set(incident.case_links.values_list("case__slug", flat=True)) == {
        "aicore-timeout",
        "oom-fragmentation",
    }


def test_promoted_signature_matches_the_error_with_other_numbers(alice):
    incident = make_incident(shape_report(), alice)

    case = case_promote(incident=incident, user=alice)

    other = "RuntimeError: mat1 and mat2 shapes cannot be multiplied (16x8 and 32x32)"
    assert re.search(case.signatures[0], other)


@pytest.mark.parametrize(
    ("root_cause", "title"),
    [
        (
            "Matrix shapes cannot be multiplied, rank 3, at log_3.log:48. More.",
            "Matrix shapes cannot be multiplied",
        ),
        ("HCCL buffer too small. Ranks 0-7 failed.", "HCCL buffer too small"),
        (
            'Matrix shapes cannot be multiplied on rank 3 at job/log_3.log:48: "RuntimeError: '
            'mat1 and mat2 shapes cannot be multiplied". Ranks 0, 1, 2 failed afterwards.',
            "Matrix shapes cannot be multiplied",
        ),
        ("x" * 300, "x" * 120),
    ],
)
def test_title_from_root_cause(root_cause, title):
    assert title_from_root_cause(root_cause).rstrip("…") == title


def test_library_case_page_shows_a_promoted_case_is_editable(alice_client):
    case = make_case(
        slug="inc-9-x", title="t", category="other", root_cause="r", fix="f",
        source=CaseSource.PROMOTED,
    )  # fmt: skip

    html = alice_client.get(case.get_absolute_url()).content.decode()

    assert f'href="/library/{case.slug}/edit/"' in html


def test_a_promoted_case_matches_a_later_incident_with_the_same_error(alice_client, alice):
    first = make_incident(shape_report(), alice, title="first")
    case = case_promote(incident=first, user=alice)
    case_publish(case=case, user=alice)
    later_report = shape_report(fingerprint="e" * 40)
    later_report["diagnosis"]["first_error"]["text"] = (
        "[rank1]: RuntimeError: mat1 and mat2 shapes cannot be multiplied (4x16 and 32x32)"
    )
    later = make_incident(later_report, alice, title="later")

    incident_cases_sync(run_id=later.latest_run().pk)

    link = CaseIncident.objects.get(incident=later)
    assert (link.case, link.source, link.score) == (case, "matched", 0.7)
    html = alice_client.get(later.get_absolute_url()).content.decode()
    assert f'href="{case.get_absolute_url()}"' in html[html.index('id="cases"') :]


def test_a_promoted_case_does_not_match_an_unrelated_incident(alice):
    case = case_promote(incident=make_incident(shape_report(), alice), user=alice)
    case_publish(case=case, user=alice)
    other_report = shape_report()
    other_report["diagnosis"]["first_error"]["text"] = "HCCL_BUFFSIZE is too small"
    other_report["diagnosis"]["evidence"] = []
    other = make_incident(other_report, alice)

    incident_cases_sync(run_id=other.latest_run().pk)

    assert not CaseIncident.objects.filter(incident=other).exists()


def test_reanalysis_keeps_the_incidents_own_promoted_case_as_promoted(alice):
    incident = make_incident(shape_report(), alice)
    case = case_promote(incident=incident, user=alice)

    incident_cases_sync(run_id=incident.latest_run().pk)

    assert CaseIncident.objects.get(incident=incident, case=case).source == "promoted"
