"""Layer qualification: the layer, step and request a checkpoint ran in, read from the
checkpoints a rank printed before it (`norm passed` after `layer 2 passed` is `layer 3 / norm
passed`), for one rank's texts (`qualified_names`) and for interned sequences
(`SequenceQualifier`)."""

from __future__ import annotations

import pytest

from analyzers.checkpoints.layer_qualification import (
    LayerParts,
    LayerPasses,
    SequenceQualifier,
    qualified_names,
)
from analyzers.checkpoints.patterns import CheckpointMatcher


def test_the_parts_after_a_layer_line_run_in_the_next_layer():
    passes = LayerPasses()
    assert [passes.after(0), passes.after(1), passes.first()] == [1, 2, 0]


def test_a_pass_that_repeats_starts_over_at_the_lowest_layer_after_the_highest():
    """A pipeline stage that owns layers 4 and 5 runs them again for the next request: once
    layer 4 comes round again, what follows layer 5 is layer 4, and a new pass starts there."""
    passes = LayerPasses()
    assert [passes.after(4), passes.after(5), passes.after(4), passes.after(5)] == [5, 6, 5, 4]
    assert passes.first() == 4


def test_a_new_part_straight_after_a_layer_is_a_stage_once_the_layers_showed_their_parts():
    parts = LayerParts()
    parts.saw("submodule", "norm")
    parts.saw("layer", "layer 0 passed")
    assert not parts.after_layers("norm", "norm passed")
    assert parts.after_layers("lm head", "lm head passed")


def test_a_training_phase_after_a_layer_is_a_stage_even_before_any_part_was_seen():
    parts = LayerParts()
    parts.saw("layer", "layer 0 passed")
    assert parts.after_layers("backward", "backward passed")
    assert not parts.after_layers("lm head", "lm head passed")


def test_a_part_before_any_layer_line_is_never_a_stage():
    assert not LayerParts().after_layers("backward", "backward passed")


def test_qualified_names_read_a_users_layer_rule_through_the_given_matcher():
    """A site's own layer marker (`blk0 fin`) closes its layer only for the matcher that
    knows it; the default patterns see no layer line there."""
    texts = ["norm passed", "blk0 fin", "norm passed"]
    matcher = CheckpointMatcher([r"blk(?P<layer>\d+) fin"])
    assert qualified_names(texts, matcher) == [
        "layer 0 / norm passed",
        "blk0 fin",
        "layer 1 / norm passed",
    ]
    assert qualified_names(texts)[-1] == "layer 0 / norm passed"


# one pass over a two-layer model, as a bisected rank prints it
PASS = ["norm passed", "layer 0 passed", "norm passed", "layer 1 passed"]
QUALIFIED_PASS = [
    "layer 0 / norm passed",
    "layer 0 passed",
    "layer 1 / norm passed",
    "layer 1 passed",
]


@pytest.mark.parametrize(
    ("texts", "expected"),
    [
        (
            [
                "load weights passed",
                "norm passed",
                "attention passed",
                "MoE passed",
                "layer 0 passed",
                "norm passed",
            ],
            [
                "load weights passed",
                "layer 0 / norm passed",
                "layer 0 / attention passed",
                "layer 0 / MoE passed",
                "layer 0 passed",
                "layer 1 / norm passed",
            ],
        ),
        (
            [
                "layer 5 passed",
                "prefill passed",
                "norm passed",
                "layer 0 passed",
                "decode step 0 passed",
                "norm passed",
            ],
            [
                "layer 5 passed",
                "prefill passed",
                "layer 0 / norm passed",
                "layer 0 passed",
                "decode step 0 passed",
                "layer 0 / norm passed",
            ],
        ),
        (["layer 7 start", "attention passed"], ["layer 7 start", "layer 7 / attention passed"]),
        # a rank that runs the model again with no phase line between passes: once the
        # layers have come round, the last one is followed by the first again
        (
            [*PASS, *PASS, "norm passed"],
            [
                *QUALIFIED_PASS,
                "layer 2 / norm passed",
                "layer 0 passed",
                "layer 1 / norm passed",
                "layer 1 passed",
                "layer 0 / norm passed",
            ],
        ),
        # a pipeline stage that holds layers 4 and 5 starts its passes over at layer 4
        (
            ["layer 4 passed", "layer 5 passed", "layer 4 passed", "layer 5 passed", "MoE passed"],
            [
                "layer 4 passed",
                "layer 5 passed",
                "layer 4 passed",
                "layer 5 passed",
                "layer 4 / MoE passed",
            ],
        ),
        (["step 3 done", "model run success"], ["step 3 done", "model run success"]),
        # a distributed set-up stage is before the layers, even on a rank that stops there
        (["mesh init passed"], ["mesh init passed"]),
        (
            ["device mesh passed", "attn passed", "layer 0 passed"],
            ["device mesh passed", "layer 0 / attn passed", "layer 0 passed"],
        ),
        # a job's own checks before it joins the group are a stage too, not a layer's part
        (["preflight passed"], ["preflight passed"]),
        (
            ["pre-flight checks passed", "dist init passed", "norm passed"],
            ["pre-flight checks passed", "dist init passed", "layer 0 / norm passed"],
        ),
        (["sanity check passed"], ["sanity check passed"]),
        # wrapping the model for data parallelism is set-up before the first step
        (["load weights passed", "ddp wrap passed"], ["load weights passed", "ddp wrap passed"]),
        (
            ["fsdp wrapping passed", "train step 0 start", "forward passed"],
            ["fsdp wrapping passed", "step 0 start", "step 0 / forward passed"],
        ),
        # counterexample: a check that is one of a layer's parts keeps its layer
        (["norm passed", "check passed"], ["layer 0 / norm passed", "layer 0 / check passed"]),
    ],
)
def test_qualified_names_follow_the_layer_context(texts, expected):
    assert qualified_names(texts) == expected


