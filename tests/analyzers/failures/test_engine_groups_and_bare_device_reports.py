"""Serving engines whose parallel groups miss a rank, and bare device reports from a call.

A serving engine builds its parallel groups from lists of ranks and asserts, after the loop,
that one list held this process: `AssertionError (assert self.cpu_group is not None)` once the
traceback reader joins the statement. The lists were made for another set of processes than
the launch started: `hccl` (the group set-up), with `config` beside it.

torch_npu ends an asynchronous failure with a sentence that names only the work's event
(`The Inner error is reported as above ... current working event is 0x...`) and a note asking
for `ASCEND_LAUNCH_BLOCKING=1`. The note is a debugging hint, not a setting that was wrong;
when the frame above the exception is torch's own collective call, the failure surfaced in
the collective. An exception raised in torch's op dispatcher frame (`torch/_ops.py ... in
__call__`) with no known wording came from the operator's own checks. A frame another rank
printed into a shared console does not vote for this rank's error. Fixtures are written here
in the real shapes with their own values.

docs/labelling.md#a-group-handle-the-registry-refuses
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

GROUP_WITHOUT_THIS_RANK = """\
(EngineCore_DP1 pid=40117) Traceback (most recent call last):
(EngineCore_DP1 pid=40117)   File "/srv/env/lib/python3.11/site-packages/vllm/distributed/parallel_state.py", line 1102, in init_distributed_environment
(EngineCore_DP1 pid=40117)     _WORLD = init_world_group(ranks, local_rank, backend)
(EngineCore_DP1 pid=40117)   File "/srv/env/lib/python3.11/site-packages/vllm/distributed/parallel_state.py", line 921, in init_world_group
(EngineCore_DP1 pid=40117)     return GroupCoordinator(
(EngineCore_DP1 pid=40117)            ^^^^^^^^^^^^^^^^^
(EngineCore_DP1 pid=40117)   File "/srv/env/lib/python3.11/site-packages/npu_plugin/patch/worker/patch_distributed.py", line 71, in __init__
(EngineCore_DP1 pid=40117)     assert self_cpu_group is not None
(EngineCore_DP1 pid=40117)            ^^^^^^^^^^^^^^^^^^^^^^^^^^
(EngineCore_DP1 pid=40117) AssertionError
"""

UPSTREAM_SPELLING = """\
Traceback (most recent call last):
  File "/srv/env/lib/python3.10/site-packages/vllm/distributed/parallel_state.py", line 233, in __init__
    assert self.cpu_group is not None
AssertionError
"""

OTHER_NONE_ASSERTION = """\
Traceback (most recent call last):
  File "/srv/env/lib/python3.10/site-packages/vllm/distributed/parallel_state.py", line 240, in __init__
    assert self.unique_name is not None
AssertionError
"""


def test_a_group_coordinator_without_this_rank_is_the_group_set_up() -> None:
    diagnosis = diagnose_text("engine/engine_core.log", GROUP_WITHOUT_THIS_RANK)
    assert_reads(diagnosis, "hccl", first_error="AssertionError", beside=("config",))


def test_the_upstream_spelling_of_the_same_assertion_reads_the_same() -> None:
    diagnosis = diagnose_text("engine/worker.log", UPSTREAM_SPELLING)
    assert diagnosis.category == "hccl"


def test_another_none_assertion_in_the_same_constructor_is_not_the_group_set_up() -> None:
    diagnosis = diagnose_text("engine/worker.log", OTHER_NONE_ASSERTION)
    assert diagnosis.category != "hccl"


# The asynchronous-failure sentence naming an event, raised from torch's all_reduce frame, with
# torch_npu's debugging note after it.
EVENT_EXIT_IN_COLLECTIVE = """\
(Worker_TP0 pid=7102) ERROR 03-02 11:40:09 [multiproc_executor.py:701] Traceback (most recent call last):
(Worker_TP0 pid=7102) ERROR 03-02 11:40:09 [multiproc_executor.py:701]   File "/srv/env/lib/python3.11/site-packages/torch/distributed/distributed_c10d.py", line 2911, in all_reduce
(Worker_TP0 pid=7102) ERROR 03-02 11:40:09 [multiproc_executor.py:701]     work = group.allreduce([tensor], opts)
(Worker_TP0 pid=7102) ERROR 03-02 11:40:09 [multiproc_executor.py:701]            ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
(Worker_TP0 pid=7102) ERROR 03-02 11:40:09 [multiproc_executor.py:701] RuntimeError: The Inner error is reported as above. The process exits for this inner error, and the current working event is 0xffff2c01a840.
(Worker_TP0 pid=7102) ERROR 03-02 11:40:09 [multiproc_executor.py:701] Since the operator is called asynchronously, the stacktrace may be inaccurate. If you want to get the accurate stacktrace, please set the environment variable ASCEND_LAUNCH_BLOCKING=1.
(Worker_TP0 pid=7102) ERROR 03-02 11:40:09 [multiproc_executor.py:701] Note: ASCEND_LAUNCH_BLOCKING=1 will force ops to run in synchronous mode, resulting in performance degradation. Please unset ASCEND_LAUNCH_BLOCKING in time after debugging.
(Worker_TP0 pid=7102) ERROR 03-02 11:40:09 [multiproc_executor.py:701] [ERROR] 2026-03-02-11:40:09 (PID:7102, Device:0, RankID:-1) ERR00100 PTA call acl api failed.
"""

# The same sentence and note outside any collective: the note alone must not make it a
# setting that was wrong.
EVENT_EXIT_ELSEWHERE = """\
(Worker_TP1 pid=7103) ERROR 03-02 11:40:09 [multiproc_executor.py:701] Traceback (most recent call last):
(Worker_TP1 pid=7103) ERROR 03-02 11:40:09 [multiproc_executor.py:701]   File "/srv/app/serve.py", line 88, in step
(Worker_TP1 pid=7103) ERROR 03-02 11:40:09 [multiproc_executor.py:701]     logits = model(batch)
(Worker_TP1 pid=7103) ERROR 03-02 11:40:09 [multiproc_executor.py:701] RuntimeError: The Inner error is reported as above. The process exits for this inner error, and the current working event is 0xffff2c01a840.
(Worker_TP1 pid=7103) ERROR 03-02 11:40:09 [multiproc_executor.py:701] Since the operator is called asynchronously, the stacktrace may be inaccurate. If you want to get the accurate stacktrace, please set the environment variable ASCEND_LAUNCH_BLOCKING=1.
(Worker_TP1 pid=7103) ERROR 03-02 11:40:09 [multiproc_executor.py:701] Note: ASCEND_LAUNCH_BLOCKING=1 will force ops to run in synchronous mode, resulting in performance degradation. Please unset ASCEND_LAUNCH_BLOCKING in time after debugging.
(Worker_TP1 pid=7103) ERROR 03-02 11:40:09 [multiproc_executor.py:701] [ERROR] 2026-03-02-11:40:09 (PID:7103, Device:1, RankID:-1) ERR00100 PTA call acl api failed.
"""

# A setting the job must change, worded with an environment variable, still reads as one.
SETTING_TO_CHANGE = """\
Traceback (most recent call last):
  File "/srv/app/launch.py", line 40, in main
    check_env()
RuntimeError: the plugin cannot run with this layout; please set the environment variable PLUGIN_SHARED_BUFFER=1 and restart
"""


def test_an_event_exit_in_a_collective_call_is_the_collective() -> None:
    diagnosis = diagnose_text("serve/worker_tp0.log", EVENT_EXIT_IN_COLLECTIVE)
    assert_reads(diagnosis, "hccl", first_error="current working event is")


def test_the_launch_blocking_note_does_not_make_a_setting_wrong() -> None:
    diagnosis = diagnose_text("serve/worker_tp0.log", EVENT_EXIT_ELSEWHERE)
    assert diagnosis.category != "config"


def test_a_message_asking_to_set_another_variable_still_points_at_the_settings() -> None:
    diagnosis = diagnose_text("serve/launch.log", SETTING_TO_CHANGE)
    assert diagnosis.category == "config"


# A plugin's custom operator raising its own range check through torch's dispatcher.
CUSTOM_OP_CHECK = """\
Traceback (most recent call last):
  File "/srv/plugin/attention/mla_v1.py", line 612, in _preprocess_decode
    torch.ops._C_plugin.mla_prepare(
  File "/srv/env/lib/python3.11/site-packages/torch/_ops.py", line 1243, in __call__
    return self._op(*args, **kwargs)
           ^^^^^^^^^^^^^^^^^^^^^^^^^
RuntimeError: blockIdx is out of range: 2051
"""

# The same words raised in the job's own code: nothing says an operator raised them.
OWN_CODE_CHECK = """\
Traceback (most recent call last):
  File "/srv/app/scheduler.py", line 77, in pick
    raise RuntimeError(f"blockIdx is out of range: {idx}")
RuntimeError: blockIdx is out of range: 2051
"""


def test_an_exception_from_the_op_dispatcher_frame_is_the_operator() -> None:
    diagnosis = diagnose_text("serve/worker.log", CUSTOM_OP_CHECK)
    assert_reads(diagnosis, "operator", first_error="out of range: 2051")


def test_the_same_words_from_the_jobs_own_code_are_not_an_operator() -> None:
    diagnosis = diagnose_text("serve/worker.log", OWN_CODE_CHECK)
    assert diagnosis.category != "operator"


# Ranks sharing torchrun's console: rank 3 fails on a check of its own with no known wording,
# and the peers' tracebacks, printed between its lines, end in torch's barrier frame. Those
# frames are where the peers were, not where rank 3 failed, and say nothing of its error.
SHARED_CONSOLE = """\
[default3]:2026-11-02 09:14:20,410 [rank3] INFO request 2 prefill start: 40 tokens
[default3]:2026-11-02 09:14:20,411 [rank3] ERROR model run failed: request 2 holds 40 slots and the pool 32
[default1]:2026-11-02 09:14:20,431 [rank1] ERROR model run failed: [/src/gloo/transport/tcp/pair.cc:553] Connection closed by peer [127.0.0.1]:41022. This is typically caused by a remote worker crashing.
[default1]:[rank1]: Traceback (most recent call last):
[default1]:[rank1]:   File "/srv/app/serve.py", line 90, in <module>
[default1]:[rank1]:     dist.barrier()
[default1]:[rank1]:   File "/srv/env/lib/python3.11/site-packages/torch/distributed/distributed_c10d.py", line 4811, in barrier
[default1]:[rank1]:     work.wait()
[default1]:[rank1]: RuntimeError: [/src/gloo/transport/tcp/pair.cc:553] Connection closed by peer [127.0.0.1]:41022. This is typically caused by a remote worker crashing.
[default2]:[rank2]: Traceback (most recent call last):
[default2]:[rank2]:   File "/srv/app/serve.py", line 90, in <module>
[default2]:[rank2]:     dist.barrier()
[default2]:[rank2]:   File "/srv/env/lib/python3.11/site-packages/torch/distributed/distributed_c10d.py", line 4811, in barrier
[default2]:[rank2]:     work.wait()
[default2]:[rank2]: RuntimeError: [/src/gloo/transport/tcp/pair.cc:553] Connection closed by peer [127.0.0.1]:41023. This is typically caused by a remote worker crashing.
[default3]:[rank3]: Traceback (most recent call last):
[default3]:[rank3]:   File "/srv/app/serve.py", line 61, in step
[default3]:[rank3]:     raise ValueError(msg)
[default3]:[rank3]: ValueError: request 2 holds 40 slots and the pool 32
"""


def test_a_peers_collective_frames_do_not_vote_for_another_ranks_error() -> None:
    diagnosis = diagnose_text("job-7/launcher.log", SHARED_CONSOLE)
    assert diagnosis.first_error is not None
    assert "40 slots" in diagnosis.first_error.text
    assert diagnosis.category != "hccl"
