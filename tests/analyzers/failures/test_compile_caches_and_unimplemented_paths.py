"""Compiled distributed jobs whose ranks share one compile cache, and code paths a compile mode
reaches that the code does not implement.

Ranks that compile the same graph at once write and read the same entries of inductor's and
Triton's caches: one finds a file another process renamed away, or reads an entry another
process is still writing. The cache is laid out for one process: `config`, with `other` and
`driver_env` beside it (docs/labelling.md#a-compile-cache-that-another-process-changed). A bare
`NotImplementedError` is a path the code does not implement for the mode chosen, `config` with
`other`, and a serving engine's capture failure that carries its empty message only reports it
(docs/labelling.md#engine-features-that-do-not-combine). Excerpts in torchrun's, a plain
traceback's and a serving container's formats, with paths and values of our own.
"""

from __future__ import annotations

from tests.analyzers.excerpts import alternative_labels, assert_reads, diagnose_text, rules_of

CACHE_FILE_GONE = """\
W1104 02:10:11.500000 8812 torch/distributed/run.py:792] Setting OMP_NUM_THREADS environment variable for each process to be 1 in default
step 0 compiling model (mode=default)
[rank21]: Traceback (most recent call last):
[rank21]:   File "/srv/pretrain/train.py", line 301, in <module>
[rank21]:     loss = model(batch).loss
[rank21]:   File "/opt/venv/lib/python3.11/site-packages/torch/_inductor/async_compile.py", line 402, in wait
[rank21]:     scope[key] = result.result()
[rank21]: FileNotFoundError: [Errno 2] No such file or directory: '/tmp/torchinductor_svc/triton/3/7d1be0c4a9/triton_per_fused_mean_pow_2.cubin.tmp.pid_5120_88014'
"""

PLAIN_INPUT_GONE = """\
[rank21]: Traceback (most recent call last):
[rank21]:   File "/srv/pretrain/data.py", line 44, in open_shard
[rank21]:     return open(path, "rb")
[rank21]: FileNotFoundError: [Errno 2] No such file or directory: '/data/corpus/shard-00041.bin'
"""

ENTRY_READ_HALF_WRITTEN = """\
Traceback (most recent call last):
  File "/srv/ddp/train.py", line 88, in <module>
    out = compiled(x)
  File "/opt/venv/lib/python3.11/site-packages/torch/_inductor/runtime/triton_heuristics.py", line 212, in cached_autotune
    best_config = load_cached_autotuning(best_config_path, configs_hash, configs)
  File "/usr/lib/python3.11/json/decoder.py", line 355, in raw_decode
    raise JSONDecodeError("Expecting value", s, err.value) from None
torch._dynamo.exc.BackendCompilerFailed: backend='inductor' raised:
JSONDecodeError: Expecting value: line 1 column 1 (char 0)

Set TORCH_LOGS="+dynamo" and TORCHDYNAMO_VERBOSE=1 for more information
"""

# a paste that kept the headline and the line under it, without the traceback's header: the
# two lines are not joined into one message
ENTRY_HALF_WRITTEN_EXCERPT = """\
...site-packages/torch/_inductor/runtime/triton_heuristics.py", line 212, in cached_autotune
    best_config = load_cached_autotuning(best_config_path, configs_hash, configs)
torch._dynamo.exc.BackendCompilerFailed: backend='inductor' raised:
_pickle.UnpicklingError: pickle data was truncated
"""

CLIENT_DECODE_ERROR = """\
Traceback (most recent call last):
  File "/srv/bench/client.py", line 61, in fetch
    body = resp.json()
json.decoder.JSONDecodeError: Expecting value: line 1 column 1 (char 0)
"""

UNIMPLEMENTED_PATH_UNDER_CAPTURE = """\
serve-moe  | [2026-07-02 11:04:09 TP1] Capture cuda graph begin. This can take up to several minutes.
serve-moe  |   File "/srv/engine/layers/custom_op.py", line 52, in forward
serve-moe  |     return self._forward_method(*args, **kwargs)
serve-moe  |   File "/srv/engine/layers/custom_op.py", line 58, in forward_native
serve-moe  |     raise NotImplementedError
serve-moe  | NotImplementedError
serve-moe  |   File "/srv/engine/model_executor/cuda_graph_runner.py", line 310, in __init__
serve-moe  |     raise Exception(
serve-moe  | Exception: Capture cuda graph failed: 
serve-moe  | Possible solutions:
serve-moe  | 1. disable torch compile by not using --enable-torch-compile
serve-moe  | [2026-07-02 11:04:12 TP0] Scheduler hit an exception:
"""

MESSAGE_GIVEN = """\
[rank1]: Traceback (most recent call last):
[rank1]:   File "/srv/train/step.py", line 40, in reduce_grads
[rank1]:     raise NotImplementedError(f"backend {name} does not support reduce_scatter")
[rank1]: NotImplementedError: backend gloo does not support reduce_scatter
"""


def test_a_cache_file_another_rank_moved_away_is_the_shared_cache() -> None:
    """Before, the line read as a missing input with weight loading beside it."""
    diagnosis = diagnose_text("node3.log", CACHE_FILE_GONE)
    assert_reads(
        diagnosis, "config", first_error="torchinductor_svc", rule="cfg.compile_cache_entry_raced"
    )
    assert {"other", "driver_env"} <= set(alternative_labels(diagnosis))
    assert "weight_load" not in alternative_labels(diagnosis)


