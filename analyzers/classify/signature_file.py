"""The signature file, `knowledge/signatures.yaml`, read and checked entry by entry::

    - id: oom.device_out_of_memory
      also_if: {config: device_shared}
      category: oom
      subsystem: memory
      role: cause
      weight: 96
      keywords: [out of memory]

The failure knowledge is data, so a wrong field must fail loudly at start with the file, the
entry and the field in the message, never silently mislabel a job later: each field has its
own check here (a taxonomy label, a regex group the rule names, a weight within 1-100, the
ids other rules are linked to).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from pathlib import Path

from analyzers.classify.action_book import ACTION_STACKS
from analyzers.classify.errorcodes import CODE_TABLES
from analyzers.classify.signature import NO_LEVEL, NeighbourEvidence, Signature
from analyzers.classify.taxonomy import ANY_SUBSYSTEM, ROLES, TAXONOMY
from analyzers.classify.xid import ORIGINS, UNKNOWN, XID_FILE, load_xids, origins_of
from analyzers.core.signal_names import Names, expand, load_signal_names
from analyzers.core.signal_names import keywords as signal_keywords
from analyzers.core.yamlcheck import (
    Entry,
    KnowledgeError,
    compile_regex,
    read_yaml,
    reject_duplicates,
)


def load_signatures(path: Path) -> tuple[Signature, ...]:
    data = Entry(read_yaml(path), path.name)
    raw = data.get("signatures", list)
    evidence = _neighbour_evidence(Entry(data.get("neighbour_evidence", dict, {}), path.name))
    xid_file = path.parent / XID_FILE
    origins = origins_of(load_xids(xid_file)) if xid_file.exists() else {}
    words = load_signal_names(path.parent)
    signatures = tuple(
        _signature(Entry(item, f"{path.name}: signature #{n + 1}"), evidence, origins, words)
        for n, item in enumerate(raw)
    )
    reject_duplicates([sig.id for sig in signatures], path.name, "signature id")
    _reject_unknown_links(signatures, path.name)
    return signatures


# the fields that name other signatures by id: each id must be a signature of the file
LINK_FIELDS = (
    "yields_to",
    "yields_to_earlier",
    "yields_to_bundle",
    "yields_to_later",
    "label_from_bundle",
    "needs_earlier",
    "waits_behind",
    "warned_by",
    "reported_by",
)


def _reject_unknown_links(signatures: tuple[Signature, ...], where: str) -> None:
    """A link to an id no signature has would make its rule silently never step aside."""
    known = {sig.id for sig in signatures}
    fields = f"{', '.join(LINK_FIELDS[:-1])} or {LINK_FIELDS[-1]}"
    for sig in signatures:
        named = {linked for name in LINK_FIELDS for linked in getattr(sig, name)}
        unknown = sorted(named - known)
        if unknown:
            raise KnowledgeError(f"{where}: signature '{sig.id}': {fields} names {unknown}")


def _neighbour_evidence(section: Entry) -> dict[str, NeighbourEvidence]:
    """The named kinds of evidence a conditional neighbour (`also_if`) can ask for."""
    found = {}
    for name, item in section.data.items():
        entry = Entry(item, f"{section.where}: neighbour_evidence '{name}'")
        labels = entry.strings("labels", required=False)
        wrong = [label for label in labels if label not in TAXONOMY]
        if wrong:
            raise entry.fail(f"field 'labels' must list taxonomy labels, got {wrong}")
        pattern = entry.get("regex", str, None)
        stalled = entry.get("ranks_stalled", bool, False)
        if not labels and pattern is None and not stalled:
            raise entry.fail("needs 'labels', 'regex' or 'ranks_stalled'")
        regex = None if pattern is None else compile_regex(pattern, re.IGNORECASE, entry, "regex")
        found[str(name)] = NeighbourEvidence(str(name), labels, regex, stalled)
    return found


def _also_if(
    entry: Entry, category: str, also: tuple[str, ...], evidence: dict[str, NeighbourEvidence]
) -> tuple[tuple[str, NeighbourEvidence], ...]:
    """`also_if: {label: evidence}`: a neighbour offered only when the bundle shows that
    evidence; each label is another taxonomy label than the rule's and not already in `also`."""
    raw = entry.get("also_if", dict, {})
    pairs = []
    for label, name in raw.items():
        if label not in TAXONOMY or label == category or label in also:
            raise entry.fail(f"field 'also_if' must name other taxonomy labels, got {label!r}")
        if name not in evidence:
            raise entry.fail(f"field 'also_if': {label!r} names unknown evidence {name!r}")
        pairs.append((str(label), evidence[name]))
    return tuple(pairs)


