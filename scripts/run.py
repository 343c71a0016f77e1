"""`make run`: prepare the database, then run the web server and a Celery worker.

Both run as child processes; Ctrl-C (or either child dying) stops both. The worker also
sweeps for runs that lost their message or their worker (incidents/runs/sweeper_step.py), so
no separate scheduler process is needed.
Environment: PORT (default 8000), HOST (default 127.0.0.1), WORKER_CONCURRENCY
(default 2), plus everything config/settings.py reads (DATABASE_URL, REDIS_URL, ...).
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PYTHON = sys.executable
STOP_TIMEOUT_S = 15


def manage(*args: str) -> None:
    subprocess.run([PYTHON, "manage.py", *args], cwd=ROOT, check=True)


def start_children(host: str, port: str) -> list[subprocess.Popen]:
    concurrency = os.environ.get("WORKER_CONCURRENCY", "2")
    worker = [PYTHON, "-m", "celery", "-A", "config", "worker", "--loglevel=INFO"]
    web = [PYTHON, "manage.py", "runserver", f"{host}:{port}", "--noreload"]
    return [
        subprocess.Popen([*worker, f"--concurrency={concurrency}"], cwd=ROOT),
        subprocess.Popen(web, cwd=ROOT),
    ]


def wait_for_port(host: str, port: int, children: list[subprocess.Popen]) -> bool:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if any(child.poll() is not None for child in children):
            return False
        try:
            with socket.create_connection((host, port), timeout=1):
                return True
        except OSError:
            time.sleep(0.3)
    return False


def stop(children: list[subprocess.Popen]) -> None:
    for child in children:
        if child.poll() is None:
            child.send_signal(signal.SIGTERM)
    deadline = time.monotonic() + STOP_TIMEOUT_S
    for child in children:
        try:
            child.wait(timeout=max(0.1, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            child.kill()
            child.wait()


def supervise(children: list[subprocess.Popen]) -> int:
    """Wait until a child exits; its exit ends the whole run."""
    while True:
        for child in children:
            code = child.poll()
            if code is not None:
                print(f"ranklens: {child.args[2]} exited with {code}; stopping.", file=sys.stderr)
                return code or 1
        time.sleep(0.5)


def main() -> int:
    host = os.environ.get("HOST", "127.0.0.1")
    port = os.environ.get("PORT", "8000")
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    try:
        manage("migrate", "--noinput")
        manage("ensure_admin")
        manage("load_knowledge")  # seed the case library (idempotent)
    except subprocess.CalledProcessError as error:
        print(f"ranklens: {' '.join(error.cmd[1:])} failed; see above.", file=sys.stderr)
        return 1
    children = start_children(host, port)
    try:
        if not wait_for_port(host, int(port), children):
            print("ranklens: the web server did not start.", file=sys.stderr)
            return 1
        print(f"\nRanklens is running at http://{host}:{port}/  (Ctrl-C stops it)\n", flush=True)
        return supervise(children)
    except (KeyboardInterrupt, SystemExit):
        return 0
    finally:
        stop(children)


if __name__ == "__main__":
    sys.exit(main())
