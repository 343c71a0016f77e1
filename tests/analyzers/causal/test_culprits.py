"""Culprit ranks and the first error agree: whom a failed job blames, and why when the first
reported error is on another rank.

Each case is a small 4-rank gloo bundle shaped like the torch corpus, run through the whole
pipeline; the table says which ranks are culprits, which rank reported first and the note
the incident page shows next to them.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import jsonschema
import pytest

from analyzers import AnalyzeOptions, analyze
from analyzers.causal.chain import CLOCK_TOLERANCE_S
from analyzers.causal.window import CAUSAL_WINDOW_S, gap_said
from analyzers.core.phrases import plain
from analyzers.report.culprit_note import culprit_note
from analyzers.report.summary import format_summary
from tests.analyzers.excerpts import assert_reads
from tests.analyzers.job_bundles import (
    CLOSED,
    RECV_TIMEOUT,
    SPLIT,
    RankLog,
    analyze_job,
    bundle,
    pack,
    ranks,
    store_never_fills,
)

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


def _agent_log(
    pid: int, failed_local: int, code: int, records: list[tuple[int, int, int]], second: int = 12
) -> str:
    """A torchrun agent's launcher.log: its `failed (exitcode: N) local_rank: L` line and the
    ChildFailedError summary, the first record being the root cause."""
    head = (
        f"E1203 16:54:{second}.136000 {pid} torch/distributed/elastic/multiprocessing/api.py:1002] "
        f"failed (exitcode: {code}) local_rank: {failed_local} (pid: {pid + 10 + failed_local}) "
        "of binary: /opt/venv/bin/python\n"
        "torch.distributed.elastic.multiprocessing.errors.ChildFailedError: \n"
        "============================================================\n"
        "/home/user/llm-infer/infer.py FAILED\n"
        "------------------------------------------------------------\n"
    )

    def block(rank: int, local: int, exitcode: int) -> str:
        return (
            f"  time      : 2026-12-03_16:54:12\n  host      : localhost\n"
            f"  rank      : {rank} (local_rank: {local})\n"
            f"  exitcode  : {exitcode} (pid: {pid + 10 + local})\n  error_file: <N/A>\n"
            "  traceback : To enable traceback see: https://pytorch.org/docs/stable/elastic/errors.html\n"
        )

    blocks = ["Failures:\n"]
    blocks += [f"[{i}]:\n" + block(*record) for i, record in enumerate(records[1:], 1)]
    blocks.append("------------------------------------------------------------\n")
    blocks.append("Root Cause (first observed failure):\n[0]:\n" + block(*records[0]))
    return head + "".join(blocks) + "============================================================\n"


def _rank_lines(rank: int, error: str | None) -> str:
    lines = [
        f"2026-12-03 16:54:08,{100 + rank:03d} [rank{rank}] INFO init process group: "
        f"backend=gloo rank={rank} world_size=4 master=localhost:37033 timeout=10s",
        f"2026-12-03 16:54:08,737 [rank{rank}] INFO  norm passed",
    ]
    if error:
        lines.append(
            f"2026-12-03 16:54:12,{500 + rank:03d} [rank{rank}] ERROR model run failed: {error}"
        )
    return "".join(line + "\n" for line in lines)


def test_a_second_agents_launcher_names_its_own_local_rank(tmp_path: Path) -> None:
    """Labelling guide, "A second launcher agent numbers its ranks from 0": node1's agent
    says its local rank 0 exited with 3, and that rank (global 2, by its own start line) left
    no error line; node1's own summary maps local 0 to global 2, while node0's summary also has
    a local rank 0 (global 0, stopped by its agent) and node0's own report came a second later."""
    job = tmp_path / "job-0ab3"
    for node, text in (
        ("node0", _agent_log(19553, 1, 1, [(1, 1, 1), (0, 0, -15)], second=13)),
        ("node1", _agent_log(19600, 0, 3, [(2, 0, 3), (3, 1, -15)])),
    ):
        (job / node).mkdir(parents=True)
        (job / node / "launcher.log").write_text(text, encoding="utf-8")
    for node, local, rank in (("node0", 0, 0), ("node0", 1, 1), ("node1", 0, 2), ("node1", 1, 3)):
        folder = job / node / "torchrun_logs" / f"job-0ab3_{node}x" / "attempt_0" / str(local)
        folder.mkdir(parents=True)
        (folder / "stderr.log").write_text(
            _rank_lines(rank, CLOSED if rank < 2 else None), encoding="utf-8"
        )
    report = analyze(job, AnalyzeOptions(workers=1))
    assert "exitcode: 3" in report.diagnosis.first_error.text
    assert report.diagnosis.culprit_ranks == [2]


