"""The advice file, `knowledge/actions.yaml`, read and checked: next steps per category,
signature, error code and job-level verdict. An entry reads::

    signatures:
      cfg.ddp_graph_split_refused:
        - id: turn_off_ddp_graph_split
          text: Set torch._dynamo.config.optimize_ddp = False before compiling ...

A wrong field fails at start naming the file, the entry and the field, so a typo never
silently drops advice from a report.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from analyzers.classify.taxonomy import TAXONOMY
from analyzers.core.bilingual import zh_text
from analyzers.core.yamlcheck import (
    Entry,
    KnowledgeError,
    compile_regex,
    read_yaml,
    reject_duplicates,
)

ACTION_STACKS = ("ascend", "cuda", "cpu")  # the stacks `classify.accelerator` tells apart
# a job that shows none of them: its advice names each stack's way (`report.advise`)
UNKNOWN_STACK = "unknown"


@dataclass(frozen=True, slots=True)
class Action:
    id: str
    text: str
    unless_env: Mapping[str, str]
    unless_file_kind: str | None = None
    when_text: re.Pattern[str] | None = None
    multi_rank_only: bool = False
    text_zh: str | None = None  # the same advice in Chinese, same placeholders
    unless_text: re.Pattern[str] | None = None  # skipped when the first error matches
    stack: str | None = None  # advice for one stack only (ascend, cuda, cpu, or unknown)


@dataclass(frozen=True, slots=True)
class ActionBook:
    categories: Mapping[str, tuple[Action, ...]]
    signatures: Mapping[str, tuple[Action, ...]]
    codes: Mapping[str, tuple[Action, ...]]
    # a job-level verdict (`report.multirank`) that replaced the first error's own reading
    verdicts: Mapping[str, tuple[Action, ...]] = field(default_factory=dict)


def load_actions(path: Path) -> ActionBook:
    data = Entry(read_yaml(path), path.name)
    sections = {
        key: _action_section(Entry(data.get(key, dict), f"{path.name}: {key}"))
        for key in ("categories", "signatures", "codes")
    }
    verdicts = Entry(data.get("verdicts", dict, {}), f"{path.name}: verdicts")
    unknown = set(sections["categories"]) - set(TAXONOMY)
    if unknown:
        raise KnowledgeError(f"{path.name}: categories: unknown category {sorted(unknown)}")
    return ActionBook(**sections, verdicts=_action_section(verdicts))


def _action_section(section: Entry) -> dict[str, tuple[Action, ...]]:
    result = {}
    for key, items in section.data.items():
        where = f"{section.where}: '{key}'"
        if not isinstance(items, list) or not items:
            raise KnowledgeError(f"{where}: expected a non-empty list of actions")
        actions = tuple(_action(Entry(item, f"{where} #{n + 1}")) for n, item in enumerate(items))
        reject_duplicates([a.id for a in actions], where, "action id")
        result[str(key)] = actions
    return result


def _action(entry: Entry) -> Action:
    when_text = entry.get("when_text", str, None)
    unless_text = entry.get("unless_text", str, None)
    unless_env = entry.get("unless_env", dict, {})
    text = " ".join(entry.get("text", str).split())
    return Action(
        id=entry.get("id", str),
        text=text,
        text_zh=zh_text(entry.data, "text", text, entry.where),
        unless_env={str(k): str(v) for k, v in unless_env.items()},
        unless_file_kind=entry.get("unless_file_kind", str, None),
        when_text=compile_regex(when_text, re.IGNORECASE, entry, "when_text")
        if when_text
        else None,
        multi_rank_only=entry.get("multi_rank_only", bool, False),
        stack=_action_stack(entry),
        unless_text=compile_regex(unless_text, re.IGNORECASE, entry, "unless_text")
        if unless_text
        else None,
    )


def _action_stack(entry: Entry) -> str | None:
    stack = entry.get("stack", str, None)
    stacks = [*ACTION_STACKS, UNKNOWN_STACK]
    if stack is not None and stack not in stacks:
        raise entry.fail(f"stack must be one of {stacks}, not {stack!r}")
    return stack
