"""Waits another failure explains are cascades: peers timing out on a rank that failed first,
and a rank that reached the rendezvous store only after the others' waits ran out."""

from __future__ import annotations

import io
import tarfile
from pathlib import Path

from analyzers import AnalyzeOptions, analyze
from analyzers.causal.first_error import find_first_error
from analyzers.classify.tiers import TIER_CASCADE
from analyzers.core.report import Diagnosis
from tests.analyzers.causal.timed_items import OOM, WATCHDOG, item


def test_peers_timing_out_on_a_rank_that_failed_first_are_cascades() -> None:
    items = [
        item(WATCHDOG.format(rank=0), rank=0, order=0, seconds=1800),
        item(OOM, rank=1, order=1, seconds=0),
        item(WATCHDOG.format(rank=2), rank=2, order=2, seconds=1800),
    ]
    chain = find_first_error(items)
    assert chain.first is items[1]
    assert chain.culprit_ranks == [1]
    assert all(i.demoted and i.tier == TIER_CASCADE for i in (items[0], items[2]))
    assert [c.rank for c in chain.cascades] == [0, 2]


def test_an_exception_after_the_timeout_does_not_explain_it() -> None:
    timeout = item(WATCHDOG.format(rank=0), rank=0, order=0, seconds=0)
    later = item("ValueError: communicator was aborted", rank=1, order=1, seconds=30)
    chain = find_first_error([timeout, later])
    assert chain.first is timeout
    assert not timeout.demoted


def _store_start_up(connect_failed_at: str) -> dict[str, str]:
    """Four plain-print ranks at start-up: rank 0's store counts 3 of 4 clients, ranks 1
    and 2 wait for rank 0's key (c10d's timed warnings, then the untimed exception), rank 3's
    connect to the store times out at `connect_failed_at` (c10d's own time)."""
    init = "init process group: backend=gloo rank={rank} world_size=4 master=127.0.0.1:47823"
    frames = [
        "Traceback (most recent call last):",
        '  File "/home/user/llm-infer/infer.py", line 126, in init',
        '    dist.init_process_group("gloo", timeout=datetime.timedelta(seconds=6))',
    ]
    waiting = [
        "[W1205 15:42:27.428079671 socket.cpp:469] [c10d] waitForInput: poll for socket "
        "SocketImpl(fd=3, addr=[::ffff:127.0.0.1]:40740, remote=[::ffff:127.0.0.1]:47823) "
        "returned 0, likely a timeout",
        "[W1205 15:42:27.452136935 socket.cpp:494] [c10d] waitForInput: socket SocketImpl("
        "fd=3, addr=[::ffff:127.0.0.1]:40740, remote=[::ffff:127.0.0.1]:47823) timed out "
        "after 6000ms",
        *frames,
        "torch.distributed.DistStoreError: wait timeout after 6000ms, keys: /default_pg/0//cpu//0/0",
    ]
    timed_out = (
        "The client socket has timed out after 6000ms while trying to connect to "
        "(127.0.0.1, 47823)."
    )
    return {
        "job/log_0.log": "\n".join(
            [
                init.format(rank=0),
                *frames,
                "torch.distributed.DistStoreError: Timed out after 7 seconds waiting for "
                "clients. 3/4 clients joined.",
            ]
        )
        + "\n",
        "job/log_1.log": "\n".join([init.format(rank=1), *waiting]) + "\n",
        "job/log_2.log": "\n".join([init.format(rank=2), *waiting]) + "\n",
        "job/log_3.log": "\n".join(
            [
                init.format(rank=3),
                "waiting for local dataset cache lock",
                f"[E1205 {connect_failed_at} socket.cpp:1028] [c10d] {timed_out}",
                f"[W1205 {connect_failed_at} TCPStore.cpp:340] [c10d] TCP client failed to "
                "connect/validate to host 127.0.0.1:47823 - retrying (try=0, timeout=6000ms, "
                f"delay=1984ms): {timed_out}",
                *frames,
                f"torch.distributed.DistNetworkError: {timed_out}",
            ]
        )
        + "\n",
    }


def _archived(directory: Path, files: dict[str, str]) -> Diagnosis:
    """The files packed as a collector packs them, each member keeping the time it was last
    written (early December 2026): c10d's year-less times take the year from it."""
    path = directory / "job.tar.gz"
    with tarfile.open(path, "w:gz") as tar:
        for name, text in files.items():
            data = text.encode()
            member = tarfile.TarInfo(name)
            member.size, member.mtime = len(data), 1796485400
            tar.addfile(member, io.BytesIO(data))
    return analyze(path, AnalyzeOptions(workers=1)).diagnosis


def test_a_connect_begun_after_the_store_waits_ran_out_stands_behind_them(
    tmp_path: Path,
) -> None:
    """Rank 3 started connecting 3.5 s after rank 1's key wait had already timed out: the
    store had given up on it, so the store's count is the first error (docs/labelling.md,
    "A rank that never reached the store"); rank 3 is still the one the others waited for."""
    diagnosis = _archived(tmp_path, _store_start_up("15:42:36.959831103"))
    assert diagnosis.first_error is not None
    assert "3/4 clients joined" in diagnosis.first_error.text
    assert diagnosis.culprit_ranks == [3]


def test_a_connect_that_timed_out_while_the_others_waited_stays_the_first_error(
    tmp_path: Path,
) -> None:
    """Counterexample: rank 3's connect began before the waits ended (a wrong port, tried
    from the start): the count stands behind it, as before."""
    diagnosis = _archived(tmp_path, _store_start_up("15:42:27.959831103"))
    assert diagnosis.first_error is not None
    assert "while trying to connect" in diagnosis.first_error.text
    assert diagnosis.culprit_ranks == [3]
