"""Hangs blamed from the stacks the ranks dumped while they hung (`causal.dumped_stacks`,
docs/labelling.md, "Stacks a hung job dumped").

The bundles are 4-rank gloo jobs shaped like the torch corpus: every rank reaches the same
checkpoint, then faulthandler's timer dumps its main thread's stack; nothing else follows
(the job was killed from outside).
"""

from __future__ import annotations

from pathlib import Path

from tests.analyzers.job_bundles import RankLog, analyze_job, ranks

C10D = "/srv/venv/lib/python3.11/site-packages/torch/distributed"
CALL_LINES = {"all_reduce": 3252, "all_gather": 4287, "barrier": 5356}


def dumps(log: RankLog, call: str | None) -> RankLog:
    """The timer's dump of a main thread inside collective `call`, or in the rank's own
    loop when `call` is None."""
    log.raw("Timeout (0:00:05)!")
    log.raw("Thread 0x00007f421ae0ab80 (most recent call first):")
    if call is None:
        log.raw('  File "/home/user/llm-infer/infer.py", line 83 in _poll_cache')
    else:
        log.raw(f'  File "{C10D}/distributed_c10d.py", line {CALL_LINES[call]} in {call}')
        log.raw(f'  File "{C10D}/c10d_logger.py", line 83 in wrapper')
    log.raw('  File "/home/user/llm-infer/infer.py", line 128 in forward')
    log.raw('  File "/home/user/llm-infer/infer.py", line 176 in <module>')
    return log


def in_step(world_size: int = 4) -> list[RankLog]:
    job = ranks(world_size)
    for log in job:
        log.loaded().layers(1, [" norm passed"])
    return job


def test_the_rank_dumped_outside_any_collective_is_the_one_waited_for(tmp_path: Path) -> None:
    job = in_step()
    for log in job:
        dumps(log, None if log.rank == 2 else "all_reduce")
    diagnosis = analyze_job(tmp_path, job).diagnosis
    assert diagnosis.category == "hang"
    assert diagnosis.culprit_ranks == [2]
    assert diagnosis.first_error is None
    assert "_poll_cache" in (diagnosis.root_cause or "")


def test_the_rank_dumped_in_another_collective_left_the_step(tmp_path: Path) -> None:
    job = in_step()
    for log in job:
        dumps(log, "all_gather" if log.rank == 3 else "all_reduce")
    diagnosis = analyze_job(tmp_path, job).diagnosis
    assert diagnosis.category == "hang"
    assert diagnosis.culprit_ranks == [3]


def test_every_rank_in_the_same_collective_singles_nobody_out(tmp_path: Path) -> None:
    job = in_step()
    for log in job:
        dumps(log, "all_reduce")
    diagnosis = analyze_job(tmp_path, job).diagnosis
    assert diagnosis.category == "hang"
    assert diagnosis.culprit_ranks == []


def test_half_the_ranks_outside_singles_nobody_out(tmp_path: Path) -> None:
    job = in_step()
    for log in job:
        dumps(log, None if log.rank in (0, 1) else "all_reduce")
    assert analyze_job(tmp_path, job).diagnosis.culprit_ranks == []


def test_dumps_of_two_ranks_are_no_pack(tmp_path: Path) -> None:
    job = in_step()
    dumps(job[0], "all_reduce")
    dumps(job[1], None)
    assert analyze_job(tmp_path, job).diagnosis.culprit_ranks == []


def test_checkpoints_that_single_a_rank_out_come_first(tmp_path: Path) -> None:
    """Rank 1 stopped a checkpoint behind; a dump of another rank outside a collective
    (rank 3 in its own loop, as after a long wait) does not override it."""
    job = ranks(4)
    for log in job:
        log.loaded().layers(1, [] if log.rank == 1 else [" norm passed"])
        dumps(log, None if log.rank in (1, 3) else "all_reduce")
    assert analyze_job(tmp_path, job).diagnosis.culprit_ranks == [1]


def spy_dumps(log: RankLog, call: str | None, options: str = "") -> RankLog:
    """The same main thread as py-spy prints it: a thread header with the native id, state
    and name, frames `function (file:line)` with the path cut to the package."""
    log.raw(f"Process {4100 + log.rank}: /srv/venv/bin/python3 -u infer.py{options}")
    log.raw("Python v3.11.9 (/srv/venv/bin/python3.11)")
    log.raw("")
    log.raw(f'Thread {4100 + log.rank} (active): "MainThread"')
    if call is None:
        log.raw("    _poll_cache (infer.py:83)")
    else:
        log.raw(f"    {call} (torch/distributed/distributed_c10d.py:{CALL_LINES[call]})")
        log.raw("    wrapper (torch/distributed/c10d_logger.py:83)")
    log.raw("    forward (infer.py:128)")
    log.raw("    <module> (infer.py:176)")
    log.raw(f'Thread {4200 + log.rank} (idle): "pin_memory"')
    log.raw("    wait (threading.py:327)")
    log.raw("    _bootstrap (threading.py:1002)")
    return log


