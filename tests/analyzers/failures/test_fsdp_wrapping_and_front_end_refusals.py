"""Refusals of FSDP and of the training front ends around it, before anything ran on a device.

- docs/labelling.md#an-option-value-the-engine-does-not-know: an option parsed into an
  enumeration whose release does not have the value (`x is not a valid SomeOption, please
  select one of [...]`, Python's `'x' is not a valid SomeEnum`) is `config`.
- docs/labelling.md#fsdp-asserts-a-precondition-on-its-options: a host-offloaded full state
  dict asked of a NO_SHARD unit is refused; `config`.
- docs/labelling.md#fsdp-parameters-changed-outside-the-wrapper: FSDP1 refusing to write back
  a parameter whose shape changed outside it is `config`, not `shape_mismatch`.
- docs/labelling.md#a-parameter-two-fsdp2-groups-share: one tied parameter reached by two
  `fully_shard` groups; `config`, also when the message is wrapped over several lines.
- docs/labelling.md#an-fsdp2-preparation-handed-pieces-apart: accelerate refusing a model or an
  optimizer prepared alone under FSDP2; `config`.

The fixtures follow the shapes of rank-prefixed tracebacks, a Ray worker's line and a message a
library wraps at a fixed width; names, paths and values are ours.
"""

from __future__ import annotations

from analyzers.core.report import Diagnosis
from tests.analyzers.excerpts import diagnose_text


def first_text(diagnosis: Diagnosis) -> str:
    assert diagnosis.first_error is not None
    return diagnosis.first_error.text


def alternatives(diagnosis: Diagnosis) -> set[str]:
    return {alt.category for alt in diagnosis.alternatives}


ENUM_OPTION = """\
[rank0]: Traceback (most recent call last):
[rank0]:   File "/work/sft/cli/train.py", line 18, in <module>
[rank0]:     args = parse_args()
[rank0]:   File "/work/sft/arguments.py", line 211, in __post_init__
[rank0]:     self.sharding = [ShardMode(s) for s in self.sharding.split()]
[rank0]: ValueError: zero4 is not a valid ShardMode, please select one of ['full', 'grad_op', 'hybrid', 'offload']
"""


def test_a_value_outside_an_option_enumeration_is_config() -> None:
    diagnosis = diagnose_text("train.log", ENUM_OPTION)
    assert diagnosis.category == "config", diagnosis.root_cause
    assert "zero4 is not a valid ShardMode" in first_text(diagnosis)
    assert diagnosis.confidence >= 0.5


def test_python_enum_wording_without_the_member_list_is_config() -> None:
    text = "ValueError: 'cosine_v3' is not a valid SchedulerKind\n"
    diagnosis = diagnose_text("train.log", text)
    assert diagnosis.category == "config", diagnosis.root_cause
    assert "'cosine_v3' is not a valid SchedulerKind" in first_text(diagnosis)


def test_a_value_that_is_not_a_valid_number_is_not_an_option_refusal() -> None:
    """Counterexample: a lower-case noun after `not a valid` is another kind of check."""
    text = "ValueError: '3x' is not a valid integer\nValueError: 'a-b' is not a valid Python identifier\n"
    diagnosis = diagnose_text("train.log", text)
    assert diagnosis.confidence < 0.5 or diagnosis.category != "config"


NO_SHARD_STATE_DICT = """\
(RayTrainWorker pid=7731) Epoch 0: 100%|##########| 40/40 [00:21<00:00]
(RayTrainWorker pid=7731) Traceback (most recent call last):
(RayTrainWorker pid=7731)   File "/opt/venv/lib/python3.10/site-packages/torch/distributed/fsdp/_state_dict_utils.py", line 309, in _full_pre_state_dict_hook
(RayTrainWorker pid=7731)     raise NotImplementedError(
(RayTrainWorker pid=7731) NotImplementedError: offload_to_cpu=True and NO_SHARD is not supported yet
"""


def test_an_offloaded_full_state_dict_under_no_shard_is_config() -> None:
    diagnosis = diagnose_text("worker.log", NO_SHARD_STATE_DICT)
    assert diagnosis.category == "config", diagnosis.root_cause
    assert "offload_to_cpu=True and NO_SHARD is not supported" in first_text(diagnosis)
    assert diagnosis.confidence >= 0.5


