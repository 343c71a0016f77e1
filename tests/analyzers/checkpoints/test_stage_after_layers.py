"""A `<part> passed` line after the last layer is a stage of its own, not a part of a layer
that does not exist: a training step marks its gradient all_reduce once the layers are done
(`grad all_reduce passed`) in the same words as a layer's norm or attention."""

from __future__ import annotations

import pytest

from analyzers.checkpoints.layer_qualification import SequenceQualifier, qualified_names

LAYERS = [
    "load weights passed",
    "norm passed",
    "attention passed",
    "MoE passed",
    "layer 0 passed",
    "norm passed",
    "attention passed",
    "MoE passed",
    "layer 1 passed",
]
QUALIFIED = [
    "load weights passed",
    "layer 0 / norm passed",
    "layer 0 / attention passed",
    "layer 0 / MoE passed",
    "layer 0 passed",
    "layer 1 / norm passed",
    "layer 1 / attention passed",
    "layer 1 / MoE passed",
    "layer 1 passed",
]


@pytest.mark.parametrize(
    ("texts", "expected"),
    [
        # the step's gradient all_reduce, after the last layer
        ([*LAYERS, "grad all_reduce passed"], [*QUALIFIED, "grad all_reduce passed"]),
        (
            [*LAYERS, "lm head passed", "model run success"],
            [*QUALIFIED, "lm head passed", "model run success"],
        ),
        # counterexample: a part the layers already printed opens the next layer
        ([*LAYERS, "norm passed"], [*QUALIFIED, "layer 2 / norm passed"]),
        # counterexample: a part first printed inside a layer, after a known one (the MoE of
        # the first sparse layer after dense ones), is that layer's
        (
            ["norm passed", "attention passed", "layer 0 passed", "norm passed", "MoE passed"],
            [
                "layer 0 / norm passed",
                "layer 0 / attention passed",
                "layer 0 passed",
                "layer 1 / norm passed",
                "layer 1 / MoE passed",
            ],
        ),
        # counterexample: before any layer showed its parts, every part is a layer's
        (["layer 0 passed", "norm passed"], ["layer 0 passed", "layer 1 / norm passed"]),
    ],
)
def test_a_part_after_the_last_layer_is_a_stage(texts, expected):
    assert qualified_names(texts) == expected
    texts_of = sorted(set(texts))
    qualifier = SequenceQualifier(texts_of)
    labels = qualifier.qualify([texts_of.index(t) for t in texts])
    assert [qualifier.labels[i] for i in labels] == expected


# A pipeline stage holding layers 2 and 3 under a GPipe schedule: the forward of both
# microbatches, then one `bwd passed` per microbatch, then the next step's forward. (Its
# first parts, before any layer line, cannot be placed yet: only the tail is compared.)
STAGE_1 = ["attention passed", "mlp passed", "layer 2 passed"]
STAGE_1 += ["attention passed", "mlp passed", "layer 3 passed"]


@pytest.mark.parametrize(
    ("texts", "tail"),
    [
        # one backward line per microbatch: the second follows a stage, and is one too
        (
            [*STAGE_1, *STAGE_1, "bwd passed", "bwd passed"],
            ["layer 3 passed", "bwd passed", "bwd passed"],
        ),
        # two stages in a row after the layers, then the stage's next pass starts at its own
        # first layer, not at a layer 0 it does not hold
        (
            [*STAGE_1, *STAGE_1, "grad all_reduce passed", "optimizer passed", *STAGE_1[:2]],
            [
                "grad all_reduce passed",
                "optimizer passed",
                "layer 2 / attention passed",
                "layer 2 / mlp passed",
            ],
        ),
        # counterexample: a part the layers printed after a stage opens a layer again
        (
            [*STAGE_1, *STAGE_1, "bwd passed", "attention passed"],
            ["bwd passed", "layer 2 / attention passed"],
        ),
    ],
)
def test_stages_after_the_layers_of_a_pipeline_stage(texts, tail):
    assert qualified_names(texts)[-len(tail) :] == tail
    texts_of = sorted(set(texts))
    qualifier = SequenceQualifier(texts_of)
    labels = qualifier.qualify([texts_of.index(t) for t in texts])
    assert [qualifier.labels[i] for i in labels][-len(tail) :] == tail


# A training step whose forward prints its layers and nothing inside them, then the loop's own
# phases: `forward passed` after the last layer is the step's, as every phase after it is.
TRAIN_STEP = ["train step 1 passed", "layer 0 passed", "layer 1 passed"]


@pytest.mark.parametrize(
    ("texts", "tail"),
    [
        (
            [*TRAIN_STEP, "forward passed", "backward passed", "grad all_reduce passed"],
            [
                "step 2 / forward passed",
                "step 2 / backward passed",
                "step 2 / grad all_reduce passed",
            ],
        ),
        # the next step prints its layers again, and its phases are that step's too
        (
            [
                *TRAIN_STEP,
                *("forward passed", "optimizer passed", "train step 2 passed"),
                *("layer 0 passed", "layer 1 passed", "forward passed"),
            ],
            ["step 3 / layer 1 passed", "step 3 / forward passed"],
        ),
        (
            [*TRAIN_STEP, "model forward passed", "gradient sync passed"],
            ["step 2 / model forward passed", "step 2 / gradient sync passed"],
        ),
        # counterexample: a layer's part after a layer-only line still opens the next layer
        ([*TRAIN_STEP, "norm passed"], ["step 2 / layer 2 / norm passed"]),
        # counterexample: without step lines a lone part after a layer stays a layer's
        (["layer 0 passed", "attention passed"], ["layer 1 / attention passed"]),
    ],
)
def test_a_training_phase_after_layers_that_show_no_parts_is_the_steps(texts, tail):
    assert qualified_names(texts)[-len(tail) :] == tail
    texts_of = sorted(set(texts))
    qualifier = SequenceQualifier(texts_of)
    labels = qualifier.qualify([texts_of.index(t) for t in texts])
    assert [qualifier.labels[i] for i in labels][-len(tail) :] == tail


DECODED = ["prefill passed", "decode step 0 passed", "decode step 1 passed", "decode step 2 passed"]


def _sequence_labels(texts: list[str]) -> list[str]:
    texts_of = sorted(set(texts))
    qualifier = SequenceQualifier(texts_of)
    labels = qualifier.qualify([texts_of.index(t) for t in texts])
    return [qualifier.labels[i] for i in labels]


def test_a_new_part_after_the_decode_steps_is_a_stage():
    # a rank that saves its shard once the decode loop is done (`save checkpoint passed`)
    texts = [*LAYERS, *DECODED, "save checkpoint passed"]
    expected = [*QUALIFIED, *DECODED, "save checkpoint passed"]
    assert qualified_names(texts) == expected
    assert _sequence_labels(texts) == expected


def test_a_part_the_layers_printed_after_a_decode_step_opens_the_next_steps_layer():
    # counterexample: a decode step that prints its layers' parts is still in its layers
    texts = [*LAYERS, "prefill passed", "decode step 0 passed", "norm passed"]
    assert _sequence_labels(texts)[-1] == "decode step 1 / layer 0 / norm passed"
