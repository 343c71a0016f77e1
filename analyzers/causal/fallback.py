"""A label for a first error that no signature knows, from the hints of its block.

The first error's own words count twice; the other error lines of its block, the innermost
traceback frame above it (and, when that frame is the job's own code a library called back, the
library's frame that called it), the statement printed under that frame and the codes they print
count once (`analyzers.classify.hints` holds the vote and `knowledge/fallback.yaml` the hints).
The label is used only when neither the line nor its block carries one from a signature. A block line that another rank wrote (ranks sharing
one stdout print their own failures next to each other) says nothing about this error and
does not vote.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from analyzers.causal.chain import CausalChain
from analyzers.causal.frames import frames_above, traceback_field
from analyzers.classify.errorcodes import normalise_code
from analyzers.classify.hints import defensible, vote
from analyzers.classify.matches import Classified
from analyzers.classify.rules import load_knowledge
from analyzers.classify.taxonomy import TAXONOMY
from analyzers.core.types import FileScan


def guess(chain: CausalChain, scans: Sequence[FileScan] = ()) -> tuple[str, str] | None:
    """(category, subsystem) the hints agree on for the chain's first error, or None."""
    ballot = _ballot(chain, scans)
    category = vote(*ballot) if ballot else None
    return (category, TAXONOMY[category][0]) if category else None


def readings(
    chain: CausalChain, scans: Sequence[FileScan] = (), *, unlabelled: bool = False
) -> list[tuple[str, int, int]]:
    """(category, votes, the leader's votes) for every category the hints of the chain's first
    error carry past the bar (`hints.defensible`; the lower one when no rule labelled the
    line), most votes first: the readings a runner-up or a tie leaves open, whatever label
    the first error was finally given."""
    ballot = _ballot(chain, scans)
    found = defensible(*ballot, unlabelled=unlabelled) if ballot else []
    return [(label, votes, found[0][1]) for label, votes in found]


def _ballot(
    chain: CausalChain, scans: Sequence[FileScan]
) -> tuple[str, list[str], list[str | None], list[str], list[str]] | None:
    """What votes for the first error: its words, its block's and its frames' words, the
    codes they print and the statement that raised it."""
    first = chain.first
    if first is None:
        return None
    own = first.event.message or first.event.text
    nearby = [item for item in chain.nearby if _same_writer(item, first)]
    others = [item.event.message or item.event.text for item in nearby if item is not first]
    codes = _code_categories([first, *nearby])
    frames = [*frames_above(first, scans), *traceback_field(first, scans, "caller")]
    return own, others, codes, traceback_field(first, scans, "statement"), frames


def _same_writer(item: Classified, first: Classified) -> bool:
    """False for a line another rank wrote; lines without a rank stay in the vote."""
    rank, own = item.event.rank, first.event.rank
    return rank is None or own is None or rank == own


def _code_categories(items: Iterable[Classified]) -> list[str | None]:
    """The table category of every code the lines print, once per code. A code the table
    lists with a label of its own outvotes one labelled only by its family or range: in
    `EZ9999[PID: 5] ... (EZ9999):  Communication_Error_Get_Socket(EI0006): ...` the catch-all
    inner error of the operator family carries the communication library's own code."""
    table = load_knowledge().codes
    raw = dict.fromkeys(normalise_code(code) for item in items for code in item.event.codes)
    infos = [info for code in raw if (info := table.lookup_label(code))]
    if any(info.category and not info.inferred for info in infos):
        infos = [info for info in infos if not info.inferred]
    return [info.category for info in infos]
