"""Python tracebacks: the exception line, its raise site and chains, however they are wrapped."""

import io

from analyzers.core.types import EventKind, FileInfo, FileKind
from analyzers.scan.member import scan_file


def scan(text: str, rank: int | None = None):
    return scan_file(io.BytesIO(text.encode()), FileInfo("log_0.log", FileKind.RANK_LOG, rank))


def errors(result):
    return [(e.line, e.source, e.message) for e in result.events if e.kind == EventKind.ERROR]


CHAINED = """\
Traceback (most recent call last):
  File "/usr/lib/python3.10/ctypes/__init__.py", line 619, in __init__
    self._handle = _dlopen(self._name, mode)
OSError: libatb.so: cannot open shared object file: No such file or directory

The above exception was the direct cause of the following exception:

Traceback (most recent call last):
  File "/root/venv/lib/python3.10/site-packages/torch_npu/op_plugin/atb/_atb_ops.py", line 66, in <module>
    torch.ops.load_library(atb_so_path)
  File "/root/venv/lib/python3.10/site-packages/torch/_ops.py", line 7593, in load_library
    raise OSError(f"Could not load this library: {path}") from e
OSError: Could not load this library: /usr/local/Ascend/nnal/atb/lib/libatb.so
"""


def test_chained_tracebacks_point_at_the_first_exception():
    result = scan(CHAINED)
    assert errors(result) == [
        (
            4,
            "traceback",
            "OSError: libatb.so: cannot open shared object file: No such file or directory",
        ),
        (
            13,
            "traceback",
            "OSError: Could not load this library: /usr/local/Ascend/nnal/atb/lib/libatb.so",
        ),
    ]
    first, second = result.facts["tracebacks"]
    assert (first["chained"], first["root_line"]) == (False, 4)
    assert (second["chained"], second["root_line"]) == (True, 4)
    assert (first["frame_line"], second["frame_line"]) == (2, 11)


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


# An unknown exception raised inside Python's own json module, called by the job's loader.
STDLIB_RAISE = """\
Traceback (most recent call last):
  File "/srv/app/weights.py", line 40, in load_checkpoint_index
    index = json.load(handle)
  File "/usr/lib/python3.10/json/__init__.py", line 293, in load
    return loads(fp.read(),
  File "<string>", line 2, in loads
  File "/usr/lib/python3.10/json/decoder.py", line 355, in raw_decode
    raise JSONDecodeError("Expecting value", s, err.value) from None
json.decoder.JSONDecodeError: Expecting value: line 1 column 1 (char 0)
"""


def test_the_frame_kept_for_an_exception_is_the_deepest_outside_the_standard_library():
    frames = [e for e in scan(STDLIB_RAISE).events if e.source == "traceback_frame"]
    assert [(e.line, e.message) for e in frames] == [
        (2, 'File "/srv/app/weights.py", line 40, in load_checkpoint_index')
    ]


def test_a_traceback_only_through_the_standard_library_keeps_its_innermost_frame():
    text = (
        "Traceback (most recent call last):\n"
        '  File "/usr/lib/python3.11/runpy.py", line 198, in _run_module_as_main\n'
        '  File "/usr/lib/python3.11/socket.py", line 836, in create_connection\n'
        "ConnectionRefusedError: [Errno 111] Connection refused\n"
    )
    frames = [e.line for e in scan(text).events if e.source == "traceback_frame"]
    assert frames == [3]


# Before Python 3.12 a comprehension runs in a frame of its own, named for its kind, in the
# function that wrote it; the statement printed under both frames is the same.
COMPREHENSION_RAISE = """\
Traceback (most recent call last):
  File "/opt/venv/lib/python3.10/site-packages/demo_launcher/hosts.py", line 88, in parse_slots
    return [int(x) for x in text.split(",")]
  File "/opt/venv/lib/python3.10/site-packages/demo_launcher/hosts.py", line 88, in <listcomp>
    return [int(x) for x in text.split(",")]
ValueError: invalid literal for int() with base 10: ''
"""


def test_a_comprehension_frame_is_kept_as_the_function_that_wrote_it():
    frames = [e for e in scan(COMPREHENSION_RAISE).events if e.source == "traceback_frame"]
    assert [(e.line, e.message) for e in frames] == [
        (
            2,
            'File "/opt/venv/lib/python3.10/site-packages/demo_launcher/hosts.py", line 88, in parse_slots',
        )
    ]


