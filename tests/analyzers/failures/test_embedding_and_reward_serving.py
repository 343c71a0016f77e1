"""Embedding, reranking and reward-model serving: failures in the servers' own log formats.

Lines in the real shapes with values of our own: a Rust embedding server on candle whose
weight lookup by name fails (plain and JSON log lines), a multiprocess engine front end that
reports its engine dead before the engine's own traceback, a tokio worker's panic, and an RL
controller that cannot split a scoring batch evenly over its workers.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

CANDLE_PLAIN = """\
embed-1  | 2026-05-02T10:11:09.100000Z  INFO text_embeddings_router: router/src/lib.rs:230: Starting model backend
embed-1  | 2026-05-02T10:11:10.200000Z ERROR text_embeddings_backend: backends/src/lib.rs:260: Could not start Candle backend: Could not start backend: cannot find tensor bert.encoder.layer.0.output.dense.weight
embed-1  | Error: Could not create backend
embed-1  | 
embed-1  | Caused by:
embed-1  |     Could not start backend: Could not start a suitable backend
"""

CANDLE_JSON = """\
{"timestamp":"2026-05-02T10:11:10.200000Z","level":"ERROR","message":"Could not start Candle backend: Could not start backend: cannot find tensor roberta.embeddings.position_ids.weight","target":"text_embeddings_backend","filename":"backends/src/lib.rs","line_number":390}
Error: Could not create backend

Caused by:
    Could not start backend: Could not start a suitable backend
"""


def test_a_weight_the_backend_cannot_find_is_weight_load_before_its_wrappers() -> None:
    for text in (CANDLE_PLAIN, CANDLE_JSON):
        diagnosis = diagnose_text("server.log", text)
        assert_reads(diagnosis, "weight_load", first_error="cannot find tensor", beside=("config",))


def test_start_up_wrappers_alone_are_not_a_weight_failure() -> None:
    text = "Error: Could not create backend\n\nCaused by:\n    Could not start a suitable backend\n"
    assert diagnose_text("server.log", text).category != "weight_load"


ENGINE_DEAD_FIRST = """\
INFO 05-02 10:11:11 engine.py:270] Added request embd-0001-0.
INFO 05-02 10:11:11 engine.py:270] Added request embd-0001-1.
CRITICAL 05-02 10:11:12 launcher.py:101] MQLLMEngine is already dead, terminating server process
INFO:     127.0.0.1:50000 - "POST /v1/embeddings HTTP/1.1" 500 Internal Server Error
ERROR 05-02 10:11:12 engine.py:140] RuntimeError('stack expects each tensor to be equal size, but got [5, 1] at entry 0 and [2, 1] at entry 1')
ERROR 05-02 10:11:12 engine.py:140] Traceback (most recent call last):
"""


def test_the_engine_traceback_explains_the_front_end_that_saw_it_dead() -> None:
    diagnosis = diagnose_text("server.log", ENGINE_DEAD_FIRST)
    assert_reads(
        diagnosis, "shape_mismatch", first_error="stack expects each tensor to be equal size"
    )


def test_a_front_end_that_is_ready_is_no_failure() -> None:
    text = "INFO 05-02 10:11:09 engine.py:90] MQLLMEngine is ready to serve requests\n"
    assert diagnose_text("server.log", text).first_error is None


TOKIO_PANIC = """\
2026-05-02T10:11:12.345Z | thread 'tokio-runtime-worker' panicked at /usr/src/router/src/queue.rs:120:30:
2026-05-02T10:11:12.345Z | queue receiver dropped
2026-05-02T10:11:12.345Z | note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace
"""


def test_a_rust_worker_panic_is_the_failure_the_log_shows() -> None:
    diagnosis = diagnose_text("server.log", TOKIO_PANIC)
    assert_reads(diagnosis, "other", first_error="panicked at /usr/src/router/src/queue.rs:120:30")


def test_the_backtrace_hint_alone_is_no_failure() -> None:
    text = "note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace\n"
    assert diagnose_text("server.log", text).first_error is None


SCORING_BATCH = """\
  File "/opt/rl/verl/single_controller/base/decorator.py", line 60, in _split_args_kwargs_data_proto
    splitted_args.append(arg.chunk(chunks=chunks))
  File "/opt/rl/verl/protocol.py", line 880, in chunk
    assert len(non_tensor_lst) == chunks
           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
AssertionError
"""


def test_a_batch_the_workers_cannot_share_evenly_is_config() -> None:
    diagnosis = diagnose_text("driver.log", SCORING_BATCH)
    assert_reads(diagnosis, "config", first_error="AssertionError", beside=("shape_mismatch",))


def test_a_bare_shape_assertion_is_not_read_as_the_batch_split() -> None:
    text = SCORING_BATCH.replace(
        "assert len(non_tensor_lst) == chunks", "assert hidden.shape == target.shape"
    )
    assert diagnose_text("driver.log", text).category != "config"
