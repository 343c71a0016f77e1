"""A layer's short tag joined to its part by a dot, as a module path would be (`L2.attention
ok`, `L12.mlp passed`), is that layer's part: `layer 2 / attention ok`, also behind a counter
that numbers the prints (`step 010 | L2.attention ok`). Counterexamples: a bare `L2 norm` is an
L2 norm; a dotted name that did not finish, or that sits inside a sentence, is no checkpoint.
"""

from __future__ import annotations

import pytest

from analyzers.checkpoints.patterns import CheckpointMatcher


@pytest.mark.parametrize(
    ("line", "text"),
    [
        ("step 010 | L2.attention ok", "layer 2 / attention ok"),
        ("[default4]:step 014 | L3.attention ok", "layer 3 / attention ok"),
        ("step 004 | L0.out ok", "layer 0 / out ok"),
        ("L12.mlp passed (0.3 ms)", "layer 12 / mlp passed"),
        ("[rank1] L4.norm done", "layer 4 / norm done"),
    ],
)
def test_short_tag_with_a_dot_is_the_layer_s_part(line, text):
    assert CheckpointMatcher().match(line) == text


@pytest.mark.parametrize(
    "line",
    [
        "step 010 | L2.attention failed",
        "step 010 | L2.attention not ok",
        "saved L2.ckpt ok to /tmp",
        "L2.attention ok?",
    ],
)
def test_dotted_short_tags_that_stay_no_checkpoint(line):
    assert CheckpointMatcher().match(line) is None