def test_a_traceback_whose_only_frame_is_a_comprehension_keeps_it():
    text = (
        "Traceback (most recent call last):\n"
        '  File "/srv/job/prep.py", line 12, in <genexpr>\n'
        "ValueError: invalid literal for int() with base 10: 'x'\n"
    )
    frames = [e.line for e in scan(text).events if e.source == "traceback_frame"]
    assert frames == [2]


def test_source_lines_of_a_logged_traceback_are_not_errors():
    text = (
        "(Worker_TP5 pid=509) ERROR 02-23 03:33:01 [multiproc_executor.py:169] Traceback (most recent call last):\n"
        '(Worker_TP5 pid=509) ERROR 02-23 03:33:01 [multiproc_executor.py:169]   File "/w/x.py", line 568, in loop\n'
        "(Worker_TP5 pid=509) ERROR 02-23 03:33:01 [multiproc_executor.py:169]     output = func(*args, **kwargs)\n"
        "(Worker_TP5 pid=509) ERROR 02-23 03:33:01 [multiproc_executor.py:169]              ^^^^^^^^^^^^^\n"
        "(Worker_TP5 pid=509) ERROR 02-23 03:33:01 [multiproc_executor.py:169] RuntimeError: The size of "
        "tensor a (4) must match the size of tensor b (3) at non-singleton dimension 0\n"
    )
    assert [line for line, _, _ in errors(scan(text))] == [5]


FLATTENED = """\
[rank0]: Traceback (most recent call last):
[rank0]: File "/opt/venv/lib/python3.11/site-packages/torch/_dynamo/utils.py", line 2017, in wrap_fake_exception
[rank0]: return fn()
[rank0]: ^^^^
[rank0]: File "/opt/venv/lib/python3.11/site-packages/torch/_dynamo/utils.py", line 2472, in <lambda>
[rank0]: lambda: run_node(tx.output, node, args, kwargs, nnmodule)
[rank0]: ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
[rank0]: File "/opt/venv/lib/python3.11/site-packages/torch/_decomp/decompositions.py", line 4102, in mv
[rank0]: else: torch._check(
[rank0]: torch._dynamo.exc.TorchRuntimeError: Failed running call_function <built-in method matmul of type object at 0x7f00c0ffee00>(*(FakeTensor(..., size=(2, s1, 64)), FakeTensor(..., size=(0,))), **{}):
"""


def test_a_keyword_led_source_line_of_a_flattened_traceback_is_not_its_exception():
    # a forum paste lost the traceback's indentation: source lines sit at the frames' depth,
    # and `lambda: ...` or `else: ...` read like `Type: text` but no class is named by a keyword
    assert errors(scan(FLATTENED)) == [
        (
            10,
            "traceback",
            "torch._dynamo.exc.TorchRuntimeError: Failed running call_function <built-in "
            "method matmul of type object at 0x7f00c0ffee00>(*(FakeTensor(..., size=(2, s1, 64)), "
            "FakeTensor(..., size=(0,))), **{}):",
        )
    ]


def test_interleaved_ranks_keep_their_own_tracebacks():
    text = (
        "[default0]:Traceback (most recent call last):\n"
        "[default1]:Traceback (most recent call last):\n"
        '[default0]:  File "/app/infer.py", line 313, in run_model\n'
        '[default1]:  File "/app/infer.py", line 286, in forward\n'
        "[default1]:KeyboardInterrupt\n"
        "[default0]:RuntimeError: mat1 and mat2 shapes cannot be multiplied (8x8 and 32x32)\n"
    )
    result = scan(text)
    assert [(e.line, e.rank) for e in result.events if e.source == "traceback"] == [(5, 1), (6, 0)]
    assert [t["frame_line"] for t in result.facts["tracebacks"]] == [4, 3]


def test_an_excerpt_that_starts_mid_traceback_still_gives_the_exception():
    text = (
        '    raise RuntimeError("Distributed package doesn\'t have NCCL built in")\n'
        "RuntimeError: Distributed package doesn't have NCCL built in\n"
    )
    assert errors(scan(text)) == [
        (2, "traceback", "RuntimeError: Distributed package doesn't have NCCL built in")
    ]


