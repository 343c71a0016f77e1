"""A weight loader that says in its own words that a weight is not there.

Loaders that keep their own index of the checkpoint's tensors raise a sentence rather than
the bare key: a KeyError whose message names the weight and the files it was looked for in
(`KeyError: 'Key lm_head.weight not found in Safetensor files'`). Loaders that call
`load_state_dict(strict=False)` and then check the keys it returned stop on their own assertion
with the list (`AssertionError: incompatible_keys.missing_keys: ['...experts.down_proj', ...]`).
Either way the checkpoint does not hold a tensor under the name the model asks for: the loader
failed, `weight_load`, with `config` beside it (the file set or the release that names the
weights), and the sentence is the first error. A loader's note that it skipped or tied a weight,
and a printed key list with no exception, are no failure.

docs/labelling.md#a-loader-that-says-a-weight-is-not-there
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

# A hybrid CPU/GPU runner whose config asks for the FP8 scale of the output head, pointed at
# a folder that holds another export of the model.
SENTENCE_SCALE = """\
Injecting lm_head as kt.operators.linear . FastLinear
Traceback (most recent call last):
  File "/opt/kt/kt/operators/linear.py", line 92, in load_weight
    scale = self.loader.tensor_file_loader.load_tensor(key + '.weight_scale_inv')
  File "/opt/kt/kt/util/tensor_loader.py", line 58, in load_tensor
    raise KeyError(f"Key {key} not found in Safetensor files")
KeyError: 'Key lm_head.weight_scale_inv not found in Safetensor files'
"""

# The same runner looking for a plain weight, as a worker of a multi-process server.
SENTENCE_WEIGHT = """\
Process SpawnProcess-2:
Traceback (most recent call last):
  File "/opt/kt/kt/server/engine.py", line 201, in run_engine
    engine = Engine(args)
  File "/opt/kt/kt/util/tensor_loader.py", line 58, in load_tensor
    raise KeyError(f"Key {key} not found in Safetensor files")
KeyError: 'Key model.embed.weight not found in Safetensor files'
"""

# A bridge between two checkpoint layouts that asserts nothing was left out after loading.
ASSERTED_MISSING = """\
[INFO:bridge] loading hf weights into mcore model
Traceback (most recent call last):
  File "/srv/bridge/convert.py", line 88, in load_hf_weights
    assert len(missing) == 0, f'incompatible_keys.missing_keys: {missing}'
AssertionError: incompatible_keys.missing_keys: ['model.layers.0.mlp.experts.up_proj', 'model.layers.0.mlp.experts.down_proj', 'model.layers.1.mlp.experts.up_proj']
"""

# The result object itself in the assertion's message.
ASSERTED_RESULT = """\
[rank2]: Traceback (most recent call last):
[rank2]:   File "/srv/train/restore.py", line 40, in restore
[rank2]:     assert not result.missing_keys, result
[rank2]: AssertionError: _IncompatibleKeys(missing_keys=['head.proj.weight', 'head.proj.bias'], unexpected_keys=[])
"""

# Counterexample: the loader's own note that it tied a weight, then a job that runs out of
# memory for a reason of its own.
NOTE_THEN_OOM = """\
[INFO] key lm_head.weight not found in checkpoint files, tying it to model.embed.weight
load result: _IncompatibleKeys(missing_keys=['lm_head.weight'], unexpected_keys=[])
RuntimeError: NPU out of memory. Tried to allocate 2.00 GiB (NPU 0; 31.21 GiB total capacity; 29.80 GiB already allocated; 29.80 GiB current active; 512.00 MiB free; 30.10 GiB reserved in total by PyTorch)
"""

# Counterexample: a setting missing from the config is no weight.
CONFIG_KEY = """\
Traceback (most recent call last):
  File "/srv/app/load.py", line 12, in read_config
    value = lookup(cfg, "rope_theta")
KeyError: 'Key rope_theta not found in config'
"""


def _assert_missing_weight(text: str, needle: str) -> None:
    diagnosis = diagnose_text("job/console.log", text)
    assert_reads(diagnosis, "weight_load", first_error=needle, beside=("config",))


def test_a_key_error_sentence_naming_a_scale_is_a_missing_weight() -> None:
    _assert_missing_weight(SENTENCE_SCALE, "lm_head.weight_scale_inv not found")


def test_a_key_error_sentence_naming_a_weight_reads_the_same() -> None:
    _assert_missing_weight(SENTENCE_WEIGHT, "model.embed.weight not found")


def test_an_assertion_on_the_missing_keys_is_a_missing_weight() -> None:
    _assert_missing_weight(ASSERTED_MISSING, "incompatible_keys.missing_keys")


def test_an_assertion_quoting_the_load_result_reads_the_same() -> None:
    _assert_missing_weight(ASSERTED_RESULT, "missing_keys=['head.proj.weight'")


def test_a_note_and_a_printed_result_are_no_failure() -> None:
    diagnosis = diagnose_text("job/console.log", NOTE_THEN_OOM)
    assert_reads(diagnosis, "oom", first_error="NPU out of memory")


def test_a_setting_named_in_the_sentence_is_no_weight() -> None:
    diagnosis = diagnose_text("job/console.log", CONFIG_KEY)
    assert diagnosis.category != "weight_load"


# A sharded serving loader that looks each tensor up in its own index of the safetensors files
# and, for a name the files do not hold, says the weight does not exist; the launcher then
# reports that the model could not be initialised.
DOES_NOT_EXIST = """\
  File "/srv/venv/lib/python3.10/site-packages/serve/utils/weights.py", line 118, in get_sharded
    filename, tensor_name = self.get_filename(tensor_name)
  File "/srv/venv/lib/python3.10/site-packages/serve/utils/weights.py", line 71, in get_filename
    raise RuntimeError(f"weight {tensor_name} does not exist")
RuntimeError: weight model.layers.0.mlp.gate_proj.weight does not exist

2026-03-02T08:14:05.102934Z ERROR serve_launcher: Error when initializing model
Traceback (most recent call last):
  File "/srv/venv/bin/serve-shard", line 8, in <module>
    sys.exit(app())
"""

# The same check for a tied head, as a shard manager forwards a child's stderr.
DOES_NOT_EXIST_FORWARDED = """\
2026-03-02T08:14:05.204011Z ERROR shard-manager: serve_launcher: Shard complete standard error output:
RuntimeError: weight lm_head.weight does not exist
 rank=1
2026-03-02T08:14:05.301877Z ERROR serve_launcher: Shard 1 failed to start
"""

# Counterexample: a model path that is not there names no weight of the checkpoint.
PATH_DOES_NOT_EXIST = """\
Traceback (most recent call last):
  File "/srv/app/start.py", line 20, in main
    load(args.model)
OSError: model path /data/models/demo-7b does not exist
"""


def test_a_loader_saying_a_weight_does_not_exist_is_a_missing_weight() -> None:
    _assert_missing_weight(
        DOES_NOT_EXIST, "weight model.layers.0.mlp.gate_proj.weight does not exist"
    )
    assert "wl.weight_said_not_to_exist" in rules_of(
        diagnose_text("job/console.log", DOES_NOT_EXIST)
    )


def test_the_same_check_forwarded_by_a_shard_manager_reads_the_same() -> None:
    _assert_missing_weight(DOES_NOT_EXIST_FORWARDED, "weight lm_head.weight does not exist")


def test_a_model_path_that_does_not_exist_is_no_missing_weight() -> None:
    diagnosis = diagnose_text("job/console.log", PATH_DOES_NOT_EXIST)
    assert "wl.weight_said_not_to_exist" not in rules_of(diagnosis)