def test_a_missing_input_outside_the_caches_stays_a_missing_input() -> None:
    diagnosis = diagnose_text("node3.log", PLAIN_INPUT_GONE)
    assert "cfg.compile_cache_entry_raced" not in rules_of(diagnosis)
    assert "cfg.missing_input_file" in rules_of(diagnosis)


def test_an_entry_read_while_another_rank_wrote_it_is_the_shared_cache() -> None:
    """The decode failure the backend raised, its headline and message read as one: before,
    an unrecognised `other`."""
    diagnosis = diagnose_text("rank1.err", ENTRY_READ_HALF_WRITTEN)
    assert_reads(
        diagnosis,
        "config",
        first_error="JSONDecodeError: Expecting value",
        rule="cfg.compile_cache_entry_raced",
    )
    assert {"other", "driver_env"} <= set(alternative_labels(diagnosis))


def test_the_decode_failure_on_its_own_line_under_the_headline_is_the_first_error() -> None:
    diagnosis = diagnose_text("rank1.err", ENTRY_HALF_WRITTEN_EXCERPT)
    assert diagnosis.category == "config", diagnosis.root_cause
    assert diagnosis.first_error is not None
    assert diagnosis.first_error.text.startswith(
        "_pickle.UnpicklingError: pickle data was truncated"
    )
    assert "cfg.compile_cache_entry_cut" in rules_of(diagnosis)
    assert {"other", "driver_env"} <= set(alternative_labels(diagnosis))


def test_a_decode_error_with_no_compile_backend_above_it_is_no_cache_race() -> None:
    diagnosis = diagnose_text("client.log", CLIENT_DECODE_ERROR)
    assert "cfg.compile_cache_entry_cut" not in rules_of(diagnosis)
    assert "cfg.compile_cache_entry_raced" not in rules_of(diagnosis)


def test_a_bare_not_implemented_path_leads_the_capture_failure_that_carries_it() -> None:
    """Before, the capture wrapper outranked the unrecognised bare line: `stream_sync`."""
    diagnosis = diagnose_text("docker-compose.log", UNIMPLEMENTED_PATH_UNDER_CAPTURE)
    assert diagnosis.category == "config", diagnosis.root_cause
    assert diagnosis.first_error is not None
    assert diagnosis.first_error.text.rstrip().endswith("| NotImplementedError")
    assert "cfg.unimplemented_path_reached" in rules_of(diagnosis)
    assert "other" in alternative_labels(diagnosis)


def test_a_not_implemented_error_with_a_message_is_read_for_its_words() -> None:
    diagnosis = diagnose_text("rank1.log", MESSAGE_GIVEN)
    assert "cfg.unimplemented_path_reached" not in rules_of(diagnosis)
    assert diagnosis.first_error is not None
    assert "does not support reduce_scatter" in diagnosis.first_error.text


# two tensor-parallel workers of a serving engine compiled into one cache; the rank whose
# graph got no cache key asserts, its peer relays the backend failure
GRAPH_KEY_MISSING = """\
(VllmWorker rank=1 pid=7310) ERROR 02-11 09:14:05 [multiproc_executor.py:522] AssertionError: failed to get the hash of the compiled graph
(VllmWorker rank=1 pid=7310) ERROR 02-11 09:14:05 [multiproc_executor.py:522] 
(VllmWorker rank=0 pid=7309) ERROR 02-11 09:14:05 [multiproc_executor.py:522] WorkerProc hit an exception.
(VllmWorker rank=0 pid=7309) ERROR 02-11 09:14:05 [multiproc_executor.py:522] Traceback (most recent call last):
(VllmWorker rank=0 pid=7309) ERROR 02-11 09:14:05 [multiproc_executor.py:522]   File "/opt/venv/lib/python3.12/site-packages/torch/_dynamo/output_graph.py", line 1544, in _call_user_compiler
(VllmWorker rank=0 pid=7309) ERROR 02-11 09:14:05 [multiproc_executor.py:522]     raise BackendCompilerFailed(
"""

GRAPH_KEY_SOURCE_LINE = """\
  File "/opt/venv/lib/python3.12/site-packages/vllm/compilation/compiler_interface.py", line 301, in compile
    assert hash_str is not None, "failed to get the hash of the compiled graph"
INFO 02-11 09:14:05 [backends.py:161] Cache the graph of shape None for later use
"""


def test_a_compiled_graph_with_no_cache_key_is_the_shared_cache() -> None:
    """Before, the engine's assertion matched no rule: an unrecognised `other`."""
    diagnosis = diagnose_text("serve.log", GRAPH_KEY_MISSING)
    assert_reads(
        diagnosis,
        "config",
        first_error="failed to get the hash of the compiled graph",
        rule="cfg.compile_cache_graph_key_missing",
        beside=["other"],
    )


def test_the_assertions_source_line_is_no_cache_failure() -> None:
    diagnosis = diagnose_text("serve.log", GRAPH_KEY_SOURCE_LINE)
    assert "cfg.compile_cache_graph_key_missing" not in rules_of(diagnosis)
