"""Which signatures read a line, and what each match carries: its label (a code's own label
where the rule defers to the code), its codes, the ranks and operator it names.

A line's matches depend on its words and codes alone, so they are read once per distinct line
(`LineReadings`) and shared by every copy; where the line stands (its file, its level, the lines
above it) is judged afterwards, by `analyzers.classify.rule_conditions` and the tiers."""

from __future__ import annotations

import re
from collections.abc import Iterable

from analyzers.classify.errorcodes import CodeInfo, normalise_code
from analyzers.classify.matches import Match
from analyzers.classify.rules import Knowledge
from analyzers.classify.signature import Signature
from analyzers.core.rank_lists import ranks_named


class LineReadings:
    """`match_line` with each distinct message and codes read once. A bundle repeats its
    warnings by the thousand (a CANN device query on every device at every step), and a
    line's matches depend on its words and codes alone. The matches are frozen and a caller
    that drops some of them rebinds its own item's tuple, so the lines may share them."""

    def __init__(self, knowledge: Knowledge) -> None:
        self._knowledge = knowledge
        self._read: dict[tuple[str, tuple[str, ...]], tuple[Match, ...]] = {}

    def __call__(self, message: str, codes: Iterable[str]) -> tuple[Match, ...]:
        key = (message, tuple(codes))
        found = self._read.get(key)
        if found is None:
            found = self._read[key] = match_line(message, key[1], self._knowledge)
        return found


def match_line(message: str, event_codes: Iterable[str], knowledge: Knowledge) -> tuple[Match, ...]:
    """All signatures that match `message`, the most specific first."""
    codes = tuple(event_codes)
    found = []
    for signature in knowledge.index.candidates(message):
        hit = signature.search(message)
        if hit:
            found.append(_match(signature, hit, codes, knowledge))
    return tuple(sorted(found, key=lambda m: -m.weight))


def _match(
    signature: Signature, hit: re.Match[str], event_codes: tuple[str, ...], knowledge: Knowledge
) -> Match:
    groups = _groups(hit)
    own = _lookup(groups.get("code"), signature.code_table, knowledge)
    others = tuple(info for info in _event_codes(event_codes, knowledge) if info != own)
    decisive = _decisive(own, others)
    category, subsystem = signature.category, signature.subsystem
    if signature.category_from_code and decisive and decisive.category:
        category, subsystem = decisive.category, decisive.subsystem or subsystem
    role = signature.role
    if signature.role_from_code and decisive and decisive.role:
        role = decisive.role
    return Match(
        signature=signature,
        category=category,
        subsystem=subsystem,
        role=role,
        weight=signature.weight,
        codes=((own,) if own else ()) + others,
        culprits=ranks_named(groups.get(signature.culprit or "")),
        operator=groups.get("op"),
        group_rank=_group_rank(groups.get(signature.group_rank or "")),
    )


def _decisive(own: CodeInfo | None, others: tuple[CodeInfo, ...]) -> CodeInfo | None:
    """The code that labels the line. A CANN error-manager code names the layer that
    reported (`AclNN_Runtime_Error(EZ9903): ... failed: 507014`, `EH9999 ... runtime result =
    507014`); a runtime number that is a root failure of its own says what happened."""
    if own is None or own.table == "cann":
        root = next(
            (i for i in others if i.table == "acl" and i.category and i.role == "cause"), None
        )
        if root is not None:
            return root
    return own or next((info for info in others if info.category), None)


def _groups(hit: re.Match[str]) -> dict[str, str]:
    """Named groups with alias suffixes dropped (`code2` -> `code`), first value wins."""
    groups: dict[str, str] = {}
    for name, value in hit.groupdict().items():
        if value is not None:
            groups.setdefault(re.sub(r"\d+$", "", name), value)
    return groups


def _lookup(raw: str | None, table: str | None, knowledge: Knowledge) -> CodeInfo | None:
    if not raw:
        return None
    code = normalise_code(raw)
    return knowledge.codes.lookup(code, table) or knowledge.codes.lookup(code)


def _event_codes(codes: Iterable[str], knowledge: Knowledge) -> tuple[CodeInfo, ...]:
    infos = (knowledge.codes.lookup_label(normalise_code(code)) for code in codes)
    return tuple(dict.fromkeys(info for info in infos if info is not None))


def _group_rank(raw: str | None) -> int | None:
    return int(raw) if raw and raw.isdigit() else None