def test_a_multi_line_exception_message_is_joined():
    text = (
        "Traceback (most recent call last):\n"
        '  File "/app/load.py", line 40, in load\n'
        "    model.load_state_dict(state)\n"
        "RuntimeError: Error(s) in loading state_dict for Qwen2ForCausalLM:\n"
        '\tMissing key(s) in state_dict: "model.layers.0.self_attn.q_proj.weight".\n'
        "\tsize mismatch for lm_head.weight: copying a param with shape torch.Size([151936, 4096])\n"
        "2026-11-29 07:25:37,254 [rank0] INFO next record\n"
    )
    [event] = [e for e in scan(text).events if e.source == "traceback"]
    assert event.line == 4
    assert event.message == (
        "RuntimeError: Error(s) in loading state_dict for Qwen2ForCausalLM: "
        'Missing key(s) in state_dict: "model.layers.0.self_attn.q_proj.weight". '
        "size mismatch for lm_head.weight: copying a param with shape torch.Size([151936, 4096])"
    )


def test_an_ordinary_line_after_an_exception_is_not_joined():
    text = "ValueError: bad value\nEpoch 3 starting\n"
    [event] = scan(text).events
    assert event.message == "ValueError: bad value"


def test_a_native_source_place_under_an_exception_is_joined_to_its_message():
    """A native check that throws the runtime's message puts the failed call's place on the
    next line, unindented; the place is part of what the exception says."""
    text = (
        "RuntimeError: an illegal memory access was encountered\n"
        "/build/kernels/csrc/allreduce/two_shot_allreduce.cuh:212\n"
        "Epoch 3 starting\n"
    )
    [event] = [e for e in scan(text).events if e.source == "traceback"]
    assert event.line == 1
    assert event.message == (
        "RuntimeError: an illegal memory access was encountered "
        "/build/kernels/csrc/allreduce/two_shot_allreduce.cuh:212"
    )


def test_a_source_place_after_the_first_continuation_or_a_python_file_is_not_joined():
    text = (
        "ValueError: bad value\n"
        "/opt/app/train.py:40\n"
        "RuntimeError: Error(s) in loading state_dict for M:\n"
        "\tMissing key(s) in state_dict: w.\n"
        "/build/csrc/loader.cpp:12\n"
    )
    messages = [e.message for e in scan(text).events if e.source == "traceback"]
    assert messages == [
        "ValueError: bad value",
        "RuntimeError: Error(s) in loading state_dict for M: Missing key(s) in state_dict: w.",
    ]


def test_an_indented_cann_trace_line_after_an_exception_is_not_joined():
    text = (
        "[rank0]: RuntimeError: copy_d2d:torch_npu/csrc/aten/common/CopyKernel.cpp:274 NPU function "
        "error: c10_npu::acl::AclrtSynchronizeStreamWithTimeout(copy_stream), error code is 507001\n"
        "[rank0]:         The error from device(chipId:1, dieId:0), serial number is 3. there is a "
        "sdma error, sdma channel is 5, irqStatus=0x220000, cqeStatus=0x3 "
        "[FUNC:ProcessStarsSdmaErrorInfo][FILE:device_error_proc.cc][LINE:1498]\n"
    )
    events = scan(text).events
    assert events[0].message.endswith("error code is 507001")
    assert any(e.line == 2 and "there is a sdma error" in e.message for e in events)


def test_an_indented_line_without_a_cann_trace_tag_is_still_joined():
    text = (
        "RuntimeError: Error(s) in loading state_dict for LlamaForCausalLM:\n"
        "\tsize mismatch for lm_head.weight: copying a param with shape torch.Size([32000, 4096])\n"
    )
    [event] = scan(text).events
    assert event.message.endswith("copying a param with shape torch.Size([32000, 4096])")


