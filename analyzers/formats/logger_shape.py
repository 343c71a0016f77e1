"""The prefix a file's logging lines share, and whether its INFO lines may be skipped.

    [default3]:2026-11-29 07:25:37,216 [rank3] INFO layer 0 passed

With times and numbers folded (`formats.blockfilter.FOLD`) the lines one logger prints share
the prefix before their level word (`shape`), learned once from a file's head; the scanner
then reads a line of that shape only when its level is loud (`formats.blockfilter.shaped_lines`).
A logger that relays its workers' output (`... - INFO - [rank3]: Traceback ...`) stamps its
own INFO on their errors, so such a file has no skippable shape: `relays_workers` tells it
from the head block, with `relay_signs` naming the literals the block's other searches settle.
"""

from __future__ import annotations

import re

from analyzers.formats.base import RELAYED_ENGINES
from analyzers.formats.blockfilter import FOLD, Settled
from analyzers.formats.outer_prefix import AGENT_ROLE_BYTES


def learn_shape(raw: bytes) -> bytes | None:
    """The folded prefix before the level word of a logging line, e.g.
    `[default3]:2026-11-29 07:25:37,216 [rank3] INFO layer 0 passed` ->
    b"[default0]:0000-00-00 00:00:00,000 [rank0] "."""
    folded = raw.translate(FOLD)
    at = folded.find(b" info ")
    return folded[: at + 1] if 0 < at < 160 else None


# a worker's torch rank tag right after an INFO level word, folded (`info - [rank0]:`)
_RANK_TAG_AFTER_INFO = rb"info (?:- |: |\| )?\[(?:rank|" + AGENT_ROLE_BYTES + rb")0+\]:"
# what every match of it holds after the shape: the level word, a separator and the bracket
_RANK_TAG_LEADS = (b"info [", b"info - [", b"info : [", b"info | [")
# an engine's name after a tracing record's INFO and target (`info x::engine: vllm: `)
_ENGINE_NAMES = tuple(name.lower().encode() for name in RELAYED_ENGINES)
_ENGINE_AFTER_INFO = rb"info (?:[\w.-]+(?:::[\w.-]+)*: )?(?:" + b"|".join(_ENGINE_NAMES) + rb"): "
# what every match of it holds: an engine's name and its colon, by a shared ending where
# names share one (`vllm: `, `trtllm: ` and `tensorrt_llm: ` all end in `llm: `)
_ENGINE_GATES = (b"llm: ", b"sglang: ")


def relay_signs(shape: bytes | None) -> tuple[bytes, ...]:
    """The literals `relays_workers` looks for in a block with this shape: the block's other
    searches may settle them in their pass (`BlockFilter.notable_and_lacking`)."""
    if shape is None:
        return ()
    return tuple(shape + word for word in _RANK_TAG_LEADS) + _ENGINE_GATES


def relays_workers(folded: bytes, shape: bytes, settled: Settled = ((), frozenset())) -> bool:
    """Whether the file's logger relays its workers' output: INFO records of the learned
    shape whose message opens with a torch rank tag (`... - INFO - [rank3]: Traceback ...`)
    or, in a tracing record, with an engine child's name (`... INFO x::engine: VLLM: ...`).
    Their INFO is the relay's, so the shape's INFO lines cannot all be skipped as chatter
    (`formats.lines` reads such a line by its words). `folded`: the block folded with FOLD.

    Each form's search runs only where the bytes every match holds are there: led by the
    shape, the rank-tag search is tried at every line of the shape (a file's whole head
    block, read one line at a time), and the engine form backtracks over every INFO line's
    first word, while a few literal searches rule most files out (`settled`: the literals
    a pass over the block looked for already, and those of them it found)."""
    looked, found = settled

    def holds(word: bytes) -> bool:
        return word in found if word in looked else word in folded

    lead = re.escape(shape)
    tagged = any(holds(shape + word) for word in _RANK_TAG_LEADS)
    if tagged and re.search(lead + _RANK_TAG_AFTER_INFO, folded) is not None:
        return True
    if not any(holds(gate) for gate in _ENGINE_GATES):
        return False
    return re.search(lead + _ENGINE_AFTER_INFO, folded) is not None
