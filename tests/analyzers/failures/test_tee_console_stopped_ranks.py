"""A torchrun `--tee` console whose ranks all timed out while one of them waited in another
collective: the agent stopped two of them with its own SIGTERM, and their stdout progress was
copied below the tracebacks torch's distributed hook printed when the exception left them."""

from __future__ import annotations

from analyzers.classify.events import classify_scans
from analyzers.classify.rules import load_knowledge
from analyzers.classify.tiers import TIER_SYMPTOM
from tests.analyzers.excerpts import diagnose_text, scan_text

KNOWLEDGE = load_knowledge()

_TIMEOUT = (
    "RuntimeError: [/__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp/"
    "unbound_buffer.cc:{cc}] Timed out waiting 20000ms for {op} operation to complete"
)


def _traceback(rank: int, call: str, cc: int, op: str) -> str:
    p = f"[default{rank}]:[rank{rank}]: "
    return "".join(
        p + line + "\n"
        for line in (
            "Traceback (most recent call last):",
            '  File "/srv/infer/infer.py", line 140, in <module>',
            "    main()",
            '  File "/srv/infer/infer.py", line 118, in run',
            f"    dist.{call}(x)",
            '  File "/opt/venv/lib/python3.11/site-packages/torch/distributed/c10d_logger.py",'
            " line 83, in wrapper",
            "    return func(*args, **kwargs)",
            '  File "/opt/venv/lib/python3.11/site-packages/torch/distributed/'
            f'distributed_c10d.py", line 3252, in {call}',
            "    work.wait()",
            _TIMEOUT.format(cc=cc, op=op),
        )
    )


def _progress(rank: int) -> str:
    lines = ["prefill start", "  norm passed", "  attention passed", "  MoE passed"]
    lines += ["layer 0 passed", "  norm passed"]
    return "".join(f"[default{rank}]:{line}\n" for line in lines)


def _record(n: int, rank: int, code: int) -> str:
    return (
        f"[{n}]:\n  time      : 2026-12-05_21:37:39\n  host      : localhost\n"
        f"  rank      : {rank} (local_rank: {rank})\n  exitcode  : {code} (pid: {30585 + rank})\n"
        "  error_file: <N/A>\n"
        "  traceback : To enable traceback see: https://pytorch.org/docs/stable/elastic/errors.html\n"
    )


def _console(rank1_traceback: str) -> str:
    agent = (
        "W1205 21:37:39.308000 30420 torch/distributed/elastic/multiprocessing/api.py:1028]"
        " Sending process 30586 closing signal SIGTERM\n"
        "W1205 21:37:39.308000 30420 torch/distributed/elastic/multiprocessing/api.py:1028]"
        " Sending process 30587 closing signal SIGTERM\n"
        "E1205 21:37:39.579000 30420 torch/distributed/elastic/multiprocessing/api.py:1002]"
        " failed (exitcode: 1) local_rank: 2 (pid: 30588) of binary: /opt/venv/bin/python3\n"
    )
    summary = (
        "torch.distributed.elastic.multiprocessing.errors.ChildFailedError: \n"
        "============================================================\n"
        "/srv/infer/infer.py FAILED\n"
        "------------------------------------------------------------\n"
        "Failures:\n"
        + _record(1, 3, 1)
        + _record(2, 0, -15)
        + _record(3, 1, -15)
        + "------------------------------------------------------------\n"
        "Root Cause (first observed failure):\n"
        + _record(0, 2, 1)
        + "============================================================\n"
    )
    failed = "".join(
        f"[default{r}]:model run failed: "
        + _TIMEOUT.format(cc=cc, op=op)[len("RuntimeError: ") :]
        + "\n"
        for r, cc, op in ((2, 129, "send"), (1, 78, "recv"), (0, 78, "recv"), (3, 78, "recv"))
    )
    return (
        _traceback(0, "all_reduce", 78, "recv")
        + _traceback(2, "all_reduce", 129, "send")
        + _traceback(3, "all_reduce", 78, "recv")
        + rank1_traceback
        + agent
        + "".join(_progress(r) for r in (2, 3, 1, 0))
        + failed
        + summary
    )


CONSOLE = _console(_traceback(1, "broadcast", 78, "recv"))


def _timeouts(text: str) -> dict[int, object]:
    items = classify_scans([scan_text("job/launcher.log", text)], KNOWLEDGE)
    return {
        i.rank: i
        for i in items
        if i.event.text.startswith(f"[default{i.rank}]:[rank{i.rank}]: RuntimeError")
    }


def test_agent_stopped_ranks_progress_below_their_uncaught_traceback_is_no_recovery() -> None:
    """Ranks 0 and 1 ended by the agent's SIGTERM: their `[rankN]:` traceback was printed when
    the exception left the program, so the progress copied below it came from before."""
    found = _timeouts(CONSOLE)
    assert sorted(found) == [0, 1, 2, 3]
    assert all(not item.recovered and item.tier == TIER_SYMPTOM for item in found.values())


def test_a_caught_traceback_printed_without_the_hook_still_recovers() -> None:
    """Counterexample: a traceback the program printed itself (no `[rankN]: ` prefix on its
    lines) says nothing about the process ending; rank 1 was stopped by the agent's signal,
    so its progress below still reads as carrying on."""
    plain = _traceback(1, "broadcast", 78, "recv").replace("[rank1]: ", "")
    items = classify_scans([scan_text("job/launcher.log", _console(plain))], KNOWLEDGE)
    rank1 = next(i for i in items if i.rank == 1 and i.event.text.startswith("[default1]:Runtime"))
    assert rank1.recovered


def test_the_rank_waiting_in_another_collective_is_the_culprit() -> None:
    """Every rank timed out; rank 1's traceback waits in broadcast while the others wait in
    all_reduce: rank 1 left the program order."""
    diagnosis = diagnose_text("job/launcher.log", CONSOLE)
    assert diagnosis.category == "hccl"
    assert list(diagnosis.culprit_ranks) == [1]
