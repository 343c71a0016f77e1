"""The diagnosis tree, walked once per incident.

The tree is data (`analyzers/knowledge/tree.yaml`, loaded and validated by
`analyzers.tree.loading`). A node asks a question; its children are the possible answers,
each guarded by a predicate over the incident's facts (`analyzers.tree.predicates`), e.g.
``{category: [hccl], has_signature: ['HCCL_BUFFSIZE']}``. The walk enters the first child
whose predicate is true and records, per node, the answer taken and the log lines that
decided it. A node where no child is true (some facts unknown, or nothing fits) ends the
walk as an open question: its step's answer is None. A step's question and answer are worded
for the job's stack (`TreeNode.words_for`): a CUDA job's walk is not asked what npu-smi shows.

Typical use (what the pipeline does)::

    stack = tree_stack(diagnosis.stack, accelerator)
    steps = walk_tree(facts_from(diagnosis, correlation, scans), stack=stack)
    diagnosis.tree_steps, diagnosis.tree_path = steps, [s.node for s in steps]
"""

from __future__ import annotations

from collections.abc import Sequence

from analyzers.core.bilingual import fill
from analyzers.core.report import TreeStep
from analyzers.core.types import ErrorRef
from analyzers.tree.data import (
    NodeWords,
    StackTwin,
    Tree,
    TreeNode,
    VerificationItem,
    tree_stack,
)
from analyzers.tree.facts import TreeFacts, facts_from
from analyzers.tree.loading import load_tree, parse_tree
from analyzers.tree.predicates import MAX_EVIDENCE, TreeError, Verdict, evaluate

__all__ = [
    "NodeWords",
    "StackTwin",
    "Tree",
    "TreeError",
    "TreeFacts",
    "TreeNode",
    "VerificationItem",
    "case_links",
    "facts_from",
    "load_tree",
    "parse_tree",
    "path_category",
    "tree_stack",
    "walk_tree",
]


def walk_tree(
    facts: TreeFacts, tree: Tree | None = None, stack: str | None = None
) -> list[TreeStep]:
    """The path from the root to the deepest node the facts decide, one step per node.

    A step's answer is the label of the child taken; on a leaf it is the leaf's own label
    (the conclusion); None marks an open question. Evidence is the lines behind the answer.
    Questions and labels are the ones written for `stack` (the tree as written for None).
    """
    tree = tree or load_tree()
    node = tree.node(tree.root)
    entry = Verdict(True, (facts.first_error,) if facts.first_error else ())
    steps: list[TreeStep] = []
    while True:
        if not node.children:
            steps.append(_step(node, stack, _label(node, facts, stack), entry.refs))
            return steps
        chosen = _choose(tree, node, facts)
        if chosen is None:
            steps.append(_step(node, stack, None, ()))
            return steps
        child, entry = chosen
        steps.append(_step(node, stack, _label(child, facts, stack), entry.refs))
        node = child


def _choose(tree: Tree, node: TreeNode, facts: TreeFacts) -> tuple[TreeNode, Verdict] | None:
    for child in (tree.node(c) for c in node.children):
        grandchildren = [tree.node(g).when for g in child.children]
        verdict = evaluate(child.when, facts, grandchildren)
        if verdict.value:
            return child, verdict
    return None


def _step(
    node: TreeNode, stack: str | None, answer: str | None, refs: Sequence[ErrorRef]
) -> TreeStep:
    seen: set[tuple[str, int, str]] = set()
    evidence = []
    for ref in refs:
        key = (ref.file, ref.line, ref.text)
        if key not in seen and len(evidence) < MAX_EVIDENCE:
            seen.add(key)
            evidence.append(ref)
    question = node.words_for(stack).question
    return TreeStep(node=node.id, question=question, answer=answer, evidence=evidence)


def _label(node: TreeNode, facts: TreeFacts, stack: str | None) -> str:
    return fill(node.words_for(stack).label, facts.summary())


def path_category(steps: Sequence[TreeStep | str], tree: Tree | None = None) -> str | None:
    """The taxonomy label of the deepest node on a path that names one."""
    tree = tree or load_tree()
    ids = [s if isinstance(s, str) else s.node for s in steps]
    categories = [tree.node(i).category for i in ids if i in tree.nodes]
    return next((c for c in reversed(categories) if c), None)


def case_links(tree: Tree | None = None) -> dict[str, tuple[str, ...]]:
    """Node id -> linked case ids (used by case matching and by the web UI)."""
    tree = tree or load_tree()
    return {n.id: n.cases for n in tree.nodes.values() if n.cases}
