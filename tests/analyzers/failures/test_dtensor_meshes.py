"""DTensors on two device meshes meeting in one op: a tensor-parallel plan that left layers out.

The excerpt is written in the shape torch prints under torchrun (`[rankN]:` prefixes, an
optimizer step's traceback) with meshes of our own. Guide section:
docs/labelling.md#dtensor-parameters-under-a-wrapper-that-does-not-know-them.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

CROSS_MESH = """\
[rank2]: Traceback (most recent call last):
[rank2]:   File "/srv/train/fsdp_tp.py", line 214, in <module>
[rank2]:     optimizer.step()
[rank2]:   File "/opt/venv/lib/python3.11/site-packages/torch/optim/adamw.py", line 520, in _multi_tensor_adamw
[rank2]:     torch._foreach_mul_(device_params, 1 - lr * weight_decay)
[rank2]:   File "/opt/venv/lib/python3.11/site-packages/torch/distributed/tensor/_dispatch.py", line 166, in dispatch
[rank2]:     op_info = self.unwrap_to_op_info(op_call, args, kwargs)
[rank2]: NotImplementedError: aten._foreach_mul_.Scalar: DTensor does not support cross-mesh operation yet!\
Got meshes: DeviceMesh('cuda', [[0, 1], [2, 3]], mesh_dim_names=('dp', 'tp')) DeviceMesh('cuda', [0, 2], mesh_dim_names=('dp',))
"""


def test_dtensors_on_two_meshes_in_one_op_are_the_plans_setting() -> None:
    diagnosis = diagnose_text("logs/rank2.log", CROSS_MESH)
    assert_reads(diagnosis, "config", first_error="cross-mesh operation")
    assert diagnosis.confidence >= 0.5
    assert "operator" in {alt.category for alt in diagnosis.alternatives}
