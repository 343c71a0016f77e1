"""Logs that end inside a Python traceback, the exception line cut off by the paste.

docs/labelling.md#a-traceback-cut-before-its-exception,
docs/labelling.md#a-cuda-only-library-loaded-on-an-ascend-job and
docs/labelling.md#a-compiler-worker-that-outlives-its-process.
"""

from __future__ import annotations

from tests.analyzers.excerpts import alternative_labels, assert_reads, diagnose_text

# A Megatron job on NPU whose paste stops in Transformer Engine's import-time library loader.
LOADER_CUT = """\
[INFO:swift] Start time of running main: 2026-02-03 10:11:12
  File "/opt/envs/mg/lib/python3.11/site-packages/megatron/core/extensions/transformer_engine.py", line 21, in <module>
    import transformer_engine as te
  File "/opt/envs/mg/lib/python3.11/site-packages/transformer_engine/__init__.py", line 12, in <module>
    import transformer_engine.common
  File "/opt/envs/mg/lib/python3.11/site-packages/transformer_engine/common/__init__.py", line 311, in <module>
    _CUDNN_LIB_CTYPES = _load_cudnn()
  File "/opt/envs/mg/lib/python3.11/site-packages/transformer_engine/common/__init__.py", line 257, in _load_cudnn
    libs = subprocess.check_output(
  File "/opt/envs/mg/lib/python3.11/subprocess.py", line 466, in check_output
    return run(*popenargs, stdout=PIPE, timeout=timeout, check=True,
"""

# The same shape of paste in a package no signature knows: cut, not hung.
PLAIN_CUT = """\
Traceback (most recent call last):
  File "/srv/app/train.py", line 88, in <module>
    main()
  File "/srv/app/train.py", line 80, in main
    dataset = build_dataset(cfg.data)
  File "/srv/app/data/builder.py", line 41, in build_dataset
    records = json.load(handle)
  File "/usr/lib/python3.10/json/__init__.py", line 293, in load
    return loads(fp.read(),
"""

# A call into a manager proxy: the deepest frame is code generated at run time, with no file.
GENERATED_FRAME_CUT = """\
Traceback (most recent call last):
  File "/srv/app/serve.py", line 52, in <module>
    result = pool.submit_job(spec)
  File "/srv/app/pool.py", line 77, in submit_job
    return self._proxy.enqueue(spec)
  File "<string>", line 2, in enqueue
"""

# A `python -c` one-liner: the generated frame is the only one, so it is cited.
ONE_LINER_CUT = """\
Traceback (most recent call last):
  File "<string>", line 1, in <module>
"""

# The TBE compiler's worker on an 8-NPU training host, pasted double-spaced from a narrow
# terminal that wrapped the long frames after their paths; the paste stops in the queue read.
TBE_WORKER_CUT = """\
Epoch 3/40  iter 120/480  loss 2.4187  lr 4.0e-04 

Traceback (most recent call last): 

  File "/opt/conda/envs/pt21/lib/python3.9/multiprocessing/process.py", line 315, in _bootstrap 

    self.run() 

  File "/opt/conda/envs/pt21/lib/python3.9/multiprocessing/process.py", line 108, in run 

    self._target(*self._args, **self._kwargs) 

  File "/opt/Ascend/ascend-toolkit/8.0.0/python/site-packages/tbe/common/repository_manager/route.py", 

 line 70, in wrapper 

    raise exp 

  File "/opt/Ascend/ascend-toolkit/8.0.0/python/site-packages/tbe/common/repository_manager/route.py", 

 line 268, in task_distribute 

    key, func_name, detail = resource_proxy[TASK_QUEUE].get() 

  File "<string>", line 2, in get 

"""

# The same paste cut one frame higher: the module's `wrapper` frame is no queue read.
TBE_WRAPPER_CUT = TBE_WORKER_CUT.split(
    '  File "/opt/Ascend/ascend-toolkit/8.0.0/python/site-packages/tbe/common/repository_manager/route.py", \n\n line 268'
)[0]

# A hang log that ends on the stack faulthandler printed on request: no traceback was cut.
HANG_DUMP = """\
[rank0] step 120 loss 1.93
Current thread 0x00007f3a2b1ff740 (most recent call first):
  File "/usr/lib/python3.10/threading.py", line 324 in wait
  File "/srv/app/train.py", line 140 in sync
  File "/srv/app/train.py", line 88 in <module>
"""