def test_py_spy_dumps_name_the_rank_outside_any_collective(tmp_path: Path) -> None:
    job = in_step()
    for log in job:
        spy_dumps(log, None if log.rank == 2 else "all_reduce")
    diagnosis = analyze_job(tmp_path, job).diagnosis
    assert diagnosis.category == "hang"
    assert diagnosis.culprit_ranks == [2]
    assert diagnosis.first_error is None
    assert "_poll_cache" in (diagnosis.root_cause or "")


def test_py_spy_dumps_all_in_one_collective_single_nobody_out(tmp_path: Path) -> None:
    """Counterexample: every main thread waits in the same all_reduce."""
    job = in_step()
    for log in job:
        spy_dumps(log, "all_reduce")
    diagnosis = analyze_job(tmp_path, job).diagnosis
    assert diagnosis.category == "hang"
    assert diagnosis.culprit_ranks == []


def test_py_spy_dumps_of_a_job_started_with_error_words_in_its_options(tmp_path: Path) -> None:
    """The preamble's command line carries the job's options (`--timeout 60`,
    `--fault-tolerance`); they are no error of the ranks, so the dumps still decide: rank 1
    waits in all_gather while the others wait in all_reduce (collectives called in another
    order), a hang with no first error."""
    job = in_step()
    options = " --timeout 60 --fault-tolerance --max-failures 3"
    for log in job:
        spy_dumps(log, "all_gather" if log.rank == 1 else "all_reduce", options)
    diagnosis = analyze_job(tmp_path, job).diagnosis
    assert diagnosis.category == "hang"
    assert diagnosis.culprit_ranks == [1]
    assert diagnosis.first_error is None


def _spy_file(rank: int, call: str | None) -> str:
    """py-spy's dump of one rank saved as a file of its own, as an engineer attaches it."""
    log = spy_dumps(RankLog(rank, 4), call)
    return "\n".join(log.lines[2:]) + "\n"  # the dump only, without the rank's log lines


AGENT_STOPPED = (
    "W1129 07:25:02.118000 8801 torch/distributed/elastic/agent/server/api.py:753] Received 15 "
    "death signal, shutting down workers\n"
    "W1129 07:25:02.119000 8801 torch/distributed/elastic/multiprocessing/api.py:1028] Sending "
    "process 8812 closing signal SIGTERM\n"
    "torch.distributed.elastic.multiprocessing.api.SignalException: Process 8801 got signal: 15\n"
)


def test_a_dump_attached_for_one_rank_alone_names_it_when_outside_any_collective(
    tmp_path: Path,
) -> None:
    """Every rank stopped at the same checkpoint and the operator's timeout stopped the agent;
    the one dump in the bundle is rank 2's, outside any collective: the rank the others wait
    for, a hang with no first error."""
    extra = {"py-spy_rank2.txt": _spy_file(2, None), "launcher.log": AGENT_STOPPED}
    diagnosis = analyze_job(tmp_path, in_step(), extra).diagnosis
    assert diagnosis.category == "hang"
    assert diagnosis.culprit_ranks == [2]
    assert diagnosis.first_error is None


def test_a_dump_attached_for_one_rank_alone_names_it_in_a_hang_with_no_stop(
    tmp_path: Path,
) -> None:
    diagnosis = analyze_job(tmp_path, in_step(), {"pyspy/rank1.txt": _spy_file(1, None)}).diagnosis
    assert diagnosis.category == "hang"
    assert diagnosis.culprit_ranks == [1]


def test_a_lone_dump_inside_a_collective_names_nobody(tmp_path: Path) -> None:
    """Counterexample: the dumped rank waits in all_reduce like the others may."""
    extra = {"py-spy_rank2.txt": _spy_file(2, "all_reduce"), "launcher.log": AGENT_STOPPED}
    assert analyze_job(tmp_path, in_step(), extra).diagnosis.culprit_ranks == []


def test_lone_dumps_of_half_the_ranks_outside_name_nobody(tmp_path: Path) -> None:
    """Counterexample: two of four ranks outside any collective are no few."""
    extra = {f"py-spy_rank{r}.txt": _spy_file(r, None) for r in (0, 3)}
    assert analyze_job(tmp_path, in_step(), extra).diagnosis.culprit_ranks == []
