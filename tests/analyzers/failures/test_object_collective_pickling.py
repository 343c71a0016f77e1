"""An object collective that cannot pickle a rank's object.

torch's object collectives (`broadcast_object_list`, `all_gather_object`) pickle each rank's
object in `_object_to_tensor` before anything is sent, so an object holding a lock fails on
that rank alone (`TypeError: cannot pickle '_thread.lock' object`) and its peers lose it
inside the collective. Raised there, the words the spawn rule reads are the collective's:
`hccl` with `other` beside it, the rank that failed to pickle the culprit
(docs/labelling.md#a-wait-printed-after-another-process-of-the-same-log-failed). The rank's
own log record that quotes the exception above its traceback steps aside for the traceback's
line. Counterexample: the same words raised while multiprocessing pickles what it hands a
spawned worker stay the spawn rule's `config`. Every refusal of the pickler reads alike there:
an instance of a class defined inside a function (`AttributeError: Can't pickle local object
'...<locals>.X'`, the spawn rule's words for a closure) and a lambda that pickle cannot look
up (`_pickle.PicklingError: Can't pickle <function <lambda> at 0x...>: attribute lookup
<lambda> on __main__ failed`). Values are our own, in the shapes a real
torch 2.13 run on gloo printed.
"""

from __future__ import annotations

import json
from pathlib import Path

from analyzers import AnalyzeOptions, analyze
from tests.analyzers.job_bundles import pack

SITE = "/opt/venv/lib/python3.11/site-packages"
LOCK = "TypeError: cannot pickle '_thread.lock' object"
CLOSED = (
    "RuntimeError: [/__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp/pair.cc:553] "
    "Connection closed by peer [127.0.0.1]:44251. This is typically caused by a remote worker "
    "crashing. Check the logs of the remote worker before reporting an error. GLHF!"
)


def _progress(rank: int) -> list[str]:
    rows = [{"rank": rank, "level": "info", "event": "prefill_start"}]
    rows += [
        {"rank": rank, "level": "info", "event": f"{part}_passed", "layer": 0}
        for part in ("norm", "attention")
    ]
    return [
        json.dumps({"ts": f"2026-12-05T21:03:31.{900 + i:03d}+00:00", **row})
        for i, row in enumerate(rows)
    ]


def _failed(rank: int, error: str) -> str:
    return json.dumps(
        {
            "ts": "2026-12-05T21:03:31.966+00:00",
            "rank": rank,
            "level": "error",
            "event": "model_run_failed",
            "error": error,
        }
    )


def _traceback(rank: int, frames: list[tuple[str, int, str, str]], error: str) -> list[str]:
    lines = [f"[rank{rank}]: Traceback (most recent call last):"]
    for path, number, function, statement in frames:
        lines += [
            f'[rank{rank}]:   File "{path}", line {number}, in {function}',
            f"[rank{rank}]:     {statement}",
        ]
    return [*lines, f"[rank{rank}]: {error}"]


COLLECTIVE = [
    ("/srv/job/infer.py", 237, "run_objects", "dist.broadcast_object_list(plan, src=0)"),
    (f"{SITE}/torch/distributed/c10d_logger.py", 83, "wrapper", "return func(*args, **kwargs)"),
    (
        f"{SITE}/torch/distributed/distributed_c10d.py",
        4017,
        "broadcast_object_list",
        "*[_object_to_tensor(obj, current_device, group) for obj in object_list]",
    ),
    (
        f"{SITE}/torch/distributed/distributed_c10d.py",
        3405,
        "_object_to_tensor",
        "_pickler(f).dump(obj)",
    ),
]
SPAWN = [
    ("/srv/job/infer.py", 51, "main", "ctx.Process(target=worker, args=(router,)).start()"),
    ("/usr/lib/python3.11/multiprocessing/process.py", 121, "start", "self._popen = ..."),
    (
        "/usr/lib/python3.11/multiprocessing/popen_spawn_posix.py",
        47,
        "_launch",
        "reduction.dump(process_obj, fp)",
    ),
    (
        "/usr/lib/python3.11/multiprocessing/reduction.py",
        60,
        "dump",
        "ForkingPickler(file, protocol).dump(obj)",
    ),
]


def _report(tmp_path: Path, frames: list[tuple[str, int, str, str]], error: str = LOCK) -> dict:
    files = {
        "log_0.log": "\n".join([*_progress(0), _failed(0, error), *_traceback(0, frames, error)])
    }
    for rank in (1, 2, 3):
        files[f"log_{rank}.log"] = "\n".join(
            [*_progress(rank), _failed(rank, CLOSED), *_traceback(rank, [], CLOSED)]
        )
    bundle = pack(tmp_path / "job.tar.gz", {k: v + "\n" for k, v in files.items()})
    return analyze(bundle, AnalyzeOptions(workers=1)).to_dict()


