"""A native library's assertion that stopped the process, when no rule knows the library.

docs/labelling.md#a-native-assertion-no-rule-knows
"""

from __future__ import annotations

from tests.analyzers.excerpts import alternative_labels, assert_reads, diagnose_text

# A rank's log whose process stopped on glibc's assert inside a communication helper.
GLIBC_ASSERT = """\
2026-04-11 08:14:02,331 [rank5] INFO step 40 loss 2.118
2026-04-11 08:14:03,002 [rank5] INFO step 41 loss 2.097
python3: /build/ringcomm/src/ring_buffer.cpp:212: void RingBuffer::push(size_t): Assertion `used + n <= capacity' failed.
"""

# A glibc line as pasted into Markdown inline code: the opening backtick became a quote. (A
# kernel launcher's assertion in this form has its own reading: test_kernel_launcher_assertions.)
GLIBC_ASSERT_PASTED = """\
python3: /opt/epcomm/csrc/dispatch/slot_pool.cpp:377: void SlotPool<T>::release(Slot*) [with T = short unsigned int]: Assertion 'slot->owner != nullptr' failed.
"""

# A kernel library's own assert macro, printed twice by two threads of the process.
MACRO_ASSERT = """\
[W411 08:14:01.000000000 ProcessGroupNCCL.cpp:1031] Warning: TORCH_NCCL_AVOID_RECORD_STREAMS is the default now
Assertion failed: /workspace/fastkernels/csrc/moe_align.cu:118, condition: num_experts % 8 == 0
Assertion failed: /workspace/fastkernels/csrc/moe_align.cu:118, condition: num_experts % 8 == 0
"""

# A ggml-based server that stops in a check of its CANN backend's op implementation.
GGML_BACKEND_OP_ASSERT = """\
llama_context:      CANN0 compute buffer size =   412.00 MiB
common_init_from_params: warming up the model with an empty run - please wait ... (--no-warmup to disable)
/opt/llama.cpp/ggml/src/ggml-cann/aclnn_ops.cpp:2715: GGML_ASSERT(src0->ne[0] % 2 == 0) failed
Aborted (core dumped)
"""

# The same macro in the model's context code: no backend op is named.
GGML_CONTEXT_ASSERT = """\
llama_context: n_batch       = 512
/src/llama.cpp/src/llama-context.cpp:1202: GGML_ASSERT(n_tokens_all <= cparams.n_batch) failed
Aborted (core dumped)
"""

# The same words quoted by a script's comment and a Python assertion: no native assert here.
NOT_NATIVE = """\
# the Assertion `x > 0' failed message is printed by glibc
Traceback (most recent call last):
  File "/srv/run.py", line 9, in <module>
    assert world == 8, "expected 8 ranks"
AssertionError: expected 8 ranks
"""


def test_a_glibc_assert_is_the_first_error_of_a_log_with_no_other_failure() -> None:
    diagnosis = diagnose_text("logs/rank5.log", GLIBC_ASSERT)
    assert_reads(
        diagnosis,
        "other",
        first_error="Assertion `used + n <= capacity' failed",
        beside=("device_fault",),
    )


def test_a_glibc_assert_pasted_with_a_straight_quote_is_the_same_assertion() -> None:
    diagnosis = diagnose_text("logs/rank12.log", GLIBC_ASSERT_PASTED)
    assert diagnosis.first_error is not None
    assert "Assertion 'slot->owner != nullptr' failed" in diagnosis.first_error.text
    assert "native.assertion_failed" in {e.rule for e in diagnosis.evidence}
    assert "device_fault" in alternative_labels(diagnosis)


def test_a_library_assert_macro_is_read_before_the_job_is_called_a_hang() -> None:
    diagnosis = diagnose_text("logs/rank0.log", MACRO_ASSERT)
    assert diagnosis.category != "hang"
    assert diagnosis.first_error is not None
    assert "condition: num_experts % 8 == 0" in diagnosis.first_error.text
    assert diagnosis.confidence < 0.5