WRITEBACK = """\
[rank0]:   File "/work/rl/models/policy.py", line 88, in forward
[rank0]:     return self.backbone(obs)
[rank0]:   File "/opt/venv/lib/python3.11/site-packages/torch/distributed/fsdp/_flat_param.py", line 2254, in _writeback_orig_params
[rank0]:     self._writeback_tensor(
[rank0]: RuntimeError: Cannot writeback when the parameter shape changes
"""


def test_a_parameter_changed_outside_fsdp_is_config_not_a_shape_mismatch() -> None:
    diagnosis = diagnose_text("actor.log", WRITEBACK)
    assert diagnosis.category == "config", diagnosis.root_cause
    assert "Cannot writeback when the parameter shape changes" in first_text(diagnosis)
    assert "other" in alternatives(diagnosis)


def test_a_writeback_count_is_no_failure() -> None:
    """Counterexample: a debug line about the writeback, beside a real failure later."""
    text = (
        "DEBUG fsdp: writeback of 18 original parameters after optimizer step\n"
        "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.50 GiB (GPU 0; "
        "39.39 GiB total capacity; 37.90 GiB already allocated; 0.81 GiB free)\n"
    )
    diagnosis = diagnose_text("actor.log", text)
    assert diagnosis.category == "oom"


SHARED_PARAMETER_WRAPPED = """\
[rank2]: Traceback (most recent call last):
[rank2]:   File "/work/ft/train.py", line 40, in <module>
[rank2]:     model, optimizer = accelerator.prepare(model, optimizer)
ValueError: Parameter 'decoder.tok_emb.weight' is shared with a parameter already managed
by another FSDP group. For shared/tied parameters, use fully_shard([module_a, module_b]) to
place them in the same FSDP group.
"""


def test_a_tied_parameter_in_two_fsdp2_groups_is_config() -> None:
    diagnosis = diagnose_text("train.log", SHARED_PARAMETER_WRAPPED)
    assert diagnosis.category == "config", diagnosis.root_cause
    assert "is shared with a parameter already managed" in first_text(diagnosis)
    assert diagnosis.confidence >= 0.5


def test_the_earlier_wording_of_the_shared_parameter_check_reads_the_same() -> None:
    text = "ValueError: Parameter 'Linear.weight' is already managed by another FSDP group (first claimed as 'Embedding.weight').\n"
    diagnosis = diagnose_text("train.log", text)
    assert diagnosis.category == "config", diagnosis.root_cause


def test_a_line_about_tied_modules_grouped_together_is_no_error() -> None:
    """Counterexample: reporting one group for tied modules, beside a real failure."""
    text = (
        "INFO fsdp2: tok_emb and lm_head share one FSDP group (tied weights)\n"
        "RuntimeError: CUDA error: an illegal memory access was encountered\n"
    )
    diagnosis = diagnose_text("train.log", text)
    assert diagnosis.category == "device_fault"
    assert "illegal memory access" in first_text(diagnosis)


PREPARE_APART = """\
[rank3]:   File "/work/ft/trainer.py", line 611, in _inner_loop
[rank3]:     self.optimizer = self.accelerator.prepare(self.optimizer)
[rank3]:   File "/opt/venv/lib/python3.12/site-packages/accelerate/accelerator.py", line 1520, in prepare
[rank3]:     raise ValueError(
[rank3]: ValueError: When using FSDP2, a model and optimizer must be passed together to `Accelerator.prepare()` as the optimizer needs to have its parameters modified after the model is converted.
"""


def test_an_optimizer_prepared_alone_under_fsdp2_is_config() -> None:
    diagnosis = diagnose_text("train.log", PREPARE_APART)
    assert diagnosis.category == "config", diagnosis.root_cause
    assert "a model and optimizer must be passed together" in first_text(diagnosis)
    assert diagnosis.confidence >= 0.5


def test_a_line_saying_both_were_prepared_is_no_error() -> None:
    """Counterexample: progress of the same step, beside a real failure."""
    text = (
        "INFO accelerate: preparing model and optimizer together (FSDP2)\n"
        "[rank0]: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 4.00 GiB (GPU 0; "
        "79.10 GiB total capacity; 76.20 GiB already allocated; 2.31 GiB free)\n"
    )
    diagnosis = diagnose_text("train.log", text)
    assert diagnosis.category == "oom"