def test_a_lock_an_object_collective_could_not_pickle_is_the_collectives(tmp_path):
    diagnosis = _report(tmp_path, COLLECTIVE)["diagnosis"]
    assert diagnosis["category"] == "hccl"
    assert "other" in [alt["category"] for alt in diagnosis["alternatives"]]
    assert diagnosis["culprit_ranks"] == [0]
    first = diagnosis["first_error"]
    assert first["text"] == f"[rank0]: {LOCK}"
    assert (first["file"], first["rank"]) == ("log_0.log", 0)


def test_the_same_lock_handed_to_a_spawned_worker_stays_the_spawn_rules(tmp_path):
    diagnosis = _report(tmp_path, SPAWN)["diagnosis"]
    assert diagnosis["category"] == "config"
    assert LOCK in diagnosis["first_error"]["text"]


LOCAL_CLASS = "AttributeError: Can't pickle local object 'collect_stats.<locals>.LoadTally'"
LAMBDA = (
    "_pickle.PicklingError: Can't pickle <function <lambda> at 0x7f3a2c1d5e40>: "
    "attribute lookup <lambda> on __main__ failed"
)

# Newer Pythons name the object by its repr.
NEWER_LOCAL = (
    "_pickle.PicklingError: Can't pickle local object "
    "<function build_router.<locals>.score at 0x7f51d2a0c2c0>"
)


def test_every_refusal_of_the_pickler_inside_an_object_collective_is_the_collectives(tmp_path):
    for error in (LOCAL_CLASS, LAMBDA, NEWER_LOCAL):
        diagnosis = _report(tmp_path, COLLECTIVE, error)["diagnosis"]
        assert diagnosis["category"] == "hccl", (error, diagnosis["root_cause"])
        assert "other" in [alt["category"] for alt in diagnosis["alternatives"]]
        assert diagnosis["culprit_ranks"] == [0]
        assert diagnosis["first_error"]["text"] == f"[rank0]: {error}"


def test_a_local_class_handed_to_a_spawned_worker_stays_the_spawn_rules(tmp_path):
    diagnosis = _report(tmp_path, SPAWN, LOCAL_CLASS)["diagnosis"]
    assert diagnosis["category"] == "config"
    assert LOCAL_CLASS in diagnosis["first_error"]["text"]


UNPICKLE = (
    "AttributeError: Can't get attribute 'RouterStats' on <module '__main__' from "
    "'/srv/job/infer.py'>"
)
RECEIVING = [
    ("/srv/job/infer.py", 245, "run_objects", "dist.all_gather_object(gathered, stats)"),
    (f"{SITE}/torch/distributed/c10d_logger.py", 83, "wrapper", "return func(*args, **kwargs)"),
    (
        f"{SITE}/torch/distributed/distributed_c10d.py",
        3530,
        "all_gather_object",
        "object_list[i] = _tensor_to_object(tensor, tensor_size, group)",
    ),
    (
        f"{SITE}/torch/distributed/distributed_c10d.py",
        3435,
        "_tensor_to_object",
        "return _unpickler(io.BytesIO(buf)).load()",
    ),
]


def _torchrun(tmp_path: Path, with_traceback: bool) -> dict:
    """torchrun --redirects 3: each rank's structured records in stdout.log, the traceback
    Python printed on its way out in stderr.log. Ranks 0, 1, 3 cannot unpickle what rank 2
    sent; rank 2 loses its peers."""
    attempt = "torchrun_logs/none_20tdaf2q/attempt_0"
    files = {}
    for rank in range(4):
        error = CLOSED if rank == 2 else UNPICKLE
        files[f"{attempt}/{rank}/stdout.log"] = "\n".join([*_progress(rank), _failed(rank, error)])
        frames = [] if rank == 2 else RECEIVING
        files[f"{attempt}/{rank}/stderr.log"] = (
            "\n".join(_traceback(rank, frames, error)) if with_traceback else ""
        )
    bundle = pack(tmp_path / "job.tar.gz", {k: v + "\n" for k, v in files.items()}, "job-xq08")
    return analyze(bundle, AnalyzeOptions(workers=1)).to_dict()


def test_a_record_quoting_its_ranks_traceback_yields_to_the_traceback_line(tmp_path):
    """The record in stdout.log says what failed; the traceback in stderr.log also says where
    (`_tensor_to_object`), and an unpickling failure there that no rule reads is `hccl`."""
    diagnosis = _torchrun(tmp_path, True)["diagnosis"]
    first = diagnosis["first_error"]
    assert first["file"].endswith("attempt_0/0/stderr.log")
    assert first["text"] == f"[rank0]: {UNPICKLE}"
    assert diagnosis["category"] == "hccl"


def test_a_record_with_no_traceback_of_its_rank_is_cited_itself(tmp_path):
    first = _torchrun(tmp_path, False)["diagnosis"]["first_error"]
    assert first["file"].endswith("attempt_0/0/stdout.log")
    assert UNPICKLE in first["text"]
