"""Loading and validating the diagnosis tree (`analyzers/knowledge/tree.yaml`).

Validation happens once at load and fails with a message naming the node: unique slug ids,
known fields, known predicate keys with the right argument types, valid regexes, label
placeholders that exist, children that exist and form one tree reachable from the root,
linked cases that exist in the case library, categories and strategies from their lists,
stacks' twins whose question and label use the node's placeholders.
Each text people read has a Chinese sibling (`label_zh`, `question_zh`, `guidance_zh`,
`check_zh`, `how_zh`; see `analyzers.core.bilingual`).
"""

from __future__ import annotations

import re
import string
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path
from typing import Any

from analyzers.classify.accelerator import ASCEND
from analyzers.classify.rules import UNKNOWN_STACK
from analyzers.core.bilingual import BilingualError, placeholders, zh_key, zh_text
from analyzers.core.knowledge_cache import cached
from analyzers.library.matching import KNOWLEDGE, STRATEGIES, load_cases, read_yaml, taxonomy
from analyzers.tree.facts import TreeFacts
from analyzers.tree.predicates import TreeError, check_predicate

TREE_FILE = KNOWLEDGE / "tree.yaml"
NODE_ID = re.compile(r"^[a-z][a-z0-9_]*$")
_TEXTS = ("label", "question", "guidance")
_LISTS = ("commands", "env", "strategy", "cases", "children")
# the stacks a node may speak to in texts of their own; `unknown` is the device-neutral text
# for a job whose stack nobody can tell, and for any job not on Ascend without a text of its own
_STACKS = ("cuda", "cpu", UNKNOWN_STACK)
_FIELDS = frozenset(
    {"id", "when", "category", *_STACKS, *_TEXTS, *(zh_key(t) for t in _TEXTS), *_LISTS}
)
_TWIN_TEXTS = ("guidance", "question", "label")
_TWIN_FIELDS = frozenset({*_TWIN_TEXTS, *(zh_key(t) for t in _TWIN_TEXTS), "commands"})
_VERIFY_TEXTS = ("check", "how")
_LABEL_NAMES = frozenset(TreeFacts().summary())


@dataclass(frozen=True, slots=True)
class StackTwin:
    """What a node tells a job on CUDA, or on CPUs alone, where its own words are written
    for Ascend: the checks are the same, the tools and logs are not (nvidia-smi for npu-smi,
    NCCL's debug lines for CANN's plog, none of them for a gloo job). A job on no stack anyone
    can tell gets the device-neutral twin, which names each stack's way.

    A twin says only what differs: its guidance (with its commands), its question, its label
    (with the node's placeholders); a text it leaves out comes from the next in line
    (`TreeNode.for_stack`, `TreeNode.words_for`)."""

    guidance: str | None = None
    commands: tuple[str, ...] = ()
    guidance_zh: str | None = None
    question: str | None = None
    question_zh: str | None = None
    label: str | None = None
    label_zh: str | None = None


@dataclass(frozen=True, slots=True)
class NodeWords:
    """A node's question and label (the answer a walk enters it with) as a job on one stack
    reads them, each with its Chinese."""

    question: str
    label: str
    question_zh: str | None = None
    label_zh: str | None = None


