"""Lines of a log's head that state a tensor dtype, keyed by the words in front of it.

    2026-12-05 11:02:11,201 - INFO - ddp - gradient sync dtype bfloat16
    grad bucket 2 comm dtype=bf16

Jobs log the dtype they compute or communicate in as they start. Each statement is kept as
its key (the lower-cased words before the dtype on its line, numbers, tags and punctuation
left out, so the same statement on every rank has the same key) and the dtype under its
canonical name (`bf16` is `bfloat16`, `fp16` and `half` are `float16`). A rank that alone
states another dtype than its peers under the same key ran with other byte counts
(`causal/rank_dtypes.py`).
"""

from __future__ import annotations

import re

from analyzers.formats.literal_gate import holds

MAX_STATEMENTS = 32  # per file: a head that prints a dtype per tensor says nothing more
KEY_WORDS = 8  # words before the dtype that make its key

_DTYPE = re.compile(
    rb"(?<![\w.])(?:torch\.)?(bfloat16|float16|float32|float64|bf16|fp16|fp32|fp64|half)(?!\w)"
)
# every statement holds one of these: a head holding none is not searched
GATES = (b"float", b"bf16", b"fp16", b"fp32", b"fp64", b"half")
_NOT_WORD = re.compile(rb"[^a-z]+")
_CANONICAL = {
    b"bf16": "bfloat16",
    b"fp16": "float16",
    b"half": "float16",
    b"fp32": "float32",
    b"fp64": "float64",
}


def dtype_statements(low: bytes, limit: int = MAX_STATEMENTS) -> list[list[str]]:
    """[key, dtype] for each dtype the lower-cased block names, in order, up to `limit`."""
    if limit <= 0 or not any(holds(low, gate) for gate in GATES):
        return []
    said: list[list[str]] = []
    for found in _DTYPE.finditer(low):
        start = low.rfind(b"\n", 0, found.start()) + 1
        words = _NOT_WORD.sub(b" ", low[start : found.start()]).split()[-KEY_WORDS:]
        if not words:
            continue
        name = found.group(1)
        said.append([b" ".join(words).decode(), _CANONICAL.get(name, name.decode())])
        if len(said) >= limit:
            break
    return said
