"""Culprit ranks and the first error agree: whom a failed job blames, and why when the first
reported error is on another rank.

Each case is a small 4-rank gloo bundle shaped like the torch corpus, run through the whole
pipeline; the table says which ranks are culprits, which rank reported first and the note
the incident page shows next to them."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import jsonschema
import pytest

from analyzers.causal.chain import CLOCK_TOLERANCE_S
from analyzers.causal.window import CAUSAL_WINDOW_S, gap_said
from analyzers.core.phrases import plain
from analyzers.report.culprit_note import culprit_note
from analyzers.report.summary import format_summary
from tests.analyzers.excerpts import assert_reads
from tests.analyzers.job_bundles import CLOSED, RECV_TIMEOUT, SPLIT, RankLog, analyze_job, ranks

SCHEMA = json.loads(
    (Path(__file__).resolve().parents[3] / "analyzers/schema/report.schema.json").read_text()
)


def two_tp_ranks_fail_the_weight_split() -> list[RankLog]:
    """Ranks 2 and 3 split the embedding past its end 49 ms apart; rank 1 then loses its
    peer (a cascade), rank 0 is still waiting for the others to load."""
    job = ranks(4)
    job[0].loaded()
    job[1].loaded().at(760).log("ERROR", f"model run failed: {CLOSED}")
    job[1].raw(f"[rank1]: RuntimeError: {CLOSED}")
    job[2].at(655).fails(f"RuntimeError: {SPLIT.format(start=70656)}")
    job[3].at(704).fails(f"RuntimeError: {SPLIT.format(start=105984)}")
    return job


def same_split_on_a_slower_rank() -> list[RankLog]:
    """The same bad split on rank 3, 9 s later: the same fault, whatever the time."""
    job = two_tp_ranks_fail_the_weight_split()
    job[3] = RankLog(3, 4).at(9704).fails(f"RuntimeError: {SPLIT.format(start=105984)}")
    return job


def other_failure_long_after() -> list[RankLog]:
    """Rank 3 runs out of memory 30 s after rank 2's bad split: outside the causal window."""
    job = two_tp_ranks_fail_the_weight_split()
    oom = (
        "RuntimeError: NPU out of memory. Tried to allocate 2.00 GiB (NPU 3; 60.96 GiB total "
        "capacity; 58.10 GiB already allocated; 1.20 GiB free; 58.90 GiB reserved in total)"
    )
    job[3] = RankLog(3, 4).loaded().at(30655).fails(oom, frame="forward")
    return job


def peer_names_the_rank_that_skipped_the_barrier() -> list[RankLog]:
    """Rank 2 skips a monitored barrier and runs on; rank 0's barrier names it, ranks 1 and
    3 (with earlier C++ times) only say they lost rank 0; rank 2 later loses its peers."""
    job = ranks(4)
    for log in job:
        log.loaded().layers(3, [" norm passed"] + ([" attention passed"] if log.rank == 2 else []))
    job[0].raw(
        "[rank0]:[E1129 07:24:27.616993348 ProcessGroupGloo.cpp:2901] [Rank 0]: Rank 2 failed "
        "to pass monitoredBarrier in 5000 ms"
    )
    job[0].at(5741).log(
        "ERROR", "model run failed: [Rank 0]: Ranks 2 failed to pass monitoredBarrier in 5000 ms"
    )
    for rank in (1, 3):
        job[rank].raw(
            f"[rank{rank}]:[E1129 07:24:27.597017060 ProcessGroupGloo.cpp:67] Rank {rank} "
            "successfully reached monitoredBarrier, but received errors while waiting for "
            "send/recv from rank 0. Please check rank 0 logs for faulty rank."
        )
    job[2].at(6972).log("ERROR", f"model run failed: {CLOSED}")
    return job