def test_one_agents_launcher_maps_local_ranks_through_any_report(tmp_path: Path) -> None:
    """Counterexample: with one agent the summary is the only map, as before."""
    job = tmp_path / "job-7d5d"
    job.mkdir()
    (job / "launcher.log").write_text(
        _agent_log(26576, 1, 3, [(1, 1, 3), (0, 0, -15)]), encoding="utf-8"
    )
    report = analyze(job, AnalyzeOptions(workers=1))
    assert report.diagnosis.culprit_ranks == [1]


def test_ranks_past_the_started_processes_are_not_blamed(tmp_path: Path) -> None:
    """Labelling guide, "A world size larger than the job started": four processes started
    (the env dump says WORLD_SIZE=4) with world_size=5 in their own lines; rank 4 never
    existed, so nobody is blamed for its absence."""
    report = analyze_job(tmp_path, store_never_fills(5, 4))
    assert report.world_size == 5
    assert report.diagnosis.culprit_ranks == []


def test_a_rank_the_job_started_and_never_heard_from_is_still_blamed(tmp_path: Path) -> None:
    """Counterexample: the environment counts five processes, so rank 4 was started and is
    the one the store waited for."""
    path = bundle(tmp_path, store_never_fills(5, 4), 5)
    report = analyze(path, AnalyzeOptions(workers=1))
    assert report.diagnosis.culprit_ranks == [4]


def _fingerprint(seq: int, op: str, shape: str) -> str:
    return (
        f"CollectiveFingerPrint(SequenceNumber={seq}, OpType={op}, TensorShape=[{shape}], "
        "TensorDtypes=Float, TensorDeviceTypes=TensorOptions(dtype=float (default), device=cpu, "
        "layout=Strided (default), requires_grad=false (default), pinned_memory=false "
        "(default), memory_format=(nullopt)))"
    )


def every_rank_checks_fingerprints(odd: int, world: int = 4) -> list[RankLog]:
    """TORCH_DISTRIBUTED_DEBUG=DETAIL: rank `odd` alone calls an extra one-element
    all_reduce in layer 2; every rank compares fingerprints and raises at once. Each names
    the first peer that differs from it: the peers name `odd`, `odd` names its first peer."""
    job = ranks(world)
    for log in job:
        log.loaded().layers(2, [" norm passed"])
        mine = "1" if log.rank == odd else "8, 64"
        other = 0 if log.rank == odd and odd != 0 else (1 if log.rank == odd else odd)
        log.raw(f"[rank{log.rank}]: Traceback (most recent call last):")
        log.raw(
            f"[rank{log.rank}]: RuntimeError: Detected mismatch between collectives on ranks. "
            f"Rank {log.rank} is running collective: {_fingerprint(9, 'ALLREDUCE', mine)}, "
            f"but Rank {other} is running collective: CollectiveFingerPrint(SequenceNumber="
            "0OpType=GATHER).Collectives differ in the following aspects: \t Sequence number: "
            "9vs 0  Op type: ALLREDUCEvs GATHER"
        )
    return job