def test_a_paste_cut_in_transformer_engines_loader_is_a_config_problem() -> None:
    diagnosis = diagnose_text("megatron/console.log", LOADER_CUT)
    assert_reads(
        diagnosis,
        "config",
        first_error="in _load_cudnn libs = subprocess.check_output(",
        beside=("driver_env",),
    )


def test_a_cut_traceback_cites_the_deepest_frame_outside_the_standard_library() -> None:
    diagnosis = diagnose_text("job/train.log", PLAIN_CUT)
    assert diagnosis.category == "other"
    assert diagnosis.confidence < 0.5
    assert diagnosis.first_error is not None
    assert "builder.py" in diagnosis.first_error.text
    assert "records = json.load(handle)" in diagnosis.first_error.text


def test_a_stack_dumped_while_hanging_is_not_a_cut_traceback() -> None:
    diagnosis = diagnose_text("job/train.log", HANG_DUMP)
    assert diagnosis.category == "hang"
    assert diagnosis.first_error is None


def test_an_exception_line_elsewhere_keeps_the_cut_tail_out() -> None:
    text = "ValueError: learning rate must be positive, got -0.1\n" + PLAIN_CUT
    diagnosis = diagnose_text("job/train.log", text)
    assert diagnosis.first_error is not None
    assert "learning rate must be positive" in diagnosis.first_error.text


def test_the_loader_frame_above_an_exception_line_leaves_the_exception_first() -> None:
    text = LOADER_CUT.replace(
        "    return run(*popenargs, stdout=PIPE, timeout=timeout, check=True,\n",
        "    return run(*popenargs, stdout=PIPE, timeout=timeout, check=True,\n"
        "subprocess.CalledProcessError: Command 'ldconfig -p' returned non-zero exit status 1.\n",
    )
    diagnosis = diagnose_text("megatron/console.log", text)
    assert diagnosis.first_error is not None
    assert "CalledProcessError" in diagnosis.first_error.text


def test_a_generated_frame_yields_to_the_deepest_frame_with_a_file() -> None:
    diagnosis = diagnose_text("job/serve.log", GENERATED_FRAME_CUT)
    assert diagnosis.first_error is not None
    assert "pool.py" in diagnosis.first_error.text
    assert "return self._proxy.enqueue(spec)" in diagnosis.first_error.text


def test_a_generated_frame_alone_is_still_cited() -> None:
    diagnosis = diagnose_text("job/run.log", ONE_LINER_CUT)
    assert diagnosis.first_error is not None
    assert 'File "<string>", line 1, in <module>' in diagnosis.first_error.text


def test_a_frame_wrapped_after_its_path_is_read_as_one_frame() -> None:
    wrapped = PLAIN_CUT.replace(
        '"/srv/app/data/builder.py", line 41', '"/srv/app/data/builder.py",\n line 41'
    )
    diagnosis = diagnose_text("job/train.log", wrapped)
    assert diagnosis.first_error is not None
    assert "line 41, in build_dataset" in diagnosis.first_error.text
    assert "records = json.load(handle)" in diagnosis.first_error.text


def test_a_compiler_worker_cut_in_its_queue_read_is_the_main_process_gone() -> None:
    diagnosis = diagnose_text("train_3.log", TBE_WORKER_CUT)
    assert diagnosis.category == "device_fault", diagnosis.root_cause
    assert diagnosis.confidence < 0.8
    assert diagnosis.first_error is not None
    assert "in task_distribute" in diagnosis.first_error.text
    assert "resource_proxy[TASK_QUEUE].get()" in diagnosis.first_error.text
    assert "oom" in alternative_labels(diagnosis)


def test_a_compiler_worker_cut_in_its_wrapper_is_not_read_as_the_queue() -> None:
    diagnosis = diagnose_text("train_3.log", TBE_WRAPPER_CUT)
    assert diagnosis.first_error is not None
    assert "in wrapper" in diagnosis.first_error.text
    assert diagnosis.category != "device_fault"


