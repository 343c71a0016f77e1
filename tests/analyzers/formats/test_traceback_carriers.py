"""The lines above a traceback that say who carried its exception: a wrapper's `Original
Traceback`, a spawned child's header, a scheduler client's task, threading's hook and the
unraisable hook."""

import io

from analyzers.core.types import EventKind, FileInfo, FileKind
from analyzers.scan.member import scan_file


def scan(text: str, rank: int | None = None):
    return scan_file(io.BytesIO(text.encode()), FileInfo("log_0.log", FileKind.RANK_LOG, rank))


def errors(result):
    return [(e.line, e.source, e.message) for e in result.events if e.kind == EventKind.ERROR]


REWRAPPED = """\
[rank2]: Traceback (most recent call last):
[rank2]:   File "/srv/train/run.py", line 88, in <module>
[rank2]:     for batch in loader:
[rank2]:   File "/opt/py/torch/_utils.py", line 700, in reraise
[rank2]:     raise exception
[rank2]: KeyError: Caught KeyError in DataLoader worker process 3.
[rank2]: Original Traceback (most recent call last):
[rank2]:   File "/opt/py/torch/utils/data/_utils/worker.py", line 300, in _worker_loop
[rank2]:     data = fetcher.fetch(index)
[rank2]:   File "/srv/train/corpus.py", line 51, in __getitem__
[rank2]:     row = self.index[key]
[rank2]: KeyError: 'shard-0042/record-17'
"""


def test_a_wrapper_that_reprints_the_original_traceback_is_a_re_raise_of_it():
    """labelling.md "Wrappers": the exception a re-raising wrapper prints under `Original
    Traceback` is the chain's root, although it is printed second."""
    result = scan(REWRAPPED, rank=2)
    assert [line for line, _, _ in errors(result)] == [6, 12]
    records = result.facts["tracebacks"]
    wrapper = [r for r in records if r["line"] == 6 and r["chained"]]
    assert [(r["root_line"]) for r in wrapper] == [12]
    original = [r for r in records if r["line"] == 12]
    assert [(r["chained"], r["root_line"]) for r in original] == [(False, 12)]


def test_an_original_traceback_header_far_from_any_exception_chains_nothing():
    text = (
        "[rank2]: KeyError: Caught KeyError in DataLoader worker process 3.\n"
        + "".join(f"[rank2]: step {n} queued\n" for n in range(20))
        + "\n".join(REWRAPPED.splitlines()[6:])
        + "\n"
    )
    result = scan(text, rank=2)
    assert not any(r["chained"] for r in result.facts["tracebacks"])


SPAWN_RAISED = """\
Traceback (most recent call last):
  File "/work/job/spawn_main.py", line 20, in <module>
    mp.spawn(worker, args=(world,), nprocs=world, join=True)
  File "/opt/venv/lib/python3.11/site-packages/torch/multiprocessing/spawn.py", line 211, in join
    raise ProcessRaisedException(msg, error_index, failed_process.pid)
torch.multiprocessing.spawn.ProcessRaisedException: 

-- Process 5 terminated with the following error:
Traceback (most recent call last):
  File "/opt/venv/lib/python3.11/site-packages/torch/multiprocessing/spawn.py", line 87, in _wrap
    fn(i, *args)
  File "/work/job/infer.py", line 190, in pre_init
    with open(cfg) as f:
         ^^^^^^^^^
FileNotFoundError: [Errno 2] No such file or directory: '/models/toy-moe/parallel_config.json'
"""


def test_a_spawned_childs_traceback_under_the_join_is_that_childs_and_the_root():
    """torch.multiprocessing.spawn prints its empty ProcessRaisedException first and the
    child's traceback under `-- Process 5 terminated with the following error:`."""
    result = scan(SPAWN_RAISED)
    child = [e for e in result.events if e.kind == EventKind.ERROR and e.line == 15]
    assert [e.rank for e in child] == [5]
    wrapper = [r for r in result.facts["tracebacks"] if r["line"] == 6 and r["chained"]]
    assert [r["root_line"] for r in wrapper] == [15]


SUBMITIT_FAILED = """\
Traceback (most recent call last):
  File "/work/job/submit.py", line 17, in <module>
    job.results()
  File "/opt/venv/lib/python3.11/site-packages/submitit/core/core.py", line 295, in results
    raise job_exception  # pylint: disable=raising-bad-type
    ^^^^^^^^^^^^^^^^^^^
submitit.core.utils.FailedJobError: Job (task=2) failed during processing with trace:
----------------------
Traceback (most recent call last):
  File "/opt/venv/lib/python3.11/site-packages/submitit/core/submission.py", line 55, in process_job
    result = delayed.result()
             ^^^^^^^^^^^^^^^^
  File "/work/job/decoder.py", line 112, in forward
    dist.all_reduce(a)
RuntimeError: [../third_party/gloo/gloo/transport/tcp/pair.cc:537] Read error [127.0.0.1]:57057: Connection reset by peer

----------------------
You can check full logs with 'job.stderr(2)' and 'job.stdout(2)'or at paths:
"""


def test_a_scheduler_clients_task_traceback_is_that_tasks_and_the_root():
    """submitit re-raises a failed task's traceback inside its own FailedJobError, after a
    dashed rule; the task number is the task's global rank."""
    result = scan(SUBMITIT_FAILED)
    inner = [e for e in result.events if e.kind == EventKind.ERROR and e.line == 15]
    assert [e.rank for e in inner] == [2]
    wrapper = [r for r in result.facts["tracebacks"] if r["line"] == 7 and r["chained"]]
    assert [r["root_line"] for r in wrapper] == [15]


