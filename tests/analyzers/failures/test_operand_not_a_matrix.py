"""A matrix product handed an operand of another rank.

docs/labelling.md#an-operand-that-is-not-a-matrix: torch's two-dimensional products refuse an
operand that is not a matrix and name it (`mat2 must be a matrix`): the code handed the op a
tensor of another rank, `shape_mismatch`, with `operator` and `config` beside it. A dispatcher
that re-raises the last refusal restates it later.
docs/labelling.md#config-driver_env-or-weight_load: a library's warning that quotes a caught
import failure by its repr leaves a plugin out; it is no failure of the job.
Values of our own in the real shapes (a grep of a host log, torchrun's `--tee` prefixes).
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

PLUGIN_WARNING = (
    "[default1]:/srv/venv/lib/python3.11/site-packages/quantkit/utils/log.py:88: UserWarning:"
    ' Failed to import vision plugin due to: RuntimeError("Failed to import'
    " diffusers.pipelines because of the following error (look up to see its traceback):\\nNo"
    " module named 'ftfy'\"). You may ignore this warning if you do not need this plugin.\n"
)

GREPPED_HOST_LOG = (
    "12:" + PLUGIN_WARNING + "2210:[default1]:[rank1]: Traceback (most recent call last):\n"
    "2219:[default1]:[rank1]: RuntimeError: mat2 must be a matrix\n"
    "2248:[default1]:[rank1]: RuntimeError: All 2 implementation(s) failed for op='fused_linear'."
    " Last error: mat2 must be a matrix\n"
    "2270:torch.distributed.elastic.multiprocessing.errors.ChildFailedError: \n"
)


def test_an_operand_that_is_not_a_matrix_is_a_shape_the_code_did_not_expect() -> None:
    diagnosis = diagnose_text("status/errors.txt", GREPPED_HOST_LOG)
    assert_reads(
        diagnosis,
        "shape_mismatch",
        first_error="RuntimeError: mat2 must be a matrix",
        rule="shape.operand_not_a_matrix",
        beside=("operator", "config"),
    )


def test_a_note_on_what_the_op_expects_is_no_failure() -> None:
    diagnosis = diagnose_text("notes.txt", "# mm: mat2 must be a matrix of shape (k, n)\n")
    assert "shape.operand_not_a_matrix" not in rules_of(diagnosis)


def test_a_warning_quoting_a_caught_import_failure_is_not_read_as_one() -> None:
    diagnosis = diagnose_text("train.log", PLUGIN_WARNING)
    assert "cfg.lazy_import_reraised" not in rules_of(diagnosis)
    raised = (
        "[rank5]: RuntimeError: Failed to import transformers.trainer because of the following"
        " error (look up to see its traceback):\n"
    )
    assert "cfg.lazy_import_reraised" in rules_of(diagnose_text("train.log", raised))