# An RL trainer's Ray actor on an NPU host whose constructor asks torch for a CUDA device; the
# paste keeps Ray's creation-task header and the frames, and stops at the `raise` statement.
RAY_CREATION_CUT = """\
(LearnerActor pid=7311) Exception raised in creation task: The actor died because of an error raised in its creation task, ray::LearnerActor.__init__() (pid=7311, ip=10.6.2.9, actor_id=77a0c1d2e3f4a5b6c7d8e9f003000000, repr=<rlkit.actors.LearnerActor object at 0xfffe2b4c1d90>)
(LearnerActor pid=7311)   File "/srv/rlkit/rlkit/actors.py", line 58, in __init__
(LearnerActor pid=7311)     self.device = pick_device(cfg)
(LearnerActor pid=7311)   File "/srv/rlkit/rlkit/devices.py", line 17, in pick_device
(LearnerActor pid=7311)     index = torch.cuda.current_device()
(LearnerActor pid=7311)   File "/opt/py311/lib/python3.11/site-packages/torch/cuda/__init__.py", line 878, in current_device
(LearnerActor pid=7311)     _lazy_init()
(LearnerActor pid=7311)   File "/opt/py311/lib/python3.11/site-packages/torch/cuda/__init__.py", line 305, in _lazy_init
(LearnerActor pid=7311)     raise AssertionError("Torch not compiled with CUDA enabled")
"""

# A remote method's failure re-raised in the driver, the worker's frames cut in a package no
# signature knows.
RAY_TASK_CUT = """\
ray.exceptions.RayTaskError(KeyError): ray::ShardReader.fetch() (pid=902, ip=10.6.2.11, actor_id=0c1d2e3f4a5b6c7d8e9fa0b104000000)
  File "/srv/rlkit/rlkit/data/shards.py", line 140, in fetch
    row = self.index[name]
  File "/srv/rlkit/rlkit/data/index.py", line 33, in __getitem__
    return self._rows[self._keys[key]]
"""


def test_a_ray_creation_header_over_a_cut_traceback_reads_the_deepest_frame() -> None:
    diagnosis = diagnose_text("rl/driver.log", RAY_CREATION_CUT)
    assert diagnosis.first_error is not None
    assert 'raise AssertionError("Torch not compiled with CUDA enabled")' in (
        diagnosis.first_error.text
    )
    assert diagnosis.category == "config"


def test_a_ray_task_header_names_the_type_and_stays_over_a_cut_traceback() -> None:
    diagnosis = diagnose_text("rl/driver.log", RAY_TASK_CUT)
    assert diagnosis.first_error is not None
    assert "RayTaskError(KeyError)" in diagnosis.first_error.text


def test_a_ray_task_header_naming_memory_reads_as_memory_over_a_cut_traceback() -> None:
    text = RAY_TASK_CUT.replace("RayTaskError(KeyError)", "RayTaskError(OutOfMemoryError)")
    diagnosis = diagnose_text("rl/driver.log", text)
    assert_reads(diagnosis, "oom", first_error="RayTaskError(OutOfMemoryError)")


def test_a_ray_creation_header_alone_is_the_first_error() -> None:
    header = RAY_CREATION_CUT.splitlines()[0] + "\n"
    diagnosis = diagnose_text("rl/driver.log", header)
    assert_reads(diagnosis, "other", first_error="raised in its creation task")


def test_the_exception_line_under_a_ray_header_stays_first() -> None:
    text = RAY_TASK_CUT + "KeyError: 'shard-0017'\n"
    diagnosis = diagnose_text("rl/driver.log", text)
    assert diagnosis.first_error is not None
    assert "KeyError: 'shard-0017'" in diagnosis.first_error.text


def test_a_ray_header_apart_from_the_cut_frames_is_not_their_head() -> None:
    lines = RAY_TASK_CUT.splitlines(keepends=True)
    text = lines[0] + "INFO 05-02 10:11:12 reader pool resized to 4\n" + "".join(lines[1:])
    diagnosis = diagnose_text("rl/driver.log", text)
    assert diagnosis.first_error is not None
    assert "RayTaskError(KeyError)" in diagnosis.first_error.text


def test_another_error_line_keeps_a_ray_headed_cut_out() -> None:
    text = "ValueError: rollout batch must be positive, got 0\n" + RAY_TASK_CUT
    diagnosis = diagnose_text("rl/driver.log", text)
    assert diagnosis.first_error is not None
    assert "rollout batch must be positive" in diagnosis.first_error.text


def test_a_double_spaced_cut_traceback_inside_a_markdown_quote_reads_its_deepest_frame() -> None:
    quoted = "".join(f"> {line}\n>\n" for line in PLAIN_CUT.splitlines())
    diagnosis = diagnose_text("job/train.log", quoted)
    assert diagnosis.first_error is not None
    assert "in build_dataset" in diagnosis.first_error.text


# A serving plugin's traceback pasted as its last frame and the statement that raised, with a
# message in a refusal's words; the exception line under it was not pasted.
RAISED_REFUSAL_CUT = """\
  File "/srv/engine/plugin/parallel/groups.py", line 212, in build_groups
    raise ValueError(f"expert group size must be a power of two, got {size}")
"""

