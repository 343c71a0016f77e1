"""A process group that has no implementation of a collective refuses it: a platform limit.

docs/labelling.md#operator-installation-or-platform-limit. A distributed checkpoint's save
planner gathers the ranks' plans; on a backend release without gather the call is refused
before any peer takes part. c10d's base class words it with the backend's short name, and a
collective refuses an argument only NCCL takes the same way (a barrier given the GPU list on a
job moved to gloo). A backend that implements the collective but not the reduction it is asked
to apply refuses the same way (NCCL's bitwise ops, SageMaker's data-parallel backend quoted in
the platform's failure reason). The fixtures are in the shape a torchrun worker or the platform
prints (values are ours).
"""

from __future__ import annotations

from tests.analyzers.excerpts import alternative_labels, assert_reads, diagnose_text, rules_of

PLANNER_GATHER_REFUSED = """\
[rank1]: Traceback (most recent call last):
[rank1]:   File "/srv/train/run_fsdp.py", line 212, in save_ckpt
[rank1]:     dcp.save(state, checkpoint_id=out_dir)
[rank1]:   File "/opt/py/lib/python3.10/site-packages/torch/distributed/checkpoint/state_dict_saver.py", line 140, in _save_state_dict
[rank1]:     central_plan = distW.reduce_scatter("plan", local_step, global_step)
[rank1]:   File "/opt/py/lib/python3.10/site-packages/torch/distributed/checkpoint/utils.py", line 115, in gather_object
[rank1]:     dist.gather_object(
[rank1]:   File "/opt/py/lib/python3.10/site-packages/torch/distributed/distributed_c10d.py", line 3101, in gather
[rank1]:     work = default_pg.gather(output_tensors, input_tensors, opts)
[rank1]: RuntimeError: ProcessGroupHCCL does not support gather
"""

# The backend says it emulates the collective with another one and carries on; the job then
# fails for its own reason, which is what the report must name.
EMULATION_WARNING_THEN_OOM = """\
/opt/py/lib/python3.10/site-packages/torch_npu/distributed/distributed_c10d.py:88: UserWarning: HCCL does not support gather at the moment, using allgather instead
[rank0]: RuntimeError: NPU out of memory. Tried to allocate 2.50 GiB (NPU 0; 60.00 GiB total capacity; 57.10 GiB already allocated; 57.10 GiB current active; 0.80 GiB free; 58.20 GiB reserved in total by PyTorch)
"""


# A job moved to the CPU backend (as on Windows) whose code still calls a collective only the
# GPU backend implements.
CPU_BACKEND_LACKS_COLLECTIVE = """\
[rank0]:   File "/srv/seg/train.py", line 88, in sync_stats
[rank0]:     dist.reduce_scatter_tensor(out, inp)
[rank0]: RuntimeError: Backend gloo does not support _reduce_scatter_base
E0311 09:14:02.118000 4410 torch/distributed/elastic/multiprocessing/api.py:869] failed (exitcode: 1) local_rank: 0 (pid: 4471) of binary: /opt/py/bin/python3
"""

# The barrier is handed the GPU list while the group runs on gloo; the launcher's child-exit
# line after it only reports the exit.
BARRIER_GPU_LIST_ON_GLOO = """\
  File "D:\\det\\engine\\trainer.py", line 57, in setup_ddp
    dist.barrier(device_ids=[local_rank])
RuntimeError: Function argument device_ids not supported for the selected backend gloo
ERROR:torch.distributed.elastic.multiprocessing.api:failed (exitcode: 1) local_rank: 0 (pid: 9120) of binary: D:\\envs\\det\\python.exe
"""

# Counterexample: a barrier given a GPU list of the wrong type is refused for its type, not
# for the backend; it must not be read as the backend's refusal.
BARRIER_GPU_LIST_OF_WRONG_TYPE = """\
[rank1]: RuntimeError: Invalid function argument: device_ids type should be List[int]
"""


def test_a_collective_the_cpu_backend_lacks_is_a_platform_limit() -> None:
    diagnosis = diagnose_text("job/rank0.log", CPU_BACKEND_LACKS_COLLECTIVE)
    assert_reads(
        diagnosis,
        "config",
        first_error="Backend gloo does not support _reduce_scatter_base",
        beside=("hccl",),
    )


def test_an_argument_the_backend_does_not_take_is_config() -> None:
    diagnosis = diagnose_text("train.log", BARRIER_GPU_LIST_ON_GLOO)
    assert_reads(
        diagnosis,
        "config",
        first_error="not supported for the selected backend gloo",
        beside=("hccl",),
    )


def test_a_wrongly_typed_argument_is_not_the_backends_refusal() -> None:
    diagnosis = diagnose_text("job/rank1.log", BARRIER_GPU_LIST_OF_WRONG_TYPE)
    rules = rules_of(diagnosis)
    assert "cfg.backend_argument_unsupported" not in rules
    assert "cfg.backend_collective_unsupported" not in rules


def test_a_collective_the_backend_lacks_is_a_platform_limit() -> None:
    diagnosis = diagnose_text("job/rank1.log", PLANNER_GATHER_REFUSED)
    assert_reads(
        diagnosis,
        "config",
        first_error="ProcessGroupHCCL does not support gather",
        beside=("hccl",),
    )


def test_an_emulation_warning_is_not_the_failure() -> None:
    diagnosis = diagnose_text("job/rank0.log", EMULATION_WARNING_THEN_OOM)
    assert_reads(diagnosis, "oom", first_error="NPU out of memory")