def test_a_traceback_far_below_a_task_wrapper_is_not_that_tasks():
    text = SUBMITIT_FAILED.replace("----------------------\nTraceback", "\n" * 20 + "Traceback", 1)
    result = scan(text)
    inner = [e for e in result.events if e.kind == EventKind.ERROR and "Read error" in e.text]
    assert [e.rank for e in inner] == [None]


# threading's hook prints a thread's uncaught exception under a line naming the thread
THREAD_DIED = """\
 MoE passed
Exception in thread loader-2:
Traceback (most recent call last):
  File "/usr/lib/python3.11/threading.py", line 1045, in _bootstrap_inner
    self.run()
  File "/srv/infer/prefetch.py", line 40, in fill
    feats = rows @ self.proj
RuntimeError: mat1 and mat2 shapes cannot be multiplied (4x16 and 32x32)
layer 0 passed
"""


def test_a_thread_death_is_recorded_as_the_threads_and_its_header_only_carries_it() -> None:
    result = scan(THREAD_DIED, rank=1)
    records = {r["line"]: r for r in result.facts["tracebacks"]}
    assert records[8]["thread"] is True
    assert (records[2]["type"], records[2]["root_line"]) == ("re-raise", 8)


MAIN_THREAD = """\
Traceback (most recent call last):
  File "/srv/job/train.py", line 12, in <module>
    main()
RuntimeError: the loader stopped
"""


def test_a_main_thread_traceback_is_no_threads() -> None:
    result = scan(MAIN_THREAD)
    assert not any(r.get("thread") for r in result.facts["tracebacks"])


# A job may hand a thread's uncaught exception to its own logger (`threading.excepthook =
# ...`): the record, then a plain header, with no `Exception in thread X:` line. The first
# frame, threading's bootstrap that ran the thread's target, says whose exception it is.
THREAD_LOGGED = """\
2026-03-09 09:14:02,118 [ERROR] (rank 1) loader thread died
Traceback (most recent call last):
  File "/opt/py311/lib/python3.11/threading.py", line 1045, in _bootstrap_inner
    self.run()
  File "/opt/py311/lib/python3.11/threading.py", line 982, in run
    self._target(*self._args, **self._kwargs)
  File "/srv/job/feed.py", line 31, in fill
    sample = json.loads(raw)
json.decoder.JSONDecodeError: Unterminated string starting at: line 1 column 14 (char 13)
2026-03-09 09:14:02,530 [INFO] (rank 1) layer 0 passed
"""


def test_a_traceback_that_starts_in_a_threads_bootstrap_is_the_threads() -> None:
    records = {r["line"]: r for r in scan(THREAD_LOGGED, rank=1).facts["tracebacks"]}
    assert records[9]["thread"] is True


def test_a_bootstrap_frame_inside_a_traceback_is_no_threads() -> None:
    """Counterexample: the main thread joining a worker passes through threading.py too, but
    a traceback whose first frame is the job's own code is the main thread's."""
    text = (
        "Traceback (most recent call last):\n"
        '  File "/srv/job/train.py", line 40, in <module>\n'
        "    worker.join()\n"
        '  File "/opt/py311/lib/python3.11/threading.py", line 1045, in _bootstrap_inner\n'
        "    self.run()\n"
        "RuntimeError: the loader stopped\n"
    )
    assert not any(r.get("thread") for r in scan(text).facts["tracebacks"])


# The interpreter's unraisable hook prints an exception it could not raise (a destructor's)
# under a line naming the object: the record says `ignored`, the process went on.
DESTRUCTOR_FAILED = """\
RuntimeError: transfer agent refused the peer's layout
Exception ignored in: <function KvHandle.__del__ at 0x7f10a2c3d940>
Traceback (most recent call last):
  File "/srv/kvlink/handle.py", line 212, in __del__
    self._free()
  File "/srv/kvlink/handle.py", line 230, in _free
    self._pool.release(self._slot)
AttributeError: 'KvHandle' object has no attribute '_slot'
"""


def test_an_exception_the_unraisable_hook_printed_is_recorded_as_ignored() -> None:
    records = {r["line"]: r for r in scan(DESTRUCTOR_FAILED).facts["tracebacks"]}
    assert records[8]["ignored"] is True
    assert records[1]["ignored"] is False


def test_newer_wordings_of_the_hook_are_read_the_same_way() -> None:
    text = DESTRUCTOR_FAILED.replace(
        "Exception ignored in: <function KvHandle.__del__ at 0x7f10a2c3d940>",
        "Exception ignored while calling deallocator <function KvHandle.__del__ at 0x7f10a2c3d940>:",
    )
    records = {r["line"]: r for r in scan(text).facts["tracebacks"]}
    assert records[8]["ignored"] is True


def test_a_traceback_not_right_under_the_hooks_line_is_not_ignored() -> None:
    text = DESTRUCTOR_FAILED.replace(
        "Traceback (most recent call last):\n",
        "cleanup of 3 handles\nTraceback (most recent call last):\n",
    )
    assert not any(r.get("ignored") for r in scan(text).facts["tracebacks"])