def _signature(
    entry: Entry,
    evidence: dict[str, NeighbourEvidence] | None = None,
    xid_origins: Mapping[str, str] | None = None,
    words: Names | None = None,
) -> Signature:
    sig_id = entry.get("id", str)
    entry.where = f"{entry.where.split(': ')[0]}: signature '{sig_id}'"
    category = entry.choice("category", TAXONOMY)
    ignore_case = entry.get("ignore_case", bool, False)
    # a `{{name}}` stands for a list of signal_names.yaml: the shell's words in every language
    pattern = expand(entry.get("regex", str), words or {}, entry.where)
    regex = compile_regex(pattern, re.IGNORECASE if ignore_case else 0, entry, "regex")
    keywords = signal_keywords(entry.strings("keywords"), words or {}, entry.where)
    xid_numbers, xid_known, xid_unknown = _xid_filter(entry, regex, xid_origins or {})
    signature = Signature(
        id=sig_id,
        title=entry.get("title", str),
        category=category,
        subsystem=_subsystem(entry, category),
        role=entry.choice("role", ROLES),
        weight=_weight(entry),
        keywords=keywords,
        needles=tuple(k.lower() for k in keywords) if ignore_case else keywords,
        regex=regex,
        ignore_case=ignore_case,
        **{name: read(entry, name) for name, read in _PLAIN_FIELDS},
        harmless_on=_harmless_on(entry),
        more_than=_group_pair(entry, regex, "more_than"),
        at_least=_group_pair(entry, regex, "at_least"),
        raised_in=_raised_in(entry),
        unframed=entry.get("unframed", bool, False),
        levels=_levels(entry),
        xid_numbers=xid_numbers,
        xid_known=xid_known,
        xid_unknown=xid_unknown,
        guide=_guide(entry),
        also=(also := _also(entry, category)),
        also_if=_also_if(entry, category, also, evidence or {}),
        examples=entry.strings("examples"),
        counterexamples=entry.strings("counterexamples"),
    )
    _check_signature_links(signature, entry)
    return signature


def _flag(entry: Entry, name: str) -> bool:
    return entry.get(name, bool, False)


def _ids(entry: Entry, name: str) -> tuple[str, ...]:
    return entry.strings(name, required=False)


def _group_name(entry: Entry, name: str) -> str | None:
    return entry.get(name, str, None)


def _code_table(entry: Entry, name: str) -> str | None:
    return entry.choice(name, CODE_TABLES, None)


# the fields read as they stand, each by its kind's reader, in the order a broken entry is
# reported (its first wrong field)
_PLAIN_FIELDS: tuple[tuple[str, Callable[[Entry, str], object]], ...] = (
    ("category_from_code", _flag),
    ("role_from_code", _flag),
    ("code_table", _code_table),
    ("culprit", _group_name),
    ("group_rank", _group_name),
    ("settled", _flag),
    ("headline", _flag),
    ("yields_to", _ids),
    ("yields_to_earlier", _ids),
    ("yields_to_bundle", _ids),
    ("yields_to_later", _ids),
    ("label_from_bundle", _ids),
    ("needs_earlier", _ids),
    ("cause_if_silent", _flag),
    ("own_if_first", _flag),
    ("echoes_end", _flag),
    ("outside_stop", _flag),
    ("failure_warning", _flag),
    ("before_workers", _flag),
    ("peer_sent", _flag),
    ("shared_setting", _flag),
    ("warned_by", _ids),
    ("reported_by", _ids),
    ("names_source", _flag),
    ("peer_gone", _flag),
    ("signalled_stop", _flag),
    ("unreached", _flag),
    ("warns_first", _flag),
    ("skips_step", _flag),
    ("waits_behind", _ids),
    ("rank_past_world", _flag),
    ("interrupted", _flag),
    ("generic_record", _flag),
)


_GUIDE_ANCHOR = re.compile(r"[a-z0-9_]+(?:-[a-z0-9_]+)*")


