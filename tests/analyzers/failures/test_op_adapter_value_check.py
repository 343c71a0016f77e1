"""torch_npu's op adapter refusing an argument value in its own idiom.

The adapter checks an argument on the host before it chooses a kernel and states the value it
was handed (`<arg> currently only support 0 and 3, current value is 1`). The sentence names the
argument and not the op, so the binding rule that wants the op's name first does not read it;
it is still the op refusing its inputs: `operator`, with `config` first beside it (a framework
passing an option the installed torch_npu does not offer yet) and `op_constraint` next. The
fixtures are an MoE expert layer and a quantised matmul with their own values; a framework's
own `..., got N` check is the counterexample. docs/labelling.md#an-operator-name-decides-nothing
"""

from __future__ import annotations

from tests.analyzers.excerpts import alternative_labels, assert_reads, diagnose_text, rules_of

MOE_LAYER_BARE = """\
ray.exceptions.RayTaskError(RuntimeError): ray::TrainWorker.update_policy() (pid=81234, ip=10.3.0.21, actor_id=4f1c2b0a9e8d7c6b5a4f3e2d01000000)
  File "/srv/rl/workers/actor.py", line 311, in update_policy
    loss = self.forward_backward(batch)
  File "/srv/rl/models/moe.py", line 142, in experts_forward
    out = torch_npu.npu_grouped_matmul(x, w, group_list=gl, split_item=2, group_type=self.gtype)
RuntimeError: split_item currently only support 0 and 3, current value is 2
"""

QUANT_MATMUL_WITH_SUMMARY = """\
[rank2]: Traceback (most recent call last):
[rank2]:   File "/srv/infer/layers/quant.py", line 77, in forward
[rank2]:     y = torch_npu.npu_quant_matmul(x, w, scale, pertoken_scale=ps, output_dtype=torch.bfloat16)
[rank2]: RuntimeError: pertoken_scale should be 1-D, current value is 2[ERROR] 2026-03-09-10:11:12 (PID:6120, Device:2, RankID:2) ERR01002 OPS invalid value.
"""

FRAMEWORK_OWN_CHECK = """\
Traceback (most recent call last):
  File "/srv/train/args.py", line 51, in validate
    raise ValueError(f"expert_model_parallel_size should be 4, got {ep}")
ValueError: expert_model_parallel_size should be 4, got 8
"""


def test_a_bare_adapter_refusal_reads_as_the_op() -> None:
    diagnosis = diagnose_text("worker.log", MOE_LAYER_BARE)
    assert_reads(
        diagnosis,
        "operator",
        first_error="current value is 2",
        rule="op.adapter_argument_value_check",
    )
    assert alternative_labels(diagnosis)[:1] == ["config"]
    assert "op_constraint" in alternative_labels(diagnosis)


def test_the_adapter_summary_beside_it_keeps_the_reading() -> None:
    diagnosis = diagnose_text("rank2.log", QUANT_MATMUL_WITH_SUMMARY)
    assert_reads(
        diagnosis,
        "operator",
        first_error="pertoken_scale should be 1-D",
        rule="op.adapter_argument_value_check",
    )


def test_a_framework_check_in_its_own_words_is_not_the_adapter() -> None:
    diagnosis = diagnose_text("train.log", FRAMEWORK_OWN_CHECK)
    assert "op.adapter_argument_value_check" not in rules_of(diagnosis)
    assert diagnosis.category != "operator"
