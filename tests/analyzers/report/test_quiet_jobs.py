"""A job with no error line, decided from its ranks side by side (`report.quiet_jobs`).

Each rank writes `log_<rank>.log` with Python logging and the toy decoder's bisection prints,
as the torch corpus's runs do (`tests/analyzers/job_bundles.py`).
"""

from __future__ import annotations

from analyzers.causal.verdict import Verdict
from analyzers.report.quiet_jobs import NOTHING, finished, without_errors
from tests.analyzers.excerpts import correlate_files
from tests.analyzers.job_bundles import ENV, RankLog, ranks


def decide(logs: list[RankLog], **extra: str) -> Verdict:
    files = {f"log_{log.rank}.log": log.text() for log in logs} | extra
    scans, correlation = correlate_files(files)
    return without_errors(correlation, scans)


def test_ranks_that_all_printed_their_success_line_finished() -> None:
    logs = ranks(2)
    for log in logs:
        log.layers(2, ["model run success"])

    verdict = decide(logs)

    assert (verdict.rule, verdict.category) == ("multirank.healthy", "healthy")


def test_one_rank_behind_the_others_with_no_error_is_a_stall() -> None:
    logs = ranks(4)
    for log in logs:
        log.layers(3 if log.rank != 2 else 1)

    verdict = decide(logs)

    assert verdict.category == "hang"
    assert verdict.culprits == (2,)


def test_a_rank_with_no_log_while_the_others_wait_on_their_weights_failed_loading() -> None:
    logs = ranks(4)[:3]  # the env dump counts four processes; rank 3 left no log
    for log in logs:
        log.loaded()

    verdict = decide(logs, **{"env.txt": ENV.format(size=4)})

    assert (verdict.rule, verdict.category, verdict.culprits) == (
        "multirank.weight_load",
        "weight_load",
        (3,),
    )


def test_a_missing_rank_while_the_others_compute_is_read_as_a_crash() -> None:
    logs = ranks(4)[:3]
    for log in logs:
        log.layers(2)

    verdict = decide(logs, **{"env.txt": ENV.format(size=4)})

    assert (verdict.rule, verdict.culprits) == ("multirank.missing", (3,))


def test_a_log_that_ends_with_neither_success_nor_error_stopped_quietly() -> None:
    log = "2026-11-29 07:24:22,190 INFO prefill start: 8 tokens\n"

    scans, correlation = correlate_files({"serve.log": log})
    verdict = without_errors(correlation, scans)

    assert (verdict.rule, verdict.category) == ("multirank.quiet_end", "hang")


def test_a_bundle_with_nothing_to_read_is_left_undiagnosed() -> None:
    scans, correlation = correlate_files({"env.txt": "MASTER_ADDR=127.0.0.1\nBACKEND=gloo\n"})

    assert without_errors(correlation, scans).rule == NOTHING


def test_a_rank_finished_when_its_last_checkpoint_is_its_success_line() -> None:
    logs = ranks(2)
    logs[0].layers(1, ["model run success"])
    logs[1].layers(1)
    files = {f"log_{log.rank}.log": log.text() for log in logs}

    _, correlation = correlate_files(files)

    assert [finished(rank) for rank in correlation.ranks] == [True, False]
