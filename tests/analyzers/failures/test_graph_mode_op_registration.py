"""A custom op whose registration does not carry it through a graph-mode compile.

docs/labelling.md#an-operator-the-compiler-cannot-trace. A graph mode built on torch.compile
(TorchAir's NPU backend, an inductor run) first runs every op on fake tensors, then hands the
graph to the engine, which allocates the outputs from the shapes and dtypes the fake run gave.
The custom op's registration has to serve both steps; when it does not, the line says which part
is missing, and the op's registration is what changes:

- dynamo names the op it has no fake (meta) kernel for in its own exception, `Unsupported:
  unsupported operator: <op>`: `operator`, with `config` beside it (eager mode avoids the op),
  ahead of the generic whole-graph-break reading (`config`);
- the op's meta function built its result on a real device instead of `meta`, which the fake
  tensor refuses (`tensor's device must be `meta`, got cpu instead`) inside dynamo's `Failed
  running call_function` line: `operator`;
- the graph executor finds the output buffer the framework handed it smaller than what the op
  writes (GE's E19025, `... smaller than op_size ...`), because the meta function declared
  another dtype or shape: `operator`, with `shape_mismatch` beside it and no memory reading.

Counterexamples: a whole-graph break on a Python construct keeps `config`; a graph executor
that names its input buffer size as a note is no failure. Fixtures are in the real shapes with
values of our own.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

NO_FAKE_KERNEL = """\
Traceback (most recent call last):
  File "/srv/app/infer.py", line 88, in <module>
    out = compiled(tokens)
torch._dynamo.exc.Unsupported: unsupported operator: vendor_ops.fused_rope.default (see https://example.invalid/custom-ops for how to fix)
"""

PYTHON_CONSTRUCT_BREAK = """\
torch._dynamo.exc.Unsupported: call_method UserDefinedObjectVariable(PackedBatch) pin_to [] {}
"""

META_ON_A_REAL_DEVICE = """\
Traceback (most recent call last):
  File "/srv/app/infer.py", line 91, in <module>
    out = compiled(hidden)
torch._dynamo.exc.TorchRuntimeError: Failed running call_function vendor_ops.quant_gemm(*(FakeTensor(..., device='npu:2', size=(1024, 512), dtype=torch.int8), FakeTensor(..., device='npu:2', size=(512, 2048), dtype=torch.int8)), **{}): tensor's device must be `meta`, got cpu instead
"""

OUTPUT_BUFFER_TOO_SMALL = """\
RuntimeError: E19025: [PID: 7310] 2025-02-11-09:14:55.201.330 Input tensor is invalid. Reason: The Output memory provided by the user, plus 64 bytes for data alignment, is smaller than op_size in the model, which is an illegal behavior. Output size=4096 , op_size=8256.
       TraceBack (most recent call last):
       Check output size failed, index 1, user size 4096, op size 8256.[FUNC:ConstructZeroCopyIoActiveBaseAddrs][FILE:davinci_model.cc][LINE:5731]
       Execute graph with stream async failed, error code:1343225857, session_id:0, graph_id:4, stream:0xaaab0c1d2e0 .[FUNC:ExecuteGraphWithStreamAsync][FILE:ge_api.cc][LINE:851]
"""


def test_dynamo_naming_an_op_without_a_fake_kernel_is_the_op() -> None:
    diagnosis = diagnose_text("infer.log", NO_FAKE_KERNEL)
    assert_reads(
        diagnosis,
        "operator",
        first_error="unsupported operator: vendor_ops.fused_rope",
        beside=("config",),
    )


def test_a_break_on_a_python_construct_keeps_the_whole_graph_reading() -> None:
    diagnosis = diagnose_text("train.log", PYTHON_CONSTRUCT_BREAK)
    assert diagnosis.category == "config"


def test_a_meta_function_returning_a_real_tensor_is_the_op() -> None:
    diagnosis = diagnose_text("infer.log", META_ON_A_REAL_DEVICE)
    assert_reads(diagnosis, "operator", first_error="must be `meta`, got cpu instead")


def test_an_output_buffer_smaller_than_the_op_writes_is_the_op() -> None:
    diagnosis = diagnose_text("infer.log", OUTPUT_BUFFER_TOO_SMALL)
    assert_reads(diagnosis, "operator", first_error="smaller than op_size")
    alternatives = {a.category for a in diagnosis.alternatives}
    assert "shape_mismatch" in alternatives
    assert "oom" not in alternatives
