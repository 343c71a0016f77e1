"""A pipeline stage that names the micro-batch after its verb, in parentheses: `stage 1 forward
done (micro-batch 3)`, `stage 2 recv ok (micro-batch 4)`, `stage 3 logits ready (micro-batch 2)
norm=0.98`. The line reads as the micro-batch lines with the micro-batch first do: `microbatch 3
/ forward done`, the stage left out, the verb kept (analyzers/knowledge/checkpoints.yaml,
`stage_phase_done_microbatch_after`)."""

from __future__ import annotations

import pytest

from analyzers.checkpoints.patterns import classify_text, strip_prefixes


def _text(line: str) -> str | None:
    hit = classify_text(strip_prefixes(line))
    return hit.text if hit else None


@pytest.mark.parametrize(
    ("line", "text"),
    [
        ("[2026-12-07 23:47:07,178] stage 1 recv ok (micro-batch 1)", "microbatch 1 / recv ok"),
        ("stage 0 forward done (micro-batch 5)", "microbatch 5 / forward done"),
        ("[default2]:stage 2 send ok (micro-batch 6)", "microbatch 6 / send ok"),
        ("stage 3 logits ready (micro-batch 2) norm=0.985", "microbatch 2 / logits ready"),
        ("[pp stage 1] bwd done (microbatch 0)", "microbatch 0 / bwd done"),
    ],
)
def test_a_stage_line_with_its_micro_batch_after_the_verb(line, text):
    assert _text(line) == text


@pytest.mark.parametrize(
    "line",
    [
        # a stage that says what it skipped, or a verb that did not finish, marks no progress
        "stage 2 micro-batch 4: all rows finished, skipping send",
        "stage 1 send failed (micro-batch 3)",
        "stage 1 send not done (micro-batch 3)",
        # no micro-batch after the verb: not this line's shape
        "stage 1 recv ok",
    ],
)
def test_lines_that_are_no_stage_progress(line):
    assert _text(line) is None
