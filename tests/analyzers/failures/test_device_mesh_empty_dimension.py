"""A device mesh asked to build a dimension of size 0.

docs/labelling.md#a-device-mesh-that-refuses-the-layout-it-is-asked-to-build: DeviceMesh lists
the ranks of each dimension's groups by reshaping the mesh to `[-1, <size of the dimension>]`.
When the degrees a trainer derived leave one dimension empty (a sequence-parallel size larger
than the ranks launched, a data-parallel size that came out 0), the mesh holds no rank and the
reshape refuses: `cannot reshape tensor of 0 elements into shape [-1, 0]`. No batch was empty
and no model tensor is the wrong size: the degrees and the launch do not fit, `config`, with
`shape_mismatch` beside it. A zero-element reshape into any other shape keeps its own reading.
Paths, pids and degrees are our own.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

IN_THE_MESH = (
    '  File "/opt/envs/rl/lib/python3.11/site-packages/torch/distributed/device_mesh.py",'
    " line 544, in _init_process_groups\n"
    "    pg_ranks_by_dim = self.mesh.swapdims(-1, dim).reshape(\n"
    "RuntimeError: cannot reshape tensor of 0 elements into shape [-1, 0] because the"
    " unspecified dimension size -1 can be any value and is ambiguous\n"
)
FROM_A_RAY_WORKER = (
    "(ActorRolloutWorker pid=48211) RuntimeError: cannot reshape tensor of 0 elements into"
    " shape [-1, 0] because the unspecified dimension size -1 can be any value and is ambiguous\n"
    "Traceback (most recent call last):\n"
    '  File "/srv/jobs/ppo/main_ppo.py", line 61, in main\n'
    "    run_ppo(cfg)\n"
    '  File "/opt/envs/rl/lib/python3.11/site-packages/ray/_private/worker.py", line 2755, in get\n'
    "    values, debugger_breakpoint = worker.get_objects(object_refs, timeout=timeout)\n"
)
EMPTY_BATCH = (
    "[rank3]: RuntimeError: cannot reshape tensor of 0 elements into shape [0, -1, 64] because"
    " the unspecified dimension size -1 can be any value and is ambiguous\n"
)


def test_a_mesh_dimension_of_size_zero_is_a_layout_that_does_not_fit() -> None:
    diagnosis = diagnose_text("train.log", IN_THE_MESH)
    assert_reads(
        diagnosis,
        "config",
        first_error="cannot reshape tensor of 0 elements into shape [-1, 0]",
        rule="cfg.device_mesh_empty_dimension",
        beside=("shape_mismatch",),
    )


def test_a_worker_that_reports_it_without_the_frame_reads_the_same() -> None:
    diagnosis = diagnose_text("driver.log", FROM_A_RAY_WORKER)
    assert_reads(
        diagnosis,
        "config",
        first_error="(ActorRolloutWorker pid=48211) RuntimeError: cannot reshape tensor of 0",
        rule="cfg.device_mesh_empty_dimension",
    )


def test_an_empty_batch_reshaped_keeps_its_shape_reading() -> None:
    diagnosis = diagnose_text("rank3.log", EMPTY_BATCH)
    assert diagnosis.category == "shape_mismatch"
    assert "cfg.device_mesh_empty_dimension" not in rules_of(diagnosis)
