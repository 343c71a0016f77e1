"""The lines printed above a traceback that say who carried its exception: a wrapper that
re-raised it, a launcher that relayed a child's, or an interpreter hook that printed it.

A wrapper that re-raises an exception caught in another process prints its own exception
first and the caught one's traceback after it, under `Original Traceback (most recent call
last):` (torch's DataLoader: `ValueError: Caught ValueError in DataLoader worker process 0.`).
The original is the chain's root there although it comes second: the wrapper's record is
`chained` with the original as its `root_line`, as a re-raise is. torch.multiprocessing.spawn's
join does the same for a child that raised: an empty `ProcessRaisedException:`, then
`-- Process 5 terminated with the following error:` and the child's own traceback. The number
is the child's spawn index (its local rank), so the child's exception is that rank's.
A job scheduler's client reports a failed task the same way: submitit's `FailedJobError: Job
(task=2) failed during processing with trace:`, a dashed rule, then the task's own traceback.
The task number is the task's global rank, so the traceback under it is that rank's and the
client's exception only re-raises it.

An exception nobody caught in a thread other than the main one is printed by threading's hook
under a line naming the thread (`Exception in thread prefetch:`, then the traceback). That line
only carries the exception below it (recorded as a re-raise of it, as the wrappers above), and
the exception's record says `thread`: it ended that thread, not the process, so the rank's
later progress lines are its main thread's.

An exception Python could not raise anywhere (one in a destructor `__del__`, a weakref or
atexit callback, a finaliser run by the garbage collector) is printed by the interpreter's
unraisable hook under a line naming the object (`Exception ignored in: <function
Remote.__del__ at 0x...>`; newer releases say `Exception ignored while calling deallocator
<...>:` or `... in atexit callback ...`), then the traceback. The exception's record says
`ignored`: Python printed it and carried on, so it stopped nothing. Such tracebacks follow a
failure as objects are torn down, often a cleanup tripping over the state the failure left.
"""

from __future__ import annotations

from analyzers.core import regex_programs

# the caught exception's traceback that a re-raising wrapper prints under its own exception
ORIGINAL = regex_programs.compile(r"\s*Original Traceback \(most recent call last\):\s*$")
# torch's wrapper sentence at the end of a job's own record of the error it caught (`ERROR
# model run failed: Caught MemoryError in DataLoader worker process 1.`): the record stands
# where the wrapper's exception line would, above the `Original Traceback` it carries
LOGGED_WRAPPER = regex_programs.compile(
    r"\bCaught [\w.]+ in (?:DataLoader worker process \d+|pin memory thread for device \d+)\.\s*$"
)
# torch.multiprocessing.spawn's join, above the traceback of the child that raised
SPAWN_CHILD = regex_programs.compile(
    r"\s*-- Process (?P<index>\d+) terminated with the following error:\s*$"
)
# a scheduler client's exception that carries a task's traceback below it (submitit)
TASK_WRAPPER = regex_programs.compile(
    r"\bJob \(task=(?P<index>\d+)\) failed during processing with trace:"
)
# threading's excepthook, above the traceback of a thread that died of an uncaught exception
THREAD = regex_programs.compile(r"\s*Exception in thread (?P<name>.{1,120}?):\s*$")
# the interpreter's unraisable hook, above the traceback of an exception it could only print
# (a destructor, a weakref or atexit callback, a finaliser)
IGNORED = regex_programs.compile(r"\s*Exception ignored (?:in|on|while)\b.{1,240}$")