# A rank of an 8-rank decode job (plain prints, MoE only on odd layers) that ran prefill over
# two layers and was stopped in the first decode step, before any rank closed a step.
PREFILL_THEN_DECODE = [
    "norm passed",
    "attention passed",
    "layer 0 passed",
    "norm passed",
    "attention passed",
    "MoE passed",
    "layer 1 passed",
    "prefill passed",
    "norm passed",
    "attention passed",
    "layer 0 passed",
    "norm passed",
]


def _sequence_labels(texts: list[str], job_texts: tuple[str, ...] = ()) -> list[str]:
    known = sorted(set(texts) | set(job_texts))
    qualifier = SequenceQualifier(known)
    return [qualifier.labels[i] for i in qualifier.qualify([known.index(t) for t in texts])]


def test_layers_after_prefill_run_in_the_first_decode_step():
    labels = _sequence_labels(PREFILL_THEN_DECODE)
    assert labels[:8] == [
        "layer 0 / norm passed",
        "layer 0 / attention passed",
        "layer 0 passed",
        "layer 1 / norm passed",
        "layer 1 / attention passed",
        "layer 1 / MoE passed",
        "layer 1 passed",
        "prefill passed",
    ]
    assert labels[8:] == [
        "decode step 0 / layer 0 / norm passed",
        "decode step 0 / layer 0 / attention passed",
        "decode step 0 / layer 0 passed",
        "decode step 0 / layer 1 / norm passed",
    ]


def test_the_first_decode_step_is_numbered_as_the_job_numbers_its_steps():
    """Another rank of the job closed `decode step 1 passed` and none closed a step 0: the
    job counts its steps from 1."""
    labels = _sequence_labels(PREFILL_THEN_DECODE, ("decode step 1 passed", "decode step 2 passed"))
    assert labels[-1] == "decode step 1 / layer 1 / norm passed"


def test_a_stage_before_the_layers_opens_no_decode_step():
    """Counterexample: `load weights passed` is a phase of its own, not prefill."""
    labels = _sequence_labels(
        ["load weights passed", "norm passed", "layer 0 passed", "norm passed"]
    )
    assert labels == [
        "load weights passed",
        "layer 0 / norm passed",
        "layer 0 passed",
        "layer 1 / norm passed",
    ]


# One rank of a server that runs two requests through two layers, tagging its phase lines with
# the request and printing its layers untagged.
TWO_REQUESTS = [
    "request 1 / prefill passed",
    "norm passed",
    "layer 0 passed",
    "request 1 / decode step 0 passed",
    "norm passed",
    "request 2 / prefill passed",
    "norm passed",
    "model run success",
]


def test_a_request_tagged_phase_scopes_the_layers_after_it():
    labels = _sequence_labels(TWO_REQUESTS)
    assert labels == [
        "request 1 / prefill passed",
        "request 1 / decode step 0 / layer 0 / norm passed",
        "request 1 / decode step 0 / layer 0 passed",
        "request 1 / decode step 0 passed",
        "request 1 / decode step 1 / layer 0 / norm passed",
        "request 2 / prefill passed",
        "request 2 / decode step 0 / layer 0 / norm passed",
        "model run success",
    ]


def test_an_untagged_phase_ends_the_request_scope():
    """Counterexample: a phase line of no request (`prefill passed`) drops the scope."""
    labels = _sequence_labels(["request 1 / prefill passed", "prefill passed", "norm passed"])
    assert labels[-1] == "decode step 0 / layer 0 / norm passed"