def peers_time_out_on_a_rank_that_stopped_early() -> list[RankLog]:
    """Rank 3 stops inside layer 1's attention; the others finish it, wait in the next
    collective and time out. The first error is rank 0's timeout."""
    job = ranks(4)
    for log in job:
        log.loaded().layers(1, [" norm passed"] + ([] if log.rank == 3 else [" attention passed"]))
    for rank, ms in ((0, 10800), (1, 10830), (2, 10850)):
        job[rank].at(ms).log("ERROR", f"model run failed: {RECV_TIMEOUT}")
    return job


def peers_time_out_on_a_rank_that_skipped_a_collective() -> list[RankLog]:
    """Rank 2 skips layer 1's attention all_reduce and runs on into the MoE, where it loses
    its peers; the others time out in the all_reduce it never joined."""
    job = ranks(4)
    for log in job:
        log.loaded().layers(1, [" norm passed"] + ([" attention passed"] if log.rank == 2 else []))
    for rank, ms in ((0, 10800), (1, 10830), (3, 10850)):
        job[rank].at(ms).log("ERROR", f"model run failed: {RECV_TIMEOUT}")
    job[2].at(10900).log("ERROR", f"model run failed: {CLOSED}")
    return job


CASES = [
    pytest.param(
        two_tp_ranks_fail_the_weight_split,
        [2, 3],
        2,
        "Rank 3 failed the same way 49 ms later; ranks 2, 3 started it.",
        id="two-tp-ranks-49ms-apart-both-culprits-the-cascade-not",
    ),
    pytest.param(
        same_split_on_a_slower_rank,
        [2, 3],
        2,
        "Rank 3 failed the same way 9.0 s later; ranks 2, 3 started it.",
        id="same-failure-later-is-the-same-fault",
    ),
    pytest.param(
        other_failure_long_after,
        [2],
        2,
        None,
        id="other-failure-outside-the-window-is-not-a-culprit",
    ),
    pytest.param(
        peer_names_the_rank_that_skipped_the_barrier,
        [2],
        0,
        "Rank 0 reported first; rank 2 caused it: rank 0's error names it.",
        id="peer-report-names-the-culprit",
    ),
    pytest.param(
        peers_time_out_on_a_rank_that_stopped_early,
        [3],
        0,
        "Rank 0 reported first; rank 3 caused it: it stopped at 'layer 1 / norm passed' "
        "while the others went on to 'layer 1 / attention passed'.",
        id="timeout-blames-the-rank-that-stopped-early",
    ),
    pytest.param(
        peers_time_out_on_a_rank_that_skipped_a_collective,
        [2],
        0,
        "Rank 0 reported first; rank 2 caused it: it ran on to 'layer 1 / attention passed' "
        "while the others stopped at 'layer 1 / norm passed', skipping a collective they "
        "waited in.",
        id="timeout-blames-the-rank-that-skipped-the-collective",
    ),
]


@pytest.mark.parametrize(("job", "culprits", "first_rank", "note"), CASES)
def test_culprits_and_first_error_agree(
    tmp_path: Path,
    job: Callable[[], list[RankLog]],
    culprits: list[int],
    first_rank: int,
    note: str | None,
) -> None:
    report = analyze_job(tmp_path, job())
    diagnosis = report.diagnosis
    assert diagnosis.culprit_ranks == culprits
    assert diagnosis.first_error is not None
    assert diagnosis.first_error.rank == first_rank
    assert diagnosis.culprit_reason == note
    jsonschema.validate(report.to_dict(), SCHEMA)


def test_a_timeout_on_half_the_ranks_blames_the_half_that_stopped_first(tmp_path: Path) -> None:
    job = [RankLog(rank, 8) for rank in range(8)]
    for log in job:
        log.loaded().layers(2, [" norm passed"] + ([" attention passed"] if log.rank > 3 else []))
    for log in job[4:]:
        log.at(10800 + log.rank).log("ERROR", f"model run failed: {RECV_TIMEOUT}")
    diagnosis = analyze_job(tmp_path, job).diagnosis
    assert diagnosis.culprit_ranks == [0, 1, 2, 3]
    assert diagnosis.culprit_reason == (
        "Rank 4 reported first; ranks 0, 1, 2, 3 caused it: they stopped at "
        "'layer 2 / norm passed' while the others went on to 'layer 2 / attention passed'."
    )