@pytest.mark.parametrize("odd", [0, 2])
def test_the_rank_its_peers_name_in_a_fingerprint_mismatch_is_the_culprit(
    tmp_path: Path, odd: int
) -> None:
    """Labelling guide, "Peers that name one rank": rank 0's line comes first; when rank 0
    is itself the odd rank it names rank 1, yet the three others all name rank 0."""
    diagnosis = analyze_job(tmp_path, every_rank_checks_fingerprints(odd)).diagnosis
    assert diagnosis.category == "hccl"
    assert diagnosis.first_error.rank == 0
    assert diagnosis.culprit_ranks == [odd]


def test_one_fingerprint_report_names_its_peer(tmp_path: Path) -> None:
    """Counterexample: only rank 1's log holds the report (the others lost their peers),
    so there is no count to take and the line's own naming stands."""
    job = ranks(4)
    for log in job:
        log.loaded().layers(2, [" norm passed"])
    job[1].raw(
        "[rank1]: RuntimeError: Detected mismatch between collectives on ranks. Rank 1 is "
        f"running collective: {_fingerprint(9, 'ALLREDUCE', '8, 64')}, but Rank 3 is running "
        f"collective: {_fingerprint(9, 'ALLGATHER', '8, 64')}."
    )
    for rank in (0, 2, 3):
        job[rank].at(900).log("ERROR", f"model run failed: {CLOSED}")
    diagnosis = analyze_job(tmp_path, job).diagnosis
    assert diagnosis.first_error.rank == 1
    assert diagnosis.culprit_ranks == [3]


NOT_DIVISIBLE = "ValueError: num_experts (8) must be divisible by the expert-parallel size (6)"


def every_rank_refuses_the_layout(failing: int) -> list[RankLog]:
    """Ranks 0..failing-1 raise the same layout check at model build (a launch that made a
    world of six for eight experts); the rest, if any, lose their peers."""
    job = ranks(4)
    for log in job:
        if log.rank < failing:
            log.at(400 + 7 * log.rank).fails(NOT_DIVISIBLE, frame="build_model")
        else:
            log.at(900).log("ERROR", f"model run failed: {CLOSED}")
    return job


def test_a_failure_every_rank_shares_blames_no_rank(tmp_path: Path) -> None:
    """Labelling guide, "A failure every rank shares": all four ranks refuse the same
    setting; nobody started it, the setting did."""
    diagnosis = analyze_job(tmp_path, every_rank_refuses_the_layout(4)).diagnosis
    assert_reads(diagnosis, "config", first_error="must be divisible by the expert-parallel size")
    assert diagnosis.culprit_ranks == []


def test_a_failure_most_ranks_share_still_blames_them(tmp_path: Path) -> None:
    """Counterexample: rank 3 did not fail that way (it lost its peers), so the three that
    did are the culprits, as any ranks failing together in the window are."""
    diagnosis = analyze_job(tmp_path, every_rank_refuses_the_layout(3)).diagnosis
    assert diagnosis.culprit_ranks == [0, 1, 2]


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


DCP_FRAMES = [
    '  File "/opt/venv/lib/python3.11/site-packages/torch/distributed/checkpoint/utils.py", '
    "line 193, in reduce_scatter",
    "    local_data = map_fun()",
]


def dcp_load_fails(failed: dict[int, str]) -> list[RankLog]:
    """Every rank raises torch's distributed checkpoint exception for a load that failed on
    the ranks in `failed`, each quoting those ranks' tracebacks under `(RANK n)`."""
    job = ranks(4)
    listed = ", ".join(map(str, failed))
    for log in job:
        log.info("resuming from distributed checkpoint /ckpt/step200")
        log.log("ERROR", f"model run failed: CheckpointException ranks:dict_keys([{listed}])")
        for rank, error in failed.items():
            log.raw(f"Traceback (most recent call last): (RANK {rank})")
            log.lines += DCP_FRAMES
            log.raw(error.format(rank=rank))
    return job


