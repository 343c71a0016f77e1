"""A serving engine's graph capture sizes that sequence parallelism cannot use.

With sequence parallelism the tokens of a captured graph are split across the tensor-parallel
ranks, so the NPU platform of vLLM keeps only the capture sizes that are multiples of the
tensor-parallel size and stops at start-up when none is left (`cudagraph_capture_sizes [..]
does not contain values that are multiples of tp_size N`; the released source glues
`containvalues`). Only the settings can be at fault: `config`, and the check is the first error
(docs/labelling.md#graph-capture-sizes-that-sequence-parallelism-cannot-use). Values of our own
in the real shapes.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

ENGINE_TRACEBACK = """\
(EngineCore_DP0 pid=5312) ERROR 03-02 10:11:12 [core.py:712]   File "/vllm-workspace/vllm-ascend/vllm_ascend/platform.py", line 318, in check_and_update_config
(EngineCore_DP0 pid=5312) ERROR 03-02 10:11:12 [core.py:712]     assert sp_aclgraph_sizes, (
(EngineCore_DP0 pid=5312) ERROR 03-02 10:11:12 [core.py:712] AssertionError: cudagraph_capture_sizes [1, 2, 3] does not containvalues that are multiples of tp_size 4
"""

NOTE_FORM = (
    "cudagraph_capture_sizes [1, 3, 6] does not contain values that are multiples of tp_size 4\n"
)

ADJUSTED = """\
INFO 03-02 10:11:12 [platform.py:322] cudagraph_capture_sizes [1, 2, 4, 8] keeps values that are multiples of tp_size 4: [4, 8]
INFO 03-02 10:11:13 [core.py:90] Initializing a V1 LLM engine with config: model='/models/m', tensor_parallel_size=4
"""


def test_the_assertion_under_the_engine_traceback_is_a_setting() -> None:
    diagnosis = diagnose_text("serve.log", ENGINE_TRACEBACK)
    assert_reads(
        diagnosis,
        "config",
        first_error="does not containvalues that are multiples of tp_size 4",
        rule="cfg.capture_sizes_not_multiple_of_tp",
    )


def test_the_sentence_quoted_alone_reads_the_same() -> None:
    diagnosis = diagnose_text("serve.log", NOTE_FORM)
    assert_reads(
        diagnosis,
        "config",
        first_error="does not contain values that are multiples of tp_size 4",
        rule="cfg.capture_sizes_not_multiple_of_tp",
    )


def test_a_line_that_reports_the_kept_sizes_is_no_failure() -> None:
    """Counterexample: the engine's note of the sizes it kept has not failed."""
    diagnosis = diagnose_text("serve.log", ADJUSTED)
    assert "cfg.capture_sizes_not_multiple_of_tp" not in rules_of(diagnosis)
