"""Advanced indexing that refuses indices on another device than the indexed tensor.

The check names one device only, and is the same host-side refusal as torch's mixed-device
check, so it keeps the op's reading with the framework's placement and the script beside it.
The fixture is a notebook stack of a model split over GPUs by a device map, with its own
values. docs/labelling.md#a-tensor-left-on-the-cpu-of-an-npu-job
"""

from __future__ import annotations

from tests.analyzers.excerpts import diagnose_text, rules_of

SPLIT_MODEL_FORWARD = """\
---------------------------------------------------------------------------
RuntimeError                              Traceback (most recent call last)
Cell In[7], line 5
      3 prompt = tokenizer("Tell me a story.", return_tensors="pt").to("cuda")
----> 5 out = model(**prompt)

File ~/work/.venv/lib/python3.11/site-packages/accelerate/hooks.py:170, in add_hook_to_module.<locals>.new_forward(module, *args, **kwargs)
    168         output = module._old_forward(*args, **kwargs)
    169 else:
--> 170     output = module._old_forward(*args, **kwargs)

RuntimeError: indices should be either on cpu or on the same device as the indexed tensor (cuda:1)
"""


def test_indices_on_another_gpu_are_the_ops_refusal() -> None:
    diagnosis = diagnose_text("notebook.log", SPLIT_MODEL_FORWARD)
    assert diagnosis.category == "operator"
    assert diagnosis.first_error is not None
    assert diagnosis.first_error.text.startswith("RuntimeError: indices should be")
    assert "op.index_on_other_device" in rules_of(diagnosis)
    assert {"config", "other"} <= {a.category for a in diagnosis.alternatives}