def _guide(entry: Entry) -> str | None:
    """A precedence rule names the labelling-guide section it implements (a heading slug;
    tests check the section exists)."""
    anchor = entry.get("guide", str, None)
    if anchor is not None and not _GUIDE_ANCHOR.fullmatch(anchor):
        raise entry.fail(f"field 'guide' must be a heading anchor like 'wrappers', got {anchor!r}")
    return anchor


def _also(entry: Entry, category: str) -> tuple[str, ...]:
    labels = entry.strings("also", required=False)
    wrong = [label for label in labels if label not in TAXONOMY or label == category]
    if wrong:
        raise entry.fail(f"field 'also' must list other taxonomy labels, got {wrong}")
    return labels


def _subsystem(entry: Entry, category: str) -> str:
    subsystem = entry.choice("subsystem", ANY_SUBSYSTEM)
    if subsystem not in TAXONOMY[category]:
        allowed = ", ".join(TAXONOMY[category])
        raise entry.fail(f"subsystem '{subsystem}' does not fit category '{category}' ({allowed})")
    return subsystem


def _weight(entry: Entry) -> int:
    weight = entry.get("weight", int)
    if not 1 <= weight <= 100:
        raise entry.fail(f"field 'weight' must be within 1-100, got {weight}")
    return weight


def _check_signature_links(sig: Signature, entry: Entry) -> None:
    groups = {re.sub(r"\d+$", "", name) for name in sig.regex.groupindex}
    if sig.culprit and sig.culprit not in groups:
        raise entry.fail(f"culprit group '{sig.culprit}' is not a named group of the regex")
    if sig.group_rank and sig.group_rank not in groups:
        raise entry.fail(f"group_rank group '{sig.group_rank}' is not a named group of the regex")
    if (sig.category_from_code or sig.role_from_code) and not sig.code_table:
        raise entry.fail("category_from_code/role_from_code need a code_table")


# ---------------------------------------------------------------- actions


def _harmless_on(entry: Entry) -> tuple[str, ...]:
    stacks = entry.strings("harmless_on", required=False)
    unknown = [stack for stack in stacks if stack not in ACTION_STACKS]
    if unknown:
        raise entry.fail(f"harmless_on must name stacks of {list(ACTION_STACKS)}, not {unknown}")
    return stacks


def _levels(entry: Entry) -> frozenset[str]:
    levels = frozenset(entry.strings("levels", required=False))
    if unknown := levels - {"WARNING", "ERROR", "CRITICAL", NO_LEVEL}:
        raise KnowledgeError(f"{entry.where}: unknown levels {sorted(unknown)}")
    return levels


def _raised_in(entry: Entry) -> re.Pattern[str] | None:
    pattern = entry.get("raised_in", str, None)
    return None if pattern is None else compile_regex(pattern, 0, entry, "raised_in")


def _group_pair(entry: Entry, regex: re.Pattern[str], field: str) -> tuple[str, str] | None:
    """`more_than` / `at_least`: two named groups of the regex whose numbers the line orders."""
    names = entry.strings(field, required=False)
    if not names:
        return None
    if len(names) != 2 or any(regex.groupindex.get(name) is None for name in names):
        raise entry.fail(f"{field} must name two groups of the regex, got {list(names)}")
    return names[0], names[1]


def _xid_filter(
    entry: Entry, regex: re.Pattern[str], origins: Mapping[str, str]
) -> tuple[frozenset[str] | None, frozenset[str], bool]:
    """`xid_origins`: the rule holds only for an Xid whose origin (`knowledge/xid_codes.yaml`)
    is one of these, `unknown` standing for a number the table gives none. The regex names the
    line's number `xid` and, optionally, the earlier Xid it names as its cause `caused_by`."""
    wanted = entry.strings("xid_origins", required=False)
    if not wanted:
        return None, frozenset(), False
    wrong = [origin for origin in wanted if origin not in (*ORIGINS, UNKNOWN)]
    if wrong:
        raise entry.fail(f"xid_origins must name {[*ORIGINS, UNKNOWN]}, not {wrong}")
    if "xid" not in regex.groupindex:
        raise entry.fail("xid_origins needs a group 'xid' in the regex")
    numbers = frozenset(number for number, origin in origins.items() if origin in wanted)
    return numbers, frozenset(origins), UNKNOWN in wanted