def test_a_distributed_checkpoint_failure_quoted_on_every_rank_blames_the_rank_it_names(
    tmp_path: Path,
) -> None:
    """Labelling guide, "A failure every rank shares": rank 1 alone asks for a parameter the
    checkpoint lacks; every rank's log quotes rank 1's traceback, so rank 1 is the culprit."""
    job = dcp_load_fails({1: "RuntimeError: Missing key in checkpoint state_dict: model.bq."})
    diagnosis = analyze_job(tmp_path, job).diagnosis
    assert_reads(diagnosis, "weight_load", first_error="Missing key in checkpoint state_dict")
    assert diagnosis.culprit_ranks == [1]


def test_a_distributed_checkpoint_failure_of_every_rank_blames_no_rank(tmp_path: Path) -> None:
    """Every rank's metadata read fails, each naming its own `__n.metadata`; every log quotes
    all four: the failure is the checkpoint's, no rank is singled out."""
    error = (
        "AssertionError: metadata is None; global metadata read failed: [Errno 2] No such file "
        "or directory: '/ckpt/step200/.metadata'; rank local metadata read failed: [Errno 2] "
        "No such file or directory: '/ckpt/step200/__{rank}.metadata'"
    )
    job = dcp_load_fails(dict.fromkeys(range(4), error))
    diagnosis = analyze_job(tmp_path, job).diagnosis
    assert diagnosis.category == "weight_load"
    assert diagnosis.culprit_ranks == []


def test_a_failure_every_rank_shares_with_its_own_numbers_blames_no_rank(tmp_path: Path) -> None:
    """Each rank misses its own shard of a checkpoint directory that holds none (the job
    points at the wrong one): the same failure with each rank's own file number."""
    job = ranks(4)
    for log in job:
        path = f"/ckpt/run7/model_tp{log.rank:02d}-of-04.pt"
        log.at(300 + 7 * log.rank).log(
            "ERROR", f"model run failed: [Errno 2] No such file or directory: '{path}'"
        )
    diagnosis = analyze_job(tmp_path, job).diagnosis
    assert diagnosis.category == "weight_load"
    assert diagnosis.culprit_ranks == []


def _lookup_failed(log: RankLog, host: str) -> RankLog:
    return log.raw(
        "[W1204 09:10:01.100200300 socket.cpp:764] [c10d] The IPv6 network addresses of "
        f"({host}, 36949) cannot be retrieved (gai error: -2 - Name or service not known)."
    )


def test_a_store_host_every_rank_failed_to_resolve_blames_no_rank(tmp_path: Path) -> None:
    """Every rank was given the same unresolvable MASTER_ADDR; the launcher printed only the
    first failed rank's exception and stopped the others before they said anything. The
    others' silence does not single them out: the setting was everyone's."""
    host = "infer-master-0.infer.svc"
    job = ranks(4)
    for log in job:
        _lookup_failed(log, host)
    job[1].raw(
        "torch.distributed.DistNetworkError: The client socket has timed out after 10000ms "
        f"while trying to connect to ({host}, 36949)."
    )
    diagnosis = analyze_job(tmp_path, job).diagnosis
    assert_reads(diagnosis, "hccl", first_error="cannot be retrieved")
    assert diagnosis.culprit_ranks == []


