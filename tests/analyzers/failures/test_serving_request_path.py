"""Serving-engine failures on the request path: prompts, chat templates, compiled bindings.

docs/labelling.md#a-prompt-longer-than-the-context-window,
docs/labelling.md#a-chat-template-that-does-not-render,
docs/labelling.md#a-compiled-binding-that-refuses-its-arguments and
docs/labelling.md#native-only-crashes (the module list of a fatal-error dump). A request longer
than the window the engine was started with, a chat template that does not render and a
compiled extension refusing its caller's argument types are the job's settings; a fatal-error
dump kept without its header is still a crash, and so is the last line of its module list
alone (the list wrapped and the paste began below its header); a line that only counts
things is no such list. Fixtures are written here in the real shapes
with their own values.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

PROMPT_RELAYED = """\
  File "/srv/venv/lib/python3.10/site-packages/vllm/engine/llm_engine.py", line 1990, in _validate_model_input
    raise ValueError(
ValueError: [address=10.2.0.9:38811, pid=40112] The decoder prompt (length 9001) is longer than the maximum model length of 8192.
"""

PROMPT_ON_A_RANK = """\
[rank2]:   File "/opt/rl/rollout/vllm_rollout.py", line 210, in generate
[rank2]:     outputs = self.engine.generate(prompts, params)
[rank2]:ValueError: The decoder prompt (length 33000) is longer than the maximum model length of 32768. Make sure that `max_model_len` is no smaller than the number of text tokens plus multimodal tokens.
"""

PROMPT_SKIPPED_WARNING = """\
WARNING 06-02 11:00:04 scheduler.py:702] Input prompt (9001 tokens) is too long and exceeds limit of 8192
INFO 06-02 11:00:05 metrics.py:340] Avg prompt throughput: 120.0 tokens/s, Running: 3 reqs
"""

TEMPLATE_SYNTAX = """\
ERROR 06-03 08:21:40 serving_chat.py:170] Error in preprocessing prompt inputs
ERROR 06-03 08:21:40 serving_chat.py:170] jinja2.exceptions.TemplateSyntaxError: unexpected '}'
ERROR 06-03 08:21:40 serving_chat.py:170]   File "<unknown>", line 14, in template
"""

TEMPLATE_NOT_SET = """\
Traceback (most recent call last):
  File "/work/eval_chat.py", line 31, in <module>
    prompt = tok.apply_chat_template(messages, tokenize=False)
