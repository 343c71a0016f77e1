"""Launcher lines that say how ranks' processes ended (`status.launcher_ends` in
`knowledge/checkpoints.yaml`).

torchrun, `mp.spawn`, srun, Open MPI, PALS and launch scripts each report a child that died or
was stopped in their own words; the rules turn such a line into the ranks it names, the exit
code (a signal as -N) and the signal's name, so that report.rank_ends can tell a rank that was
killed from one that hung or finished. A launch script's shell says it in the user's language
(`./run.sh: 第 19 行： 9779 段错误               （核心已转储）python train.py --local_rank 3`),
so a rule and its keywords may name the lists of `signal_names.yaml` as `{{segfault}}`.
"""

from __future__ import annotations

import re
import signal
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from analyzers.core import regex_programs
from analyzers.core.exits import signal_named
from analyzers.core.rank_lists import ranks_named
from analyzers.core.signal_names import Names, keywords


@dataclass(frozen=True, slots=True)
class EndRule:
    """A launcher line saying how ranks' processes ended (`status.launcher_ends`)."""

    id: str
    regex: re.Pattern[str]
    keywords: tuple[str, ...]
    signal: str | None = None
    examples: tuple[tuple[str, list[int], int | None, str | None], ...] = ()
    counterexamples: tuple[str, ...] = ()
    local_ranks: bool = False
    whole_host: bool = False


@dataclass(frozen=True, slots=True)
class LauncherEnd:
    """The ranks one launcher line reports ended, with the exit code (a signal as -N) and the
    signal's name when a signal ended them. `host` is the node the line names; `at` the time
    the line states (ISO text); `local` says the ranks are the launcher's numbering of its
    children on one node; `whole_host` that the line names no rank, only a node whose every
    rank it ended."""

    ranks: tuple[int, ...]
    exitcode: int | None
    signal: str | None
    host: str | None = None
    at: str | None = None
    local: bool = False
    whole_host: bool = False


def match_end(rules: Iterable[EndRule], message: str) -> LauncherEnd | None:
    """How the ranks a launcher line names ended, when one of the rules reads the line."""
    if isinstance(rules, tuple) and _keyword_gate(rules).search(message) is None:
        return None  # no rule's keyword in the line: no rule would try its regex
    for rule in rules:
        if not any(word in message for word in rule.keywords):
            continue
        found = rule.regex.search(message)
        if found is not None:
            return _end_of(rule, found)
    return None


_GATES: dict[int, tuple[tuple[EndRule, ...], re.Pattern[str]]] = {}


def _keyword_gate(rules: tuple[EndRule, ...]) -> re.Pattern[str]:
    """Every rule's keywords as one alternation, built once per rule set. Every event of a
    bundle is asked whether it is a launcher's end line, and testing each of some ninety
    keywords in turn cost more than the rest of that question; one search that finds none
    of them answers it the same way."""
    held = _GATES.get(id(rules))
    if held is None or held[0] is not rules:
        words = sorted({word for rule in rules for word in rule.keywords})
        held = _GATES[id(rules)] = (rules, regex_programs.compile("|".join(map(re.escape, words))))
    return held[1]


def _end_of(rule: EndRule, found: re.Match[str]) -> LauncherEnd | None:
    groups = found.groupdict()
    ranks = () if rule.whole_host else ranks_named(found.group("ranks"))
    code, named = _code_of(rule, groups)
    if code is None and named is None:
        return None
    return LauncherEnd(
        ranks,
        code,
        named,
        host=groups.get("host"),
        at=groups.get("at"),
        # a command's `--local_rank 3` numbers the child on its node, its `--rank 3` globally
        local=rule.local_ranks or groups.get("local") is not None,
        whole_host=rule.whole_host,
    )


def _code_of(rule: EndRule, groups: Mapping[str, str | None]) -> tuple[int | None, str | None]:
    """The exit code (a signal as -N) and signal name a line states: a status, a signal
    named (`SIGKILL`) or numbered (`signal 9`), else the rule's own signal."""
    exitcode, status, named, number = (
        groups.get(key) for key in ("exitcode", "status", "signal", "signum")
    )
    if exitcode is not None:
        code = int(exitcode)  # negative: Popen's -N for a child that signal N ended
        return code, rule.signal or (signal_named(-code) if code < 0 else None)
    if status is not None:
        if int(status) > 128:  # the shell's 128 + N for a process ended by signal N
            return 128 - int(status), signal_named(int(status) - 128)
        return int(status), None
    if number is not None:
        return -int(number), signal_named(int(number))
    named = named or rule.signal
    if named is None:
        return None, None
    known = getattr(signal.Signals, named, None)
    return (-int(known) if known else None), named


def read_end_rule(
    entry: Mapping[str, Any], regex: re.Pattern[str], path: Path, words: Names | None = None
) -> EndRule:
    """One validated `launcher_ends` entry, its keywords naming `signal_names.yaml`'s lists
    (`words`) spelled out; a broken one fails loudly at load."""
    ends = {"exitcode", "status", "signal", "signum"} & set(regex.groupindex)
    named = entry.get("signal")
    whole_host = bool(entry.get("whole_host"))
    where = "host" if whole_host else "ranks"
    _require(where in regex.groupindex, path, f"launcher_ends {entry['id']}: no {where} group")
    _require(bool(ends) or named is not None, path, f"launcher_ends {entry['id']}: no end")
    _require(
        named is None or hasattr(signal.Signals, named),
        path,
        f"launcher_ends {entry['id']}: unknown signal {named!r}",
    )
    listed = tuple(entry.get("keywords") or ())
    _require(bool(listed), path, f"launcher_ends {entry['id']}: no keywords")
    spelled = keywords(listed, words or {}, f"{path.name}: launcher_ends entry {entry['id']}")
    examples = tuple((e[0], list(e[1]), e[2], e[3]) for e in entry.get("examples", ()))
    return EndRule(
        entry["id"],
        regex,
        spelled,
        named,
        examples,
        counterexamples=tuple(entry.get("counterexamples", ())),
        local_ranks=bool(entry.get("local_ranks")),
        whole_host=whole_host,
    )


def _require(condition: bool, path: Path, message: str) -> None:
    if not condition:
        raise ValueError(f"{path}: {message}")