def _spawned_stdout(world_size: int, with_rank: bool) -> str:
    """An mp.spawn driver's one stdout: every rank prints the same checkpoints, with or
    without its rank, until the all_reduce of layer 1 times out; the driver prints only
    the first failed child's traceback (process 1)."""
    out = [
        f"init process group: backend=gloo rank={rank} world_size={world_size} timeout=8s"
        for rank in range(world_size)
    ]
    for part in ("load weights passed", "prefill start", " norm passed", " attention passed"):
        for rank in range(world_size):
            out.append(f"[rank{rank}] {part}" if with_rank else part)
    out += [
        "torch.multiprocessing.spawn.ProcessRaisedException: ",
        "",
        "-- Process 1 terminated with the following error:",
        "Traceback (most recent call last):",
        '  File "/srv/venv/lib/python3.11/site-packages/torch/distributed/distributed_c10d.py",'
        " line 3252, in all_reduce",
        "    work.wait()",
        "RuntimeError: [/__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp/"
        "unbound_buffer.cc:78] Timed out waiting 8000ms for recv operation to complete",
    ]
    return "\n".join(out) + "\n"


def _one_stdout_bundle(directory: Path, text: str, world_size: int) -> Path:
    files = {"stdout.log": text, "env.txt": f"WORLD_SIZE={world_size}\n"}
    return pack(directory / "job.tar.gz", files, "job")


def test_ranks_printing_without_their_rank_into_one_stdout_are_not_missing(
    tmp_path: Path,
) -> None:
    """Six ranks print plain checkpoints into an mp.spawn driver's stdout; only process 1's
    traceback names a rank. The other five wrote the unranked lines too: they left a log,
    so none of them is blamed for leaving none."""
    path = _one_stdout_bundle(tmp_path, _spawned_stdout(6, with_rank=False), 6)
    diagnosis = analyze(path, AnalyzeOptions(workers=1)).diagnosis
    assert diagnosis.category == "hccl"
    assert diagnosis.culprit_ranks == []


def test_a_rank_without_its_own_log_among_ranked_logs_is_still_missing(tmp_path: Path) -> None:
    """Counterexample: per-rank logs whose every checkpoint carries its rank, rank 3's log
    absent while the others time out: no line is left unattributed, so rank 3 left none."""
    job = [RankLog(rank, 4) for rank in range(3)]
    for log in job:
        log.loaded().layers(1, [" norm passed"])
        log.log("ERROR", f"model run failed: {RECV_TIMEOUT}")
    path = bundle(tmp_path, job, 4)
    assert analyze(path, AnalyzeOptions(workers=1)).diagnosis.culprit_ranks == [3]


def test_a_monitored_barrier_waiting_for_every_rank_blames_each_rank_it_lists(
    tmp_path: Path,
) -> None:
    """`monitored_barrier(wait_all_ranks=True)`: rank 0 names each late rank on a line of its
    own, then all of them in one; the first of those lines is the first error, and every rank
    the report lists is a culprit, not only the one its first line names."""
    job = ranks(4)
    for log in job:
        log.loaded().layers(1, [" norm passed", " attention passed"])
    for late in (2, 3):
        job[0].raw(
            f"[rank0]:[E1205 01:23:29.89036{late}807 ProcessGroupGloo.cpp:2901] [Rank 0]: "
            f"Rank {late} failed to pass monitoredBarrier in 3000 ms"
        )
    job[0].raw(
        "[rank0]:[E1205 01:23:29.890404422 ProcessGroupGloo.cpp:67] [Rank 0]: Ranks 2, 3 failed "
        "to pass monitoredBarrier in 3000 ms"
    )
    job[1].raw(
        "[rank1]:[E1205 01:23:29.897017060 ProcessGroupGloo.cpp:67] Rank 1 successfully reached "
        "monitoredBarrier, but received errors while waiting for send/recv from rank 0. Please "
        "check rank 0 logs for faulty rank."
    )
    diagnosis = analyze_job(tmp_path, job).diagnosis
    assert diagnosis.first_error is not None
    assert "Rank 2 failed to pass monitoredBarrier" in diagnosis.first_error.text
    assert diagnosis.culprit_ranks == [2, 3]


GLOO_PREAMBLE = (
    "  what():  [enforce fail at /opt/src/gloo/transport/tcp/pair.cc:456] op.preamble.length "
    "<= op.nbytes. 256 vs 32. Received data size doesn't match expected size. Is there a "
    "distributed collective mismatch in your code?"
)


