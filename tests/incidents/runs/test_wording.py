"""A run's step and failure reason are stored in English and shown in the page's language:
the texts Ranklens writes are re-said, anything else is shown as stored."""

from __future__ import annotations

import io
from datetime import UTC, datetime, timedelta

import pytest
from django.utils import translation

import analyzers
from analyzers import AnalyzeOptions
from analyzers.core.bilingual import CJK_CHAR as CJK
from incidents.models import AnalysisRun, RunState
from incidents.runs import wording
from incidents.runs.sweeper import Limits, decide
from tests.corpus_path import CORPUS
from tests.incidents.library_helpers import make_incident, page_in

NOW = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)


@pytest.fixture(scope="module")
def analyzer_steps() -> list[str]:
    """Every step text a real analysis reports, in the order it reports them."""
    steps: list[str] = []
    bundle = CORPUS / "torch" / "crash_one_rank.tar.gz"
    analyzers.analyze(bundle, AnalyzeOptions(workers=1, progress=lambda _, s: steps.append(s)))
    return steps


def test_every_step_the_analyzer_reports_reads_in_chinese(analyzer_steps):
    assert "correlating rank timelines" in analyzer_steps
    assert any(step.startswith("read ") for step in analyzer_steps)
    with translation.override("zh-hans"):
        shown = [wording.step_text(step) for step in analyzer_steps]

    assert all(CJK.search(text) for text in shown), shown
    assert "正在对齐各 rank 的时间线" in shown


def test_steps_read_as_stored_on_an_english_page(analyzer_steps):
    with translation.override("en"):
        assert [wording.step_text(step) for step in analyzer_steps] == analyzer_steps


@pytest.mark.parametrize(
    ("stored", "chinese"),
    [
        ("starting", "正在启动"),
        ("read job/rank_3/plog-1234.log", "已读取 job/rank_3/plog-1234.log"),
        (wording.WORKER_LOST_STEP, "已重新排队（上一个 worker 没有响应）"),
        ("uploading to the moon", "uploading to the moon"),  # not ours: as stored
        ("", ""),
    ],
)
def test_a_stored_step_on_a_chinese_page(stored, chinese):
    with translation.override("zh-hans"):
        assert wording.step_text(stored) == chinese


def sweeper_reason() -> str:
    """What the sweeper stores when a run's worker stopped answering on its last attempt."""
    quiet = AnalysisRun(
        pk=7,
        state=RunState.RUNNING,
        attempts=3,
        created_at=NOW - timedelta(hours=1),
        heartbeat_at=NOW - timedelta(seconds=600),
    )
    limits = Limits(stale=timedelta(seconds=120), queued_grace=timedelta(seconds=60))
    return decide(quiet, now=NOW, limits=limits, in_flight=None).reason


@pytest.mark.parametrize(
    ("stored", "chinese"),
    [
        pytest.param(
            sweeper_reason(),
            "分析已被中断 3 次：执行它的 worker 不再响应（600 秒没有心跳；"
            "可能被终止、内存不足或与数据库断开）。请尝试更小的日志包，或稍后点击“重新分析”。",
            id="sweeper",
        ),
        pytest.param(
            wording.english(wording.WORKER_DIED, times=3),
            "分析已被中断 3 次：执行它的 worker 进程已退出（内存不足或超过时间限制）。"
            "请尝试更小的日志包，或调大 RANKLENS_TASK_TIME_LIMIT。",
            id="worker-died",
        ),
        pytest.param(
            "The analysis stopped unexpectedly (MemoryError: cannot allocate).",
            "分析意外中止（MemoryError: cannot allocate）。",  # the exception's words as raised
            id="unexpected",
        ),
        pytest.param(
            "job.tar.gz: the archive is corrupt or truncated (unexpected end of data)",
            "job.tar.gz：归档已损坏或不完整（unexpected end of data）",
            id="bundle-error",
        ),
        pytest.param("Disk quota exceeded on /srv", "Disk quota exceeded on /srv", id="not-ours"),
    ],
)
def test_a_failure_reason_on_a_chinese_page(stored, chinese):
    with translation.override("zh-hans"):
        assert wording.reason_text(stored) == chinese


