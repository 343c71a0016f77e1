"""The lines a diagnosis cites and the error codes they print.

The first error, its block, the supporting lines and the cascades are cited with their role;
their codes are looked up in the code table, and the codes it does not know are kept as
printed so the report never drops what the logs said.
"""

from __future__ import annotations

from collections.abc import Sequence

from analyzers.causal.chain import CausalChain
from analyzers.classify.errorcodes import CodeInfo, normalise_code
from analyzers.classify.matches import Classified
from analyzers.classify.rules import Knowledge
from analyzers.core.report import Evidence


def evidence_codes(chain: CausalChain, knowledge: Knowledge) -> list[CodeInfo]:
    """Known codes of the first error's block and the cited lines, first error's first."""
    seen: dict[str, CodeInfo] = {}
    for item in _cited_and_near(chain):
        for info in item.codes:
            seen.setdefault(info.label, info)
        for raw in item.event.codes:
            info = knowledge.codes.lookup_label(normalise_code(raw))
            if info:
                seen.setdefault(info.label, info)
    return list(seen.values())


def unknown_codes(chain: CausalChain, known: Sequence[CodeInfo]) -> list[str]:
    """Codes printed in the cited lines that the table does not know (kept as printed)."""
    labels = {info.label for info in known}
    extra: dict[str, None] = {}
    for item in _cited_and_near(chain):
        for raw in item.event.codes:
            code = normalise_code(raw)
            if code not in labels:
                extra.setdefault(code)
    return list(extra)


def _cited_and_near(chain: CausalChain) -> list[Classified]:
    first = chain.first
    assert first is not None
    return [first, *chain.nearby, *chain.supporting, *chain.cascades]


def evidence_of(chain: CausalChain) -> list[Evidence]:
    first = chain.first
    assert first is not None
    cited = [(first, "cause")]
    cited += [(item, "supporting") for item in chain.supporting]
    cited += [(item, "cascade") for item in chain.cascades]
    return [_cite(item, role) for item, role in cited]


def _cite(item: Classified, role: str) -> Evidence:
    best = item.best
    return Evidence(
        ref=item.event.ref(),
        role=role,
        rule=best.id if best else None,
        category=best.category if best else None,
        codes=list(dict.fromkeys([info.label for info in item.codes] or item.event.codes)),
    )
