"""A case promoted from an incident starts with the report's Chinese for what the person
kept as prefilled, so it reads in Chinese on a Chinese page; their own words stay theirs."""

from __future__ import annotations

import copy

import pytest

from analyzers.classify.rules import load_knowledge
from analyzers.core.bilingual import CJK_CHAR as CJK
from analyzers.report.advise import Situation, next_actions
from incidents.library.models import Case
from incidents.library.promoted_chinese import title_from_root_cause_zh
from tests.incidents.library_helpers import make_incident, page_in, promote_form, shape_report

ROOT_CAUSE_ZH = (
    "矩阵形状无法相乘，发生在 rank 3，位置 job-f0dddebb/log_3.log:48："
    "“RuntimeError: mat1 and mat2 shapes cannot be multiplied (8x8 and 32x32)”。"
    "rank 0、1、2 随后受其影响而失败。"
)


@pytest.mark.parametrize(
    ("root_cause", "title"),
    [
        pytest.param(ROOT_CAUSE_ZH, "矩阵形状无法相乘", id="on-a-rank"),
        pytest.param(
            "有 rank 未能到达 monitored barrier，由 rank 0 上报，位置 job/log_0.log:20：“[Rank 0]”。",
            "有 rank 未能到达 monitored barrier",
            id="reported-by-a-peer",
        ),
        pytest.param(
            "算子执行失败，出错算子 MatMulV2（错误码 EZ9999：算子内部错误），发生在 rank 5。",
            "算子执行失败，出错算子 MatMulV2（错误码 EZ9999：算子内部错误）",
            id="operator-and-code-stay",
        ),
        pytest.param(
            "rank 2 在“layer 3 passed”之后不再推进。所有 rank 都到达的最后一个检查点：“layer 3”。",
            "rank 2 在“layer 3 passed”之后不再推进",
            id="first-sentence",
        ),
    ],
)
def test_the_chinese_title_is_the_root_cause_before_it_names_places(root_cause, title):
    assert title_from_root_cause_zh(root_cause) == title


def bilingual_report(*, chinese: bool = True) -> dict:
    """A shape-mismatch report with the shipped next actions and, unless told otherwise,
    its root cause in Chinese."""
    report = copy.deepcopy(shape_report())
    book = load_knowledge().actions
    report["diagnosis"]["next_actions"] = next_actions(book, Situation(category="shape_mismatch"))
    if chinese:
        report["diagnosis"]["root_cause_zh"] = ROOT_CAUSE_ZH
    return report


def promote(client, incident, **changes: str) -> Case:
    """Save the promotion form as prefilled, with `changes` typed over it."""
    client.post(f"/incidents/INC-{incident.pk}/promote/", promote_form(client, incident) | changes)
    return Case.objects.get()


@pytest.mark.django_db
def test_a_case_promoted_as_prefilled_reads_in_chinese_on_a_chinese_page(alice_client, alice):
    case = promote(alice_client, make_incident(bilingual_report(), alice))

    html = page_in(alice_client, case.get_absolute_url(), "zh-hans")

    assert case.translations["zh"]["root_cause"] == ROOT_CAUSE_ZH
    assert "<h1>矩阵形状无法相乘</h1>" in html
    assert "rank 0、1、2 随后受其影响而失败。" in html
    assert "检查按并行度切分的维度" in html  # the fix, from the next actions' Chinese
    assert "Check the dimensions divided by parallelism" not in html


@pytest.mark.django_db
def test_the_same_case_reads_in_english_on_an_english_page(alice_client, alice):
    case = promote(alice_client, make_incident(bilingual_report(), alice))

    html = page_in(alice_client, case.get_absolute_url(), "en")

    assert "<h1>Matrix shapes cannot be multiplied</h1>" in html
    assert "Check the dimensions divided by parallelism" in html
    assert not CJK.search(html[html.index("<h1>") : html.index("</dl>")])


@pytest.mark.django_db
def test_a_field_rewritten_in_the_form_keeps_only_its_new_words(alice_client, alice):
    incident = make_incident(bilingual_report(), alice)

    case = promote(alice_client, incident, title="Projection weight split twice by TP")

    assert set(case.translations["zh"]) == {"root_cause", "fix"}
    html = page_in(alice_client, case.get_absolute_url(), "zh-hans")
    assert "<h1>Projection weight split twice by TP</h1>" in html


@pytest.mark.django_db
def test_editing_a_field_later_drops_its_chinese(alice_client, alice):
    case = promote(alice_client, make_incident(bilingual_report(), alice))
    form = alice_client.get(f"/library/{case.slug}/edit/").context["form"]
    data = {bf.name: bf.field.prepare_value(bf.value()) for bf in form}

    alice_client.post(f"/library/{case.slug}/edit/", data | {"root_cause": "TP split twice."})

    case.refresh_from_db()
    assert set(case.translations["zh"]) == {"title", "fix"}
    assert "TP split twice." in page_in(alice_client, case.get_absolute_url(), "zh-hans")


@pytest.mark.django_db
def test_a_report_without_a_chinese_root_cause_gives_only_the_fix(alice_client, alice):
    case = promote(alice_client, make_incident(bilingual_report(chinese=False), alice))

    assert set(case.translations["zh"]) == {"fix"}
    html = page_in(alice_client, case.get_absolute_url(), "zh-hans")
    assert "<h1>Matrix shapes cannot be multiplied</h1>" in html
