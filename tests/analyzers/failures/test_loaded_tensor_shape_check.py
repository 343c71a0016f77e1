"""accelerate's shape check as it puts a loaded tensor into a module is the loader's refusal.

docs/labelling.md#config-driver_env-or-weight_load: when a checkpoint is read into a model built
on the meta device (a `device_map`, low-memory loading, a rank that fills its copy from the
file), accelerate compares each loaded tensor with the slot it replaces and stops on a
difference (`Trying to set a tensor of shape ... in "<name>" (which has shape ...), this looks
incorrect.`). The checkpoint does not fit the model it is loaded into: `weight_load`, with
`shape_mismatch` and `config` beside it, and the line is the first error. A log line that only
reports a tensor being placed is no failure.

Paths, names, ranks and numbers are our own.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

# A four-rank fine-tune: rank 2 finds a norm weight in the checkpoint half the model's width;
# the launcher then stops the others.
NORM_WEIGHT_HALF_WIDTH = """\
[rank2]:   File "/opt/py/lib/python3.11/site-packages/accelerate/utils/modeling.py", line 286, in set_module_tensor_to_device
[rank2]:     raise ValueError(
[rank2]: ValueError: Trying to set a tensor of shape torch.Size([1024]) in "weight" (which has shape torch.Size([2048])), this looks incorrect.
W0412 10:31:07.118000 5120 site-packages/torch/distributed/elastic/multiprocessing/api.py:897] Sending process 5141 closing signal SIGTERM
E0412 10:31:07.402000 5120 site-packages/torch/distributed/elastic/multiprocessing/api.py:869] failed (exitcode: 1) local_rank: 2 (pid: 5143) of binary: /opt/py/bin/python
"""

# The same check on one process of a single-node run, under a plain Python traceback.
SINGLE_PROCESS = """\
Traceback (most recent call last):
  File "/srv/eval/load.py", line 19, in <module>
    model = AutoModelForCausalLM.from_pretrained(path, device_map="auto")
ValueError: Trying to set a tensor of shape torch.Size([64, 512]) in "qkv_bias" (which has shape torch.Size([96, 512])), this looks incorrect.
"""

# A loader's own progress line about placing a tensor: nothing refused.
PLACING_A_TENSOR = """\
INFO loader: setting a tensor of shape torch.Size([2048]) in "weight" on cuda:2
"""


def test_a_loaded_tensor_that_does_not_fit_its_slot_is_weight_load() -> None:
    diagnosis = diagnose_text("log_2.log", NORM_WEIGHT_HALF_WIDTH)
    assert_reads(
        diagnosis,
        "weight_load",
        first_error="Trying to set a tensor of shape",
        beside=("shape_mismatch", "config"),
    )


def test_the_check_under_a_plain_traceback_reads_the_same() -> None:
    diagnosis = diagnose_text("load.log", SINGLE_PROCESS)
    assert_reads(diagnosis, "weight_load", first_error="this looks incorrect")


def test_a_line_that_reports_placing_a_tensor_is_no_loading_failure() -> None:
    diagnosis = diagnose_text("load.log", PLACING_A_TENSOR)
    assert diagnosis.category != "weight_load"
