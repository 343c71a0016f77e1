"""A serving engine's KV-cache check quoted in a shortened sentence.

docs/labelling.md#config-driver_env-or-weight_load: vLLM refuses to start when one request of
the maximum length needs more KV cache than the memory left after the weights (`X GiB KV cache
is needed, which is larger than the available KV cache memory (Y GiB)`). Notes and reports
often quote the same check shortened to `X GiB KV cache is needed, but only Y GiB is
available`. It is the engine's own memory: `oom`, with the check as the first error. A line
that reports the budget it found, with no refusal, is no failure.

The fixtures are written in the shape of an engine's stderr, with our own sizes.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text


def test_the_shortened_check_is_the_engine_memory() -> None:
    text = "ValueError: ... 9.50 GiB KV cache is needed, but only 3.25 GiB is available\n"
    diagnosis = diagnose_text("rollout.log", text)
    assert_reads(diagnosis, "oom", first_error="KV cache is needed, but only 3.25 GiB")


def test_the_full_sentence_still_reads_the_same() -> None:
    text = (
        "ValueError: To serve at least one request with the model's max seq len (131072), "
        "(12.00 GiB KV cache is needed, which is larger than the available KV cache memory "
        "(4.10 GiB).\n"
    )
    diagnosis = diagnose_text("rollout.log", text)
    assert_reads(diagnosis, "oom", first_error="KV cache is needed")


def test_a_budget_line_is_no_failure() -> None:
    text = "INFO 07-14 09:12:40 [gpu_worker.py:298] Available KV cache memory: 21.40 GiB\n"
    diagnosis = diagnose_text("rollout.log", text)
    assert diagnosis.first_error is None