@dataclass(frozen=True, slots=True)
class TreeNode:
    id: str
    label: str  # the answer shown when the walk enters this node; may hold {placeholders}
    question: str
    guidance: str
    when: Any = None  # predicate mapping; None only on the root
    category: str | None = None
    commands: tuple[str, ...] = ()
    env: tuple[str, ...] = ()
    strategy: tuple[str, ...] = ()
    cases: tuple[str, ...] = ()
    children: tuple[str, ...] = ()
    label_zh: str | None = None
    question_zh: str | None = None
    guidance_zh: str | None = None
    cuda: StackTwin | None = None
    cpu: StackTwin | None = None
    unknown: StackTwin | None = None

    def for_stack(self, stack: str | None) -> TreeNode | StackTwin:
        """Where the guidance and commands shown to a job on `stack` come from: its stack's
        twin, else, for a job not on Ascend, the device-neutral one (Ascend's tools may not be
        on its machines), else the node's own text. The bare tree (`None`) is shown as written.
        """
        return next(t for t in self._in_line(stack) if t.guidance)

    def words_for(self, stack: str | None) -> NodeWords:
        """The question and label a job on `stack` reads, each taken in the order its guidance
        is (`for_stack`): a CUDA or gloo job is not asked what npu-smi shows."""
        line = self._in_line(stack)
        asks = next(t for t in line if t.question)  # the node's own are never empty
        says = next(t for t in line if t.label)
        return NodeWords(
            asks.question or self.question,
            says.label or self.label,
            asks.question_zh,
            says.label_zh,
        )

    def _in_line(self, stack: str | None) -> tuple[TreeNode | StackTwin, ...]:
        if stack is None or stack == ASCEND:
            return (self,)
        twins = {"cuda": self.cuda, "cpu": self.cpu}
        return tuple(t for t in (twins.get(stack), self.unknown, self) if t is not None)


@dataclass(frozen=True, slots=True)
class VerificationItem:
    id: str
    check: str
    how: str = ""
    check_zh: str | None = None
    how_zh: str | None = None
    # the item as a job on a stack reads it, where its `how` names Ascend's calls
    twins: tuple[tuple[str, VerificationItem], ...] = ()

    def for_stack(self, stack: str | None) -> VerificationItem:
        """The item as a job on `stack` reads it, with a node's fallbacks (`TreeNode.for_stack`)."""
        if stack is None or stack == ASCEND:
            return self
        twins = dict(self.twins)
        return twins.get(stack) or twins.get(UNKNOWN_STACK) or self


@dataclass(frozen=True, slots=True)
class Tree:
    root: str
    nodes: Mapping[str, TreeNode]
    verification: tuple[VerificationItem, ...] = ()

    def node(self, node_id: str) -> TreeNode:
        return self.nodes[node_id]

    def to_dict(self) -> dict[str, Any]:
        """The whole tree as plain data, for the web UI's diagram and the API."""
        return {
            "root": self.root,
            "nodes": [_node_dict(n) for n in self.nodes.values()],
            "verification": [
                {f: getattr(v, f) for f in ("id", *_VERIFY_TEXTS, "check_zh", "how_zh")}
                for v in self.verification
            ],
        }


def _node_dict(node: TreeNode) -> dict[str, Any]:
    data = {f: getattr(node, f) for f in ("id", "when", "category", *_TEXTS)}
    data.update({zh_key(f): getattr(node, zh_key(f)) for f in _TEXTS})
    data.update({f: list(getattr(node, f)) for f in _LISTS})
    for stack in _STACKS:
        twin = getattr(node, stack)
        data[stack] = twin and {
            **{f: getattr(twin, f) for t in _TWIN_TEXTS for f in (t, zh_key(t))},
            "commands": list(twin.commands),
        }
    return data


def tree_stack(advice_stack: str | None, accelerator: str | None) -> str:
    """The stack an incident's tree speaks to: the one its advice was written for
    (`diagnosis.stack`), else, where no advice was chosen or the report predates the field, the
    stack its bundle showed; a bundle that showed none is on a stack nobody can tell, and is
    not shown Ascend's tools by default."""
    return advice_stack or accelerator or UNKNOWN_STACK


def load_tree(path: Path | None = None) -> Tree:
    """The validated tree (the default file is read once per process)."""
    if path is None:
        return _default_tree()
    return parse_tree(read_yaml(Path(path)), source=str(path))


@lru_cache(maxsize=1)
def _default_tree() -> Tree:
    # the tree is checked against the case library and the rules: any knowledge file counts
    sources = sorted(KNOWLEDGE.rglob("*.yaml"))
    return cached("tree", sources, lambda: load_tree(TREE_FILE))


