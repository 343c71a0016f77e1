"""A ggml backend whose graph compute meets an op it has no kernel for.

docs/labelling.md#operator-installation-or-platform-limit. ggml's device backends (CANN,
SYCL and the like) check each node of the graph before running it and print the node and its
op type when none of their kernels covers it, then abort on their own assertion. The op has no
implementation on this backend: `operator`, with `config` (another ggml release or a build
that offers the op) beside it, and that line comes before the assertion that restates it.
Excerpts are ours, in the backends' format.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

CANN_NODE_UNSUPPORTED = """\
model_load: using CANN backend
text_encoder compute buffer size: 1.20 MB(VRAM)
ggml_backend_cann_graph_compute: error: op not supported node_88 (ROLL)
/opt/src/vendor/ggml/src/ggml-cann.cpp:1702: GGML_ASSERT(ok) failed
Aborted (core dumped)
"""

SYCL_NODE_UNSUPPORTED = """\
ggml_backend_sycl_graph_compute: error: op not supported leaf_7 (CONV_TRANSPOSE_1D)
/build/ggml/src/ggml-sycl/ggml-sycl.cpp:4120: GGML_ASSERT(ok) failed
"""

# Counterexample: the scheduler's note about a graph it has to reserve again is no failure,
# and a backend that merely lists what it offers says nothing about a failed node.
SCHED_NOTE = """\
ggml_backend_sched_alloc_splits: failed to allocate graph, reserving (backend_ids_changed = 1)
ggml_backend_cann: supported ops: ADD MUL SQRT SOFT_MAX ROPE
"""


def test_cann_backend_node_without_kernel_is_operator() -> None:
    diagnosis = diagnose_text("run.log", CANN_NODE_UNSUPPORTED)
    assert_reads(
        diagnosis, "operator", first_error="op not supported node_88 (ROLL)", beside=("config",)
    )


def test_other_ggml_backend_reads_the_same() -> None:
    diagnosis = diagnose_text("run.log", SYCL_NODE_UNSUPPORTED)
    assert_reads(diagnosis, "operator", first_error="op not supported leaf_7")


def test_scheduler_note_is_not_an_unsupported_op() -> None:
    diagnosis = diagnose_text("run.log", SCHED_NOTE)
    assert diagnosis.first_error is None or "op not supported" not in diagnosis.first_error.text
