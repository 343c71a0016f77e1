"""`ranklens upload`: arguments, exit codes, and the wait for a verdict."""

from __future__ import annotations

import pytest

from ranklens_cli import cli
from ranklens_cli.api import ApiError
from tests.http_stub import Canned, stub_server

CREATED = {
    "id": "INC-7",
    "url": "http://ranklens.test/incidents/INC-7/",
    "status_url": "http://ranklens.test/api/incidents/INC-7/",
}
DONE = {
    "status": "done",
    "progress": 100,
    "error": None,
    "report": {
        "diagnosis": {
            "category": "hccl",
            "confidence": 0.86,
            "culprit_ranks": [2],
            "first_error": {"file": "rank2.log", "line": 9, "rank": 2, "text": "EI0006 timeout"},
        }
    },
}


class FakeClient:
    """Answers status polls from a list; an ApiError in the list is raised instead."""

    def __init__(self, answers: list) -> None:
        self.answers = answers
        self.polls = 0

    def status(self, status_url: str) -> dict:
        answer = self.answers[min(self.polls, len(self.answers) - 1)]
        self.polls += 1
        if isinstance(answer, ApiError):
            raise answer
        return answer


class FakeTime:
    def __init__(self) -> None:
        self.now = 0.0
        self.sleeps: list[float] = []

    def sleep(self, seconds: float) -> None:
        self.sleeps.append(seconds)
        self.now += seconds


def wait(client: FakeClient, timeout_s: float = 60) -> tuple[int, FakeTime]:
    clock = FakeTime()
    code = cli.wait_for_verdict(
        client, CREATED, timeout_s=timeout_s, sleep=clock.sleep, clock=lambda: clock.now
    )
    return code, clock


def test_upload_without_wait_prints_the_incident_url(crash_bundle, capsys):
    with stub_server([Canned.json(201, CREATED)]) as server:
        code = cli.main(["upload", str(crash_bundle), "--url", server.url, "--token", "t"])

    assert code == 0
    assert capsys.readouterr().out == CREATED["url"] + "\n"
    assert len(server.seen) == 1


def test_url_and_token_come_from_the_environment(crash_bundle, monkeypatch, capsys):
    with stub_server([Canned.json(201, CREATED)]) as server:
        monkeypatch.setenv("RANKLENS_URL", server.url)
        monkeypatch.setenv("RANKLENS_TOKEN", "rl_from_env")
        code = cli.main(["upload", str(crash_bundle), "--title", "nightly"])

    assert code == 0
    assert server.seen[0].headers["Authorization"] == "Bearer rl_from_env"


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--token", "t"], "pass --url or set RANKLENS_URL"),
        (["--url", "http://x"], "pass --token or set RANKLENS_TOKEN"),
        (["--url", "http://x", "--token", "t", "--timeout", "0"], "more than 0 seconds"),
    ],
)
def test_missing_or_bad_options_exit_2_saying_which(
    crash_bundle, monkeypatch, capsys, argv, message
):
    monkeypatch.delenv("RANKLENS_URL", raising=False)
    monkeypatch.delenv("RANKLENS_TOKEN", raising=False)

    with pytest.raises(SystemExit) as exited:
        cli.main(["upload", str(crash_bundle), *argv])

    assert exited.value.code == 2
    assert message in capsys.readouterr().err


def test_a_missing_file_exits_2_before_any_request(tmp_path, capsys):
    with pytest.raises(SystemExit) as exited:
        cli.main(["upload", str(tmp_path / "nope.tar.gz"), "--url", "http://x", "--token", "t"])

    assert exited.value.code == 2
    assert "nope.tar.gz is not a readable file" in capsys.readouterr().err


def test_a_refused_upload_exits_3_with_the_apis_message(crash_bundle, capsys):
    refusal = {"error": "This file is not a log bundle.", "status": 400}
    with stub_server([Canned.json(400, refusal)]) as server:
        code = cli.main(["upload", str(crash_bundle), "--url", server.url, "--token", "t"])

    assert code == cli.EXIT_HTTP_ERROR
    assert "HTTP 400: This file is not a log bundle." in capsys.readouterr().err


