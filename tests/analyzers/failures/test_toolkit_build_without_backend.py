"""A deployment toolkit built without the inference backend the job selected.

docs/labelling.md#a-build-without-its-multi-gpu-path: FastDeploy built for one accelerator
holds only some backends, and its option setter refuses another in its own log form
(`[ERROR] <file>.cc(<line>)::<setter>\\t... didn't compile with <backend>.`): `config`, with
`driver_env` beside it; the abort after it is its consequence, not a crash. Values of our own.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

REFUSED = """\
root@atlas-01:/work/FastDeploy/examples/vision/ocr/PP-OCRv3/python# python infer.py --device cpu
[ERROR] fastdeploy/runtime/runtime_option.cc(181)::UsePaddleBackend\tThe FastDeploy didn't compile with Paddle Inference.
Aborted (core dumped)
"""

BUILT_WITH_IT = """\
[INFO] fastdeploy/runtime/runtime.cc(300)::CreateLiteBackend\tRuntime initialized with Backend::PDLITE in Device::ASCEND.
Aborted (core dumped)
"""


def test_the_setters_refusal_is_the_first_error_and_not_the_abort() -> None:
    diagnosis = diagnose_text("console.log", REFUSED)
    assert_reads(
        diagnosis,
        "config",
        first_error="didn't compile with Paddle Inference",
        beside=("driver_env",),
    )


def test_a_backend_that_started_is_no_refusal() -> None:
    diagnosis = diagnose_text("console.log", BUILT_WITH_IT)
    assert diagnosis.category != "config"