def test_a_python_assertion_is_read_as_its_exception() -> None:
    diagnosis = diagnose_text("logs/rank0.log", NOT_NATIVE)
    assert diagnosis.first_error is not None
    assert diagnosis.first_error.text.startswith("AssertionError: expected 8 ranks")
    assert "native.assertion_failed" not in {e.rule for e in diagnosis.evidence}


def test_a_ggml_backend_op_check_is_the_ops_refusal() -> None:
    diagnosis = diagnose_text("logs/server.log", GGML_BACKEND_OP_ASSERT)
    assert_reads(
        diagnosis,
        "operator",
        first_error="GGML_ASSERT(src0->ne[0] % 2 == 0) failed",
        beside=("other",),
    )
    assert diagnosis.confidence < 0.8


def test_a_ggml_assert_outside_a_backend_op_is_a_native_assertion() -> None:
    diagnosis = diagnose_text("logs/server.log", GGML_CONTEXT_ASSERT)
    assert diagnosis.category != "operator"
    assert diagnosis.first_error is not None
    assert "GGML_ASSERT(n_tokens_all <= cparams.n_batch) failed" in diagnosis.first_error.text
    assert "native.assertion_failed" in {e.rule for e in diagnosis.evidence}


# A training process whose profiler thread threw an exception no one caught: the terminate
# handler's headline, the exception's own text, the shell's abort notice.
UNCAUGHT_EXCEPTION = """\
2026-04-11 08:14:02,331 [rank2] INFO step 40 loss 2.118
terminate called after throwing an instance of 'std::system_error'
  what():  Resource temporarily unavailable
Aborted (core dumped)
"""


def test_an_uncaught_exceptions_text_is_the_error_not_the_terminate_headline() -> None:
    diagnosis = diagnose_text("logs/rank2.log", UNCAUGHT_EXCEPTION)
    assert diagnosis.first_error is not None
    assert "Resource temporarily unavailable" in diagnosis.first_error.text
    assert diagnosis.category in {"other", "device_fault"}


# Paddle-Lite's check macros print the condition in parentheses and then the two values joined
# by the negated comparison (`Check failed: (x > 0): 0!>0 message`), under its own log header.
PADDLE_LITE_CHECK = """\
[I 11/ 3 10:20:30.902 ...te/lite/core/optimizer/optimizer.cc:119 ApplyPasses] == Finished running: argument_type_display_pass
[F 11/ 3 10:20:31.108 ...ite/lite/operators/concat_op.cc:41 CheckShape] Check failed: (inputs.size() >= 2): 1!>=2 concat needs two inputs
terminate called after throwing an instance of 'paddle::lite::PaddleLiteException'
  what():  Paddle-Lite C++ Exception:
"""

# The same engine's check that a device was named: the run's settings named none.
PADDLE_LITE_NO_DEVICE = """\
The predict img: imgs/frame_3.jpg
[F 11/ 3 10:20:31.108 ...le-Lite/lite/kernels/nnadapter/engine.cc:294 Engine] Check failed: (device_names.size() > 0): 0!>0 No device specified.
terminate called after throwing an instance of 'paddle::lite::PaddleLiteException'
  what():  Paddle-Lite C++ Exception:
[F 11/ 3 10:20:31.108 ...le-Lite/lite/kernels/nnadapter/engine.cc:294 Engine] Check failed: (device_names.size() > 0): 0!>0 No device specified.
"""


def test_a_paddle_lite_check_is_the_error_not_the_exception_it_throws() -> None:
    diagnosis = diagnose_text("logs/demo.log", PADDLE_LITE_CHECK)
    assert diagnosis.first_error is not None
    assert "Check failed: (inputs.size() >= 2)" in diagnosis.first_error.text
    assert "native.assertion_failed" in {e.rule for e in diagnosis.evidence}


def test_an_engine_given_no_device_is_a_configuration_fault() -> None:
    diagnosis = diagnose_text("logs/demo.log", PADDLE_LITE_NO_DEVICE)
    assert_reads(diagnosis, "config", first_error="No device specified")
    assert diagnosis.first_error.line == 2
