"""The diagnosis tree as the pages draw it: every node, with an incident's path laid over it.

The tree itself comes from `analyzers.tree.walk.load_tree()`; an incident adds the steps its
analysis took (`diagnosis.tree_steps`: answer and evidence per node) and the triage marks
people saved (a node checked, or a branch chosen instead of the analyzer's).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from itertools import pairwise
from typing import Any

from django.urls import reverse

from analyzers.classify.accelerator import switches_for
from analyzers.tree.walk import (
    NodeWords,
    StackTwin,
    Tree,
    TreeNode,
    VerificationItem,
    load_tree,
    tree_stack,
)
from incidents.library.models import Case
from incidents.tree.models import TreeMark, TreeMarkRevision

_PLACEHOLDER = re.compile(r"\{(\w+)\}")


@dataclass(frozen=True, slots=True)
class CaseLink:
    slug: str
    title: str
    url: str
    translations: Mapping[str, Any] = field(default_factory=dict)  # as Case.translations


@dataclass
class NodeView:
    node: TreeNode
    depth: int
    label: str
    when_text: str
    cases: list[CaseLink]
    children: list[NodeView] = field(default_factory=list)
    taken: bool = False
    open_question: bool = False
    answer: str | None = None
    evidence: list[dict[str, Any]] = field(default_factory=list)
    mark: TreeMark | None = None
    history: list[TreeMarkRevision] = field(default_factory=list)
    chosen_by_triage: bool = False
    env: list[str] = field(
        default_factory=list
    )  # the node's switches, as the job's stack names them
    stack: str | None = None  # the stack the report's advice is for

    @property
    def texts(self) -> TreeNode | StackTwin:
        """The guidance and commands written for the job's stack."""
        return self.node.for_stack(self.stack)

    @property
    def words(self) -> NodeWords:
        """The question and label written for the job's stack."""
        return self.node.words_for(self.stack)

    @property
    def id(self) -> str:
        return self.node.id

    @property
    def choices(self) -> list[tuple[str, str]]:
        return [(child.id, child.words.label) for child in self.children]


@dataclass
class TreeView:
    root: NodeView
    verification: Sequence[VerificationItem]
    path: list[str]
    open_nodes: list[str]
    node_count: int

    def nodes(self) -> list[NodeView]:
        out, todo = [], [self.root]
        while todo:
            view = todo.pop()
            out.append(view)
            todo.extend(reversed(view.children))
        return out


def plain_label(label: str) -> str:
    """A label with its placeholders shown as names: `explicit error (‹category›)`."""
    return _PLACEHOLDER.sub(lambda m: f"‹{m.group(1).replace('_', ' ')}›", label)


@dataclass(frozen=True, slots=True)
class _Overlay:
    """What an incident lays over the tree: steps, answers, marks, case links."""

    steps: dict[str, dict[str, Any]]
    answers: dict[str, str]
    marks: Mapping[str, TreeMark]
    history: Mapping[str, list[TreeMarkRevision]]
    links: dict[str, CaseLink]
    chosen: frozenset[str]
    stack: str | None = None  # the stack the report's advice is for (`report_stack`)


def build_tree_view(
    report: Mapping[str, Any] | None = None,
    marks: Mapping[str, TreeMark] | None = None,
    tree: Tree | None = None,
    history: Mapping[str, list[TreeMarkRevision]] | None = None,
) -> TreeView:
    """The whole tree, with the report's path, the marks and their history laid over it."""
    tree = tree or load_tree()
    steps = _steps(report)
    marks = marks or {}
    overlay = _Overlay(
        steps={s["node"]: s for s in steps},
        answers=_answers_by_node(steps),
        marks=marks,
        history=history or {},
        links=_case_links(tree),
        chosen=frozenset(m.branch for m in marks.values() if m.state == TreeMark.State.OVERRIDE),
        stack=report_stack(report),
    )
    root = _build(tree, tree.root, 0, overlay)
    open_nodes = [s["node"] for s in steps if s.get("answer") is None]
    checklist = [item.for_stack(overlay.stack) for item in tree.verification]
    return TreeView(root, checklist, [s["node"] for s in steps], open_nodes, len(tree.nodes))


def report_stack(report: Mapping[str, Any] | None) -> str | None:
    """The stack the report's advice was written for, so the tree's steps say the same (the
    stack the analysis worded the walked steps for, `tree_stack`). The bare tree (no report)
    is shown as written."""
    if report is None:
        return None
    stack = (report.get("diagnosis") or {}).get("stack")
    return tree_stack(stack, (report.get("environment") or {}).get("accelerator"))


def _steps(report: Mapping[str, Any] | None) -> list[dict[str, Any]]:
    diagnosis = (report or {}).get("diagnosis") or {}
    steps = diagnosis.get("tree_steps")
    if steps:
        return [s for s in steps if isinstance(s, dict) and s.get("node")]
    return [{"node": n, "answer": "", "evidence": []} for n in diagnosis.get("tree_path") or []]


def _answers_by_node(steps: Sequence[dict[str, Any]]) -> dict[str, str]:
    """The label a node was entered with is the answer its parent's step recorded."""
    labels = {}
    for parent, child in pairwise(steps):
        if parent.get("answer"):
            labels[child["node"]] = parent["answer"]
    return labels


def _build(tree: Tree, node_id: str, depth: int, overlay: _Overlay) -> NodeView:
    node = tree.node(node_id)
    step = overlay.steps.get(node_id)
    view = NodeView(
        node=node,
        depth=depth,
        label=overlay.answers.get(node_id) or plain_label(node.words_for(overlay.stack).label),
        when_text=json.dumps(node.when, ensure_ascii=False) if node.when is not None else "",
        cases=[overlay.links[c] for c in node.cases if c in overlay.links],
        taken=step is not None,
        open_question=step is not None and step.get("answer") is None,
        answer=step.get("answer") if step else None,
        evidence=list(step.get("evidence") or []) if step else [],
        mark=overlay.marks.get(node_id),
        history=list(overlay.history.get(node_id, [])),
        chosen_by_triage=node_id in overlay.chosen,
        env=switches_for(overlay.stack, node.env),
        stack=overlay.stack,
    )
    view.children = [_build(tree, c, depth + 1, overlay) for c in node.children]
    return view


def _case_links(tree: Tree) -> dict[str, CaseLink]:
    slugs = {c for node in tree.nodes.values() for c in node.cases}
    rows = Case.objects.filter(slug__in=slugs).values_list("slug", "title", "translations")
    found = {slug: (title, translations) for slug, title, translations in rows}
    return {slug: _case_link(slug, found.get(slug)) for slug in sorted(slugs)}


def _case_link(slug: str, row: tuple[str, dict[str, Any]] | None) -> CaseLink:
    if row is None:
        return CaseLink(slug, slug, "")  # the library was not loaded with it (yet)
    title, translations = row
    return CaseLink(slug, title, reverse("library:case", args=[slug]), translations or {})


def marks_for(incident_id: int) -> dict[str, TreeMark]:
    marks = TreeMark.objects.filter(incident_id=incident_id).select_related("user")
    return {m.node_id: m for m in marks}


def history_for(incident_id: int) -> dict[str, list[TreeMarkRevision]]:
    """Each node's mark revisions, newest first."""
    history: dict[str, list[TreeMarkRevision]] = {}
    revisions = TreeMarkRevision.objects.filter(incident_id=incident_id).select_related("user")
    for revision in revisions:
        history.setdefault(revision.node_id, []).append(revision)
    return history
