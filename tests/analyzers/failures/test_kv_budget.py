"""The KV-cache budget left after the weights, as vLLM v1 reports it.

Its engine refuses to start when one request of the configured maximum length does not fit
in the KV memory left (a ValueError, often wrapped or cut in a paste), and it prints the
budget itself at INFO: a negative budget means the weights alone exceed the memory fraction,
which is the same memory failure before anything has raised. A positive budget is routine.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

REQUEST_TOO_BIG = """\
(EngineCore_DP0 pid=4102)   File "/usr/local/lib/python3.11/site-packages/vllm/v1/core/kv_cache_utils.py", line 702, in check_enough_kv_cache_memory
(EngineCore_DP0 pid=4102)     raise ValueError(
(EngineCore_DP0 pid=4102) ValueError: To serve at least one request with the models's max seq len (65536), (7.50 GiB KV cache is needed, which is larger than the available KV cache memory (3.12 GiB). Based on the available memory, the estimated maximum model length is 27264.
"""

REQUEST_TOO_BIG_CUT = """\
(EngineCore pid=88)     _check_enough_kv_cache_memory(
(EngineCore pid=88)     raise ValueError(
(EngineCore pid=88) ValueError: To serve at least one request with the model's max seq len (40960), (2.81 GiB KV cach
"""

NEGATIVE_BUDGET = """\
INFO 04-07 08:15:02 [model_runner_v1.py:2210] Loading model weights took 29.8812 GB
INFO 04-07 08:15:11 [worker_v1.py:241] Available KV cache memory: -1.36 GiB
"""

NEGATIVE_BUDGET_BARE = (
    "Loading model weights took 29.8812 GB\nAvailable KV cache memory: -1.36 GiB\n"
)

POSITIVE_BUDGET = """\
INFO 04-07 08:15:02 [model_runner_v1.py:2210] Loading model weights took 14.9406 GB
INFO 04-07 08:15:11 [worker_v1.py:241] Available KV cache memory: 36.20 GiB
"""


def test_request_larger_than_kv_budget_is_oom() -> None:
    diagnosis = diagnose_text("engine.log", REQUEST_TOO_BIG)
    assert_reads(diagnosis, "oom", first_error="KV cache is needed")


def test_cut_request_check_is_still_oom() -> None:
    diagnosis = diagnose_text("engine.log", REQUEST_TOO_BIG_CUT)
    assert_reads(diagnosis, "oom", first_error="max seq len (40960)")


def test_negative_kv_budget_at_info_is_oom() -> None:
    diagnosis = diagnose_text("serve.log", NEGATIVE_BUDGET)
    assert_reads(diagnosis, "oom", first_error="-1.36 GiB")


def test_negative_kv_budget_without_a_level_is_oom() -> None:
    diagnosis = diagnose_text("serve.log", NEGATIVE_BUDGET_BARE)
    assert diagnosis.category == "oom"


def test_positive_kv_budget_is_no_failure() -> None:
    diagnosis = diagnose_text("serve.log", POSITIVE_BUDGET)
    assert diagnosis.category != "oom"
    assert diagnosis.first_error is None
