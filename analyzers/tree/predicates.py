"""The small predicate language of the diagnosis tree's `when:` fields.

A predicate is a mapping, e.g. ``{category: [hccl], has_signature: ['HCCL_BUFFSIZE']}``
(several keys: all must hold), with `all`, `any` and `not` for composition. Values are
three-valued: True, False, or None when the fact was not observed (no `npu-smi` snapshot,
no world size); `all`/`any`/`not` follow Kleene logic, so an unknown fact keeps a node
open instead of silently choosing a branch. Every verdict carries the log lines behind it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from analyzers.core import regex_programs
from analyzers.core.types import ErrorRef
from analyzers.library.matching import normalize_operator, taxonomy
from analyzers.tree.facts import FactLine, TreeFacts

MAX_EVIDENCE = 5


class TreeError(ValueError):
    """tree.yaml is malformed; the message names the node and the problem."""


@dataclass(frozen=True, slots=True)
class Verdict:
    """A predicate's value (True, False or None = unknown) and the lines behind it."""

    value: bool | None
    refs: tuple[ErrorRef, ...] = ()


Leaf = Callable[[TreeFacts, Any], Verdict]


def evaluate(pred: Mapping[str, Any], facts: TreeFacts, children: Sequence[Any] = ()) -> Verdict:
    """Evaluate a `when` mapping; `children` are the `when`s of the node's children
    (only `child_matches` looks at them, one level down)."""
    return _all([_evaluate_key(key, arg, facts, children) for key, arg in pred.items()])


def _evaluate_key(key: str, arg: Any, facts: TreeFacts, children: Sequence[Any]) -> Verdict:
    if key == "all":
        return _all([evaluate(p, facts, children) for p in arg])
    if key == "any":
        return _any([evaluate(p, facts, children) for p in arg])
    if key == "not":
        inner = evaluate(arg, facts, children).value
        return Verdict(None if inner is None else not inner)
    if key == "child_matches":
        return _expect(_any([evaluate(c, facts) for c in children]), arg)
    return LEAVES[key][1](facts, arg)


def _all(parts: Sequence[Verdict]) -> Verdict:
    if any(p.value is False for p in parts):
        return Verdict(False)
    if any(p.value is None for p in parts):
        return Verdict(None)
    return Verdict(True, tuple(r for p in parts for r in p.refs))


def _any(parts: Sequence[Verdict]) -> Verdict:
    hits = [p for p in parts if p.value]
    if hits:
        return Verdict(True, tuple(r for p in hits for r in p.refs))
    return Verdict(None if any(p.value is None for p in parts) else False)


def _expect(verdict: Verdict, wanted: bool) -> Verdict:
    """Compare a boolean fact with the value the predicate asks for."""
    if verdict.value is None:
        return verdict
    hit = verdict.value == wanted
    return Verdict(hit, verdict.refs if hit else ())


# ------------------------------------------------------------------------ leaf predicates


def _in(value: str, options: Any, ref: ErrorRef | None) -> Verdict:
    hit = value in _as_list(options)
    return Verdict(hit, (ref,) if hit and ref else ())


def _lines_matching(lines: Sequence[FactLine], patterns: Sequence[re.Pattern[str]]) -> Verdict:
    refs = tuple(line.ref for line in lines if any(p.search(line.text) for p in patterns))
    return Verdict(bool(refs), refs[:MAX_EVIDENCE])


def _has_code(facts: TreeFacts, codes: Any) -> Verdict:
    wanted = [c for c in _as_list(codes) if c in facts.codes]
    if not wanted:
        return Verdict(False)
    refs = tuple(line.ref for line in facts.lines if any(c in line.text for c in wanted))
    return Verdict(True, refs[:MAX_EVIDENCE])


def _has_operator(facts: TreeFacts, arg: Any) -> Verdict:
    if isinstance(arg, bool):
        return _expect(Verdict(bool(facts.operators), tuple(facts.operators.values())), arg)
    wanted = {normalize_operator(name) for name in arg}
    refs = tuple(ref for name, ref in facts.operators.items() if normalize_operator(name) in wanted)
    return Verdict(bool(refs), refs)


def _exit_code(facts: TreeFacts, codes: Any) -> Verdict:
    hits = [e for e in facts.exits if e.exitcode in _as_list(codes)]
    return Verdict(bool(hits), tuple(e.ref for e in hits if e.ref))


def _ranks(ranks: Sequence[int], facts: TreeFacts, known: bool, wanted: bool) -> Verdict:
    if not known:
        return Verdict(None)
    refs = tuple(f.ref for f in facts.last_checkpoints if f.ref.rank in ranks)
    return _expect(Verdict(bool(ranks), refs), wanted)


def _compared(facts: TreeFacts) -> bool:
    """Rank progress can only be compared when two ranks logged checkpoints."""
    return len(facts.last_checkpoints) >= 2


def _npu(name: str) -> Leaf:
    def leaf(facts: TreeFacts, wanted: bool) -> Verdict:
        if facts.npu is None:
            return Verdict(None)
        if name == "available":
            value: bool | None = True
        elif name == "no_processes":
            value = None if facts.npu.processes is None else facts.npu.processes == 0
        else:
            value = getattr(facts.npu, name)
        return _expect(Verdict(value, facts.npu.refs), wanted)

    return leaf


