"""The diagnosis tree as values: its nodes, their stacks' twins, the verification checklist.

A node holds the words of every stack it speaks to; `TreeNode.for_stack` and `words_for` pick
the ones a job on a given stack reads. The tree is read and checked by `analyzers.tree.loading`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from analyzers.classify.accelerator import ASCEND
from analyzers.classify.action_book import UNKNOWN_STACK
from analyzers.core.bilingual import zh_key

TEXTS = ("label", "question", "guidance")
LISTS = ("commands", "env", "strategy", "cases", "children")
# the stacks a node may speak to in texts of their own; `unknown` is the device-neutral text
# for a job whose stack nobody can tell, and for any job not on Ascend without a text of its own
STACKS = ("cuda", "cpu", UNKNOWN_STACK)
TWIN_TEXTS = ("guidance", "question", "label")
VERIFY_TEXTS = ("check", "how")


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
                {f: getattr(v, f) for f in ("id", *VERIFY_TEXTS, "check_zh", "how_zh")}
                for v in self.verification
            ],
        }


def _node_dict(node: TreeNode) -> dict[str, Any]:
    data = {f: getattr(node, f) for f in ("id", "when", "category", *TEXTS)}
    data.update({zh_key(f): getattr(node, zh_key(f)) for f in TEXTS})
    data.update({f: list(getattr(node, f)) for f in LISTS})
    for stack in STACKS:
        twin = getattr(node, stack)
        data[stack] = twin and {
            **{f: getattr(twin, f) for t in TWIN_TEXTS for f in (t, zh_key(t))},
            "commands": list(twin.commands),
        }
    return data


def tree_stack(advice_stack: str | None, accelerator: str | None) -> str:
    """The stack an incident's tree speaks to: the one its advice was written for
    (`diagnosis.stack`), else, where no advice was chosen or the report predates the field, the
    stack its bundle showed; a bundle that showed none is on a stack nobody can tell, and is
    not shown Ascend's tools by default."""
    return advice_stack or accelerator or UNKNOWN_STACK
