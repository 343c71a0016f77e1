"""A fast tokenizer that transformers cannot build from what it was given.

docs/labelling.md#tokenizer-files-that-do-not-load: with no `tokenizer.json` it can read,
transformers converts a slow tokenizer to a fast one, through sentencepiece or tiktoken; when
neither works with the installed packages and the files at hand it stops (`Converting from
SentencePiece and Tiktoken failed ...`, older releases `Converting from Tiktoken failed ...`,
or `Couldn't instantiate the backend tokenizer from one of: ...`). A converter library that is
not installed, or a release older than the model's tokenizer, is the usual reason: `config`,
with the tokenizer files themselves (`other`) beside it. Fixtures in transformers' wording with
paths of our own.
"""

from __future__ import annotations

import pytest

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

RULE = "cfg.fast_tokenizer_conversion_failed"

SERVER_START = """\
  File "/opt/venv/lib/python3.11/site-packages/transformers/tokenization_utils_fast.py", line 139, in __init__
    fast_tokenizer = convert_slow_tokenizer(self, from_tiktoken=True)
  File "/opt/venv/lib/python3.11/site-packages/transformers/convert_slow_tokenizer.py", line 1736, in convert_slow_tokenizer
    raise ValueError(
ValueError: Converting from SentencePiece and Tiktoken failed, if a converter for SentencePiece is available, provide a model path with a SentencePiece tokenizer.model file.Currently available slow->fast converters: ['AlbertTokenizer', 'BertTokenizer']
"""

OLDER_RELEASE = (
    "[rank0]: ValueError: Converting from Tiktoken failed, if a converter for SentencePiece is "
    "available, provide a model path with a SentencePiece tokenizer.model file.Currently "
    "available slow->fast convertors: ['AlbertTokenizer']\n"
)

NO_BACKEND = (
    "ValueError: Couldn't instantiate the backend tokenizer from one of: \n"
    "(1) a `tokenizers` library serialization file, \n"
    "(2) a slow tokenizer instance to convert or \n"
    "(3) an equivalent slow tokenizer class to instantiate and convert. \n"
    "You need to have sentencepiece installed to convert a slow tokenizer to a fast one.\n"
)


@pytest.mark.parametrize(
    ("text", "first"),
    [
        pytest.param(SERVER_START, "Converting from SentencePiece and Tiktoken failed", id="both"),
        pytest.param(OLDER_RELEASE, "Converting from Tiktoken failed", id="tiktoken"),
        pytest.param(NO_BACKEND, "Couldn't instantiate the backend tokenizer", id="backend"),
    ],
)
def test_a_tokenizer_that_cannot_be_converted_is_the_package_set(text: str, first: str) -> None:
    diagnosis = diagnose_text("serve.log", text)
    assert_reads(diagnosis, "config", first_error=first, rule=RULE, beside=["other"])


def test_a_conversion_notice_is_no_failure() -> None:
    diagnosis = diagnose_text(
        "serve.log",
        "INFO tokenizer: converting from SentencePiece to a fast tokenizer (tokenizer.model found)\n",
    )
    assert RULE not in rules_of(diagnosis)
