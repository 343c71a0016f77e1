"""A `<part> passed` line after the last layer is a stage of its own, not a part of a layer
that does not exist: a training step marks its gradient all_reduce once the layers are done
(`grad all_reduce passed`) in the same words as a layer's norm or attention."""

from __future__ import annotations

import pytest

from analyzers.checkpoints.patterns import SequenceQualifier, qualified_names

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
