"""A library whose release runs on one device and refuses a job that sees several.

Fine-tuning and kernel packages that only support one GPU check how many devices the job can
see and stop with a sentence of their own (`... does not support multi GPU setups`), often
when the trainer starts. Nothing failed on the devices: the release and the number of devices
the job exposes do not fit, so the label is `config`, and the sentence is the first error.
The fix is to show the job one device or to use a release that has the multi-device path.
A notice that a package uses only the first GPU, and a sentence with no exception in front of
it, are no failure.

Fixtures follow the shapes of a notebook traceback and of a rank-prefixed torchrun traceback,
with wording and values of our own.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

NOTEBOOK_REFUSAL = """\
RuntimeError                              Traceback (most recent call last)
Cell In[4], line 2
----> 2 stats = trainer.train()

File <string>:41, in train(self, resume_from_checkpoint, **kwargs)

RuntimeError: Fastlib currently does not work on multi GPU setups - please run it on one card for now.
"""

RANK_PREFIXED_REFUSAL = """\
[rank1]: Traceback (most recent call last):
[rank1]:   File "/work/tune/sft.py", line 88, in <module>
[rank1]:     model = FastModel.from_pretrained(path)
[rank1]: NotImplementedError: Fastlib: multi-GPU training is not supported yet.
"""

SHORT_PASTE = """\
RuntimeError: Fastlib currently does not support multi GPU setups - but we are working on it!
"""

SINGLE_DEVICE_NOTICE = """\
[WARNING] Fastlib does not support multi GPU setups; using only cuda:0
step 10 loss 1.92
step 20 loss 1.71
"""


def test_a_library_refusing_several_gpus_in_a_notebook_is_config() -> None:
    diagnosis = diagnose_text("notebook.log", NOTEBOOK_REFUSAL)
    assert_reads(diagnosis, "config", first_error="does not work on multi GPU setups")
    assert "cfg.single_device_library_refuses_multi_device" in rules_of(diagnosis)
    assert diagnosis.confidence >= 0.5


def test_a_rank_prefixed_multi_gpu_refusal_is_config() -> None:
    diagnosis = diagnose_text("stderr.log", RANK_PREFIXED_REFUSAL)
    assert_reads(diagnosis, "config", first_error="multi-GPU training is not supported yet")


def test_the_refusal_pasted_alone_is_config() -> None:
    diagnosis = diagnose_text("paste.log", SHORT_PASTE)
    assert_reads(diagnosis, "config", first_error="does not support multi GPU setups")


def test_a_single_device_notice_is_no_failure() -> None:
    diagnosis = diagnose_text("train.log", SINGLE_DEVICE_NOTICE)
    assert "cfg.single_device_library_refuses_multi_device" not in rules_of(diagnosis)


# An issue title quotes the refusal behind the tracker's words and is cut at its length limit
# inside `multi`, after the raise statement it also quotes. The sentence up to the cut is the
# library's own.
TITLE_CUT_IN_MULTI = """\
QLoRA+FSDP training fails: [rank2]: raise RuntimeError('Fastlib currently does not support multi GPU setups - coming soon!') [rank2]: RuntimeError: Fastlib currently does not support mu
"""

# Counterexample: a sentence that goes on after the cut-looking word is about something else.
SUPPORT_SOMETHING_ELSE = """\
RuntimeError: Fastlib currently does not support mutable buffers in compiled graphs
"""


def test_a_refusal_cut_inside_multi_at_the_end_of_a_title_is_config() -> None:
    diagnosis = diagnose_text("title.log", TITLE_CUT_IN_MULTI)
    assert_reads(
        diagnosis,
        "config",
        first_error="does not support mu",
        rule="cfg.single_device_library_refuses_multi_device",
    )


def test_a_sentence_that_goes_on_after_mu_is_not_the_refusal() -> None:
    diagnosis = diagnose_text("train.log", SUPPORT_SOMETHING_ELSE)
    assert "cfg.single_device_library_refuses_multi_device" not in rules_of(diagnosis)
