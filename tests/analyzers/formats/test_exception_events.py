"""What an exception line becomes: its ERROR event, its kept frame's WARNING event, and its
`tracebacks` fact with the frames around it."""

import io

from analyzers.core.types import EventKind, FileInfo, FileKind
from analyzers.scan.member import scan_file


def scan(text: str, rank: int | None = None):
    return scan_file(io.BytesIO(text.encode()), FileInfo("log_0.log", FileKind.RANK_LOG, rank))


def errors(result):
    return [(e.line, e.source, e.message) for e in result.events if e.kind == EventKind.ERROR]


def test_the_raise_site_of_a_bare_exception_is_a_warning_event():
    text = (
        "(EngineCore_DP0 pid=91310) ERROR 10-10 09:15:47 [core.py:815]     return next(self.gen)\n"
        '(EngineCore_DP0 pid=91310) ERROR 10-10 09:15:47 [core.py:815]   File "/workspace/vllm/vllm/'
        'distributed/device_communicators/shm_broadcast.py", line 375, in acquire_read\n'
        "(EngineCore_DP0 pid=91310) ERROR 10-10 09:15:47 [core.py:815]     raise TimeoutError\n"
        "(EngineCore_DP0 pid=91310) ERROR 10-10 09:15:47 [core.py:815] TimeoutError\n"
    )
    events = [(e.line, e.kind, e.source) for e in scan(text).events]
    assert events == [(2, EventKind.WARNING, "traceback_frame"), (4, EventKind.ERROR, "traceback")]


# A compile worker's task loop ends in a bare EOFError raised by multiprocessing's own `_recv`:
# the frame that read the connection (a package's, above the standard library's) says whose.
WORKER_EOF = """\
Traceback (most recent call last):
  File "/opt/py39/lib/python3.9/multiprocessing/process.py", line 315, in _bootstrap
    self.run()
  File "/opt/toolkit/python/site-packages/compilerd/pool.py", line 140, in serve
    job, args = self.jobs.get()
  File "<string>", line 2, in get
  File "/opt/py39/lib/python3.9/multiprocessing/managers.py", line 810, in _callmethod
    kind, result = conn.recv()
  File "/opt/py39/lib/python3.9/multiprocessing/connection.py", line 383, in _recv
    raise EOFError
EOFError
"""


def test_a_bare_exception_the_standard_library_raised_is_read_with_the_frame_that_called_it():
    """docs/labelling.md#a-compiler-worker-that-outlives-its-process: the bare word says only
    that a connection closed; the package frame and its statement say whose."""
    result = scan(WORKER_EOF)
    assert errors(result) == [
        (
            11,
            "traceback",
            'EOFError (File "/opt/toolkit/python/site-packages/compilerd/pool.py", line 140, '
            "in serve job, args = self.jobs.get())",
        )
    ]
    cited = next(e for e in result.events if e.kind == EventKind.ERROR)
    assert cited.text.startswith("EOFError (")
    assert "self.jobs.get()" in cited.text


def test_a_bare_exception_raised_in_a_packages_own_code_or_with_words_is_left_as_printed():
    own = WORKER_EOF.replace(
        '  File "/opt/py39/lib/python3.9/multiprocessing/connection.py", line 383, in _recv\n'
        "    raise EOFError\n",
        '  File "/opt/toolkit/python/site-packages/compilerd/wire.py", line 22, in recv\n'
        "    raise EOFError\n",
    )
    worded = WORKER_EOF.replace("EOFError\n", "EOFError: Ran out of input\n")
    assert [message for _, _, message in errors(scan(own))] == ["EOFError"]
    assert [message for _, _, message in errors(scan(worded))] == ["EOFError: Ran out of input"]


def test_a_frame_a_paste_wrapped_after_its_path_is_read_as_one_frame():
    wrapped = "".join(
        line + " \n\n"
        for line in WORKER_EOF.replace(
            'pool.py", line 140, in serve', 'pool.py",\n line 140, in serve'
        ).splitlines()
    )
    result = scan(wrapped)
    (message,) = [message for _, _, message in errors(result)]
    assert 'pool.py", line 140, in serve job, args = self.jobs.get()' in message
    frame = next(e for e in result.events if e.source == "traceback_frame")
    assert frame.message.endswith('pool.py", line 140, in serve')