# The collective's own op has no kernel for the device: DDP's parameter check on an Intel GPU
# build whose distributed ops lag the CUDA ones.
COLLECTIVE_OP_NOT_ON_DEVICE = """\
[rank0]:   File "/opt/py/lib/python3.11/site-packages/torch/distributed/utils.py", line 290, in _verify_param_shape_across_processes
[rank0]:     return dist._verify_params_across_processes(process_group, tensors, logger)
[rank0]: NotImplementedError: The operator 'c10d::allgather_' is not currently implemented for the XPU device. Please open a feature request.
"""


def test_a_collective_op_without_a_kernel_for_the_device_is_a_platform_limit() -> None:
    # docs/labelling.md#operator-installation-or-platform-limit
    diagnosis = diagnose_text("job/rank0.log", COLLECTIVE_OP_NOT_ON_DEVICE)
    assert diagnosis.category == "config"
    assert diagnosis.confidence >= 0.5
    assert diagnosis.first_error is not None
    assert "'c10d::allgather_'" in diagnosis.first_error.text
    alternatives = alternative_labels(diagnosis)
    assert "operator" in alternatives


def test_a_compute_op_missing_for_the_device_keeps_the_operator_reading() -> None:
    text = "NotImplementedError: The operator 'aten::_linalg_svd' is not currently implemented for the NPU device.\n"
    diagnosis = diagnose_text("train.log", text)
    rules = rules_of(diagnosis)
    assert "cfg.collective_op_not_on_device" not in rules
    assert diagnosis.category == "operator"


# NCCL has no bitwise OR; the metric code asked for it on GPU tensors.
NCCL_LACKS_BITWISE_REDUCTION = """\
[rank3]:   File "/srv/det/metrics.py", line 41, in sync_flags
[rank3]:     dist.all_reduce(flags, op=dist.ReduceOp.BOR)
[rank3]: RuntimeError: Cannot use ReduceOp.BOR with NCCL
E0412 08:02:11.004000 7712 torch/distributed/elastic/multiprocessing/api.py:869] failed (exitcode: 1) local_rank: 3 (pid: 7731) of binary: /opt/py/bin/python3
"""

# SageMaker's failure reason quotes the first line of the script's error after `ErrorMessage "`:
# a trainer averaging a metric over the ranks on the platform's own data-parallel backend.
PLATFORM_BACKEND_LACKS_MEAN = """\
2025-06-02 09:31:40 Failed - Training job failed
UnexpectedStatusException: Error for Training job seg-ddp-2025-06-02-09-20-11-208: Failed. Reason: AlgorithmError: ExecuteUserScriptError:
ExitCode 1
ErrorMessage "RuntimeError: SMDDP does not support: ReduceOp
 Traceback (most recent call last)
 File "/opt/conda/lib/python3.10/site-packages/mpi4py/run.py", line 47, in run_command_line
 run_path(sys.argv[0], run_name='__main__')
 File "train_seg.py", line 211, in <module>
 main(cfg)
"""

# Counterexample: a reduction refused for the tensors' dtype is the call's arguments.
MEAN_OF_BOOLEANS = """\
[rank0]:     dist.all_reduce(done, op=dist.ReduceOp.AVG)
[rank0]: TypeError: Cannot use ReduceOp.AVG with boolean inputs
"""


def test_a_reduction_the_backend_lacks_is_a_platform_limit() -> None:
    diagnosis = diagnose_text("job/rank3.log", NCCL_LACKS_BITWISE_REDUCTION)
    assert_reads(
        diagnosis, "config", first_error="Cannot use ReduceOp.BOR with NCCL", beside=("hccl",)
    )


def test_the_platforms_quote_of_a_refused_reduction_is_the_first_error() -> None:
    diagnosis = diagnose_text("estimator_fit.log", PLATFORM_BACKEND_LACKS_MEAN)
    assert_reads(diagnosis, "config", first_error="SMDDP does not support: ReduceOp")
    assert "Error for Training job" not in diagnosis.first_error.text


def test_a_reduction_refused_for_its_dtype_is_not_the_backends_limit() -> None:
    diagnosis = diagnose_text("job/rank0.log", MEAN_OF_BOOLEANS)
    rules = rules_of(diagnosis)
    assert "cfg.backend_reduce_op_unsupported" not in rules


# A framework's distributed manager on a CPU-only host binds the gloo group to the CPU device;
# the release refuses any device_id that is not an indexed accelerator, and the framework's exit
# handler then tears down a group that was never made.
CPU_DEVICE_BOUND_TO_GROUP = """\
[rank0]:   File "/opt/py/lib/python3.12/site-packages/torch/distributed/distributed_c10d.py", line 1771, in init_process_group
[rank0]:     default_pg, _ = _new_process_group_helper(
[rank0]: ValueError: init_process_group device_id parameter must be an accelerator with an index
Exception ignored in atexit callback: <function DemoManager.cleanup at 0x7f10>
AssertionError: Process group cannot be None
"""


def test_a_device_the_release_will_not_bind_the_group_to_is_config() -> None:
    diagnosis = diagnose_text("job/rank0.log", CPU_DEVICE_BOUND_TO_GROUP)
    rules = rules_of(diagnosis)
    assert_reads(
        diagnosis, "config", first_error="device_id parameter must be an accelerator with an index"
    )
    assert "cfg.process_group_device_binding_refused" in rules
    assert "hccl" in alternative_labels(diagnosis)


def test_a_note_that_the_device_id_is_ignored_is_no_refusal() -> None:
    line = "UserWarning: init_process_group device_id is ignored for the gloo backend\n"
    diagnosis = diagnose_text("job/rank0.log", line)
    rules = rules_of(diagnosis)
    assert "cfg.process_group_device_binding_refused" not in rules