def parse_tree(data: Any, source: str = "<string>", case_ids: frozenset[str] | None = None) -> Tree:
    """Validate the tree's data and build it. `case_ids` defaults to the case library's."""
    if not isinstance(data, Mapping) or not isinstance(data.get("nodes"), list):
        raise TreeError(f"{source}: expected a mapping with 'root' and a 'nodes' list")
    nodes = _parse_nodes(data["nodes"], source)
    root = data.get("root")
    if root not in nodes:
        raise TreeError(f"{source}: root {root!r} is not a node")
    known_cases = case_ids if case_ids is not None else frozenset(c.id for c in load_cases())
    for node in nodes.values():
        _check_node(node, nodes, root, known_cases, f"{source}: node {node.id!r}")
    _check_shape(nodes, root, source)
    verification = tuple(_parse_verification(data.get("verification") or [], source))
    return Tree(root=root, nodes=nodes, verification=verification)


def _parse_nodes(raw_nodes: Sequence[Any], source: str) -> dict[str, TreeNode]:
    nodes: dict[str, TreeNode] = {}
    for index, raw in enumerate(raw_nodes):
        node = _parse_node(raw, source, index)
        if node.id in nodes:
            raise TreeError(f"{source}: duplicate node id {node.id!r}")
        nodes[node.id] = node
    return nodes


def _parse_node(raw: Any, source: str, index: int) -> TreeNode:
    if not isinstance(raw, Mapping):
        raise TreeError(f"{source}: node #{index + 1}: expected a mapping")
    node_id = raw.get("id")
    if not isinstance(node_id, str) or not NODE_ID.match(node_id):
        raise TreeError(f"{source}: node #{index + 1}: id must be a slug like 'hccl_buffsize'")
    where = f"{source}: node {node_id!r}"
    unknown = set(raw) - _FIELDS
    if unknown:
        raise TreeError(f"{where}: unknown field(s) {sorted(unknown)}")
    texts = {name: _text(raw, name, where) for name in _TEXTS}
    lists = {name: _strings(raw, name, where) for name in _LISTS}
    chinese = _chinese(raw, texts, _TEXTS, where)
    return TreeNode(
        id=node_id,
        when=raw.get("when"),
        category=raw.get("category"),
        **texts,
        **lists,
        **chinese,
        **{stack: _twin(raw.get(stack), texts, f"{where}: {stack}") for stack in _STACKS},
    )


def _twin(raw: Any, own: Mapping[str, str], where: str) -> StackTwin | None:
    """A stack's texts for a node whose own texts are `own`; its label and question use the
    node's placeholders, which the walk fills from the same facts whichever stack reads them."""
    if raw is None:
        return None
    if not isinstance(raw, Mapping) or not set(raw) & set(_TWIN_TEXTS):
        raise TreeError(f"{where}: expected a mapping with 'guidance', 'question' or 'label'")
    unknown = set(raw) - _TWIN_FIELDS
    if unknown:
        raise TreeError(f"{where}: unknown field(s) {sorted(unknown)}")
    if "commands" in raw and "guidance" not in raw:
        raise TreeError(f"{where}: 'commands' go with a 'guidance' of their own")
    texts = {name: _text(raw, name, where) for name in _TWIN_TEXTS if name in raw}
    for name in ("question", "label"):
        if name in texts and placeholders(texts[name]) != placeholders(own[name]):
            raise TreeError(
                f"{where}: '{name}' must use the node's placeholders"
                f" ({', '.join(sorted(placeholders(own[name]))) or 'none'})"
            )
    return StackTwin(
        commands=_strings(raw, "commands", where),
        **texts,
        **_chinese(raw, texts, tuple(texts), where),
    )


def _chinese(
    raw: Mapping[str, Any], english: Mapping[str, str], names: Sequence[str], where: str
) -> dict[str, str | None]:
    try:
        return {zh_key(n): zh_text(raw, n, english[n], where) for n in names}
    except BilingualError as error:
        raise TreeError(str(error)) from error