def a_receiver_aborts_ahead(steps: dict[int, list[str]]) -> list[RankLog]:
    """Four ranks in layer 3 after its norm, each then logging its `steps`; rank 3 aborts on a
    longer message and the others then lose it."""
    job = ranks(4)
    for log in job:
        log.loaded().layers(3, [" norm passed", *steps.get(log.rank, [])])
    job[3].at(2050).raw("terminate called after throwing an instance of 'gloo::EnforceNotMet'")
    job[3].raw(GLOO_PREAMBLE)
    for rank, ms in ((0, 2100), (1, 2110), (2, 2120)):
        job[rank].at(ms).log("ERROR", f"model run failed: {CLOSED}")
    return job


def test_a_receiver_that_ran_past_its_peers_skipped_the_collective(tmp_path: Path) -> None:
    """docs/labelling.md, "A rank that aborts on what a peer sent": rank 3 went on through
    layer 3 and the end of prefill while rank 2, its partner, never passed layer 3's
    attention; the longer message was rank 2's pending all-reduce meeting rank 3's later one,
    so rank 3 skipped a collective (a real gloo run of a skipped TP all-reduce)."""
    lead = [" attention passed", " MoE passed", "layer 3 passed", "prefill passed"]
    job = a_receiver_aborts_ahead({0: [" attention passed"], 1: lead, 3: lead})
    diagnosis = analyze_job(tmp_path, job).diagnosis
    assert diagnosis.category == "hccl"
    assert diagnosis.first_error.rank == 3
    assert diagnosis.culprit_ranks == [3]


def test_a_receiver_one_line_ahead_is_not_blamed_for_running_on(tmp_path: Path) -> None:
    """Counterexample: a lead of one line is what a stop can cut off a peer's log; ranks 0, 1
    at the norm, ranks 2, 3 one line on: the receiver's lead singles nobody out."""
    job = a_receiver_aborts_ahead({2: [" attention passed"], 3: [" attention passed"]})
    assert 3 not in analyze_job(tmp_path, job).diagnosis.culprit_ranks


def _plain_progress() -> list[str]:
    lines = ["load weights passed"]
    for layer in range(2):
        lines += ["  norm passed", "  attention passed", "  MoE passed", f"layer {layer} passed"]
    return [*lines, "  norm passed"]


def _lost_peer_tail(rank: int) -> list[str]:
    return [
        f"[rank{rank}]: Traceback (most recent call last):",
        f'[rank{rank}]:   File "/home/user/llm-infer/infer.py", line 170, in forward',
        f"[rank{rank}]:     dist.all_reduce(out)",
        f"[rank{rank}]: RuntimeError: {CLOSED}",
    ]


ABORT_DUMP = [
    "Fatal Python error: Aborted",
    "",
    "Current thread 0x00007fb8a63dab80 (most recent call first):",
    '  File "/home/user/llm-infer/infer.py", line 124 in fail',
    '  File "/home/user/llm-infer/infer.py", line 168 in forward',
    '  File "/home/user/llm-infer/infer.py", line 230 in <module>',
    "",
    "Extension modules: numpy._core._multiarray_umath, torch._C, torch._C._nn (total: 3)",
]


