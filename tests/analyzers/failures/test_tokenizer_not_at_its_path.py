"""A tokenizer the job looked for at a path where there is none.

docs/labelling.md#a-tokenizer-not-found-where-the-job-looked: a runner that resolves its
tokenizer's file from its arguments (a model name mapped to a download folder, a path given on
the command line) and finds nothing there stops with a sentence of its own. The path the job
was given is wrong, or the download it points at was never made: `config`, with `other` (the
job's files) beside it, and the sentence is the first error. Counterexamples: a line that
reports where the tokenizer was found is progress, and a tokenizer whose files do exist but do
not parse keeps its own reading. Fixtures are ours, in the runners' shapes.
"""

from __future__ import annotations

import pytest

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

RULE = "cfg.tokenizer_not_at_path"

# Eight ranks of a pipeline-parallel chat runner; rank 0 raises before any collective.
RUNNER = """\
11-02 08:14:05.310 - dist_chat:141 - Model config: ModelArgs(dim=4096, n_layers=32, vocab_size=32000)
[rank0]: Traceback (most recent call last):
[rank0]:   File "/srv/chat/dist_chat.py", line 98, in build_tokenizer
[rank0]:     raise RuntimeError(f"did not find tokenizer at {path}")
[rank0]: RuntimeError: did not find tokenizer at /models/demo-7b/tokenizer.model
"""


@pytest.mark.parametrize(
    ("text", "first"),
    [
        pytest.param(RUNNER, "did not find tokenizer at", id="runner"),
        pytest.param(
            "ValueError: Could not find the tokenizer in /ckpt/run4/hf\n",
            "Could not find the tokenizer",
            id="could-not",
        ),
        pytest.param(
            "FileNotFoundError: tokenizer file not found at /ckpt/run4/tok.json\n",
            "tokenizer file not found at",
            id="not-found",
        ),
    ],
)
def test_no_tokenizer_where_the_job_looked_is_config(text: str, first: str) -> None:
    diagnosis = diagnose_text("rank0.log", text)
    assert_reads(diagnosis, "config", first_error=first, rule=RULE, beside=["other"])


@pytest.mark.parametrize(
    "line",
    [
        pytest.param("INFO found tokenizer at /models/demo-7b/tokenizer.model\n", id="found"),
        pytest.param(
            "OSError: Unable to load vocabulary from file. Please check that the provided vocabulary is accessible and not corrupted.\n",
            id="unparsable",
        ),
    ],
)
def test_other_tokenizer_lines_are_not_this(line: str) -> None:
    assert RULE not in rules_of(diagnose_text("rank0.log", line))