def test_an_answer_without_a_status_url_cannot_be_waited_on(crash_bundle, capsys):
    answer = {"id": "INC-7", "url": CREATED["url"]}
    with stub_server([Canned.json(201, answer)]) as server:
        argv = ["upload", str(crash_bundle), "--url", server.url, "--token", "t", "--wait"]
        code = cli.main(argv)

    assert code == cli.EXIT_HTTP_ERROR
    assert "no status_url" in capsys.readouterr().err


def test_wait_polls_until_done_and_prints_the_verdict(capsys):
    running = {"status": "running", "progress": 40, "step": "read rank2.log"}
    client = FakeClient([{"status": "queued", "progress": 0}, running, running, DONE])

    code, clock = wait(client)

    out, err = capsys.readouterr()
    assert code == 0
    assert client.polls == 4
    assert out.splitlines() == [
        "INC-7: hccl (confidence 0.86)",
        "culprit ranks: 2",
        "first error: rank 2, rank2.log:9: EI0006 timeout",
        CREATED["url"],
    ]
    assert err.count("running 40% read rank2.log") == 1  # one line per change, not per poll
    assert clock.sleeps == sorted(clock.sleeps)  # polls space out


def test_a_failed_analysis_exits_1_with_its_reason(capsys):
    failed = {"status": "failed", "error": "The bundle holds no log files."}

    code, _ = wait(FakeClient([failed]))

    assert code == cli.EXIT_ANALYSIS_FAILED
    assert "INC-7: analysis failed: The bundle holds no log files." in capsys.readouterr().out


def test_wait_gives_up_at_the_timeout_with_exit_4(capsys):
    client = FakeClient([{"status": "running", "progress": 10, "step": "read"}])

    code, clock = wait(client, timeout_s=30)

    assert code == cli.EXIT_TIMEOUT
    assert clock.now == pytest.approx(30)
    assert "gave up after 30 s" in capsys.readouterr().err


def test_a_gateway_error_while_waiting_is_asked_again(capsys):
    code, _ = wait(FakeClient([ApiError("HTTP 503: Service Unavailable", status=503), DONE]))

    assert code == 0
    assert "HTTP 503" in capsys.readouterr().err


def test_a_refusal_while_waiting_exits_3(capsys):
    code, _ = wait(FakeClient([ApiError("HTTP 404: No incident INC-7.", status=404)]))

    assert code == cli.EXIT_HTTP_ERROR
    assert "HTTP 404: No incident INC-7." in capsys.readouterr().err


def args_for() -> object:
    return cli.build_parser().parse_args(["upload", "job.tar.gz", "--url", "u", "--token", "t"])


class RefusingClient:
    """Refuses uploads with the given errors, then accepts."""

    def __init__(self, refusals: list[ApiError]) -> None:
        self.refusals = refusals
        self.uploads = 0

    def upload(self, path, *, title: str = "") -> dict:
        self.uploads += 1
        if self.refusals:
            raise self.refusals.pop(0)
        return CREATED


def test_an_upload_over_its_rate_is_sent_again_after_retry_after(tmp_path, capsys):
    client = RefusingClient([ApiError("HTTP 429: Too many requests", status=429, retry_after=7)])
    pauses: list[float] = []

    code = cli.upload(client, tmp_path / "job.tar.gz", args_for(), sleep=pauses.append)

    assert (code, client.uploads, pauses) == (0, 2, [7])
    assert "sending again in 7 s" in capsys.readouterr().err


def test_an_upload_refused_for_another_reason_is_not_repeated(tmp_path):
    client = RefusingClient([ApiError("HTTP 503: queue down", status=503)])
    pauses: list[float] = []

    code = cli.upload(client, tmp_path / "job.tar.gz", args_for(), sleep=pauses.append)

    assert (code, client.uploads, pauses) == (cli.EXIT_HTTP_ERROR, 1, [])


def test_an_upload_refused_for_its_rate_every_time_gives_up(tmp_path):
    refusals = [ApiError("HTTP 429", status=429, retry_after=1) for _ in range(10)]
    client = RefusingClient(refusals)

    code = cli.upload(client, tmp_path / "job.tar.gz", args_for(), sleep=lambda s: None)

    assert (code, client.uploads) == (cli.EXIT_HTTP_ERROR, cli.UPLOAD_ATTEMPTS)


def test_polling_waits_at_least_the_servers_retry_after():
    throttled = ApiError("HTTP 429: Too many requests", status=429, retry_after=12)
    code, clock = wait(FakeClient([throttled, DONE]))

    assert code == 0
    assert clock.sleeps == [12]