# The expert-parallel load balancer of a serving plugin refusing the model, pasted the same way
# (the frame flush left, its statement one blank in).
BALANCER_CUT = """\
File "/srv/engine/plugin/eplb/registry.py", line 64, in register_model
 raise NotImplementedError("EPLB is not supported.")
"""


def test_a_cut_traceback_ending_on_a_raise_in_refusal_words_cites_the_frame() -> None:
    diagnosis = diagnose_text("serve/engine.log", RAISED_REFUSAL_CUT)
    assert diagnosis.first_error is not None
    assert "in build_groups" in diagnosis.first_error.text
    assert "must be a power of two" in diagnosis.first_error.text
    assert diagnosis.confidence < 0.5


def test_an_expert_balancer_refusal_cut_at_its_raise_is_a_config_problem() -> None:
    diagnosis = diagnose_text("serve/engine.log", BALANCER_CUT)
    assert diagnosis.category == "config"
    assert diagnosis.first_error is not None
    assert 'NotImplementedError("EPLB is not supported.")' in diagnosis.first_error.text
    assert "other" in alternative_labels(diagnosis)


# A serving engine's worker start-up logged with vLLM's own headline, the paste stopping inside
# a model's constructor, a package no signature knows.
WORKER_TAG = "(Worker_TP2 pid=5120)"
VLLM_HEADED_CUT = "".join(
    f"{WORKER_TAG} ERROR 04-09 16:20:31 [multiproc_executor.py:702] {line}\n"
    for line in (
        "WorkerProc failed to start.",
        "Traceback (most recent call last):",
        '  File "/srv/py/lib/python3.11/site-packages/vllm/v1/executor/multiproc_executor.py", '
        "line 676, in worker_main",
        "    worker = WorkerProc(*args, **kwargs)",
        '  File "/srv/models/plugins/tiny_mixer/model.py", line 212, in __init__',
        "    self.router = build_router(config.router_kind)",
    )
)


def test_a_vllm_headline_over_a_cut_traceback_reads_the_deepest_frame() -> None:
    """docs/labelling.md#a-traceback-cut-before-its-exception: vLLM's headline names no type
    and only announces the traceback the paste cut, like Ray's creation-task header."""
    diagnosis = diagnose_text("serve/worker.log", VLLM_HEADED_CUT)
    assert diagnosis.first_error is not None
    assert "tiny_mixer/model.py" in diagnosis.first_error.text
    assert "build_router" in diagnosis.first_error.text


def test_the_exception_under_a_vllm_headline_stays_first() -> None:
    text = VLLM_HEADED_CUT + (
        f"{WORKER_TAG} ERROR 04-09 16:20:31 [multiproc_executor.py:702] KeyError: 'sparse_top2'\n"
    )
    diagnosis = diagnose_text("serve/worker.log", text)
    assert diagnosis.first_error is not None
    assert "KeyError: 'sparse_top2'" in diagnosis.first_error.text


def test_a_paste_cut_inside_the_shared_prefix_still_ends_in_the_frames() -> None:
    """The last line stops inside the writer tag, level and time the lines above carry: it
    holds no message, and the cut frames above it are read."""
    text = VLLM_HEADED_CUT + f"{WORKER_TAG} ERROR 04-09 16:20:31 [multipr\n"
    diagnosis = diagnose_text("serve/worker.log", text)
    assert diagnosis.first_error is not None
    assert "tiny_mixer/model.py" in diagnosis.first_error.text


def test_a_last_line_with_a_message_of_its_own_is_not_a_cut_prefix() -> None:
    text = VLLM_HEADED_CUT + f"{WORKER_TAG} ERROR 04-09 16:20:32 [core.py:866] boom\n"
    diagnosis = diagnose_text("serve/worker.log", text)
    assert diagnosis.first_error is not None
    assert "tiny_mixer/model.py" not in diagnosis.first_error.text


def test_a_paste_cut_inside_the_next_frames_path_still_ends_in_the_frames() -> None:
    """The last line stops inside a frame's path (no closing quote, no line number): it names
    no place, and the frames above it are read."""
    text = (
        VLLM_HEADED_CUT
        + f'{WORKER_TAG} ERROR 04-09 16:20:31 [multiproc_executor.py:702]   File "/srv/py/lib/pyth\n'
    )
    diagnosis = diagnose_text("serve/worker.log", text)
    assert diagnosis.first_error is not None
    assert "tiny_mixer/model.py" in diagnosis.first_error.text