@pytest.mark.parametrize(
    "stored",
    [
        sweeper_reason(),
        wording.english(wording.QUEUE_LOST, times=5),
        "job.tar.gz: the archive is corrupt or truncated (unexpected end of data)",
    ],
)
def test_a_failure_reason_on_an_english_page_is_the_stored_text(stored):
    with translation.override("en"):
        assert wording.reason_text(stored) == stored


def test_the_stored_reason_is_the_english_the_sweeper_always_wrote():
    assert sweeper_reason() == (
        "The analysis was interrupted 3 times: its worker stopped answering (no heartbeat for "
        "600 s; killed, out of memory or cut off from the database). Try a smaller bundle or "
        "“Analyze again” later."
    )


# --- on the page, the live status and the API ------------------------------------------------


def stored_run(alice, **fields) -> AnalysisRun:
    incident = make_incident(None, alice)
    run = incident.latest_run()
    AnalysisRun.objects.filter(pk=run.pk).update(**fields)
    run.refresh_from_db()
    run.show_on_incident(run.state)
    return run


@pytest.mark.django_db
def test_a_running_step_reads_in_chinese_on_a_chinese_page(alice_client, alice):
    run = stored_run(alice, state=RunState.RUNNING, step="correlating rank timelines")
    url = run.incident.get_absolute_url()

    html = page_in(alice_client, url, "zh-hans")
    polled = alice_client.get(f"{url}status/", HTTP_ACCEPT_LANGUAGE="zh-hans").json()

    assert "正在对齐各 rank 的时间线" in html
    assert polled["step"] == "正在对齐各 rank 的时间线"
    assert AnalysisRun.objects.get(pk=run.pk).step == "correlating rank timelines"


@pytest.mark.django_db
def test_a_running_step_reads_in_english_on_an_english_page(alice_client, alice):
    run = stored_run(alice, state=RunState.RUNNING, step="correlating rank timelines")
    url = run.incident.get_absolute_url()

    html = page_in(alice_client, url, "en")
    polled = alice_client.get(f"{url}status/", HTTP_ACCEPT_LANGUAGE="en").json()

    assert "correlating rank timelines" in html
    assert polled["step"] == "correlating rank timelines"


@pytest.mark.django_db
def test_a_failure_reason_reads_in_chinese_on_a_chinese_page(alice_client, alice):
    reason = wording.english(wording.QUEUE_LOST, times=5)
    run = stored_run(alice, state=RunState.FAILED, error=reason)

    html = page_in(alice_client, run.incident.get_absolute_url(), "zh-hans")

    assert "任务队列已 5 次丢失这次分析" in html
    assert reason not in html.replace("&#x27;", "'")


@pytest.mark.django_db
def test_a_failure_reason_reads_in_english_on_an_english_page(alice_client, alice):
    reason = wording.english(wording.QUEUE_LOST, times=5)
    run = stored_run(alice, state=RunState.FAILED, error=reason)

    html = page_in(alice_client, run.incident.get_absolute_url(), "en")

    assert "The task queue lost this analysis 5 times, so it never started." in html


@pytest.mark.django_db
def test_the_api_answers_the_stored_english_whatever_the_caller_asks(client, alice, alice_token):
    reason = wording.english(wording.QUEUE_LOST, times=5)
    run = stored_run(alice, state=RunState.FAILED, error=reason)

    body = client.get(
        f"/api/incidents/INC-{run.incident_id}/",
        HTTP_AUTHORIZATION=f"Bearer {alice_token}",
        HTTP_ACCEPT_LANGUAGE="zh-hans",
    ).json()

    assert body["error"] == reason


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("language", "said"),
    [
        (
            "zh-hans",
            "screenshot.png：不是日志包。请上传 .tar、.tar.gz/.tgz（或 .tar.bz2、.tar.xz、.tar.zst）、.zip",
        ),
        (
            "en",
            "screenshot.png: not a log bundle. Upload a .tar, .tar.gz/.tgz (or .tar.bz2, .tar.xz, .tar.zst), .zip",
        ),
    ],
)
def test_a_refused_upload_says_why_in_the_page_language(alice_client, language, said):
    picture = io.BytesIO(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(range(256)) * 8)
    picture.name = "screenshot.png"

    with translation.override(language):
        response = alice_client.post(
            "/incidents/new/", {"bundle": picture}, HTTP_ACCEPT_LANGUAGE=language
        )

    assert response.status_code == 400
    assert said in response.content.decode()