# A traceback quoted as a whole (a test report, an indented paste): every line carries the
# same extra indent, so the exception line is indented like the header, not deeper.
QUOTED = """\
    Traceback (most recent call last):
      File "/opt/venv/lib/python3.11/site-packages/mylib/check.py", line 88, in compare
        if torch.all(same):
    RuntimeError: operator():build/CMakeFiles/torch_npu.dir/compiler_depend.ts:51 NPU function error: c10_npu::acl::AclrtSynchronizeStreamWithTimeout(copy_stream), error code is 507035
    [ERROR] 2026-03-02-10:11:12 (PID:41021, Device:3, RankID:-1) ERR00100 PTA call acl api failed
    EZ9999: Inner Error!
"""


def test_a_uniformly_indented_traceback_still_ends_at_its_exception():
    result = scan(QUOTED)
    found = errors(result)
    assert found[0][:2] == (4, "traceback")
    assert found[0][2].endswith("error code is 507035")  # the lines after it are not joined
    assert [line for line, _, _ in found][1:3] == [5, 6]  # and are read as their own events
    assert result.facts["tracebacks"][0]["frame_line"] == 2


def test_a_bare_assertion_error_is_read_with_the_statement_that_failed():
    """docs/labelling.md#config-driver_env-or-weight_load: a bare assertion says nothing by
    itself; the `assert` line above it (carets skipped, writer prefix removed) is what failed."""
    prefix = "(Worker_TP1 pid=7140) ERROR 05-11 10:42:19 [multiproc_executor.py:611] "
    text = (
        prefix
        + '  File "/opt/venv/lib/python3.11/site-packages/plugin/comm.py", line 71, in __init__\n'
        + prefix
        + "    assert isinstance(device, torch.device)\n"
        + prefix
        + "           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n"
        + prefix
        + "AssertionError\n"
    )
    assert errors(scan(text)) == [
        (4, "traceback", "AssertionError (assert isinstance(device, torch.device))")
    ]


def test_an_assertion_with_its_own_message_or_another_bare_exception_is_left_as_printed():
    text = (
        "Traceback (most recent call last):\n"
        '  File "/opt/train/model.py", line 40, in load\n'
        '    assert a.shape == b.shape, f"{a.shape} != {b.shape}"\n'
        "AssertionError: torch.Size([8]) != torch.Size([4])\n"
        "Traceback (most recent call last):\n"
        '  File "/opt/train/loop.py", line 9, in step\n'
        "    raise AssertionError\n"
        "AssertionError\n"
        "Traceback (most recent call last):\n"
        '  File "/opt/train/queue.py", line 12, in get\n'
        "    assert not self.closed\n"
        "TimeoutError\n"
    )
    assert [message for _, _, message in errors(scan(text))] == [
        "AssertionError: torch.Size([8]) != torch.Size([4])",
        "AssertionError",
        "TimeoutError",
    ]


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


def test_an_exception_line_that_stops_at_its_type_is_cited_with_the_lines_below():
    """The line alone would cite `RuntimeError:`; the reason printed under it is what failed."""
    text = (
        "RuntimeError: \n"
        "        Stage 1 could not run its backward:\n"
        "        gradient: Tensor(torch.Size([2, 8]))\n"
        "Epoch 3 starting\n"
    )
    [event] = scan(text).events
    assert event.text == (
        "RuntimeError: Stage 1 could not run its backward: gradient: Tensor(torch.Size([2, 8]))"
    )
    assert event.ref().text == event.text


def test_an_exception_headline_that_ends_at_its_colon_is_cited_with_its_first_reason():
    """`Error(s) in loading state_dict for Net:` says only that loading failed; the first
    line below says what, so the cited line carries it (the rest stays in the message)."""
    text = (
        "RuntimeError: Error(s) in loading state_dict for Net:\n"
        '\tMissing key(s) in state_dict: "fc.weight".\n'
        '\tUnexpected key(s) in state_dict: "head.weight".\n'
    )
    [event] = scan(text).events
    assert event.text == (
        "RuntimeError: Error(s) in loading state_dict for Net: Missing key(s) in state_dict: "
        '"fc.weight".'
    )
    assert event.message.endswith('"head.weight".')


def test_an_exception_line_with_its_own_text_is_cited_as_it_stands():
    text = "ValueError: bad value for lr: -1\n    (from config.yaml)\n"
    [event] = scan(text).events
    assert event.text == "ValueError: bad value for lr: -1"
    assert event.message.endswith("(from config.yaml)")


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


