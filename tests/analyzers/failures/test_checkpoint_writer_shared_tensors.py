"""A checkpoint writer that refuses a state dict whose tensors share memory.

docs/labelling.md#checkpoint-saves-the-sharding-setup-cannot-serve: safetensors (and
transformers' save on top of it) will not write two names that view one storage, as tied
weights or a dict consolidated from a sharded job have. The save call and the model do not
combine: `config`, with `other` beside it, and the refusal is the first error. Its words about
loading the file again name a later read, not a load that failed.

Fixtures are written in the shapes of a trainer's save traceback and the launcher's tail, with
paths, names and numbers of our own.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

RULE = "cfg.checkpoint_writer_refuses_shared_tensors"

SPLIT_REFUSAL_THEN_LAUNCHER = """\
  File "/srv/diffusion/save_util.py", line 140, in write_weights
    save_file(weights, target)
  File "/opt/env/lib/python3.10/site-packages/safetensors/torch.py", line 286, in save_file
    serialize_file(_flatten(tensors), filename, metadata=metadata)
  File "/opt/env/lib/python3.10/site-packages/safetensors/torch.py", line 488, in _flatten
    raise RuntimeError(
RuntimeError: 
            Some tensors share memory, this will lead to duplicate memory on disk and potential differences when loading them again: [{'text.proj.weight', 'text.head.weight'}].
            A potential way to correctly save your model is to use `save_model`.
steps:   3%|          | 250/8000 [11:02<5:42:10,  2.65s/it, loss=0.0841]
WARNING:torch.distributed.elastic.multiprocessing.api:Sending process 4102 closing signal SIGTERM
ERROR:torch.distributed.elastic.multiprocessing.api:failed (exitcode: 1) local_rank: 0 (pid: 4101) of binary: /opt/env/bin/python
"""

LIBRARY_WORDING = """\
[rank0]:   File "/opt/env/lib/python3.11/site-packages/transformers/modeling_utils.py", line 2710, in save_pretrained
[rank0]:     raise RuntimeError(
[rank0]: RuntimeError: The weights trying to be saved contained shared tensors [{'dec.tok.weight', 'dec.out.weight'}] that are mismatching the transformers base configuration.
"""


def test_the_refusal_under_an_empty_headline_is_a_save_setup_not_a_load() -> None:
    diagnosis = diagnose_text("train.log", SPLIT_REFUSAL_THEN_LAUNCHER)
    assert_reads(
        diagnosis, "config", first_error="Some tensors share memory", rule=RULE, beside=("other",)
    )


def test_the_model_librarys_own_words_are_the_same_refusal() -> None:
    diagnosis = diagnose_text("rank0.log", LIBRARY_WORDING)
    assert_reads(
        diagnosis, "config", first_error="contained shared tensors", rule=RULE, beside=("other",)
    )


def test_a_line_reporting_tied_weights_saved_once_is_no_failure() -> None:
    text = "INFO saving step 500: tied text.head.weight to text.proj.weight, shared tensors once\n"
    diagnosis = diagnose_text("train.log", text)
    assert RULE not in rules_of(diagnosis)
    assert diagnosis.first_error is None