def test_a_complete_frame_at_the_end_is_the_deepest_frame() -> None:
    """Counterexample: a last frame with its path and line number is a frame, and cited."""
    text = VLLM_HEADED_CUT + (
        f"{WORKER_TAG} ERROR 04-09 16:20:31 [multiproc_executor.py:702] "
        '  File "/srv/models/plugins/tiny_mixer/router.py", line 40, in build_router\n'
    )
    diagnosis = diagnose_text("serve/worker.log", text)
    assert diagnosis.first_error is not None
    assert "router.py" in diagnosis.first_error.text


# torch's distributed checkpoint raises one headline naming the failed ranks and quotes each
# rank's traceback under it; this paste stops inside rank 0's quoted traceback, right after the
# load step's statement, so the exception line that said why is not there.
# docs/labelling.md#a-checkpoint-file-that-is-not-there
DCP_SITE = "/opt/venv/lib/python3.11/site-packages/torch/distributed/checkpoint"
DCP_HEADED_CUT = f"""\
[rank1]: torch.distributed.checkpoint.api.CheckpointException: CheckpointException ranks:dict_keys([0, 1, 2, 3])
[rank1]: Traceback (most recent call last): (RANK 0)
[rank1]:   File "{DCP_SITE}/utils.py", line 192, in reduce_scatter
[rank1]:     local_data = map_fun()
[rank1]:                  ^^^^^^^^^
[rank1]:   File "{DCP_SITE}/state_dict_loader.py", line 250, in local_step
[rank1]:     assert metadata is not None
"""


def test_a_checkpoint_headline_over_a_cut_rank_traceback_reads_the_load_step() -> None:
    diagnosis = diagnose_text("train.log", DCP_HEADED_CUT)
    assert_reads(diagnosis, "weight_load", first_error="in local_step assert metadata is not None")
    assert {alt.category for alt in diagnosis.alternatives} >= {"config"}


def test_another_statement_of_the_cut_load_step_is_not_read_as_missing_metadata() -> None:
    text = DCP_HEADED_CUT.replace("assert metadata is not None", "assert planner is not None")
    diagnosis = diagnose_text("train.log", text)
    assert "metadata could not be read" not in diagnosis.root_cause


def test_the_exception_quoted_under_a_checkpoint_headline_stays_first() -> None:
    text = DCP_HEADED_CUT + "[rank1]: FileNotFoundError: [Errno 2] No such file or directory\n"
    diagnosis = diagnose_text("train.log", text)
    assert diagnosis.first_error is not None
    assert "FileNotFoundError" in diagnosis.first_error.text


def test_a_checkpoint_headline_alone_is_the_first_error() -> None:
    header = DCP_HEADED_CUT.splitlines()[0] + "\n"
    diagnosis = diagnose_text("train.log", header)
    assert_reads(diagnosis, "weight_load", first_error="CheckpointException ranks:")


# The same quoted traceback written by a trainer's logger and pasted with its breaks lost:
# several records share one physical line, the load step's frame glued behind a marker line.
DCP_R = "2026-02-11 21:40:07,512 - Trainer - INFO - [rank3]:"
DCP_GAP = " " * 40  # the padding the web page's layout turned each lost break into
DCP_GLUED_CUT = (
    "torch.distributed.checkpoint.api.CheckpointException: CheckpointException"
    " ranks:dict_keys([0, 1, 2, 3])\n"
    f"{DCP_R} Traceback (most recent call last): (RANK 0){DCP_GAP}"
    f'{DCP_R}   File "{DCP_SITE}/utils.py", line 192, in reduce_scatter{DCP_GAP}'
    f"{DCP_R}     local_data = map_fun()\n"
    f'{DCP_R}   File "{DCP_SITE}/logger.py", line 87, in wrapper\n'
    f"{DCP_R}     result = func(*args, **kwargs)\n"
    f"{DCP_R}              ^^^^^^^^^^^^^^^^^^^^^{DCP_GAP}"
    f'{DCP_R}   File "{DCP_SITE}/state_dict_loader.py", line 250, in local_step\n'
    f"{DCP_R}     assert metadata is not None\n"
    f"{DCP_R}\n"
)


def test_a_frame_glued_behind_another_record_is_still_the_cut_tails_deepest() -> None:
    diagnosis = diagnose_text("train.log", DCP_GLUED_CUT)
    assert_reads(diagnosis, "weight_load", first_error="in local_step assert metadata is not None")
