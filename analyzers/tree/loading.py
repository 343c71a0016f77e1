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
from dataclasses import replace
from functools import lru_cache
from pathlib import Path
from typing import Any

from analyzers.core.bilingual import BilingualError, placeholders, zh_key, zh_text
from analyzers.core.knowledge_cache import cached
from analyzers.library.matching import KNOWLEDGE, STRATEGIES, load_cases, read_yaml, taxonomy
from analyzers.tree.data import (
    LISTS,
    STACKS,
    TEXTS,
    TWIN_TEXTS,
    VERIFY_TEXTS,
    StackTwin,
    Tree,
    TreeNode,
    VerificationItem,
)
from analyzers.tree.facts import TreeFacts
from analyzers.tree.predicates import TreeError, check_predicate

TREE_FILE = KNOWLEDGE / "tree.yaml"
NODE_ID = re.compile(r"^[a-z][a-z0-9_]*$")
_FIELDS = frozenset(
    {"id", "when", "category", *STACKS, *TEXTS, *(zh_key(t) for t in TEXTS), *LISTS}
)
_TWIN_FIELDS = frozenset({*TWIN_TEXTS, *(zh_key(t) for t in TWIN_TEXTS), "commands"})
_LABEL_NAMES = frozenset(TreeFacts().summary())


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
    texts = {name: _text(raw, name, where) for name in TEXTS}
    lists = {name: _strings(raw, name, where) for name in LISTS}
    chinese = _chinese(raw, texts, TEXTS, where)
    return TreeNode(
        id=node_id,
        when=raw.get("when"),
        category=raw.get("category"),
        **texts,
        **lists,
        **chinese,
        **{stack: _twin(raw.get(stack), texts, f"{where}: {stack}") for stack in STACKS},
    )


def _twin(raw: Any, own: Mapping[str, str], where: str) -> StackTwin | None:
    """A stack's texts for a node whose own texts are `own`; its label and question use the
    node's placeholders, which the walk fills from the same facts whichever stack reads them."""
    if raw is None:
        return None
    if not isinstance(raw, Mapping) or not set(raw) & set(TWIN_TEXTS):
        raise TreeError(f"{where}: expected a mapping with 'guidance', 'question' or 'label'")
    unknown = set(raw) - _TWIN_FIELDS
    if unknown:
        raise TreeError(f"{where}: unknown field(s) {sorted(unknown)}")
    if "commands" in raw and "guidance" not in raw:
        raise TreeError(f"{where}: 'commands' go with a 'guidance' of their own")
    texts = {name: _text(raw, name, where) for name in TWIN_TEXTS if name in raw}
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
        chinese = _chinese(entry, english, VERIFY_TEXTS, where)
        item = VerificationItem(str(entry["id"]), **english, **chinese)
        twins = {
            s: _verification_twin(entry[s], item, f"{where}: {s}") for s in STACKS if s in entry
        }
        items.append(replace(item, twins=tuple(twins.items())))
    if len({i.id for i in items}) != len(items):
        raise TreeError(f"{source}: duplicate verification ids")
    return items


def _verification_twin(raw: Any, item: VerificationItem, where: str) -> VerificationItem:
    """A stack's wording of a verification item; a text it leaves out is the item's own."""
    if not isinstance(raw, Mapping) or not set(raw) & set(VERIFY_TEXTS):
        raise TreeError(f"{where}: expected a mapping with 'check' or 'how'")
    unknown = set(raw) - {*VERIFY_TEXTS, *(zh_key(t) for t in VERIFY_TEXTS)}
    if unknown:
        raise TreeError(f"{where}: unknown field(s) {sorted(unknown)}")
    own = {t: raw[t] for t in VERIFY_TEXTS if t in raw}
    chinese = _chinese(raw, own, tuple(own), where)
    return replace(item, **{t: str(v) for t, v in own.items()}, **chinese)
