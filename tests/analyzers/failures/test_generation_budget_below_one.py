"""A generation budget that the prompt already used up.

A rollout or serving layer that sizes each request's generation budget as the context window
minus the prompt (`max_tokens = max_model_len - prompt_tokens`) hands the engine a zero or
negative budget when a prompt is as long as the window or longer, and vLLM's sampling
parameters refuse it before the request is scheduled (`ValueError: max_tokens must be at
least 1, got -612.`). The window is too small for the job's data, or the data should have been
cut before it reached the engine: `config`, with `other` beside it, and the refusal is the
first error ahead of the server's later failures and the trainer's report of the 500 it got.
(docs/labelling.md#a-prompt-longer-than-the-context-window)
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_files, diagnose_text, rules_of

RULE = "cfg.generation_budget_below_one"

ROLLOUT_SERVER = """\
INFO:     127.0.0.1:51200 - "POST /reset_prefix_cache/ HTTP/1.1" 200 OK
[WARNING:rollout] context(4096) - prompt(4710) < max_tokens(1024). Setting max_tokens: -614
[ERROR:rollout] Method execution failed: generate_batch
Traceback (most recent call last):
  File "/srv/rl/rollout/engine.py", line 311, in _prepare
    params = SamplingParams(**kwargs)
  File "/usr/lib/python3.11/site-packages/vllm/sampling_params.py", line 401, in _verify_args
    raise ValueError(
ValueError: max_tokens must be at least 1, got -614.
INFO:     127.0.0.1:51200 - "POST /generate/ HTTP/1.1" 500 Internal Server Error
ERROR:    Exception in ASGI application
Traceback (most recent call last):
  File "/srv/rl/rollout/server.py", line 402, in generate
    outputs = list(chain.from_iterable(results))
TypeError: 'NoneType' object is not iterable
"""

TRAINER = """\
[rank0]: Traceback (most recent call last):
[rank0]:   File "/srv/rl/train_grpo.py", line 77, in <module>
[rank0]:     main()
[rank0]:   File "/srv/rl/client.py", line 140, in generate
[rank0]:     raise RuntimeError(f'Multiple errors: {errors}')
[rank0]: RuntimeError: Multiple errors: [Exception('Server 0 failed: 500, Internal Server Error')]
"""


def test_a_negative_budget_refused_by_the_sampling_check_is_the_window() -> None:
    """docs/labelling.md#a-prompt-longer-than-the-context-window"""
    diagnosis = diagnose_files({"rollout/server.log": ROLLOUT_SERVER, "trainer/rank0.log": TRAINER})
    assert_reads(
        diagnosis,
        "config",
        first_error="max_tokens must be at least 1, got -614",
        rule=RULE,
        beside=("other",),
    )


def test_the_refusal_relayed_on_a_rank_reads_the_same() -> None:
    """docs/labelling.md#a-prompt-longer-than-the-context-window"""
    text = (
        '[rank3]:   File "/opt/app/generate.py", line 58, in sample\n'
        "[rank3]:     params = SamplingParams(max_tokens=budget, temperature=0.7)\n"
        "[rank3]: ValueError: max_tokens must be at least 1, got 0.\n"
    )
    diagnosis = diagnose_text("rank3.log", text)
    assert_reads(diagnosis, "config", first_error="max_tokens must be at least 1, got 0", rule=RULE)


def test_the_warning_that_shrinks_the_budget_is_no_failure() -> None:
    """docs/labelling.md#a-prompt-longer-than-the-context-window"""
    text = (
        "[WARNING:rollout] context(4096) - prompt(3900) < max_tokens(1024). Setting max_tokens: 196\n"
        'INFO:     127.0.0.1:51200 - "POST /generate/ HTTP/1.1" 200 OK\n'
    )
    diagnosis = diagnose_text("rollout/server.log", text)
    assert RULE not in rules_of(diagnosis)
    assert diagnosis.category != "config"


def test_another_parameter_at_least_one_keeps_its_own_reading() -> None:
    """docs/labelling.md#a-prompt-longer-than-the-context-window"""
    text = "ValueError: n must be at least 1, got 0.\n"
    diagnosis = diagnose_text("client.log", text)
    assert RULE not in rules_of(diagnosis)
