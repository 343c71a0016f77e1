"""Lines of a log's head that state a model width, keyed by the width's name.

    09:51:03 [rank 3] config /srv/cfg/base_v2.json: hidden=48 layers=4
    2026-12-05 11:02:11,201 [rank1] INFO model: d_model: 1024 num_heads: 16

Jobs log the sizes they read from their config as they start. Each width is kept as its key
(the field's name, lower-cased) and its number. The words in front of it are not part of the
key: they often hold the config file's path, which is what differs when one rank read another
file. A rank that alone states another width than its peers under the same name built tensors
of other sizes, and its messages in a collective had other byte counts
(`causal/culprits.py`). Only names of widths count (hidden, model, embedding, head and
feed-forward sizes, the vocabulary, a mixture of experts' capacity in tokens, which sizes the
buffers its tokens are exchanged in): a layer count or a learning rate does not change what a
collective sends.
"""

from __future__ import annotations

import re

from analyzers.formats.literal_gate import holds

MAX_STATEMENTS = 16  # per file

_SIZE = re.compile(
    rb"(?<![\w.])(hidden(?:_size|_dim)?|d_model|n_embd|embed(?:ding)?_dim|model_dim|"
    rb"intermediate_size|ffn(?:_hidden)?_(?:size|dim)|num_(?:attention_)?heads|head_dim|"
    rb"vocab_size|(?:moe_|expert_)?capacity)[\"']?[ \t]*[=:][ \t]*(\d{1,9})(?![\w.])"
)
# every statement holds one of these: a head holding none is not searched
GATES = (b"hidden", b"d_model", b"n_embd", b"_dim", b"_size", b"heads", b"capacity")


def size_statements(low: bytes, limit: int = MAX_STATEMENTS) -> list[list[str]]:
    """[name, number] for each width the lower-cased block states, in order, up to `limit`."""
    if limit <= 0 or not any(holds(low, gate) for gate in GATES):
        return []
    said: list[list[str]] = []
    for found in _SIZE.finditer(low):
        said.append([found.group(1).decode(), found.group(2).decode()])
        if len(said) >= limit:
            break
    return said