def _text(raw: Mapping[str, Any], name: str, where: str) -> str:
    value = raw.get(name)
    if not isinstance(value, str) or not value.strip():
        raise TreeError(f"{where}: '{name}' must be a non-empty string")
    return " ".join(value.split())


def _strings(raw: Mapping[str, Any], name: str, where: str) -> tuple[str, ...]:
    value = raw.get(name, [])
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise TreeError(f"{where}: '{name}' must be a list of strings")
    return tuple(value)


def _check_node(
    node: TreeNode, nodes: Mapping[str, TreeNode], root: str, cases: frozenset[str], where: str
) -> None:
    if node.id != root and node.when is None:
        raise TreeError(f"{where}: missing 'when' predicate")
    if node.when is not None:
        check_predicate(node.when, where)
    missing = [c for c in node.children if c not in nodes]
    if missing:
        raise TreeError(f"{where}: unknown child node(s) {missing}")
    unknown_cases = [c for c in node.cases if c not in cases]
    if unknown_cases:
        raise TreeError(f"{where}: unknown case id(s) {unknown_cases}")
    if node.category is not None and node.category not in taxonomy():
        raise TreeError(f"{where}: category {node.category!r} is not in the taxonomy")
    if set(node.strategy) - STRATEGIES:
        raise TreeError(f"{where}: unknown strategy {sorted(set(node.strategy) - STRATEGIES)}")
    names = {name for _, name, _, _ in string.Formatter().parse(node.label) if name is not None}
    if names - _LABEL_NAMES:
        raise TreeError(f"{where}: unknown label placeholder(s) {sorted(names - _LABEL_NAMES)}")


def _check_shape(nodes: Mapping[str, TreeNode], root: str, source: str) -> None:
    """One parent per node and every node reachable from the root (hence no cycles)."""
    parents: dict[str, str] = {}
    for node in nodes.values():
        for child in node.children:
            if child in parents or child == root:
                raise TreeError(f"{source}: node {child!r} has more than one parent")
            parents[child] = node.id
    reachable, todo = set(), [root]
    while todo:
        current = todo.pop()
        reachable.add(current)
        todo.extend(nodes[current].children)
    unreachable = sorted(set(nodes) - reachable)
    if unreachable:
        raise TreeError(f"{source}: node(s) not reachable from the root: {unreachable}")


def _parse_verification(raw: Sequence[Any], source: str) -> list[VerificationItem]:
    items = []
    for entry in raw:
        if not isinstance(entry, Mapping) or not entry.get("id") or not entry.get("check"):
            raise TreeError(f"{source}: each verification item needs 'id' and 'check'")
        english = {"check": str(entry["check"]), "how": str(entry.get("how", ""))}
        where = f"{source}: verification {entry['id']!r}"
        chinese = _chinese(entry, english, _VERIFY_TEXTS, where)
        item = VerificationItem(str(entry["id"]), **english, **chinese)
        twins = {
            s: _verification_twin(entry[s], item, f"{where}: {s}") for s in _STACKS if s in entry
        }
        items.append(replace(item, twins=tuple(twins.items())))
    if len({i.id for i in items}) != len(items):
        raise TreeError(f"{source}: duplicate verification ids")
    return items


def _verification_twin(raw: Any, item: VerificationItem, where: str) -> VerificationItem:
    """A stack's wording of a verification item; a text it leaves out is the item's own."""
    if not isinstance(raw, Mapping) or not set(raw) & set(_VERIFY_TEXTS):
        raise TreeError(f"{where}: expected a mapping with 'check' or 'how'")
    unknown = set(raw) - {*_VERIFY_TEXTS, *(zh_key(t) for t in _VERIFY_TEXTS)}
    if unknown:
        raise TreeError(f"{where}: unknown field(s) {sorted(unknown)}")
    own = {t: raw[t] for t in _VERIFY_TEXTS if t in raw}
    chinese = _chinese(raw, own, tuple(own), where)
    return replace(item, **{t: str(v) for t, v in own.items()}, **chinese)
