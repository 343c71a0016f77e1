"""DDP's reducer refusal when a paste kept only the detail line that names the parameters.

Without TORCH_DISTRIBUTED_DEBUG, torch prints the parameters that got no gradient by their
indices (`Parameter indices which did not receive grad for rank N: 4 5 17`) and the one marked
ready twice by its index (`Parameter at index N has been marked as ready twice`), each under the
reducer's headline. A terminal or a thread often keeps the detail line and the traceback of the
next step without the headline. The detail line is the same finding
(docs/labelling.md#ddps-reducer-refuses-a-step): `config`, and it is the first error, not the
advice to set TORCH_DISTRIBUTED_DEBUG printed after it. Excerpts follow the real shapes with
values of our own.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

UNUSED_BY_INDEX = """\
Parameter indices which did not receive grad for rank 1: 12 13 58 59 60 61
 In addition, you can set the environment variable TORCH_DISTRIBUTED_DEBUG to either INFO or DETAIL to print out information about which particular parameters did not receive gradient on this rank as part of this error
Traceback (most recent call last):
  File "/srv/seg/train.py", line 211, in <module>
    main(cfg)
  File "/srv/seg/train.py", line 164, in main
    pred = model(batch["image"], batch["prompt"])
  File "/opt/venv/lib/python3.10/site-packages/torch/nn/modules/module.py", line 1501, in _call_impl
    return forward_call(*args, **kwargs)
"""

READY_TWICE_BY_INDEX = """\
[rank0]: Parameter at index 212 has been marked as ready twice. This means that multiple autograd engine  hooks have fired for this particular parameter during this iteration. You can set the environment variable TORCH_DISTRIBUTED_DEBUG to either INFO or DETAIL to print parameter names for further debugging.
[rank0]: Traceback (most recent call last):
[rank0]:   File "/srv/lm/finetune.py", line 98, in <module>
[rank0]:     loss.backward()
"""


def test_parameters_named_by_index_are_the_reducers_refusal() -> None:
    diagnosis = diagnose_text("train.log", UNUSED_BY_INDEX)
    assert_reads(
        diagnosis,
        "config",
        first_error="Parameter indices which did not receive grad for rank 1",
        rule="cfg.ddp_reducer_refused",
    )


def test_a_parameter_marked_ready_twice_by_index_is_the_same_refusal() -> None:
    diagnosis = diagnose_text("rank0.log", READY_TWICE_BY_INDEX)
    assert_reads(
        diagnosis,
        "config",
        first_error="has been marked as ready twice",
        rule="cfg.ddp_reducer_refused",
    )


def test_the_detail_line_under_its_headline_leaves_the_headline_first() -> None:
    text = (
        "RuntimeError: Expected to have finished reduction in the prior iteration before "
        "starting a new one. This error indicates that your module has parameters that were not "
        "used in producing loss.\n" + UNUSED_BY_INDEX
    )
    diagnosis = diagnose_text("train.log", text)
    assert_reads(diagnosis, "config", first_error="Expected to have finished reduction")


def test_a_progress_line_about_parameter_indices_is_no_refusal() -> None:
    text = (
        "INFO ddp: bucket 3 holds parameter indices 120-181 (25.0 MB)\n"
        "INFO ddp: parameter at index 212 registered for reduction\n"
        "[rank0]: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB.\n"
    )
    diagnosis = diagnose_text("rank0.log", text)
    assert diagnosis.category == "oom"
    assert "cfg.ddp_reducer_refused" not in rules_of(diagnosis)


# A thread or a troubleshooting note often quotes the detail line only up to the reducer's
# finding and drops the rank clause and the indices after it.
UNUSED_CUT_AT_THE_FINDING = """\
Parameter indices which did not receive grad
"""


def test_the_detail_line_cut_before_its_rank_clause_is_the_same_refusal() -> None:
    diagnosis = diagnose_text("train.log", UNUSED_CUT_AT_THE_FINDING)
    assert_reads(
        diagnosis,
        "config",
        first_error="Parameter indices which did not receive grad",
        rule="cfg.ddp_reducer_refused",
    )


def test_a_sentence_that_goes_on_after_the_finding_is_no_refusal() -> None:
    text = (
        "INFO ddp: listing parameters which did not receive grad in this epoch for the report\n"
        "[rank0]: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB.\n"
    )
    diagnosis = diagnose_text("rank0.log", text)
    assert diagnosis.category == "oom"
    assert "cfg.ddp_reducer_refused" not in rules_of(diagnosis)