ValueError: Cannot use chat template functions because tokenizer.chat_template is not set and no template argument was passed!
"""

TEMPLATE_IN_USE = """\
INFO 06-03 08:00:00 api_server.py:710] Using supplied chat template: {% for m in messages %}{{ m.content }}{% endfor %}
INFO 06-03 08:00:01 launcher.py:30] Route: /v1/chat/completions, Methods: POST
"""

BINDING_REFUSED = """\
(Worker_TP1 pid=7301) ERROR 05-20 14:02:11 [multiproc_executor.py:700] Traceback (most recent call last):
(Worker_TP0 pid=7300) ERROR 05-20 14:02:11 [multiproc_executor.py:700]     kernels.mask_logits_cpu(
(Worker_TP1 pid=7301) ERROR 05-20 14:02:11 [multiproc_executor.py:700] TypeError: mask_logits_cpu(): incompatible function arguments. The following argument types are supported:
(Worker_TP0 pid=7300) ERROR 05-20 14:02:11 [multiproc_executor.py:700] Invoked with types: int, tuple, int, torch.Tensor
(Worker_TP0 pid=7300) ERROR 05-20 14:02:11 [multiproc_executor.py:700] TypeError: mask_logits_cpu(): incompatible function arguments. The following argument types are supported:
"""

BINDING_DETAIL_ONLY = """\
(Worker_TP0 pid=7300) INFO 05-20 14:02:11 [runner.py:88] mask kernel signature: Invoked with types: int, tuple, int, list
(Worker_TP0 pid=7300) INFO 05-20 14:02:12 [runner.py:90] step 12 done
"""

MODULE_LIST_WITHOUT_HEADER = """\
2025-03-02T10:11:15+08:00\t[2025-03-02 02:11:15 TP3] Scheduler hit an exception: Traceback (most recent call last):
2025-03-02T10:11:11+08:00\tExtension modules: numpy._core._multiarray_umath, torch._C, yaml._yaml, psutil._psutil_linux (total: 4)
"""

MODULE_LIST_WITH_HEADER = """\
Fatal Python error: Segmentation fault

Current thread 0x00007f10aa3fe640 (most recent call first):
  File "/srv/app/grammar.py", line 88 in compile

Extension modules: numpy._core._multiarray_umath, torch._C (total: 2)
"""

MODULE_LIST_LAST_LINE_ONLY = """\
ing, pandas._libs.window.aggregations, pyarrow._json, msgspec._core, _cffi_backend, uvloop.loop, cuda_utils (total: 163)
[2026-01-12 08:30:40] Rank 0 scheduler is dead. Please check if there are relevant logs.
[2026-01-12 08:30:41] Exit code: -11
"""

COUNTED_LIST = """\
2026-01-12 08:30:40 INFO loaded plugins: fastestmirror, langpacks, product-id (total: 3)
2026-01-12 08:30:41 ERROR request 17 failed: upstream closed
"""

BUILDING_EXTENSIONS = """\
running build_ext
building Extension modules for the package: done
copying build/lib/fastops.so -> fastops
"""


def test_a_prompt_over_the_window_relayed_by_a_serving_layer_is_config() -> None:
    diagnosis = diagnose_text("worker.log", PROMPT_RELAYED)
    assert_reads(
        diagnosis,
        "config",
        first_error="is longer than the maximum model length of 8192",
        beside=("other",),
    )


def test_a_prompt_over_the_window_in_a_rollout_rank_is_config() -> None:
    diagnosis = diagnose_text("trainer_rank2.log", PROMPT_ON_A_RANK)
    assert_reads(diagnosis, "config", first_error="The decoder prompt (length 33000)")


def test_a_skipped_prompt_warning_is_no_refusal() -> None:
    diagnosis = diagnose_text("server.log", PROMPT_SKIPPED_WARNING)
    assert diagnosis.category != "config"


def test_a_template_that_does_not_compile_is_config() -> None:
    diagnosis = diagnose_text("server.log", TEMPLATE_SYNTAX)
    assert_reads(
        diagnosis, "config", first_error="TemplateSyntaxError: unexpected '}'", beside=("other",)
    )


def test_a_tokenizer_without_a_template_is_config() -> None:
    diagnosis = diagnose_text("eval.log", TEMPLATE_NOT_SET)
    assert_reads(diagnosis, "config", first_error="chat_template is not set")


def test_a_template_named_at_start_is_no_failure() -> None:
    diagnosis = diagnose_text("server.log", TEMPLATE_IN_USE)
    assert diagnosis.category != "config"
    assert diagnosis.first_error is None


def test_a_binding_that_refuses_its_arguments_is_config_on_every_worker() -> None:
    diagnosis = diagnose_text("serve.log", BINDING_REFUSED)
    assert_reads(
        diagnosis,
        "config",
        first_error="mask_logits_cpu(): incompatible function arguments",
        beside=("other",),
    )


def test_the_types_line_alone_is_no_binding_refusal() -> None:
    diagnosis = diagnose_text("serve.log", BINDING_DETAIL_ONLY)
    assert diagnosis.category != "config"
    assert diagnosis.first_error is None


def test_a_fatal_dump_kept_without_its_header_is_a_crash() -> None:
    diagnosis = diagnose_text("decode_node.log", MODULE_LIST_WITHOUT_HEADER)
    assert_reads(
        diagnosis, "device_fault", first_error="Extension modules: numpy._core._multiarray_umath"
    )


def test_the_dump_header_says_it_first_when_present() -> None:
    diagnosis = diagnose_text("worker.log", MODULE_LIST_WITH_HEADER)
    assert_reads(diagnosis, "device_fault", first_error="Fatal Python error: Segmentation fault")


def test_building_extension_modules_is_no_dump() -> None:
    diagnosis = diagnose_text("build.log", BUILDING_EXTENSIONS)
    assert diagnosis.category != "device_fault"


def test_the_last_line_of_a_wrapped_module_list_alone_is_still_the_crash() -> None:
    diagnosis = diagnose_text("server.log", MODULE_LIST_LAST_LINE_ONLY)
    assert_reads(diagnosis, "device_fault", first_error="cuda_utils (total: 163)")


def test_a_logged_count_of_named_things_is_no_module_list() -> None:
    diagnosis = diagnose_text("server.log", COUNTED_LIST)
    assert diagnosis.first_error is not None
    assert "(total: 3)" not in diagnosis.first_error.text


# docs/labelling.md#a-chat-template-that-does-not-render
# transformers converts the tool definitions a chat carries into JSON schemas before it renders
# the template, and refuses one it cannot convert; a data set's tools column in another form
# stops every sample the same way.
TOOLS_REFUSED = """\
  File "/opt/venv/lib/python3.10/site-packages/transformers/tokenization_utils_base.py", line 1665, in apply_chat_template
    raise ValueError(
ValueError: Tools should either be a JSON schema, or a callable function with type hints and a docstring suitable for auto-conversion to a schema.
"""


def test_tool_definitions_the_template_cannot_take_are_the_jobs_input() -> None:
    diagnosis = diagnose_text("sft.log", TOOLS_REFUSED)
    assert_reads(
        diagnosis,
        "config",
        first_error="Tools should either be a JSON schema",
        rule="cfg.chat_template_render_failed",
        beside=("other",),
    )


def test_a_note_on_how_tools_are_given_is_no_refusal() -> None:
    text = "INFO data.py:40 -- tools are given as JSON schemas or callables with docstrings\n"
    diagnosis = diagnose_text("sft.log", text)
    assert "cfg.chat_template_render_failed" not in rules_of(diagnosis)
