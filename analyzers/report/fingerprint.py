"""Group repeats of the same failure, as an error tracker does: a stable fingerprint from
the normalised template of the first causal error.

The template comes from Drain3's template miner (in memory, no persistence) fed with the
first error and the top evidence lines, after masking what differs between two runs of
the same failure - times, pids, hex addresses, paths, IPs, numbers, rank suffixes::

    Watchdog caught collective operation timeout: WorkHCCL(SeqNum=630, OpType=ALLREDUCE, ...
    -> Watchdog caught collective operation timeout: WorkHCCL(SeqNum=<NUM>, OpType=ALLREDUCE, ...

The fingerprint hashes the category, that template, the signatures that matched and the
error codes (which masking would otherwise erase: 507014 and 507015 are different faults).
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from drain3 import TemplateMiner

MASKS = (
    (r"\d{4}-\d\d-\d\d[-_ T]\d\d:\d\d:\d\d(?:[.,:]\d+)*", "TIME"),
    (r"\b[EWIF]?\d{4} \d\d:\d\d:\d\d\.\d+", "TIME"),
    (r"\b\d\d-\d\d \d\d:\d\d:\d\d(?:[.,]\d+)?", "TIME"),
    (r"\b\d{1,2}:\d\d:\d\d(?:[.,:]\d+)*", "TIME"),
    (r"(?<![\w/.])(?:/[\w.@+~-]+){2,}/?", "PATH"),
    (r"\b\d{1,3}(?:\.\d{1,3}){3}(?::\d+)?\b", "IP"),
    (r"\b0x[0-9a-fA-F]+\b", "HEX"),
    (r"(?:(?<=rank)|(?<=Rank)|(?<=RANK)|(?<=TP)|(?<=DP)|(?<=EP)|(?<=PP))\d+\b", "NUM"),
    (r"(?<![A-Za-z0-9_.])[-+]?\d+(?:\.\d+)?(?![A-Za-z0-9_])", "NUM"),
)
# Drain3 announces every miner it starts at INFO; one per incident is noise in the CLI.
logging.getLogger("drain3.template_miner").setLevel(logging.WARNING)
MAX_LINES = 4
MAX_CHARS = 600  # long device dumps add nothing to the identity of the failure


def load_miner() -> None:
    """Import the template miner now (a tenth of a second): the pipeline does it on a
    thread while the logs are scanned, not on the path that writes the report."""
    import drain3.template_miner  # noqa: F401


def _miner() -> TemplateMiner:
    from drain3 import TemplateMiner
    from drain3.masking import MaskingInstruction
    from drain3.template_miner_config import TemplateMinerConfig

    config = TemplateMinerConfig()
    config.masking_instructions = [MaskingInstruction(pattern, mask) for pattern, mask in MASKS]
    config.drain_sim_th = 0.5
    config.profiling_enabled = False
    return TemplateMiner(persistence_handler=None, config=config)


def template_of(first: str, others: Sequence[str] = ()) -> str:
    """The first message's template after mining it with up to MAX_LINES - 1 others."""
    miner = _miner()
    lines = [_trim(first), *(_trim(m) for m in others[: MAX_LINES - 1])]
    for line in lines:
        miner.add_log_message(line)
    cluster = miner.match(lines[0], full_search_strategy="always")
    return cluster.get_template() if cluster else lines[0]


def fingerprint(
    category: str,
    first: str,
    others: Sequence[str] = (),
    signature_ids: Sequence[str] = (),
    codes: Sequence[str] = (),
) -> tuple[str, str]:
    """(sha1 hex fingerprint, template) of a failure."""
    template = template_of(first, others)
    key = "|".join([category, template, ",".join(sorted(set(signature_ids))), *sorted(codes)])
    return hashlib.sha1(key.encode("utf-8")).hexdigest(), template


def _trim(message: str) -> str:
    return " ".join(message.split())[:MAX_CHARS]
