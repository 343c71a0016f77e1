"""A lost connection raised where the frames name a place of their own (`causal.frames`,
`frame_keywords` in knowledge/fallback.yaml; docs/labelling.md, "A tensor whose sending
process died")."""

from tests.analyzers.excerpts import alternative_labels, assert_reads
from tests.analyzers.job_bundles import CLOSED, analyze_job, ranks

C10D = "/srv/venv/lib/python3.11/site-packages/torch/distributed"


def job_where_rank_2_raises(*traceback: str):
    """Four ranks past two layers; rank 2 prints `traceback` (as torch's `[rank2]:` copy
    does) and the others lose it in the gradient all_reduce."""
    job = ranks(4)
    for log in job:
        log.loaded().layers(2)
    job[2].lines += [f"[rank2]: {line}" for line in traceback]
    lost_peer(job[0], job[1], job[3], closed=CLOSED)
    return job


def test_a_lost_connection_raised_where_torch_rebuilds_a_shared_tensor_is_its_sender_dying(
    tmp_path,
):
    """A DataLoader worker killed while its batch was queued: the main process's fetch
    rebuilds the batch's storage from a file descriptor the worker should hand over, and the
    connection to the dead worker is reset. The words are a lost peer's (hccl); the place says
    the peer was the loader's worker, no rank of a collective."""
    mp = "/usr/lib/python3.11/multiprocessing"
    torch = "/srv/venv/lib/python3.11/site-packages/torch"
    job = job_where_rank_2_raises(
        "Traceback (most recent call last):",
        '  File "/home/user/train.py", line 181, in main',
        "    x = next(it)",
        f'  File "{torch}/utils/data/dataloader.py", line 1291, in _try_get_data',
        "    data = self._data_queue.get(timeout=timeout)",
        f'  File "{mp}/queues.py", line 122, in get',
        "    return _ForkingPickler.loads(res)",
        f'  File "{torch}/multiprocessing/reductions.py", line 538, in rebuild_storage_fd',
        "    fd = df.detach()",
        f'  File "{mp}/resource_sharer.py", line 57, in detach',
        "    with _resource_sharer.get_connection(self._id) as conn:",
        f'  File "{mp}/connection.py", line 395, in _recv',
        "    chunk = read(handle, remaining)",
        "ConnectionResetError: [Errno 104] Connection reset by peer",
    )
    diagnosis = analyze_job(tmp_path, job).diagnosis
    assert_reads(diagnosis, "device_fault", first_error="ConnectionResetError")
    assert diagnosis.culprit_ranks == [2]
    assert "hccl" in alternative_labels(diagnosis)


def lost_peer(*logs, closed: str) -> None:
    """The peers, blocked in the gradient all_reduce, lose the rank that failed (untimed
    traceback lines, as torch's `[rankN]:` copy prints them)."""
    for log in logs:
        log.lines += [
            f"[rank{log.rank}]: Traceback (most recent call last):",
            f'[rank{log.rank}]:   File "{C10D}/distributed_c10d.py", line 2806, in all_reduce',
            f"[rank{log.rank}]:     work.wait()",
            f"[rank{log.rank}]: RuntimeError: {closed}",
        ]


def test_a_lost_connection_in_a_collective_stays_a_lost_peer(tmp_path):
    """The same words raised under a collective's frames keep the lost peer's reading: every
    rank lost a peer, none failed on its own."""
    job = job_where_rank_2_raises(
        "Traceback (most recent call last):",
        f'  File "{C10D}/distributed_c10d.py", line 2806, in all_reduce',
        "    work.wait()",
        "ConnectionResetError: [Errno 104] Connection reset by peer",
    )
    diagnosis = analyze_job(tmp_path, job).diagnosis
    assert diagnosis.category == "hccl"
