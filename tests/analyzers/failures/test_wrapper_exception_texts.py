"""Exception texts printed without their usual prefix: a serving wrapper's module error and an
NPU op binding's argument check.

Each case is a rule of docs/labelling.md or a signature's stated reading, with an example and a
counterexample:

- a model wrapper that logs only the exception's message after its own `Exception:` tag
  (`[Model] >>> Exception:No module named 'x.y'`) reports the same missing module as
  `ModuleNotFoundError: No module named ...`: the packages in the image do not fit the model,
  `config`, and that line, not the wrapper's earlier "initialize error result", is the first
  error. A warning that only quotes the error's repr is no failure;
- MindIE's LLM manager logging that the installed ATB model library has no such model type
  (`NotImplementedError: unsupported model type: X` inside its [ERROR] line) reads as a model
  this release does not offer, `config`, the Transformers and vLLM wordings' reading, and is
  recognised rather than left to the words of an unread line; an INFO line naming the type is
  no failure;
- #an-operator-name-decides-nothing: an NPU op's own binding that refuses its arguments with the
  op's name first (`RuntimeError: npu_x: state must be [...]`) is the op refusing its inputs on
  the host, `operator`; a model's own check that names no op is not read that way.

Fixtures follow the shapes MindIE's batchscheduler and pytest print; values are made up.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

MODULE_MISSING_BEHIND_TAG = """\
[2026-04-05 10:20:30.111+0800] [5122] [281460000000002] [batchscheduler] [ERROR] [model.py:70] : [MIE04E13030A] [Model]\t>>> return initialize error result: {'status': 'error', 'npuBlockNum': '0', 'cpuBlockNum': '0', 'memPoolId': '-3'}
[2026-04-05 10:20:30.111+0800] [5120] [281460000000001] [batchscheduler] [ERROR] [model.py:61] : [Model]\t>>> Exception:No module named 'atb_llm.models.deepseek.flash_causal_deepseek_v3'
Traceback (most recent call last):
  File "/usr/local/lib/python3.11/dist-packages/model_wrapper/model.py", line 55, in initialize
    return self.python_model.initialize(config)
"""

MODULE_REPR_IN_A_WARNING = """\
WARNING 04-05 10:20:30 [_custom_ops.py:33] Failed to import from vllm._moe_C with ModuleNotFoundError("No module named 'vllm._moe_C'")
INFO 04-05 10:20:41 [api_server.py:1800] Started server process [5120]
"""

MODEL_TYPE_NOT_OFFERED = """\
[2026-03-04 05:06:07.089] [77] [281470000000077] [llm] [ERROR] [model_deploy_config.cpp:96] Failed to get vocab size from tokenizer wrapper with exception: NotImplementedError: unsupported model type: glm4_moe
At:
  /usr/local/Ascend/atb-models/atb_llm/models/__init__.py(58): get_model
"""

MODEL_TYPE_NAMED = """\
[2026-03-04 05:06:07.089] [77] [281470000000077] [llm] [INFO] [model_deploy_config.cpp:90] model type: glm4_moe, supported by atb_llm.models
"""

BINDING_REFUSED = """\
============================= test session starts ==============================
collected 4 items
FAILED test_ops.py::test_case[0] - RuntimeError: npu_gated_delta_rule_bwd: state must be [N,H,K,V]; state=[3, 2, 64, 24] chunk_num=1
FAILED test_ops.py::test_case[2] - RuntimeError: npu_gated_delta_rule_bwd: state must be [N,H,K,V]; state=[1, 8, 9, 9] chunk_num=2
"""

MODEL_CHECK_NAMES_NO_OP = """\
Traceback (most recent call last):
  File "/workspace/model/gdn.py", line 88, in forward
    raise ValueError(f"state must be a 4-D tensor, got {list(state.shape)}")
