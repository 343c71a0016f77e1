"""Whether ranks were loading weights: the last checkpoint each printed, and the frames a
failure was raised in.

Both rank-pattern readings ask it: a job with ranks missing while the others wait in their
loading (`report.quiet_jobs`), and a failure that left the others waiting there or was raised
under a loader (`report.multirank`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from analyzers.core import regex_programs
from analyzers.core.types import Correlation

LOAD_PHASE = regex_programs.compile(
    r"\b(?:load(?:ing|ed)?|weights?|checkpoint shards?|safetensors)\b", re.I
)
# a loading checkpoint that reports the loading over (`load weights passed`, `weights loaded`)
LOAD_DONE = regex_programs.compile(r"\b(?:passed|done|finished|complete(?:d)?|loaded)\b", re.I)
# `from_pretrained` is where the hub-style loaders (transformers, the serving engines built on
# them) read a checkpoint into the model they build; a size error under it is the checkpoint
# not fitting the parameters, as under a loader's own frames. Megatron's checkpoint converter
# runs a loader and a saver as processes of their own (`tools/checkpoint/loader_<format>.py`,
# `saver_<format>.py`); the saver cuts every weight it receives into the target's
# tensor-parallel shards, so a size error in either is the checkpoint not fitting that split.
# Converters outside that tree are standalone scripts named for the two formats they convert
# between (`hf2mcore_<model>.py`, `mcore2hf_<model>.py`, `convert_ckpt.py`) or kept in a
# converter folder; they reshape each weight by the model's head and group counts, and a reshape
# that does not fit there is read the same way
# (docs/labelling.md#a-checkpoint-cut-for-another-number-of-ranks).
LOAD_FRAME = regex_programs.compile(
    r"load_weights|weight_loader|load_state_dict|model_loader|load_checkpoint|from_pretrained"
    r"|[/\\]checkpoint[/\\](?:saver|loader)_\w+\.py"
    r"|[/\\]\w*checkpoints?_conver(?:t|s)or\w*[/\\]"
    r"|[/\\](?:hf|mcore|megatron|mg)2(?:hf|mcore|megatron|mg)\w*\.py"
    r"|[/\\]convert_ckpt\w*\.py"
)


def waiting_on_load(correlation: Correlation, ranks: Sequence[int]) -> bool:
    """Whether every one of `ranks` last printed a checkpoint of its weight loading."""
    lasts = [r.last_checkpoint for r in correlation.ranks if r.rank in ranks]
    return bool(lasts) and all(text and LOAD_PHASE.search(text) for text in lasts)


def loading_done(correlation: Correlation, ranks: Sequence[int]) -> bool:
    """Whether every one of `ranks` last said that its weight loading finished."""
    lasts = [r.last_checkpoint for r in correlation.ranks if r.rank in ranks]
    return bool(lasts) and all(
        text and LOAD_PHASE.search(text) and LOAD_DONE.search(text) for text in lasts
    )
