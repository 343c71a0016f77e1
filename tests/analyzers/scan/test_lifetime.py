"""Scanner processes start inside daemonic processes (Celery's pool children) and never
outlive the process that started them, however it ends."""

import io
import multiprocessing as mp
import os
import signal
import subprocess
import sys
import tarfile
import time
from pathlib import Path

import pytest

from analyzers.ingest.bundle import Bundle, Member
from analyzers.scan import lifetime
from analyzers.scan.parallel import ScanSettings, scan_members

ROOT = Path(__file__).resolve().parents[3]
LINE = b"2026-11-29 07:24:28,507 [rank%d] INFO layer %d passed\n"

# Scans one big member on two scanner processes, prints their pids, then hangs reading
# the next member, as a task does while the archive is still being inflated.
HANGING_PARENT = """
import multiprocessing as mp, sys, time
from analyzers.ingest.bundle import Member
from analyzers.scan.parallel import ScanSettings, scan_members
line = b"2026-11-29 07:24:28,507 [rank0] INFO layer 3 passed\\n"
data = line * 20_000
def members():
    for n in range(2):
        yield Member(f"job/rank_{n}.log", len(data), lambda: __import__("io").BytesIO(data))
    print(*[p.pid for p in mp.active_children()], flush=True)
    time.sleep(600)
    yield from ()
scan_members(members(), ScanSettings(), workers=2)
"""


def _bundle(tmp_path, ranks: int = 4, lines: int = 20_000) -> Path:
    path = tmp_path / "job.tar.gz"
    with tarfile.open(path, "w:gz") as tar:
        for rank in range(ranks):
            data = b"".join(LINE % (rank, n % 8) for n in range(lines))  # > 256 KiB each
            info = tarfile.TarInfo(f"job/log_{rank}.log")
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    return path


def _scan_in_a_daemon(path: Path, out) -> None:
    seen: list[int] = []
    scans = scan_members(
        Bundle(path).members(),
        ScanSettings(),
        workers=2,
        on_scanned=lambda _: seen.append(len(mp.active_children())),
    )
    out.put(([s.info.lines for s in scans], max(seen), mp.current_process().daemon))


def _running(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as fh:
            return fh.read().rsplit(")", 1)[1].split()[0] != "Z"  # a zombie has ended
    except OSError:
        return False


def test_a_daemonic_process_scans_on_two_scanner_processes(tmp_path):
    ctx = mp.get_context("fork")
    out = ctx.Queue()
    daemon = ctx.Process(target=_scan_in_a_daemon, args=(_bundle(tmp_path), out), daemon=True)
    daemon.start()
    lines, scanners, still_daemonic = out.get(timeout=60)
    daemon.join(timeout=10)
    assert daemon.exitcode == 0
    assert lines == [20_000] * 4
    assert scanners == 2
    assert still_daemonic  # the flag is lifted only while the scanners start


class _ForkFailed(Exception):
    pass


def _start_that_fails() -> None:
    with lifetime.children_allowed():
        lifted = not mp.current_process().daemon
        raise _ForkFailed(lifted)


def test_the_daemon_flag_comes_back_even_if_starting_fails():
    me = mp.current_process()
    me._config["daemon"] = True
    try:
        with pytest.raises(_ForkFailed) as failure:
            _start_that_fails()
        assert failure.value.args == (True,)  # lifted inside the block
        assert me.daemon
    finally:
        me._config.pop("daemon")


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
@pytest.mark.parametrize("kernel_signal", [True, False], ids=["pdeathsig", "polling"])
def test_scanners_die_when_their_parent_is_killed(kernel_signal):
    code = HANGING_PARENT
    if not kernel_signal:  # the fallback used where prctl does not exist
        code = (
            "import analyzers.scan.lifetime as l; l._kill_me_with_parent = lambda: False\n" + code
        )
    parent = subprocess.Popen(
        [sys.executable, "-c", code], cwd=ROOT, stdout=subprocess.PIPE, text=True
    )
    try:
        scanners = [int(pid) for pid in parent.stdout.readline().split()]
        assert len(scanners) == 2
        assert all(_running(pid) for pid in scanners)
    finally:
        parent.kill()  # SIGKILL: no clean-up runs in the parent
        parent.wait()
    deadline = time.monotonic() + 2 * lifetime.PARENT_POLL_S + 3
    while any(_running(pid) for pid in scanners) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not [pid for pid in scanners if _running(pid)]


class _InterruptedStream(io.RawIOBase):
    """Some log bytes, then what a soft time limit looks like: an exception mid-read."""

    def __init__(self) -> None:
        self._left = [LINE % (0, 1) * 40_000]

    def readable(self) -> bool:
        return True

    def readinto(self, target) -> int:
        if not self._left:
            raise KeyboardInterrupt
        chunk = self._left.pop()[: len(target)]
        target[: len(chunk)] = chunk
        return len(chunk)


def test_a_scan_interrupted_mid_file_stops_its_scanners_at_once():
    member = Member("job/rank_0.log", 8 * 1024 * 1024, _InterruptedStream)
    started = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        scan_members([member], ScanSettings(), workers=2)
    assert mp.active_children() == []
    assert time.monotonic() - started < 3  # not left to finish a file that will never end


def test_terminate_ends_a_scanner_whose_parent_turns_sigterm_into_an_exception():
    """Celery's pool child handles SIGTERM; a scanner must not inherit that."""
    ctx = mp.get_context("fork")
    signal.signal(signal.SIGTERM, lambda *_: None)
    try:
        child = ctx.Process(target=_tied_sleeper, args=(os.getpid(),), daemon=True)
        child.start()
    finally:
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
    time.sleep(0.3)  # let it reset its handlers
    child.terminate()
    child.join(timeout=5)
    assert child.exitcode == -signal.SIGTERM


def _tied_sleeper(parent_pid: int) -> None:
    lifetime.tie_to_parent(parent_pid)
    time.sleep(60)
