"""Tokenizer files that do not load.

docs/labelling.md#tokenizer-files-that-do-not-load: a vocabulary or sentencepiece model whose
bytes do not parse is the job's data files (missing, cut short, an LFS pointer, not yet written
by the rank that fetches them), `other` with `config` as the alternative; a tokenizer class the
release does not know stays `config`. Fixtures use the libraries' message shapes with values of
our own.
"""

from __future__ import annotations

import pytest

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

# A second-node rank builds its tokenizer from a cache the first node has not filled yet.
VOCABULARY_UNREADABLE = """\
[rank9]:   File "/opt/stack/nlp/tokenizers/hf_auto.py", line 77, in __init__
[rank9]:     raise ValueError(
[rank9]: ValueError: Unable to instantiate HuggingFace AUTOTOKENIZER for demo-gpt. Exception: Unable to load vocabulary from file. Please check that the provided vocabulary is accessible and not corrupted.
[rank9]: [I 2026-04-11 08:12:44 init:210] rank 9 has embedding rank: 1
"""

# The sentencepiece model checked out as a Git LFS pointer; the launcher reports the child after.
SENTENCEPIECE_MODEL_UNREADABLE = """\
[rank0]: RuntimeError: Internal: src/sentencepiece_processor.cc(1102) [model_proto->ParseFromArray(serialized.data(), serialized.size())]
E0411 08:13:02.118000 5120 torch/distributed/elastic/multiprocessing/api.py:869] failed (exitcode: 1) local_rank: 0 (pid: 5188) of binary: /opt/venv/bin/python
torch.distributed.elastic.multiprocessing.errors.ChildFailedError:
"""


# Newer sentencepiece releases name the file instead of the source line; a framework that
# restores a packed model reports it under its own headline.
SENTENCEPIECE_PROTO_FROM_FILE = """\
[NeMo I 2026-04-11 08:14:10 tokenizer_utils:229] Getting SentencePiece with model: /tmp/unpacked/tokenizer.model
[NeMo E 2026-04-11 08:14:10 common:586] Model instantiation failed!
    Target class:       demo.models.Seq2SeqModel
    Error(s):   Internal: could not parse ModelProto from /tmp/unpacked/tokenizer.model
"""


@pytest.mark.parametrize(
    ("text", "first"),
    [
        pytest.param(VOCABULARY_UNREADABLE, "Unable to load vocabulary", id="vocabulary"),
        pytest.param(SENTENCEPIECE_MODEL_UNREADABLE, "ParseFromArray", id="sentencepiece"),
        pytest.param(SENTENCEPIECE_PROTO_FROM_FILE, "could not parse ModelProto", id="proto-file"),
    ],
)
def test_tokenizer_files_that_do_not_parse_are_the_jobs_files(text: str, first: str) -> None:
    diagnosis = diagnose_text("issue/log.txt", text)
    assert_reads(diagnosis, "other", first_error=first)
    assert "tokenizer" in diagnosis.root_cause
    assert "config" in {alt.category for alt in diagnosis.alternatives}


def test_a_tokenizer_class_the_release_lacks_stays_config() -> None:
    text = (
        "Traceback (most recent call last):\n"
        '  File "/opt/train/sft.py", line 61, in main\n'
        "    tok = AutoTokenizer.from_pretrained(args.model)\n"
        "ValueError: Tokenizer class DemoNextTokenizer does not exist or is not currently imported.\n"
    )
    diagnosis = diagnose_text("issue/log.txt", text)
    assert diagnosis.category == "config", diagnosis.root_cause


def test_a_proto_file_that_parsed_is_no_failure() -> None:
    line = "INFO parsed ModelProto from /tmp/unpacked/tokenizer.model (32000 pieces)\n"
    diagnosis = diagnose_text("issue/log.txt", line)
    assert "io.tokenizer_files_unreadable" not in rules_of(diagnosis)
