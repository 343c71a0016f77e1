"""NVIDIA's Xid numbers: what each means and what usually causes it.

The GPU driver reports a fault it handled as a numbered event in the kernel log::

    NVRM: Xid (PCI:0000:3b:00): 31, pid=4120, name=python, Ch 0000000b, intr 10000000. MMU Fault: ...

The number decides whose failure it is: 13, 31 and 43 are the job's own kernels (an access
out of bounds, an illegal address) on a GPU that is still fine, 48, 79 or 145 the board or its
links, 119 and 120 the GPU's firmware. `knowledge/xid_codes.yaml` records, per number, the
driver's mnemonic, the meaning, the origin NVIDIA's documents give and the document it was read
from. A number the file does not list, or lists without an origin, is unknown: nothing is read
from its neighbours (44 is the driver's, 43 the job's).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from analyzers.core.yamlcheck import Entry, read_yaml

XID_FILE = "xid_codes.yaml"
ORIGINS = ("application", "hardware", "driver")
UNKNOWN = "unknown"  # an origin a rule may ask for: a number no document gives one


@dataclass(frozen=True, slots=True)
class XidInfo:
    number: str
    name: str
    meaning: str
    source: str
    origin: str | None = None


def load_xids(path: Path) -> dict[str, XidInfo]:
    """The Xid table, every entry checked (an origin from `ORIGINS`, a source it names)."""
    data = Entry(read_yaml(path), path.name)
    sources = Entry(data.get("sources", dict), f"{path.name}: sources").data
    table = Entry(data.get("xids", dict), f"{path.name}: xids")
    found = {}
    for number, item in table.data.items():
        entry = Entry(item, f"{table.where}: '{number}'")
        if not str(number).isdigit():
            raise entry.fail("an Xid is a decimal number")
        found[str(number)] = XidInfo(
            number=str(number),
            name=entry.get("name", str),
            meaning=" ".join(entry.get("meaning", str).split()),
            source=entry.choice("source", sources),
            origin=entry.choice("origin", ORIGINS, None),
        )
    return found


def origins_of(table: Mapping[str, XidInfo]) -> dict[str, str]:
    """Each listed number's origin; numbers listed without one are left out (unknown)."""
    return {number: info.origin for number, info in table.items() if info.origin}
