"""torch.split handed sizes that do not add up to the dimension it cuts.

docs/labelling.md#a-split-whose-sizes-do-not-add-up: the caller's lengths (packed sequences
divided by one context-parallel size while the tokens were cut by another) disagree with its
tensor, so the label is `shape_mismatch` and torch's check is the first error. The fixture is a
Ray-relayed worker traceback through a rotary-embedding helper, with names of our own.
"""

from __future__ import annotations

from tests.analyzers.excerpts import diagnose_text

PACKED_ROPE_SPLIT = """\
Traceback (most recent call last):
  File "/srv/rl/trainer/main.py", line 40, in main
    run(config)
ray.exceptions.RayTaskError(RuntimeError): ray::PolicyWorker.compute_log_prob() (pid=7311, ip=10.0.0.5, actor_id=0a1b2c3d, repr=<rl.workers.PolicyWorker object at 0x7f00aa11bb22>)
  File "/srv/megatron/megatron/core/models/common/embeddings/rope_utils.py", line 174, in _apply_rotary_pos_emb_thd
    for x in torch.split(t, seqlens)
             ^^^^^^^^^^^^^^^^^^^^^^^
  File "/usr/lib/python3.11/site-packages/torch/functional.py", line 222, in split
    return tensor.split(split_size_or_sections, dim)
           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
RuntimeError: split_with_sizes expects split_sizes to sum exactly to 2048 (input tensor's size at dimension 0), but got split_sizes=[256, 256]

Set the environment variable HYDRA_FULL_ERROR=1 for a complete stack trace.
"""

# Only the sizes printed by a debug line, and the source line of the split.
NOT_A_FAILURE = """\
DEBUG packing: split_sizes=[256, 256] cu_seqlens=[0, 256, 512]
    for x in torch.split(t, seqlens)
INFO iteration 3/ 100 | lm loss 7.5512
"""


def test_split_sizes_that_do_not_add_up_are_a_shape_mismatch() -> None:
    diagnosis = diagnose_text("worker.log", PACKED_ROPE_SPLIT)
    assert diagnosis.category == "shape_mismatch", diagnosis.root_cause
    assert diagnosis.first_error is not None
    assert (
        "split_with_sizes expects split_sizes to sum exactly to 2048" in diagnosis.first_error.text
    )


def test_printed_split_sizes_are_not_a_failure() -> None:
    diagnosis = diagnose_text("worker.log", NOT_A_FAILURE)
    assert diagnosis.category != "shape_mismatch"