# A source rank whose settings object refuses to be pickled inside broadcast_object_list: the
# innermost frame is the job's own __getstate__, the library frame above it the collective's
# pickling helper. torch's excepthook prints it with the `[rankN]:` prefix.
PICKLED_BY_LIBRARY = """\
model run failed: KV cache handle for layer 0 is pinned to this process and cannot be serialized
[rank0]: Traceback (most recent call last):
[rank0]:   File "/home/user/serve/infer.py", line 177, in <module>
[rank0]:     main()
[rank0]:   File "/home/user/serve/infer.py", line 152, in main
[rank0]:     dist.broadcast_object_list(cfg, src=0)
[rank0]:   File "/opt/venv/lib/python3.11/site-packages/torch/distributed/c10d_logger.py", line 83, in wrapper
[rank0]:     return func(*args, **kwargs)
[rank0]:   File "/opt/venv/lib/python3.11/site-packages/torch/distributed/distributed_c10d.py", line 3405, in _object_to_tensor
[rank0]:     _pickler(f).dump(obj)
[rank0]:   File "/home/user/serve/infer.py", line 65, in __getstate__
[rank0]:     raise RuntimeError(f"KV cache handle for layer {self.layer} is pinned")
[rank0]: RuntimeError: KV cache handle for layer 0 is pinned to this process and cannot be serialized
"""


def test_the_library_frame_that_called_the_jobs_own_failing_code_is_kept_as_its_caller():
    record = scan(PICKLED_BY_LIBRARY).facts["tracebacks"][0]
    assert record["line"] == 13
    assert record["caller"] == (
        'File "/opt/venv/lib/python3.11/site-packages/torch/distributed/distributed_c10d.py", '
        "line 3405, in _object_to_tensor"
    )


def test_the_innermost_library_frames_are_kept_innermost_last():
    """The library layers under the job's call: here the collective's logger wrapper and its
    pickling helper, nothing of the job's own script."""
    record = scan(PICKLED_BY_LIBRARY).facts["tracebacks"][0]
    assert record["inner_packages"] == [
        'File "/opt/venv/lib/python3.11/site-packages/torch/distributed/c10d_logger.py", '
        "line 83, in wrapper",
        'File "/opt/venv/lib/python3.11/site-packages/torch/distributed/distributed_c10d.py", '
        "line 3405, in _object_to_tensor",
    ]


def test_only_the_six_innermost_library_frames_are_kept():
    frames = "".join(
        f'  File "/opt/venv/lib/python3.11/site-packages/lib{n}/core.py", line {n}, in call\n'
        for n in range(1, 10)
    )
    text = f"Traceback (most recent call last):\n{frames}RuntimeError: layer 9 refused\n"
    kept = scan(text).facts["tracebacks"][0]["inner_packages"]
    assert [frame.split("/")[6] for frame in kept] == [f"lib{n}" for n in range(4, 10)]


def test_a_traceback_that_stays_in_the_jobs_script_or_ends_in_a_library_has_no_caller():
    own_code_only = (
        "Traceback (most recent call last):\n"
        '  File "/home/user/serve/infer.py", line 177, in <module>\n'
        '  File "/home/user/serve/infer.py", line 90, in forward\n'
        "RuntimeError: KV cache handle for layer 0 is pinned to this process\n"
    )
    ends_in_library = (
        "Traceback (most recent call last):\n"
        '  File "/home/user/serve/infer.py", line 90, in forward\n'
        '  File "/opt/venv/lib/python3.11/site-packages/torch/nn/functional.py", line 2908, in linear\n'
        "RuntimeError: mat1 and mat2 shapes cannot be multiplied (8x8 and 32x32)\n"
    )
    for text in (own_code_only, ends_in_library):
        assert scan(text).facts["tracebacks"][0]["caller"] is None
