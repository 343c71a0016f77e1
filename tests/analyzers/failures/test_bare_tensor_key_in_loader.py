"""A weight loader that looks up a bare tensor name the checkpoint does not hold.

docs/labelling.md#config-driver_env-or-weight_load: converters between checkpoint layouts (the
Megatron bridges, a serving engine's model loader) keep a layer's tensors in a dict keyed by
their local names, and newer MoE checkpoints store fused expert tensors as parameters with no
`.weight` leaf (`gate_up_proj`, `down_proj`). A bare `KeyError: 'gate_up_proj'` raised in such a
step is a weight the loader expected and the checkpoint lacks: `weight_load`, with `config`
beside it (the converter's idea of the layout does not fit this checkpoint). The same key raised
outside any loading step (an adapter's module mapping, the job's own dict) is not this rule's.
Names, paths and numbers are ours.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

RULE = "wl.bare_tensor_key_in_loader"

# A Megatron bridge filling an MoE layer from a checkpoint whose experts are stored split.
BRIDGE = """\
[rank3]: Traceback (most recent call last):
[rank3]:   File "/opt/venv/lib/python3.11/site-packages/trainkit/megatron/convert/hf_bridge.py", line 1204, in _fill_layer
[rank3]:     state.update(self._fill_mlp(layer, hf_state, index))
[rank3]:   File "/opt/venv/lib/python3.11/site-packages/trainkit/megatron/convert/hf_bridge.py", line 811, in _fill_mlp
[rank3]:     fused = hf_state['gate_up_proj'].load()
[rank3]: KeyError: 'gate_up_proj'
E0312 08:14:02.118000 5521 torch/distributed/elastic/multiprocessing/api.py:882] failed (exitcode: 1) local_rank: 3 (pid: 5590) of binary: /opt/venv/bin/python
"""

# A serving engine's loader asking a checkpoint for its fused down projection.
ENGINE_LOADER = """\
(Worker_TP1 pid=4410) ERROR 03-12 08:14:02 [multiproc_executor.py:640]   File "/usr/lib/python3.12/site-packages/engine/model_executor/model_loader/default_loader.py", line 298, in load_weights
(Worker_TP1 pid=4410) ERROR 03-12 08:14:02 [multiproc_executor.py:640]     loaded = model.load_weights(self.get_all_weights(config, model))
(Worker_TP1 pid=4410) ERROR 03-12 08:14:02 [multiproc_executor.py:640]   File "/usr/lib/python3.12/site-packages/engine/model_executor/models/moe_lm.py", line 512, in load_weights
(Worker_TP1 pid=4410) ERROR 03-12 08:14:02 [multiproc_executor.py:640]     param = experts[name]
(Worker_TP1 pid=4410) ERROR 03-12 08:14:02 [multiproc_executor.py:640] KeyError: 'down_proj'
"""

# Counterexample: an adapter manager's module mapping has no entry for a packed module.
ADAPTER_MAPPING = """\
Traceback (most recent call last):
  File "/usr/lib/python3.12/site-packages/engine/lora/models.py", line 377, in create_lora_manager
    packed = model.packed_modules_mapping[module_name]
KeyError: 'gate_up_proj'
"""


def test_a_bridge_missing_a_fused_expert_tensor_is_a_weight_load() -> None:
    diagnosis = diagnose_text("rank3.log", BRIDGE)
    assert_reads(
        diagnosis,
        "weight_load",
        first_error="KeyError: 'gate_up_proj'",
        rule=RULE,
        beside=("config",),
    )
    assert diagnosis.confidence >= 0.5, diagnosis.confidence


def test_an_engine_loader_missing_a_bare_projection_reads_alike() -> None:
    diagnosis = diagnose_text("worker.log", ENGINE_LOADER)
    assert_reads(diagnosis, "weight_load", first_error="KeyError: 'down_proj'", rule=RULE)


def test_an_adapter_mapping_without_the_module_is_not_a_missing_weight() -> None:
    assert RULE not in rules_of(diagnose_text("worker.log", ADAPTER_MAPPING))


def test_the_same_key_from_the_jobs_own_code_is_not_read() -> None:
    text = "KeyError: 'o_proj'\n"
    assert RULE not in rules_of(diagnose_text("train.log", text))
