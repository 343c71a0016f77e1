"""torch's mixed-device refusal naming two cards of the same accelerator.

Two devices of one accelerator mean a model spread over several cards (a device map, or a part
of a tensor-parallel worker's model built outside the worker's device), so the op's reading
stays and the placement (`config`) is offered beside the script's own (`other`). A card next to
the CPU keeps its own readings. The fixtures are a serving worker's log and a notebook stack
with their own values. docs/labelling.md#a-tensor-left-on-the-cpu-of-an-npu-job
"""

from __future__ import annotations

from tests.analyzers.excerpts import alternative_labels, assert_reads, diagnose_text, rules_of

WORKER_VISION_TOWER = """\
(VllmWorkerProcess pid=5120) ERROR 03-11 08:02:44 multiproc_worker_utils.py:226] Exception in worker VllmWorkerProcess while processing method start_worker_execution_loop: Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cuda:1! (when checking argument for argument weight in method wrapper_CUDA__cudnn_convolution), Traceback (most recent call last):
(VllmWorkerProcess pid=5120) ERROR 03-11 08:02:44 multiproc_worker_utils.py:226]   File "/opt/venv/lib/python3.10/site-packages/transformers/models/siglip/modeling_siglip.py", line 311, in forward
(VllmWorkerProcess pid=5120) ERROR 03-11 08:02:44 multiproc_worker_utils.py:226]     patch_embeds = self.patch_embedding(pixel_values)
(VllmWorkerProcess pid=5120) ERROR 03-11 08:02:44 multiproc_worker_utils.py:226] RuntimeError: Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cuda:1! (when checking argument for argument weight in method wrapper_CUDA__cudnn_convolution)
"""

SPLIT_NPU_MODEL = """\
Traceback (most recent call last):
  File "/home/ma-user/work/chat.py", line 41, in <module>
    response = model.chat(tokenizer, pixel_values, question, generation_config)
RuntimeError: Expected all tensors to be on the same device, but found at least two devices, npu:3 and npu:0!
"""

HOST_AND_CARD = """\
Traceback (most recent call last):
  File "/workspace/run.py", line 12, in <module>
    logits = model(input_ids)
RuntimeError: Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cpu! (when checking argument for argument index in method wrapper_CUDA__index_select)
"""


def test_two_gpus_in_a_worker_offer_the_placement() -> None:
    diagnosis = diagnose_text("worker.log", WORKER_VISION_TOWER)
    assert_reads(
        diagnosis,
        "operator",
        first_error="cuda:0 and cuda:1",
        rule="op.tensors_on_two_accelerators",
    )
    assert alternative_labels(diagnosis)[:1] == ["config"]
    assert "other" in alternative_labels(diagnosis)


def test_two_npus_of_a_split_model_read_the_same() -> None:
    diagnosis = diagnose_text("chat.log", SPLIT_NPU_MODEL)
    assert diagnosis.category == "operator"
    assert "op.tensors_on_two_accelerators" in rules_of(diagnosis)
    assert "config" in alternative_labels(diagnosis)


def test_a_card_and_the_host_is_no_split_model() -> None:
    diagnosis = diagnose_text("run.log", HOST_AND_CARD)
    assert diagnosis.category == "operator"
    assert "op.tensors_on_two_accelerators" not in rules_of(diagnosis)
    assert "op.mixed_device_arguments" in rules_of(diagnosis)


# Newer torch releases word the same check around the operand that is off the others' device:
# `but got <arg> is on <device>, different from other tensors on <device>`. The devices it names
# decide the reading exactly as in the older `found at least two devices, A and B` form.
SPLIT_MODEL_NEWER_WORDING = """\
  File "/srv/train/.venv/lib/python3.12/site-packages/torch/nn/modules/module.py", line 1786, in _call_impl
    return forward_call(*args, **kwargs)
  File "/srv/train/adapters/embedding.py", line 88, in forward
    out = torch.mm(hidden, delta)
RuntimeError: Expected all tensors to be on the same device, but got mat2 is on cuda:2, different from other tensors on cuda:0 (when checking argument in method wrapper_CUDA_mm)
"""

