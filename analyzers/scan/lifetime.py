"""Scanner processes that may start inside a daemonic process and never outlive their parent.

Celery's prefork pool runs each task in a *daemonic* child, and `multiprocessing` refuses
to start processes there ("daemonic processes are not allowed to have children"). The
rule exists because a daemonic process is killed without clean-up, which would orphan its
children. That really happens: a pool child killed at its hard time limit (SIGKILL) left
both scanners running, blocked on pipes that they themselves still held open.

So each scanner ties its life to its parent first (`tie_to_parent`), and then the rule's
reason is gone and the parent may lift it while it starts them (`children_allowed`).
"""

from __future__ import annotations

import contextlib
import ctypes
import multiprocessing as mp
import os
import signal
import sys
import threading
import time
from collections.abc import Iterator

PR_SET_PDEATHSIG = 1  # <linux/prctl.h>
PARENT_POLL_S = 1.0


@contextlib.contextmanager
def children_allowed() -> Iterator[None]:
    """Let the current process start children even if it is daemonic (a Celery pool child).

    Only for children that call `tie_to_parent` first. multiprocessing has no public way to
    do this; it checks the current process's `_config["daemon"]`, cleared here for the
    duration of the block and restored after.
    """
    config = getattr(mp.current_process(), "_config", {})
    daemonic = config.pop("daemon", None)
    try:
        yield
    finally:
        if daemonic is not None:
            config["daemon"] = daemonic


def tie_to_parent(parent_pid: int) -> None:
    """Make this process die when `parent_pid` (the process that started it) dies.

    On Linux the kernel sends SIGKILL at the parent's death (PR_SET_PDEATHSIG; it fires
    when the *thread* that started us ends, which is fine: scanners live only within one
    call on that thread). Elsewhere a thread polls for the parent once a second.
    SIGTERM gets its default action back: a Celery pool child turns it into SystemExit,
    and `terminate()` should stop a scanner, not start its exit handlers.
    """
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    if not _kill_me_with_parent():
        threading.Thread(target=_watch_parent, args=(parent_pid,), daemon=True).start()
    if os.getppid() != parent_pid:  # the parent died before the line above took effect
        os._exit(1)


def _kill_me_with_parent() -> bool:
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) == 0
    except (OSError, AttributeError):
        return False


def _watch_parent(parent_pid: int) -> None:
    while os.getppid() == parent_pid:
        time.sleep(PARENT_POLL_S)
    os._exit(1)