ValueError: state must be a 4-D tensor, got [2, 4, 64]
"""


def test_a_missing_module_behind_a_wrappers_exception_tag_is_a_package_mismatch() -> None:
    diagnosis = diagnose_text("mindie/log/debug/mindie-server.log", MODULE_MISSING_BEHIND_TAG)
    assert_reads(diagnosis, "config", first_error="No module named 'atb_llm.models.deepseek")


def test_a_warning_quoting_a_module_errors_repr_is_no_failure() -> None:
    diagnosis = diagnose_text("run/server.log", MODULE_REPR_IN_A_WARNING)
    assert diagnosis.category != "config"


def test_a_model_type_the_atb_library_lacks_is_a_model_this_release_does_not_offer() -> None:
    diagnosis = diagnose_text("mindie/log/debug/mindie-llm.log", MODEL_TYPE_NOT_OFFERED)
    assert_reads(diagnosis, "config", first_error="unsupported model type: glm4_moe")
    assert not diagnosis.root_cause.startswith("Unrecognised")
    assert diagnosis.confidence > 0.5


def test_an_info_line_naming_the_model_type_is_no_failure() -> None:
    diagnosis = diagnose_text("mindie/log/debug/mindie-llm.log", MODEL_TYPE_NAMED)
    assert diagnosis.first_error is None


def test_an_op_binding_refusing_its_arguments_is_the_operator() -> None:
    diagnosis = diagnose_text("tests/pytest.log", BINDING_REFUSED)
    assert_reads(diagnosis, "operator", first_error="npu_gated_delta_rule_bwd: state must be")


def test_a_models_own_check_naming_no_op_is_not_the_operator() -> None:
    diagnosis = diagnose_text("run/train.log", MODEL_CHECK_NAMES_NO_OP)
    assert diagnosis.category != "operator"


LOADER_WORKER_REWRAPPED = """\
[rank2]: Traceback (most recent call last):
[rank2]:   File "/srv/train/run.py", line 88, in <module>
[rank2]:     for batch in loader:
[rank2]:   File "/opt/py/torch/utils/data/dataloader.py", line 1400, in _process_data
[rank2]:     data.reraise()
[rank2]:   File "/opt/py/torch/_utils.py", line 700, in reraise
[rank2]:     raise exception
[rank2]: KeyError: Caught KeyError in DataLoader worker process 3.
[rank2]: Original Traceback (most recent call last):
[rank2]:   File "/opt/py/torch/utils/data/_utils/worker.py", line 300, in _worker_loop
[rank2]:     data = fetcher.fetch(index)
[rank2]:   File "/srv/train/corpus.py", line 51, in __getitem__
[rank2]:     row = self.index[key]
[rank2]: KeyError: 'shard-0042/record-17'
"""


def test_a_loader_worker_wrapper_yields_to_the_original_exception_under_it() -> None:
    """#wrappers: the exception a re-raising wrapper prints under `Original Traceback` is what
    failed; the wrapper, printed first, only says where it was caught."""
    diagnosis = diagnose_text("logs/rank_2.log", LOADER_WORKER_REWRAPPED)
    assert diagnosis.first_error is not None
    assert "'shard-0042/record-17'" in diagnosis.first_error.text


def test_a_loader_worker_wrapper_without_the_original_stays_the_first_error() -> None:
    cut = LOADER_WORKER_REWRAPPED.split("[rank2]: Original")[0]
    diagnosis = diagnose_text("logs/rank_2.log", cut)
    assert diagnosis.first_error is not None
    assert "Caught KeyError in DataLoader worker process 3" in diagnosis.first_error.text


# the serving engine's own package is not importable where its daemon runs: the machine is
# not set up for it, unlike a submodule of it that this release lacks
ENGINE_PACKAGE_MISSING = (
    "[2026-06-01 09:10:11.100200] [2210] [281470000000001] [llm] [ERROR] [model_deploy_config.cpp:152] "
    "Failed to get vocab size from tokenizer wrapper with exception: ModuleNotFoundError: "
    "No module named 'mindie_llm'\n"
    "LLMInferEngine failed to init LLMInferModels\n"
)


def test_the_serving_engines_own_package_missing_is_the_machines_set_up() -> None:
    diagnosis = diagnose_text("mindie/stdout.log", ENGINE_PACKAGE_MISSING)
    assert_reads(
        diagnosis,
        "driver_env",
        first_error="No module named 'mindie_llm'",
        rule="env.serving_engine_package_missing",
        beside=("config",),
    )


def test_a_submodule_of_the_engine_library_keeps_the_package_set_reading() -> None:
    text = ENGINE_PACKAGE_MISSING.replace("'mindie_llm'", "'atb_llm.models.qwen9.router_qwen9'")
    diagnosis = diagnose_text("mindie/stdout.log", text)
    assert diagnosis.category == "config"


# the model library's guarded loader refuses the model folder it was pointed at
TOKENIZER_LOADER_REFUSED = (
    "[2026-06-01 09:10:15.700500] [2210] [281470000000001] [llm] [ERROR] [model_deploy_config.cpp:159] "
    "Failed to get vocab size from tokenizer wrapper with exception: ValueError: "
    "safe_get_tokenizer_from_pretrained failed. Please check the input parameters model_path and kwargs.\n"
    "At:\n"
    "/opt/atb-models/atb_llm/models/base/model_utils.py(207): wrapper\n"
)


def test_the_model_librarys_guarded_loader_refusing_the_folder_is_config() -> None:
    diagnosis = diagnose_text("mindie/stdout.log", TOKENIZER_LOADER_REFUSED)
    assert_reads(
        diagnosis,
        "config",
        first_error="safe_get_tokenizer_from_pretrained failed",
        rule="cfg.model_library_loader_refused",
        beside=("weight_load",),
    )


def test_a_loader_that_succeeded_is_no_failure() -> None:
    text = "[INFO] model_utils.py:207 safe_get_tokenizer_from_pretrained done for /models/qwen\n"
    diagnosis = diagnose_text("mindie/stdout.log", text)
    assert diagnosis.first_error is None or "safe_get" not in diagnosis.first_error.text