def test_root_cause_names_every_culprit_and_not_the_cascade(tmp_path: Path) -> None:
    diagnosis = analyze_job(tmp_path, two_tp_ranks_fail_the_weight_split()).diagnosis
    assert_reads(diagnosis, "weight_load", first_error="exceeds dimension size (131125)")
    assert "ranks 2, 3 started it" in diagnosis.root_cause
    assert "Rank 1 failed afterwards as a consequence" in diagnosis.root_cause


@pytest.mark.parametrize(
    ("reporter", "culprits", "why", "note"),
    [
        (3, [3], None, None),
        (1, [1], "the launcher names it", None),
        (2, [2, 3], "rank 3 failed the same way", "Rank 3 failed the same way; ranks 2, 3 started it."),
        (0, [2], None, "Rank 0 reported first; rank 2 caused it."),
        (0, [2], "it left no log", "Rank 0 reported first; rank 2 caused it: it left no log."),
        (None, [1, 2], "their own lines report the same failure",
         "The first error has no rank; ranks 1, 2 caused it: their own lines report the same "
         "failure."),
        (0, [], "anything", None),
    ],
)  # fmt: skip
def test_culprit_note(
    reporter: int | None, culprits: list[int], why: str | None, note: str | None
) -> None:
    said = culprit_note(reporter, culprits, plain(why) if why else None)
    assert (said.en if said else None) == note


@pytest.mark.parametrize(
    ("gaps", "phrase", "chinese"),
    [
        ([0.049], "49 ms later", "晚 49 ms"),
        ([-0.3], "300 ms earlier", "早 300 ms"),
        ([9.0], "9.0 s later", "晚 9.0 s"),
        ([0.02, -0.12], "within 120 ms", "前后相差不超过 120 ms"),
        ([0.02, None], None, None),
        ([0.0], "at the same moment", "同一时刻"),
    ],
)
def test_gap_in_words(gaps: list[float | None], phrase: str | None, chinese: str | None) -> None:
    said = gap_said(gaps)
    got = (said.en, said.zh) if said else (None, None)
    assert got == (phrase, chinese)


def test_the_window_covers_clock_disagreement_but_not_a_collective_timeout() -> None:
    assert CLOCK_TOLERANCE_S < CAUSAL_WINDOW_S < 10.0  # the corpus jobs' gloo timeout


def test_terminal_summary_prints_the_note_under_the_culprits(tmp_path: Path) -> None:
    report = analyze_job(tmp_path, peer_names_the_rank_that_skipped_the_barrier())
    lines = format_summary(report).splitlines()
    at = lines.index("culprits    ranks 2")
    assert (
        lines[at + 1].strip() == "Rank 0 reported first; rank 2 caused it: rank 0's error names it."
    )


def a_rank_killed_under_a_launch_script(notice: str) -> tuple[list[RankLog], dict[str, str]]:
    """Rank 1 dies inside layer 2's MoE without a word; its peers lose the connection and
    the launch script's `wait` prints the shell's notice of how the job ended."""
    job = ranks(4)
    for log in job:
        log.loaded().layers(2, [" norm passed", " attention passed"])
    for rank, ms in ((0, 3100), (2, 3080), (3, 3120)):
        job[rank].at(ms).log("ERROR", f"model run failed: {CLOSED}")
    return job, {"run.out": notice + "\n"}


def test_a_shell_kill_notice_blames_the_rank_that_went_quiet(tmp_path: Path) -> None:
    job, extra = a_rank_killed_under_a_launch_script(
        "/srv/jobs/start.sh: line 14: 40117 Killed                  python -u infer.py "
        '--rank $i --world $N "$@" > logs/log_$i.log 2>&1'
    )
    diagnosis = analyze_job(tmp_path, job, extra).diagnosis
    assert diagnosis.category == "device_fault"
    assert diagnosis.first_error is not None
    assert diagnosis.first_error.file.endswith("run.out")
    assert diagnosis.culprit_ranks == [1]


