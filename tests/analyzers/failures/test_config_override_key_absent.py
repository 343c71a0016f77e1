"""A configuration loader refusing an override for a key its file does not hold.

docs/labelling.md#a-config-override-the-loaded-file-does-not-hold: code that loads a model's
YAML with overrides (hyperpyyaml's `load_hyperpyyaml(f, overrides=...)`, OmegaConf in struct
mode, Hydra's command-line overrides) names a key, and the loaded file has no such key: the
loader says which key and, for hyperpyyaml, lists the keys it does hold. The file belongs to
another model or release than the code that loads it: `config`, and the refusal is the first
error. Values of our own in the real shapes.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

HYPERPYYAML_OVERRIDE = """\
Traceback (most recent call last):
  File "/srv/tts/infer.py", line 14, in <module>
    model = Synthesizer('/models/tts-small')
  File "/srv/tts/tts/cli/synth.py", line 92, in __init__
    configs = load_hyperpyyaml(f, overrides={'vocoder_dir': os.path.join(model_dir, 'vocoder')})
  File "/opt/venv/lib/python3.10/site-packages/hyperpyyaml/core.py", line 157, in load_hyperpyyaml
    yaml_stream = resolve_references(yaml_stream, overrides, overrides_must_match)
  File "/opt/venv/lib/python3.10/site-packages/hyperpyyaml/core.py", line 778, in recursive_update
    raise KeyError(f"Override '{k}' not found in: {[key for key in d.keys()]}")
KeyError: "Override 'vocoder_dir' not found in: ['sample_rate', 'encoder', 'decoder', 'hop_length']"
"""

OMEGACONF_STRUCT = """\
[rank0]: Traceback (most recent call last):
[rank0]:   File "/srv/asr/train.py", line 61, in main
[rank0]:     cfg.model.spec_augment_ratio = 0.2
[rank0]: omegaconf.errors.ConfigAttributeError: Key 'spec_augment_ratio' is not in struct
[rank0]:     full_key: model.spec_augment_ratio
[rank0]:     object_type=dict
"""

HYDRA_OVERRIDE = """\
Could not override 'trainer.precison'.
To append to your config use +trainer.precison=bf16-mixed
Key 'precison' is not in struct
    full_key: trainer.precison
    object_type=dict
"""


def test_an_override_for_a_key_the_yaml_lacks_is_config() -> None:
    diagnosis = diagnose_text("stdout.log", HYPERPYYAML_OVERRIDE)
    assert_reads(
        diagnosis,
        "config",
        first_error="Override 'vocoder_dir' not found in",
        rule="cfg.config_override_key_absent",
    )


def test_a_struct_config_that_lacks_the_key_is_config() -> None:
    diagnosis = diagnose_text("log_0.log", OMEGACONF_STRUCT)
    assert_reads(diagnosis, "config", first_error="Key 'spec_augment_ratio' is not in struct")


def test_a_command_line_override_is_read_at_its_headline() -> None:
    diagnosis = diagnose_text("stdout.log", HYDRA_OVERRIDE)
    assert_reads(diagnosis, "config", first_error="Could not override 'trainer.precison'")


def test_an_override_that_was_applied_is_no_failure() -> None:
    text = (
        "INFO 04-02 11:19:40 [synth.py:90] Override 'vocoder_dir' applied to the model config\n"
        "INFO 04-02 11:19:41 [synth.py:95] model loaded\n"
    )
    diagnosis = diagnose_text("stdout.log", text)
    assert "cfg.config_override_key_absent" not in rules_of(diagnosis)


def test_a_data_key_missing_from_a_batch_keeps_its_own_reading() -> None:
    text = (
        "Traceback (most recent call last):\n"
        '  File "/srv/tts/train.py", line 40, in forward\n'
        "    feats = batch['speech_feat']\n"
        "KeyError: 'speech_feat'\n"
    )
    diagnosis = diagnose_text("stdout.log", text)
    assert "cfg.config_override_key_absent" not in rules_of(diagnosis)


# A config class that refuses a key of the file it is handed, with its own fix in the sentence
# (an RL trainer's base config). Values of our own in the real shape.
CONFIG_CLASS_UNKNOWN_KEY = """\
  File "/work/rl/rl_trainer/config_cls/base_config.py", line 32, in update
    raise ValueError(f"The key: {key} is missing, causing the setup to fail. Please check."
ValueError: The key: rollout_offload_mode is missing, causing the setup to fail. Please check. If necessary, register it in the config file.
[ERROR] 2026-03-02-10:11:12 (PID:4120, Device:-1, RankID:-1) ERR99999 UNKNOWN applicaiton exception
"""


def test_a_config_class_that_does_not_register_the_files_key_is_config() -> None:
    diagnosis = diagnose_text("train.log", CONFIG_CLASS_UNKNOWN_KEY)
    assert_reads(
        diagnosis,
        "config",
        first_error="The key: rollout_offload_mode is missing",
        rule="cfg.config_override_key_absent",
    )
    assert diagnosis.confidence >= 0.6


def test_a_key_missing_from_a_batch_in_the_same_words_is_not_a_config_key() -> None:
    text = (
        "Traceback (most recent call last):\n"
        '  File "/srv/data/collate.py", line 12, in collate\n'
        "    raise KeyError(f'the key: {k} is missing from the sample')\n"
        "KeyError: 'the key: input_ids is missing from the sample'\n"
    )
    diagnosis = diagnose_text("stdout.log", text)
    assert "cfg.config_override_key_absent" not in rules_of(diagnosis)