NPU_AND_HOST_NEWER_WORDING = """\
[rank1]:   File "/work/rl/policy.py", line 203, in gather_logprobs
[rank1]:     picked = torch.index_select(logits, 0, rows)
[rank1]: RuntimeError: Expected all tensors to be on the same device, but got index is on cpu, different from other tensors on npu:1 (when checking argument in method wrapper__index_select)
"""

CUDA_AND_HOST_NEWER_WORDING = """\
Traceback (most recent call last):
  File "/workspace/eval.py", line 57, in <module>
    scores = head(features)
RuntimeError: Expected all tensors to be on the same device, but got weight is on cpu, different from other tensors on cuda:0 (when checking argument in method wrapper_CUDA_addmm)
"""


def test_two_gpus_in_the_newer_wording_offer_the_placement() -> None:
    diagnosis = diagnose_text("train.log", SPLIT_MODEL_NEWER_WORDING)
    assert_reads(
        diagnosis,
        "operator",
        first_error="but got mat2 is on cuda:2",
        rule="op.tensors_on_two_accelerators",
        beside=["config", "other"],
    )


def test_an_npu_and_the_host_in_the_newer_wording_read_as_the_release() -> None:
    diagnosis = diagnose_text("rank1.log", NPU_AND_HOST_NEWER_WORDING)
    assert_reads(
        diagnosis,
        "config",
        first_error="but got index is on cpu",
        rule="cfg.npu_tensor_left_on_cpu",
        beside=["operator"],
    )


def test_a_gpu_and_the_host_in_the_newer_wording_keep_the_op_reading() -> None:
    diagnosis = diagnose_text("eval.log", CUDA_AND_HOST_NEWER_WORDING)
    assert diagnosis.category == "operator"
    assert "op.tensors_on_two_accelerators" not in rules_of(diagnosis)
    assert "cfg.npu_tensor_left_on_cpu" not in rules_of(diagnosis)
    assert "op.mixed_device_arguments" in rules_of(diagnosis)


LOADER_WRAPPER_NEWER_WORDING = """\
[rank3]: RuntimeError: Error(s) in loading state_dict for PeftModelForCausalLM:
[rank3]: 	While copying the parameter named "base_model.model.lm_head.lora_A.default.weight", whose dimensions in the model are torch.Size([16, 2048]) and whose dimensions in the checkpoint are torch.Size([16, 2048]), an exception occurred : ('Expected all tensors to be on the same device, but got src is on npu:0, different from other tensors on npu:3 (when checking argument in method wrapper__npu_dtype_cast_)',).
"""


def test_the_newer_wording_inside_the_loader_wrapper_keeps_the_loader_reading() -> None:
    diagnosis = diagnose_text("rank3.log", LOADER_WRAPPER_NEWER_WORDING)
    assert "op.tensors_on_two_accelerators" not in rules_of(diagnosis)
    assert "wl.parameter_copy_failed" in rules_of(diagnosis)


TORCH1_TWO_GPUS = """\
$ python tools/train_net.py --num-gpus 2 --config-file configs/demo_seg.yaml
  File "/work/demo_seg/modeling/heads/prior_decoder.py", line 204, in decode
    scores = torch.addmm(bias_sq + feats_sq, feats, table.t(), beta=1, alpha=-2)
RuntimeError: expected device cuda:1 but got device cuda:0
"""


def test_torch1_wording_of_two_gpus_reads_as_a_split_model() -> None:
    # torch 1.x's device check names the device it expected and the one it was given
    diagnosis = diagnose_text("train.log", TORCH1_TWO_GPUS)
    assert_reads(
        diagnosis,
        "operator",
        first_error="expected device cuda:1 but got device cuda:0",
        rule="op.tensors_on_two_accelerators",
        beside=["config", "other"],
    )


def test_torch1_wording_with_the_host_is_not_two_accelerators() -> None:
    text = "RuntimeError: expected device cuda:0 but got device cpu\n"
    assert "op.tensors_on_two_accelerators" not in rules_of(diagnose_text("run.log", text))
