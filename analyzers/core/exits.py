"""How a process ended, as launchers and runtimes report it.

torchrun, mp.spawn, srun, Open MPI and the shell each name a fatal signal by its number
(`exitcode: -9`, `exited on signal 9`, status 137); the report and the rank table use its
name, and a number this platform has no name for still gets one."""

from __future__ import annotations

import signal


def signal_named(number: int) -> str:
    """`SIGKILL` for 9; `SIG<n>` for a number the platform does not name."""
    try:
        return signal.Signals(number).name
    except ValueError:
        return f"SIG{number}"