DCP_QUOTED = """\
[rank0]: torch.distributed.checkpoint.api.CheckpointException: CheckpointException ranks:dict_keys([1])
[rank0]: Traceback (most recent call last): (RANK 1)
[rank0]:   File "/opt/venv/lib/python3.11/site-packages/torch/distributed/checkpoint/utils.py", line 193, in reduce_scatter
[rank0]:     local_data = map_fun()
[rank0]:   File "/opt/venv/lib/python3.11/site-packages/torch/distributed/checkpoint/default_planner.py", line 495, in create_default_local_load_plan
[rank0]:     raise RuntimeError(f"Missing key in checkpoint state_dict: {fqn}.")
[rank0]: RuntimeError: Missing key in checkpoint state_dict: model.layers.0.bq.
"""


def test_a_distributed_checkpoint_quote_of_another_ranks_traceback_is_that_ranks():
    """torch's distributed checkpoint raises every failed rank's exception on every rank, each
    under `Traceback (most recent call last): (RANK n)`: the exception below is rank n's."""
    result = scan(DCP_QUOTED, rank=0)
    [inner] = [e for e in result.events if e.kind == EventKind.ERROR and "Missing key" in e.text]
    assert inner.rank == 1


def test_a_plain_traceback_header_names_no_rank():
    text = DCP_QUOTED.replace(" (RANK 1)", "")
    result = scan(text, rank=0)
    [inner] = [e for e in result.events if e.kind == EventKind.ERROR and "Missing key" in e.text]
    assert inner.rank == 0


# A paste that lost the break between a frame's source line and the exception under it: two
# blanks, then the exception. The line carries the error, inside an open traceback or after a
# frame cut at its start. Values of our own.
SOURCE_JOINED_TO_EXCEPTION = """\
Traceback (most recent call last):
  File "/opt/venv/lib/python3.8/site-packages/apex/parallel/distributed.py", line 226, in __init__
    flat_dist_call(coalesced, dist.broadcast, (0,))  RuntimeError: NCCL error in: /opt/pytorch/torch/lib/c10d/ProcessGroupNCCL.cpp:290, unhandled system error
"""


def test_an_exception_joined_to_its_source_line_is_read():
    found = [(line, message) for line, _, message in errors(scan(SOURCE_JOINED_TO_EXCEPTION))]
    assert any(line == 3 and "unhandled system error" in message for line, message in found)


def test_an_exception_joined_to_a_source_line_under_a_cut_frame_is_read():
    text = "\n".join(SOURCE_JOINED_TO_EXCEPTION.splitlines()[1:]) + "\n"
    found = [(line, message) for line, _, message in errors(scan(text))]
    assert any(line == 2 and "unhandled system error" in message for line, message in found)


def test_a_source_line_that_names_an_exception_stays_source():
    text = (
        "Traceback (most recent call last):\n"
        '  File "/opt/app/train.py", line 40, in step\n'
        "    raise RuntimeError(f'step failed: {reason}')\n"
        "RuntimeError: step failed: loss went non-finite\n"
    )
    assert [line for line, _, _ in errors(scan(text))] == [4]


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


def test_a_main_thread_traceback_is_no_threads() -> None:
    result = scan(CHAINED)
    assert not any(r.get("thread") for r in result.facts["tracebacks"])


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


# rich's RichHandler(rich_tracebacks=True) under `log.exception("model run failed")`: the box
# and the exception behind the blank time and level columns, the message cut at the width
RICH_BOX = """\
[12/05/26 09:12:41] ERROR    model run failed                                  decoder.py:211
                             ╭──────── Traceback (most recent call last) ────────╮
                             │ /srv/decoder/run.py:209 in <module>               │
                             │                                                   │
                             │ ❱ 209 │   │   main()                              │
                             │                                                   │
                             │ /srv/decoder/moe.py:88 in dispatch                │
                             │                                                   │
                             │ ❱  88 │   buf = torch.empty(capacity, hidden)     │
                             ╰───────────────────────────────────────────────────╯
                             RuntimeError: [enforce fail at alloc_cpu.cpp:127] err == 0.
                             DefaultCPUAllocator: can't allocate memory: you tried to
                             allocate 70368744177664 bytes. Error code 12 (Cannot allocate
                             memory)
[12/05/26 09:12:42] INFO     shutting down                                     decoder.py:215
"""