@pytest.mark.parametrize("with_launcher", [False, True])
def test_a_rank_whose_own_log_records_its_abort_is_the_one_its_peers_lost(
    tmp_path: Path, with_launcher: bool
) -> None:
    """Plain untimed logs: rank 1's fault handler reports its abort, the others report the
    peer that went away. The abort record echoes a native check when one is logged, so it is
    no cause of its own, but it is rank 1's end, and the ranks that lost a peer lost rank 1."""
    files = {
        f"log_{rank}.log": "\n".join(
            _plain_progress() + (ABORT_DUMP if rank == 1 else _lost_peer_tail(rank))
        )
        + "\n"
        for rank in range(4)
    }
    if with_launcher:
        files["launcher.log"] = "".join(
            f"[2026-12-05 09:39:40] rank {rank} (pid {15972 + 2 * rank}) exited with status "
            f"{134 if rank == 1 else 1}\n"
            for rank in range(4)
        )
    report = analyze(pack(tmp_path / "job.tar.gz", files, "job-1"), AnalyzeOptions(workers=1))
    diagnosis = report.diagnosis
    assert_reads(diagnosis, "device_fault", first_error="Fatal Python error: Aborted")
    assert diagnosis.culprit_ranks == [1]


def test_ranks_that_lost_a_peer_and_then_aborted_do_not_blame_themselves(
    tmp_path: Path,
) -> None:
    """Counterexample: ranks 0-2 lost a peer and then aborted (a watchdog taking each process
    down), rank 3 went away without a word: the aborts are the victims' ends, and the rank
    that went quiet is the culprit."""
    files = {
        f"log_{rank}.log": "\n".join(
            _plain_progress() + (_lost_peer_tail(rank) + ABORT_DUMP if rank < 3 else [])
        )
        + "\n"
        for rank in range(4)
    }
    report = analyze(pack(tmp_path / "job.tar.gz", files, "job-1"), AnalyzeOptions(workers=1))
    assert report.diagnosis.culprit_ranks == [3]


# Two torchrun agents in a c10d rendezvous whose store the second agent hosted; that node is
# lost (its agent killed) while every rank sleeps between layers. The surviving agent reports
# the store connection gone and stops its own workers, which print nothing; the lost node's
# workers, left without their agent, fail later on the closed connections.
_STORE_LOST = """[W1206 17:28:42.130591312 TCPStore.cpp:115] [c10d] recvVector failed on SocketImpl(fd=3, addr=[::ffff:127.0.0.1]:44922, remote=[::ffff:127.0.0.1]:29562): Failed to recv, got 0 bytes. Connection was likely closed. Did the remote server shutdown or crash?
W1206 17:28:42.770000 332 torch/distributed/elastic/rendezvous/dynamic_rendezvous.py:1346] The node 'localhost_332_0' has failed to send a keep-alive heartbeat to the rendezvous 'job-5521' due to an error of type RendezvousConnectionError.
W1206 17:28:42.828000 332 torch/distributed/elastic/multiprocessing/api.py:1028] Sending process 387 closing signal SIGTERM
W1206 17:28:42.842000 332 torch/distributed/elastic/multiprocessing/api.py:1028] Sending process 390 closing signal SIGTERM
Traceback (most recent call last):
  File "/opt/venv/lib/python3.11/site-packages/torch/distributed/elastic/rendezvous/c10d_rendezvous_backend.py", line 114, in _call_store
    return getattr(self._store, store_op)(*args, **kwargs)
torch.distributed.DistNetworkError: Broken pipe

The above exception was the direct cause of the following exception:

Traceback (most recent call last):
  File "/opt/venv/bin/torchrun", line 8, in <module>
    sys.exit(main())
torch.distributed.elastic.rendezvous.api.RendezvousConnectionError: The connection to the C10d store has failed. See inner exception for details.
"""


def _lost_node_job(root: Path, lost_agent_tail: str) -> Path:
    job = root / "job-5521"
    progress = [
        "prefill start",
        "  norm passed",
        "  attention passed",
        "  MoE passed",
        "layer 0 passed",
    ]
    for node, held in (("node0", (0, 1)), ("node1", (2, 3))):
        copied = [f"[default{r - held[0]}]:{line}" for r in held for line in progress]
        text = "\n".join(copied) + "\n"
        text += _STORE_LOST if node == "node0" else lost_agent_tail
        (job / node).mkdir(parents=True)
        (job / node / "launcher.log").write_text(text, encoding="utf-8")
        for local, rank in enumerate(held):
            folder = job / node / "torchrun_logs" / f"job-5521_{node}x" / "attempt_0" / str(local)
            folder.mkdir(parents=True)
            lines = [f"starting: rank={rank} local_rank={local} world_size=4", *progress]
            if node == "node1":
                lines.append("  norm passed")
            (folder / "stdout.log").write_text("\n".join(lines) + "\n", encoding="utf-8")
            err = f"[rank{rank}]: {CLOSED}\n" if node == "node1" else ""
            (folder / "stderr.log").write_text(err, encoding="utf-8")
    return job