def _fact(name: str, ref_name: str | None = None) -> Leaf:
    def leaf(facts: TreeFacts, wanted: bool) -> Verdict:
        ref = getattr(facts, ref_name) if ref_name else None
        return _expect(Verdict(getattr(facts, name), (ref,) if ref else ()), wanted)

    return leaf


def _any_error(facts: TreeFacts, wanted: bool) -> Verdict:
    has = facts.first_error is not None or bool(facts.lines)
    refs = (facts.first_error,) if facts.first_error else tuple(x.ref for x in facts.lines[:1])
    return _expect(Verdict(has, refs), wanted)


def _checkpoints(facts: TreeFacts, wanted: bool) -> Verdict:
    refs = tuple(f.ref for f in facts.last_checkpoints[:MAX_EVIDENCE])
    return _expect(Verdict(facts.checkpoint_count > 0, refs), wanted)


def _hardware(facts: TreeFacts, options: Any) -> Verdict:
    if facts.hardware is None:
        return Verdict(None)
    return Verdict(facts.hardware in _as_list(options))


def _as_list(value: Any) -> list[Any]:
    return list(value) if isinstance(value, list | tuple) else [value]


def _regexes(arg: Any) -> list[re.Pattern[str]]:
    return [compiled(p) for p in _as_list(arg)]


@lru_cache(maxsize=2048)
def compiled(pattern: str) -> re.Pattern[str]:
    return regex_programs.compile(pattern, re.IGNORECASE)


_NPU_FACTS = (
    "available",
    "no_processes",
    "hbm_uneven",
    "hbm_flat",
    "hbm_growing",
    "hbm_low",
    "aicore_idle",
    "leftover_processes",
)

# key -> (argument kind, evaluator); kinds: bool, strings, ints, regexes, bool_or_strings.
LEAVES: dict[str, tuple[str, Leaf]] = {
    "always": ("bool", lambda f, a: Verdict(bool(a))),
    "category": ("strings", lambda f, a: _in(f.category, a, f.first_error)),
    "subsystem": ("strings", lambda f, a: _in(f.subsystem, a, f.first_error)),
    "any_error": ("bool", _any_error),
    "has_code": ("strings", _has_code),
    "has_signature": ("regexes", lambda f, a: _lines_matching(f.lines, _regexes(a))),
    "has_operator": ("bool_or_strings", _has_operator),
    "exit_code": ("ints", _exit_code),
    "ranks_missing": ("bool", lambda f, a: _ranks(f.missing_ranks, f, f.world_size is not None, a)),
    "ranks_diverged": ("bool", lambda f, a: _ranks(f.diverged_ranks, f, _compared(f), a)),
    "ranks_behind": ("bool", lambda f, a: _ranks(f.behind_ranks, f, _compared(f), a)),
    "checkpoints": ("bool", _checkpoints),
    "checkpoint_matches": (
        "regexes",
        lambda f, a: _lines_matching(f.last_checkpoints, _regexes(a)),
    ),
    "hardware": ("strings", _hardware),
    "oom.outside_allocator": ("bool", _fact("oom_outside_allocator", "oom_ref")),
    "oom.fragmented": ("bool", _fact("oom_fragmented", "oom_ref")),
    "host.cpu_busy": ("bool", _fact("cpu_busy")),
    **{f"npu_smi.{name}": ("bool", _npu(name)) for name in _NPU_FACTS},
}


# ----------------------------------------------------------------------------- checking


def check_predicate(pred: Any, where: str) -> None:
    """Reject unknown keys, wrong argument types and bad regexes, naming the node."""
    if not isinstance(pred, Mapping) or not pred:
        raise TreeError(f"{where}: a predicate must be a non-empty mapping, got {pred!r}")
    for key, arg in pred.items():
        if key in ("all", "any"):
            if not isinstance(arg, list) or not arg:
                raise TreeError(f"{where}: '{key}' takes a non-empty list of predicates")
            for sub in arg:
                check_predicate(sub, where)
        elif key == "not":
            check_predicate(arg, where)
        elif key == "child_matches":
            _check_arg(key, "bool", arg, where)
        elif key in LEAVES:
            _check_arg(key, LEAVES[key][0], arg, where)
        else:
            raise TreeError(f"{where}: unknown predicate key {key!r}")


def _check_arg(key: str, kind: str, arg: Any, where: str) -> None:
    ok = {
        "bool": isinstance(arg, bool),
        "strings": _list_of(arg, str),
        "ints": _list_of(arg, int) and not any(isinstance(a, bool) for a in arg),
        "regexes": _list_of(arg, str),
        "bool_or_strings": isinstance(arg, bool) or _list_of(arg, str),
    }[kind]
    if not ok:
        raise TreeError(f"{where}: '{key}' expects {kind.replace('_', ' ')}, got {arg!r}")
    if kind == "regexes":
        for pattern in arg:
            try:
                compiled(pattern)
            except re.error as error:
                raise TreeError(f"{where}: bad regex {pattern!r} in '{key}': {error}") from error
    if key == "category" and set(arg) - taxonomy():
        raise TreeError(f"{where}: unknown category {sorted(set(arg) - taxonomy())}")


def _list_of(arg: Any, kind: type) -> bool:
    return isinstance(arg, list) and bool(arg) and all(isinstance(a, kind) for a in arg)
