"""A serving engine's warm-up request that does not fit on the device.

The engine sends itself a request of the largest size its settings allow before it serves;
when that request runs out of device memory, memory is what ran short (`oom`) and the line is
the first error, while the size came from the server's settings, so `config` is offered
beside it. docs/labelling.md#a-warm-up-request-that-does-not-fit. Fixtures are written in the
real shapes with their own values.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

WARMUP_OUT_OF_MEMORY = """\
[2026-02-03 04:05:06,789] [310] [281470000000000] [llm] [ERROR] [logging.py-348] : Warmup failed, because of model inference out of memory when `maxInputTokenLen` set to 16384. Please try to decrease `maxPrefillTokens` in config.json of mindie-service.
Traceback (most recent call last):
  File "/usr/local/lib/python3.11/site-packages/mindie_llm/connector/request_router/request_router.py", line 99, in do_inference
    self.initialize(execute_request.config)
"""

WARMUP_WITHOUT_TOKENIZER = """\
[2026-02-03 04:05:06,789] [310] [281470000000000] [llm] [ERROR] [logging.py-348] : Warmup failed, because the tokenizer of the model could not be loaded.
Traceback (most recent call last):
  File "/usr/local/lib/python3.11/site-packages/mindie_llm/connector/request_router/request_router.py", line 99, in do_inference
    self.initialize(execute_request.config)
"""


def test_a_warmup_that_runs_out_of_memory_is_oom_with_the_settings_beside_it() -> None:
    diagnosis = diagnose_text("mindie.log", WARMUP_OUT_OF_MEMORY)
    assert_reads(
        diagnosis,
        "oom",
        first_error="Warmup failed, because of model inference out of memory",
        beside=("config",),
    )


def test_a_warmup_that_failed_for_another_reason_is_not_memory() -> None:
    diagnosis = diagnose_text("mindie.log", WARMUP_WITHOUT_TOKENIZER)
    assert diagnosis.category != "oom"