def test_a_rich_boxed_traceback_gives_its_exception_with_the_whole_wrapped_message():
    [event] = [e for e in scan(RICH_BOX).events if e.source == "traceback"]
    assert event.line == 11
    assert event.text == (
        "RuntimeError: [enforce fail at alloc_cpu.cpp:127] err == 0. DefaultCPUAllocator: "
        "can't allocate memory: you tried to allocate 70368744177664 bytes. Error code 12 "
        "(Cannot allocate memory)"
    )


def test_the_rows_of_a_rich_box_and_the_pieces_of_its_message_are_no_errors_of_their_own():
    lines = {line for line, _source, _message in errors(scan(RICH_BOX))}
    assert lines <= {1, 11}


def test_a_line_after_a_plain_traceback_at_the_exceptions_indent_is_not_joined():
    """Only rich cuts a message at the console's width: after a plain traceback a line at
    the exception's own indentation is the next thing printed."""
    text = (
        "Traceback (most recent call last):\n"
        '  File "/srv/decoder/moe.py", line 88, in dispatch\n'
        "    buf = torch.empty(capacity, hidden)\n"
        "RuntimeError: DefaultCPUAllocator: can't allocate memory\n"
        "terminate called without an active exception\n"
    )
    [event] = [e for e in scan(text).events if e.source == "traceback"]
    assert event.text == "RuntimeError: DefaultCPUAllocator: can't allocate memory"


def test_a_statement_typed_at_the_prompt_marks_its_traceback_interactive() -> None:
    result = scan(
        ">>> engine.run(batch)\n"
        "Traceback (most recent call last):\n"
        '  File "<stdin>", line 1, in <module>\n'
        "RuntimeError: backend failed\n",
    )
    (record,) = result.facts["tracebacks"]
    assert record["interactive"] is True


def test_a_script_frame_leaves_the_traceback_not_interactive() -> None:
    result = scan(
        "Traceback (most recent call last):\n"
        '  File "/srv/app/serve.py", line 30, in <module>\n'
        "    engine.run(batch)\n"
        "RuntimeError: backend failed\n",
    )
    (record,) = result.facts["tracebacks"]
    assert record["interactive"] is False


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


# A paste that starts in the middle of a traceback keeps no `Traceback (most recent call
# last):` header, but the frames above the exception are still the ones that raised it.
HEADERLESS_IN_A_LIBRARY = """\
  File "/opt/venv/lib/python3.10/site-packages/accelerate/accelerator.py", line 2001, in backward
    self.deepspeed_engine_wrapped.backward(loss, **kwargs)
  File "/opt/venv/lib/python3.10/site-packages/deepspeed/runtime/zero/stage3.py", line 2049, in step
    self.unscale_and_clip_grads(sub_group_id, scaled_global_grad_norm)
              ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
RuntimeError: device mismatch in the optimizer step
"""

# Counterexample: frames of an earlier exception, above a log line that ended it, are not the
# frames of a later bare exception line.
FRAMES_OF_AN_EARLIER_RECORD = """\
  File "/opt/venv/lib/python3.10/site-packages/deepspeed/runtime/zero/stage3.py", line 2049, in step
    self.unscale_and_clip_grads(sub_group_id, scaled_global_grad_norm)
[2026-05-02 10:11:12,001] [INFO] [engine.py:310:step] retrying the step on rank 0
RuntimeError: device mismatch in the optimizer step
"""


def test_a_traceback_without_its_header_keeps_the_library_frames_above_the_exception():
    record = scan(HEADERLESS_IN_A_LIBRARY).facts["tracebacks"][0]
    assert record["line"] == 6
    assert record["inner_packages"] == [
        'File "/opt/venv/lib/python3.10/site-packages/accelerate/accelerator.py", '
        "line 2001, in backward",
        'File "/opt/venv/lib/python3.10/site-packages/deepspeed/runtime/zero/stage3.py", '
        "line 2049, in step",
    ]


def test_frames_cut_off_by_another_log_line_are_not_the_bare_exceptions():
    record = scan(FRAMES_OF_AN_EARLIER_RECORD).facts["tracebacks"][0]
    assert record["line"] == 4
    assert record["inner_packages"] == []
