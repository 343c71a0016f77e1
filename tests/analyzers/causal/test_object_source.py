"""An object that every receiver of a broadcast fails to load, and the rank it came from.

docs/labelling.md#an-object-every-receiver-of-a-broadcast-fails-to-load: torch's object
collectives unpickle a received object in `_tensor_to_object`; a broadcast's source never
does, so an object the receivers cannot load fails on every rank but the source, which goes on
and loses them in its next collective. The one rank left is the culprit. An all-gather loads
every object on every rank, the sender's own too, and leaves no one over.
Values are our own, in torch 2.13's real wording.
"""

from __future__ import annotations

from tests.analyzers.excerpts import diagnose_files
from tests.analyzers.job_bundles import CLOSED

C10D = "/srv/venv/lib/python3.11/site-packages/torch/distributed/distributed_c10d.py"
MISSING = "ModuleNotFoundError: No module named 'decode_plugins'"


def unpickling(rank: int, call: str) -> list[str]:
    frames = [
        "Traceback (most recent call last):",
        '  File "/srv/job/serve.py", line 212, in main',
        f"    dist.{call}(cfg)",
        f'  File "{C10D}", line 4053, in {call}',
        "    object_list[i] = _tensor_to_object(obj_view, obj_size, group)",
        f'  File "{C10D}", line 3435, in _tensor_to_object',
        "    return _unpickler(io.BytesIO(buf)).load()",
        MISSING,
    ]
    return [f"[rank{rank}]: {line}" for line in frames]


def went_on(rank: int) -> list[str]:
    frames = [
        "Traceback (most recent call last):",
        '  File "/srv/job/serve.py", line 215, in main',
        "    dist.barrier()",
        f'  File "{C10D}", line 5356, in barrier',
        "    work.wait()",
        f"RuntimeError: {CLOSED}",
    ]
    return ["waiting for all ranks to finish loading weights"] + [
        f"[rank{rank}]: {line}" for line in frames
    ]


def job(failed: set[int], call: str = "broadcast_object_list", world: int = 4) -> dict[str, str]:
    files = {}
    for rank in range(world):
        lines = [f"init process group: backend=gloo rank={rank} world_size={world}"]
        lines.append("load weights passed")
        lines += unpickling(rank, call) if rank in failed else went_on(rank)
        files[f"job-0b7c/log_{rank}.log"] = "\n".join(lines) + "\n"
    return files


def test_the_rank_every_receiver_failed_to_load_from_is_the_culprit() -> None:
    diagnosis = diagnose_files(job({1, 2, 3}))
    assert diagnosis.first_error is not None
    assert "decode_plugins" in diagnosis.first_error.text
    assert diagnosis.culprit_ranks == [0]


def test_the_source_need_not_be_rank_0() -> None:
    diagnosis = diagnose_files(job({0, 1, 3, 4, 5}, world=6))
    assert diagnosis.culprit_ranks == [2]


def test_every_rank_failing_to_load_in_an_all_gather_leaves_no_source() -> None:
    diagnosis = diagnose_files(job({0, 1, 2, 3}, call="all_gather_object"))
    assert diagnosis.culprit_ranks != [0]
    assert len(diagnosis.culprit_ranks) != 1


def test_two_ranks_left_over_name_no_source() -> None:
    diagnosis = diagnose_files(job({1, 2}))
    assert diagnosis.culprit_ranks not in ([0], [3])


def logged(rank: int) -> list[str]:
    """Python logging's record of the failure, with the traceback written right under it."""
    stamp = f"2026-12-05 11:02:14,{300 + rank:03d} [rank{rank}]"
    return [f"{stamp} ERROR model run failed: No module named 'decode_plugins'"] + [
        line.removeprefix(f"[rank{rank}]: ") for line in unpickling(rank, "broadcast_object_list")
    ]


def test_receivers_that_log_their_failure_with_the_traceback_under_it_name_the_source() -> None:
    files = job({1, 2, 3})
    for rank in (1, 2, 3):
        name = f"job-0b7c/log_{rank}.log"
        head = files[name].split("[rank")[0]
        files[name] = head + "\n".join(logged(rank)) + "\n"
    assert diagnose_files(files).culprit_ranks == [0]
