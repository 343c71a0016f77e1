"""The web UI in English and Simplified Chinese: the language comes from the header's switch
(a cookie) or else from `Accept-Language`, and every page, status label, form and message
of the UI follows it. The API stays English (tests/incidents/api/test_language.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from django.conf import settings
from django.core.files.uploadedfile import SimpleUploadedFile
from django.utils import translation

from incidents.accounts.activity import activity_record
from incidents.accounts.models import Verb
from incidents.models import Incident
from incidents.runs import services
from incidents.runs.analysis import analyze_run

pytestmark = pytest.mark.django_db

CHINESE = {"HTTP_ACCEPT_LANGUAGE": "zh-CN,zh;q=0.9,en;q=0.5"}


@pytest.fixture(autouse=True)
def english_afterwards():
    """A request leaves its language active in this thread; later tests expect English."""
    yield
    translation.activate(settings.LANGUAGE_CODE)


def make_incident(path: Path, user, title: str = "") -> Incident:
    upload = SimpleUploadedFile(path.name, path.read_bytes())
    return services.incident_create(upload=upload, title=title, created_by=user)


@pytest.fixture
def analyzed(crash_bundle, alice) -> Incident:
    incident = make_incident(crash_bundle, alice, title="crash one rank")
    analyze_run(run_id=incident.latest_run().pk)
    return incident


def test_settings_offer_english_and_simplified_chinese():
    assert [code for code, _ in settings.LANGUAGES] == ["en", "zh-hans"]
    assert settings.LOCALE_PATHS == [settings.BASE_DIR / "locale"]
    chain = settings.MIDDLEWARE
    locale = chain.index("django.middleware.locale.LocaleMiddleware")
    assert chain.index("django.contrib.sessions.middleware.SessionMiddleware") < locale
    assert locale < chain.index("django.middleware.common.CommonMiddleware")


def test_without_a_preference_the_ui_is_english(alice_client, analyzed):
    html = alice_client.get("/incidents/").content.decode()

    assert '<html lang="en">' in html
    assert ">Incidents</h1>" in html
    assert "<th>Culprit ranks</th>" in html
    assert ">New</span>" in html  # TriageStatus.NEW's label


def test_accept_language_zh_cn_alone_gives_chinese(alice_client, analyzed):
    response = alice_client.get("/incidents/", **CHINESE)
    html = response.content.decode()

    assert response["Content-Language"] == "zh-hans"
    assert '<html lang="zh-hans">' in html
    assert ">事件</h1>" in html
    assert ">上传日志包</a>" in html
    assert ">新建</span>" in html  # TriageStatus.NEW's label
    assert "<th>故障源 rank</th>" in html


def test_incident_page_in_chinese(alice_client, analyzed):
    html = alice_client.get(f"/incidents/INC-{analyzed.pk}/", **CHINESE).content.decode()

    for text in ("<h2>诊断</h2>", "<dt>首个错误</dt>", "<h2>时间线</h2>", "<h2>证据", "重新分析"):
        assert text in html, text
    assert "Diagnosis</h2>" not in html
    assert 'id="run-state">已完成</span>' in html  # RunState.DONE's label


def test_language_switch_keeps_the_page_and_persists(alice_client, analyzed):
    page = f"/incidents/INC-{analyzed.pk}/?axis=time"
    html = alice_client.get(page).content.decode()
    assert 'action="/i18n/setlang/"' in html
    assert f'name="next" value="/incidents/INC-{analyzed.pk}/?axis=time"' in html

    response = alice_client.post("/i18n/setlang/", {"language": "zh-hans", "next": page})

    assert response.status_code == 302
    assert response["Location"] == page
    assert response.cookies[settings.LANGUAGE_COOKIE_NAME].value == "zh-hans"
    # The cookie outranks the browser's own preference on every later page.
    english_browser = {"HTTP_ACCEPT_LANGUAGE": "en-US,en;q=0.9"}
    assert ">事件</h1>" in alice_client.get("/incidents/", **english_browser).content.decode()
    assert "<h1>案例库</h1>" in alice_client.get("/library/").content.decode()

    alice_client.post("/i18n/setlang/", {"language": "en", "next": "/incidents/"})
    assert ">Incidents</h1>" in alice_client.get("/incidents/", **CHINESE).content.decode()


def test_login_page_has_the_switch_and_speaks_chinese(client):
    html = client.get("/accounts/login/", **CHINESE).content.decode()

    assert 'id="language-switch"' in html
    assert '<option value="zh-hans" lang="zh-hans" selected>简体中文</option>' in html
    assert "<h1>登录</h1>" in html


def test_switch_is_posted_by_a_static_script_not_inline(client):
    html = client.get("/accounts/login/").content.decode()

    assert '<script src="/static/js/language_switch.js" defer></script>' in html
    assert "onchange" not in html


def test_javascript_catalog_follows_the_page_language(client):
    english = client.get("/jsi18n/").content.decode()
    chinese = client.get("/jsi18n/", **CHINESE).content.decode()

    def escaped(text: str) -> str:  # the catalog writes non-ASCII text as \\uXXXX escapes
        return json.dumps(text)[1:-1]

    assert escaped("正在上传") not in english
    assert escaped("正在上传") in chinese  # static/js/incident_upload.js's "Uploading…"
    assert escaped("首个致因错误") in chinese  # static/js/timeline.js


def test_form_labels_help_and_errors_are_translated(alice_client):
    html = alice_client.post("/incidents/new/", {"title": "x"}, **CHINESE).content.decode()

    assert "作业日志打成的 .tar" in html  # the bundle field's help text
    assert "这个字段是必填项。" in html  # Django's own "This field is required."


def test_messages_are_translated(alice_client, alice):
    from incidents.accounts.token_services import api_token_create

    _, token = api_token_create(user=alice, actor=alice, name="ci", expires_days=7)
    response = alice_client.post(f"/account/tokens/{token.pk}/revoke/", follow=True, **CHINESE)

    assert f"已吊销令牌 {token.prefix}…。" in response.content.decode()


def test_oversized_upload_page_speaks_the_browser_language(alice_client, settings):
    settings.RANKLENS_MAX_UPLOAD_BYTES = 1024
    response = alice_client.post(
        "/incidents/new/",
        data=b"x" * 200_000,
        content_type="application/octet-stream",
        **CHINESE,
    )

    assert response.status_code == 413
    assert "日志包太大" in response.content.decode()


def test_activity_verbs_are_shown_in_the_page_language(alice_client, alice, analyzed):
    activity_record(actor=alice, verb=Verb.REANALYZED, target=analyzed.short_id, incident=analyzed)

    html = alice_client.get(f"/incidents/INC-{analyzed.pk}/", **CHINESE).content.decode()

    assert "<td>已重新分析" in html


def test_admin_names_the_models_in_chinese(admin_client):
    html = admin_client.get("/admin/", **CHINESE).content.decode()

    for name in ("事件", "分析运行", "API 令牌", "案例", "分诊标记", "操作记录"):
        assert name in html, name


def test_timeline_data_errors_follow_the_page_language(alice_client, analyzed):
    url = f"/incidents/INC-{analyzed.pk}/timeline.json?ranks=7-0"

    response = alice_client.get(url, **CHINESE)

    assert response.status_code == 400
    assert response.json()["error"] == "范围 '7-0' 写反了；应写成 0-7"


def test_the_root_cause_sentence_follows_the_page_language(alice_client, analyzed):
    page = f"/incidents/INC-{analyzed.pk}/"
    chinese = alice_client.get(page, **CHINESE).content.decode()
    english = alice_client.get(page, HTTP_ACCEPT_LANGUAGE="en").content.decode()

    assert "矩阵形状无法相乘，发生在 rank 3" in chinese
    assert "Matrix shapes cannot be multiplied on rank 3" not in chinese
    assert "Matrix shapes cannot be multiplied on rank 3" in english
