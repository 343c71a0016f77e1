"""A process group that has no implementation of a collective refuses it: a platform limit.

docs/labelling.md#operator-installation-or-platform-limit. A distributed checkpoint's save
planner gathers the ranks' plans; on a backend release without gather the call is refused
before any peer takes part. The fixtures are in the shape a torchrun worker prints (values are
ours).
"""

from __future__ import annotations

from tests.analyzers.excerpts import diagnose_text

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


def test_a_collective_the_backend_lacks_is_a_platform_limit() -> None:
    diagnosis = diagnose_text("job/rank1.log", PLANNER_GATHER_REFUSED)
    assert diagnosis.category == "config"
    assert diagnosis.first_error is not None
    assert "ProcessGroupHCCL does not support gather" in diagnosis.first_error.text
    assert "hccl" in [alt.category for alt in diagnosis.alternatives]


def test_an_emulation_warning_is_not_the_failure() -> None:
    diagnosis = diagnose_text("job/rank0.log", EMULATION_WARNING_THEN_OOM)
    assert diagnosis.category == "oom"
    assert diagnosis.first_error is not None
    assert "NPU out of memory" in diagnosis.first_error.text