def test_a_chinese_part_line_is_read_in_the_layer_it_names():
    """`第2层 注意力 通过` names its layer: it is read as written (in its decode step), never
    placed in a layer by the lines before it; an English part after it is in that layer."""
    texts = [
        "load weights passed",
        "第0层 归一化 通过",
        "第0层 通过",
        "第1层 注意力 通过",
        "prefill passed",
        "第0层 归一化 通过",
        "decode step 0 passed",
        "第1层 注意力 通过",
        "MoE passed",
    ]
    assert _sequence_labels(texts) == [
        "load weights passed",
        "第0层 归一化 通过",
        "第0层 通过",
        "第1层 注意力 通过",
        "prefill passed",
        "decode step 0 / 第0层 归一化 通过",
        "decode step 0 passed",
        "decode step 1 / 第1层 注意力 通过",
        "decode step 1 / layer 1 / MoE passed",
    ]
    assert qualified_names(["第0层 通过", "第2层 注意力 通过", "MoE passed"]) == [
        "第0层 通过",
        "第2层 注意力 通过",
        "layer 2 / MoE passed",
    ]


def test_an_english_part_line_is_read_in_the_layer_it_names():
    """`layer 1 attention passed` names its layer: it is layer 1's `attention passed`, not a
    part of the layer the lines before it would place it in, and an untagged part after it is
    in that layer too (the way a Chinese part line is read)."""
    texts = [
        "prefill passed",
        "layer 0 / norm passed",
        "layer 0 / attention passed",
        "layer 0 passed",
        "layer 1 / attention passed",
        "MoE passed",
        "decode step 0 passed",
        "layer 3 / MoE passed",
    ]
    assert _sequence_labels(texts) == [
        "prefill passed",
        "decode step 0 / layer 0 / norm passed",
        "decode step 0 / layer 0 / attention passed",
        "decode step 0 / layer 0 passed",
        "decode step 0 / layer 1 / attention passed",
        "decode step 0 / layer 1 / MoE passed",
        "decode step 0 passed",
        "decode step 1 / layer 3 / MoE passed",
    ]
    assert qualified_names(["layer 0 passed", "layer 2 / norm ok", "attention passed"]) == [
        "layer 0 passed",
        "layer 2 / norm ok",
        "layer 2 / attention passed",
    ]


def test_chinese_phase_lines_are_read_as_the_english_phases():
    """`预填充 通过` opens the decode loop like `prefill passed`, `解码 第N步 通过` (or
    `第N步 解码 完成`) closes step N like `decode step N passed`, and `模型运行成功` ends the run
    like `model run success`; `预填充 开始` places lines but is counted as no checkpoint."""
    matcher = CheckpointMatcher()
    start = matcher.classify("预填充 开始")
    assert (start.role, start.counted) == ("phase", False)
    assert matcher.match("预填充 开始") is None
    assert matcher.classify("预填充 通过").opens_decode
    assert (matcher.classify("第3步 解码 完成").text, matcher.classify("第3步 解码 完成").step) == (
        "解码 第3步 完成",
        3,
    )
    assert matcher.classify("模型 运行 成功").role == "success"
    texts = [
        "第0层 通过",
        "预填充 通过",
        "第0层 注意力 通过",
        "解码 第0步 通过",
        "第0层 归一化 通过",
        "norm passed",
        "模型运行成功",
    ]
    assert _sequence_labels(texts) == [
        "第0层 通过",
        "预填充 通过",
        "decode step 0 / 第0层 注意力 通过",
        "解码 第0步 通过",
        "decode step 1 / 第0层 归一化 通过",
        "decode step 1 / layer 0 / norm passed",
        "模型运行成功",
    ]


def test_module_path_parts_place_the_untagged_parts_after_them():
    """Ranks that print `blocks.N.part` are at `layer N / part`, not `layer 0 / blocks.N.part`;
    a part line with no layer index after them is in the layer they named."""
    matcher = CheckpointMatcher()
    texts = [
        matcher.classify(line).text
        for line in (
            "load weights passed",
            "blocks.0.attn passed",
            "blocks.1.attn passed",
            "mlp passed",
        )
    ]
    assert qualified_names(texts) == [
        "load weights passed",
        "layer 0 / attn passed",
        "layer 1 / attn passed",
        "layer 1 / mlp passed",
    ]


def test_a_chinese_step_line_opens_the_next_step_for_the_layers_after_it():
    texts = ["第0层 通过", "第1步 完成", "第0层 注意力 通过"]
    assert qualified_names(texts) == ["第0层 通过", "第1步 完成", "step 2 / 第0层 注意力 通过"]