def test_a_shell_notice_of_a_stopped_job_is_not_the_cause(tmp_path: Path) -> None:
    job, extra = a_rank_killed_under_a_launch_script(
        "/srv/jobs/start.sh: line 14: 40117 Terminated              python -u infer.py --rank $i"
    )
    diagnosis = analyze_job(tmp_path, job, extra).diagnosis
    assert diagnosis.first_error is not None
    assert not diagnosis.first_error.file.endswith("run.out")


def test_a_timeout_in_a_receive_blames_the_peer_it_waited_for(tmp_path: Path) -> None:
    """Labelling guide, "A wait that names its peer": a ring kv exchange in which rank 3
    never sends to rank 0. Rank 0's last line waits for rank 3; ranks 1-3 pass the exchange
    and time out in the all_reduce rank 0 never joins; rank 0 times out in its receive."""
    job = ranks(4)
    for log in job:
        log.loaded().layers(1, [" norm passed"])
        log.info(f"  waiting for kv from rank {(log.rank - 1) % 4}")
        if log.rank != 0:
            log.info("  kv exchange passed")
    for rank, ms in ((0, 10800), (1, 10810), (2, 10830), (3, 10850)):
        job[rank].at(ms).log("ERROR", f"model run failed: {RECV_TIMEOUT}")
    diagnosis = analyze_job(tmp_path, job).diagnosis
    assert diagnosis.first_error.rank == 0
    assert diagnosis.culprit_ranks == [3]
    assert diagnosis.culprit_reason == (
        "Rank 0 reported first; rank 3 caused it: rank 0 last logged a wait for it."
    )


def test_a_timeout_without_a_named_wait_blames_the_rank_behind(tmp_path: Path) -> None:
    """Counterexample: the same stall with no wait lines; rank 0 is behind and blamed."""
    job = ranks(4)
    for log in job:
        log.loaded().layers(1, [" norm passed"] + ([" kv exchange passed"] if log.rank else []))
    for rank, ms in ((0, 10800), (1, 10810), (2, 10830), (3, 10850)):
        job[rank].at(ms).log("ERROR", f"model run failed: {RECV_TIMEOUT}")
    assert analyze_job(tmp_path, job).diagnosis.culprit_ranks == [0]


def a_receiver_aborts_while_rank_0_goes_quiet(first_line: str) -> list[RankLog]:
    """Every rank reaches layer 1's norm; rank 2 fails on `first_line`, ranks 1 and 3 then
    lose the connection and rank 0 is stopped before it logs a word."""
    job = ranks(4)
    for log in job:
        log.loaded().layers(1, [" norm passed"])
    job[2].at(2050).raw(first_line)
    for rank, ms in ((1, 2100), (3, 2120)):
        job[rank].at(ms).log("ERROR", f"model run failed: {CLOSED}")
    return job


def test_a_rank_that_went_quiet_is_not_blamed_for_a_message_a_live_peer_sent(
    tmp_path: Path,
) -> None:
    """docs/labelling.md, "A rank that aborts on what a peer sent": the oversized message was
    sent by a running peer, and the line does not say which; rank 0's silence proves nothing."""
    line = (
        "  what():  [enforce fail at /opt/src/gloo/transport/tcp/pair.cc:446] op.preamble.length "
        "<= op.nbytes. 96 vs 64. Received data size doesn't match expected size."
    )
    diagnosis = analyze_job(tmp_path, a_receiver_aborts_while_rank_0_goes_quiet(line)).diagnosis
    assert diagnosis.category == "hccl"
    assert diagnosis.culprit_ranks == []


def test_a_rank_that_went_quiet_is_still_the_one_a_timeout_waited_for(tmp_path: Path) -> None:
    line = f"[rank2]: RuntimeError: {RECV_TIMEOUT}"
    diagnosis = analyze_job(tmp_path, a_receiver_aborts_while_rank_0_goes_quiet(line)).diagnosis
    assert diagnosis.culprit_ranks == [0]
