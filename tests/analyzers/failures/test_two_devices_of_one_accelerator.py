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
