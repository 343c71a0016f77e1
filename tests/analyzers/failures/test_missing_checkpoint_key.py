"""A checkpoint key the loader cannot find is `weight_load`, with `config` beside it.

docs/labelling.md#config-driver_env-or-weight_load: a missing parameter or scale key is the
loader's failure, and a release that does not fit the checkpoint (no support for its
quantisation) fails the same lookup, so `config` is offered as the alternative. A
hyperparameter's name is a missing config field instead.

Fixtures follow a V0 serving engine's `ERROR <date> engine.py:NNN]` prefix, which prints
str(KeyError) - only the quoted key - as the traceback's headline; keys, paths and numbers are
our own.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

# An older plugin asked for a quantised model's dequantisation scale it does not know.
QUANT_SCALE_KEY_MISSING = """\
INFO 03-11 08:14:02 model_runner.py:917] Starting to load model /data/models/demo-14b-w8a8...
Loading safetensors checkpoint shards:   0% Completed | 0/3 [00:00<?, ?it/s]
ERROR 03-11 08:14:05 engine.py:402] 'model.layers.4.mlp.down_proj.deq_scale'
ERROR 03-11 08:14:05 engine.py:402] Traceback (most recent call last):
ERROR 03-11 08:14:05 engine.py:402]   File "/opt/py/lib/python3.10/site-packages/vllm/engine/multiprocessing/engine.py", line 388, in run_mp_engine
ERROR 03-11 08:14:05 engine.py:402]     engine = MQLLMEngine.from_engine_args(engine_args=engine_args,
"""

# The same lookup raised with its exception name, for a plain weight.
WEIGHT_KEY_MISSING = """\
[rank2]: Traceback (most recent call last):
[rank2]:   File "/srv/llm/loader.py", line 211, in load_weights
[rank2]:     param = params_dict[name]
[rank2]: KeyError: 'model.layers.9.self_attn.o_proj.weight'
"""

# A hyperparameter read from the model's config: the config itself is what lacks it.
HYPERPARAMETER_KEY_MISSING = """\
[rank0]: Traceback (most recent call last):
[rank0]:   File "/srv/llm/build.py", line 44, in build
[rank0]:     theta = cfg["rope_theta"]
[rank0]: KeyError: 'rope_theta'
"""


def test_a_bare_quantisation_key_is_a_load_failure_with_config_beside_it() -> None:
    diagnosis = diagnose_text("server.log", QUANT_SCALE_KEY_MISSING)
    assert_reads(
        diagnosis,
        "weight_load",
        first_error="'model.layers.4.mlp.down_proj.deq_scale'",
        beside=("config",),
    )


def test_a_keyerror_for_a_weight_offers_config_as_well() -> None:
    diagnosis = diagnose_text("log_2.log", WEIGHT_KEY_MISSING)
    assert_reads(
        diagnosis,
        "weight_load",
        first_error="KeyError: 'model.layers.9.self_attn.o_proj.weight'",
        beside=("config",),
    )


def test_a_hyperparameter_key_stays_a_config_field() -> None:
    diagnosis = diagnose_text("log_0.log", HYPERPARAMETER_KEY_MISSING)
    assert diagnosis.category == "config"
    assert "weight_load" not in {alt.category for alt in diagnosis.alternatives}


# A V1 serving engine's worker: after every shard is read, the loader finds parameters that
# received no tensor and refuses to start (docs/labelling.md#config-driver_env-or-weight_load).
WEIGHTS_NOT_LOADED = """\
(Worker_TP1 pid=40217) INFO 05-06 10:02:11 [default_loader.py:262] Loading weights took 41.07 seconds
(Worker_TP1 pid=40217) ERROR 05-06 10:02:12 [multiproc_executor.py:611] WorkerProc failed to start.
(Worker_TP1 pid=40217) ERROR 05-06 10:02:12 [multiproc_executor.py:611] Traceback (most recent call last):
(Worker_TP1 pid=40217) ERROR 05-06 10:02:12 [multiproc_executor.py:611]   File "/opt/py/lib/python3.11/site-packages/vllm/model_executor/model_loader/default_loader.py", line 281, in load_weights
(Worker_TP1 pid=40217) ERROR 05-06 10:02:12 [multiproc_executor.py:611]     raise ValueError("Following weights were not initialized from "
(Worker_TP1 pid=40217) ERROR 05-06 10:02:12 [multiproc_executor.py:611] ValueError: Following weights were not initialized from checkpoint: {'model.layers.5.mlp.router.weight', 'model.layers.5.mlp.experts.w2_weight'}
(Worker_TP0 pid=40216) INFO 05-06 10:02:12 [multiproc_executor.py:572] Parent process exited, terminating worker
"""

# A fine-tuning script building a model with a new head on purpose: transformers warns, and
# the job then fails for another reason.
NEW_HEAD_WARNING = """\
Some weights of DemoForSequenceClassification were not initialized from the model checkpoint at /models/demo-7b and are newly initialized: ['score.weight']
You should probably TRAIN this model on a down-stream task to be able to use it for predictions and inference.
[rank0]: Traceback (most recent call last):
[rank0]:   File "/srv/ft/train.py", line 88, in <module>
[rank0]:     theta = cfg["rope_theta"]
[rank0]: KeyError: 'rope_theta'
"""


def test_parameters_the_checkpoint_did_not_fill_are_a_load_failure() -> None:
    diagnosis = diagnose_text("worker.log", WEIGHTS_NOT_LOADED)
    assert diagnosis.category == "weight_load"
    assert diagnosis.confidence >= 0.5
    assert diagnosis.first_error is not None
    assert "Following weights were not initialized from checkpoint" in diagnosis.first_error.text
    assert "config" in {alt.category for alt in diagnosis.alternatives}


def test_a_new_head_warning_is_not_a_load_failure() -> None:
    diagnosis = diagnose_text("log_0.log", NEW_HEAD_WARNING)
    assert "wl.weights_not_loaded" not in rules_of(diagnosis)
    assert diagnosis.category == "config"


# The converse check of a name-driven loader: a checkpoint tensor whose name leads to no module
# or parameter of the class the engine built (an embedding checkpoint handed to the causal-LM
# class a platform plugin registered for the architecture).
NAME_WITHOUT_PARAMETER = """\
(EngineCore_DP0 pid=5120) INFO 08-14 09:21:40 [default_loader.py:262] Loading weights took 0.84 seconds
(EngineCore_DP0 pid=5120) ERROR 08-14 09:21:40 [core.py:632] EngineCore failed to start.
(EngineCore_DP0 pid=5120) ERROR 08-14 09:21:40 [core.py:632] Traceback (most recent call last):
(EngineCore_DP0 pid=5120) ERROR 08-14 09:21:40 [core.py:632]   File "/opt/py/lib/python3.11/site-packages/vllm/model_executor/models/utils.py", line 270, in _load_module
(EngineCore_DP0 pid=5120) ERROR 08-14 09:21:40 [core.py:632]     raise ValueError(msg)
(EngineCore_DP0 pid=5120) ERROR 08-14 09:21:40 [core.py:632] ValueError: There is no module or parameter named 'norm' in DemoPluginForCausalLM
"""

# The engine's source quoted in a traceback is code, not the refusal.
NAME_CHECK_SOURCE = """\
[rank0]:   File "/opt/py/lib/python3.11/site-packages/vllm/model_executor/models/utils.py", line 268, in _load_module
[rank0]:     msg = (f"There is no module or parameter named '{prefix}' "
[rank0]: KeyError: 'rope_theta'
"""


def test_a_checkpoint_name_with_no_parameter_is_a_load_failure() -> None:
    diagnosis = diagnose_text("worker.log", NAME_WITHOUT_PARAMETER)
    assert_reads(
        diagnosis,
        "weight_load",
        first_error="There is no module or parameter named 'norm'",
        beside=("config",),
    )


def test_the_name_check_in_the_engines_source_is_not_the_refusal() -> None:
    diagnosis = diagnose_text("log_0.log", NAME_CHECK_SOURCE)
    assert "wl.checkpoint_name_without_parameter" not in {
        e.rule for e in diagnosis.evidence if e.rule
    }
    assert diagnosis.category == "config"