def test_the_node_whose_agent_ended_without_a_word_is_blamed(tmp_path: Path) -> None:
    """Labelling guide, "An agent that ended without a word": node0's agent lost the store and
    stopped its own ranks 0 and 1 (quiet); node1's console just stops. Ranks 2 and 3 are the
    lost node's, not the ones node0's agent stopped."""
    report = analyze(_lost_node_job(tmp_path, ""), AnalyzeOptions(workers=1))
    assert report.diagnosis.culprit_ranks == [2, 3]


def test_an_agent_that_reported_its_workers_names_no_lost_node(tmp_path: Path) -> None:
    """Counterexample: node1's agent wrote its own record of a child's failure, so it did not
    vanish with its node: the lost-agent reading does not apply."""
    tail = (
        "E1206 17:28:43.001000 340 torch/distributed/elastic/multiprocessing/api.py:1002] "
        "failed (exitcode: 1) local_rank: 0 (pid: 391) of binary: /opt/venv/bin/python3\n"
    )
    report = analyze(_lost_node_job(tmp_path, tail), AnalyzeOptions(workers=1))
    assert "ended without a word" not in (report.diagnosis.culprit_reason or "")


def _one_node_env(master: str, nodes: str = "") -> dict[str, str]:
    """An env dump that exports the world size the job was told (8) beside the per-node count
    its launcher started (4)."""
    lines = ["WORLD_SIZE=8", "NPROC_PER_NODE=4", f"MASTER_ADDR={master}", "MASTER_PORT=30013"]
    return {"env.txt": "\n".join([*lines, *([nodes] if nodes else [])]) + "\n"}


def test_a_one_node_job_that_started_fewer_processes_than_its_world_size_blames_no_rank(
    tmp_path: Path,
) -> None:
    """Labelling guide, "A world size larger than the job started": WORLD_SIZE=8 exported, four
    processes started on one machine (`NPROC_PER_NODE=4`, a loopback master no other node could
    reach): ranks 4-7 never existed, the world size is the fault."""
    path = bundle(tmp_path, store_never_fills(8, 4), 8, _one_node_env("127.0.0.1"))
    diagnosis = analyze(path, AnalyzeOptions(workers=1)).diagnosis
    assert diagnosis.category == "config"
    assert diagnosis.culprit_ranks == []


def test_a_job_that_says_it_has_one_node_counts_that_node_s_processes(tmp_path: Path) -> None:
    """`NNODES=1` says the same as a loopback master."""
    path = bundle(tmp_path, store_never_fills(8, 4), 8, _one_node_env("10.0.0.5", "NNODES=1"))
    assert analyze(path, AnalyzeOptions(workers=1)).diagnosis.culprit_ranks == []


def test_a_per_node_count_with_a_reachable_master_may_have_other_nodes(tmp_path: Path) -> None:
    """Counterexample: a master other machines can reach and no node count: ranks 4-7 may run on
    a second node whose logs are not in the bundle, so they stay the ranks waited for."""
    path = bundle(tmp_path, store_never_fills(8, 4), 8, _one_node_env("10.0.0.5"))
    diagnosis = analyze(path, AnalyzeOptions(workers=1)).diagnosis
    assert diagnosis.category == "hccl"
    assert diagnosis.culprit_ranks == [4, 5, 6, 7]
