"""A request's grammar or schema that the structured-output backend refuses before decoding.

docs/labelling.md#a-grammar-the-structured-output-backend-refuses-up-front: vLLM checks a
request's JSON schema, regex or grammar against its structured-output backend when the request
is added and raises in its own words when the backend cannot take it (`The provided JSON schema
contains features not supported by xgrammar.`, `Failed to transform json schema into a grammar:
...`, `Invalid grammar specification: ...`, a Lark grammar it cannot convert: `Failed to
convert the grammar from Lark to EBNF.` over the converter's `Referenced rules are not defined:
...`). Nothing ran on the device: the request asked the backend for a feature it lacks, so the
label is `config` (another backend, or a schema or grammar written in what the backend takes),
with `other` beside it; the converter's own reason is the first error. A request whose
`response_format` carries no constraint the engine can map (a plain `text` format routed into the
structured-output path) is refused the same way, in vLLM's `No valid structured output parameter
found`. Values are our own.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

LARK_GRAMMAR_REFUSED = """\
Traceback (most recent call last):
  File "/opt/vllm/vllm/v1/structured_output/utils.py", line 301, in validate_grammar
    params.grammar = convert_lark_to_ebnf(params.grammar)
  File "/opt/vllm/vllm/v1/structured_output/utils.py", line 228, in convert_lark_to_ebnf
    raise ValueError(
ValueError: Referenced rules are not defined: digit, sign

The above exception was the direct cause of the following exception:

Traceback (most recent call last):
  File "/home/dev/bench/constrained.py", line 42, in <module>
    outputs = llm.generate(prompts, params)
  File "/opt/vllm/vllm/v1/engine/processor.py", line 160, in _validate_structured_output
    validate_grammar(params)
ValueError: Failed to convert the grammar from Lark to EBNF.
[ERROR] 2026-03-05-10:11:12 (PID:5120, Device:-1, RankID:-1) ERR99999 UNKNOWN applicaiton exception
"""

SCHEMA_REFUSED = (
    "(APIServer pid=812) ERROR 03-05 10:11:12 [serving_chat.py:230] ValueError: The provided "
    "JSON schema contains features not supported by xgrammar.\n"
)

# A chat request asked for a response format that maps to no constraint; the engine core raises
# while it adds the request and stops.
NO_CONSTRAINT_IN_REQUEST = """\
(EngineCore_DP0 pid=2211) ERROR 04-02 11:20:33 [core.py:842] EngineCore encountered a fatal error.
(EngineCore_DP0 pid=2211) ERROR 04-02 11:20:33 [core.py:842] Traceback (most recent call last):
(EngineCore_DP0 pid=2211) ERROR 04-02 11:20:33 [core.py:842]   File "/opt/vllm/vllm/v1/structured_output/request.py", line 71, in structured_output_key
(EngineCore_DP0 pid=2211) ERROR 04-02 11:20:33 [core.py:842]     raise ValueError("No valid structured output parameter found")
(EngineCore_DP0 pid=2211) ERROR 04-02 11:20:33 [core.py:842] ValueError: No valid structured output parameter found
"""

BACKEND_CHOSEN = (
    "(EngineCore pid=905) INFO 03-05 10:10:02 [__init__.py:88] Using xgrammar as the structured "
    "output backend\n"
)


def test_a_grammar_the_backend_cannot_convert_is_a_feature_it_lacks() -> None:
    diagnosis = diagnose_text("bench.log", LARK_GRAMMAR_REFUSED)
    assert_reads(
        diagnosis, "config", first_error="Referenced rules are not defined", beside=("other",)
    )


def test_a_schema_with_features_the_backend_lacks_is_the_same_refusal() -> None:
    diagnosis = diagnose_text("api_server.log", SCHEMA_REFUSED)
    assert_reads(diagnosis, "config", first_error="not supported by xgrammar")


def test_naming_the_backend_at_start_up_is_no_refusal() -> None:
    assert diagnose_text("engine.log", BACKEND_CHOSEN).first_error is None


def test_a_request_format_with_no_constraint_to_map_is_the_same_refusal() -> None:
    diagnosis = diagnose_text("engine.log", NO_CONSTRAINT_IN_REQUEST)
    assert_reads(
        diagnosis,
        "config",
        first_error="No valid structured output parameter found",
        rule="cfg.structured_output_spec_refused",
        beside=("other",),
    )


def test_a_request_that_carries_a_constraint_is_no_refusal() -> None:
    text = "(EngineCore_DP0 pid=2211) DEBUG 04-02 11:20:30 [request.py:60] valid structured output parameter found: json\n"
    assert diagnose_text("engine.log", text).first_error is None
