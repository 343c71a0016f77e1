"""Choose the next actions for a diagnosis from `knowledge/actions.yaml`.

Advice for the matched signature comes first (it knows the most), then advice for the
codes in the evidence, then the category's general advice. When a verdict over the ranks
relabelled the first error (ranks started with another world size), what that verdict names
has to change, so its advice leads. A log switch is only suggested
when the bundle does not show it already set, and plog collection only when no plog was
uploaded. General advice that the first error's own words contradict is left out (`unless_text`:
the category's advice on device memory, when the host refused the allocation). Advice written for one accelerator stack (npu-smi and CANN's switches, or
nvidia-smi and CUDA's) goes only to jobs on that stack: the one the bundle shows, else the
one the first error names. A first error that names another accelerator's runtime (torch_xla
and TPUs, the Neuron runtime, Tenstorrent's, Graphcore's poptorch) gets neither stack's
advice, only what is written for its signature and for every stack. A job that shows no device
at all (a CPU job that never states its gloo backend, a CUDA job whose lines name no CUDA word)
is on a stack nobody can tell: Ascend's steps (npu-smi, CANN's switches) would send its
engineer after tools the job may not have, so it gets the advice written for every stack and,
where the advice is written per stack, the device-neutral twin (`stack: unknown`) that names
each stack's way. A torch build's refusal of a device (`Torch not compiled with CUDA enabled`,
`Distributed package doesn't have NCCL built in`) names what the code asked for, not a runtime
the job had, so its words name no stack: the bundle's own evidence decides, else nobody can tell.
"""

from __future__ import annotations

import re
import string
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from analyzers.classify.accelerator import ASCEND, load_stacks
from analyzers.classify.action_book import UNKNOWN_STACK, Action, ActionBook
from analyzers.core import regex_programs

MAX_ACTIONS = 6
_FORMATTER = string.Formatter()
# CUDA's own words, its runtime's prefix (`CUDART error:`) among them, and a CUDA header as the
# place of a failed call (`custom_all_reduce.cuh:368`): C++ extensions' checks often name only that.
_CUDA_WORDS = regex_programs.compile(
    r"\b(?:cuda|cudart|nccl|nvidia|gpu|cublas|cudnn)\b|\w\.cuh\b", re.IGNORECASE
)
# Runtimes of other accelerators, as their lines name them (headers included: the Neuron
# runtime's component column says TDRV or NRT where the message names nothing).
_OTHER_ACCELERATOR_WORDS = regex_programs.compile(
    r"\btorch_xla\b|\bXLA\b|/xla/|\bTPU|\bXRT\b|\bPJRT\b|\blibtpu\b"
    r"|\bNeuron|\bneuronx|\bnrt_\w+|\bNRT\b|\bTDRV\b"
    r"|\bTenstorrent|\bTT_(?:FATAL|THROW)\b|\btt[-_]metal\b|\bttnn\b"
    r"|\bIPU|\bpoptorch\b|\bpopart\b|\bPoplar\b|\bCerebras\b"
)
OTHER = "other"  # a stack no advice is written for: only stack-free advice applies
# A build without a device or backend says so by naming it: a CPU-only torch (Ascend's torch
# under torch_npu is one) asked for CUDA, or a build without NCCL asked for that backend.
_NOT_BUILT_WITH = regex_programs.compile(
    r"\bTorch not compiled with \w+ enabled\b|\bDistributed package doesn't have \w+ built in\b",
    re.IGNORECASE,
)


@dataclass(frozen=True, slots=True)
class Situation:
    """What the action conditions and placeholders look at."""

    category: str
    signature_ids: Sequence[str] = ()
    codes: Sequence[str] = ()
    first_error_text: str = ""
    first_error_line: str = ""  # the same line as written, with its header
    env: Mapping[str, str] = field(default_factory=dict)
    file_kinds: frozenset[str] = frozenset()
    multi_rank: bool = False
    values: Mapping[str, str] = field(default_factory=dict)  # {ranks}, {op}, {code}, ...
    accelerator: str | None = None  # the stack the bundle shows, when it shows one
    verdict: str | None = None  # the job-level verdict that replaced the first error's reading


def next_actions(book: ActionBook, situation: Situation) -> list[str]:
    """Up to MAX_ACTIONS distinct pieces of advice, most specific first."""
    chosen: dict[str, str] = {}
    stack = stack_of(situation)
    for action in _candidates(book, situation):
        if action.id in chosen or not _applies(action, situation, stack):
            continue
        text = _fill(action.text, situation.values)
        if text is not None:
            chosen[action.id] = text
        if len(chosen) == MAX_ACTIONS:
            break
    return list(chosen.values())


def asks_for(book: ActionBook, situation: Situation, name: str) -> bool:
    """Whether any advice this situation can reach fills the value `name`: a value that
    costs a pass over the timeline is worked out only then."""
    placeholder = "{" + name + "}"
    return any(placeholder in action.text for action in _candidates(book, situation))


def _candidates(book: ActionBook, situation: Situation) -> Iterable[Action]:
    # a verdict over the ranks relabelled the first error: what has to change is what it names
    if situation.verdict:
        yield from book.verdicts.get(situation.verdict, ())
    for signature_id in situation.signature_ids:
        yield from book.signatures.get(signature_id, ())
    for code in situation.codes:
        yield from book.codes.get(code, ())
    yield from book.categories.get(situation.category, ())


def _applies(action: Action, situation: Situation, stack: str) -> bool:
    if any(situation.env.get(var) == value for var, value in action.unless_env.items()):
        return False
    if action.unless_file_kind and action.unless_file_kind in situation.file_kinds:
        return False
    if action.when_text and not action.when_text.search(situation.first_error_text):
        return False
    if action.unless_text and action.unless_text.search(situation.first_error_text):
        return False
    if action.stack and action.stack != stack:
        return False
    return situation.multi_rank or not action.multi_rank_only


def _fill(text: str, values: Mapping[str, str]) -> str | None:
    """The text with its placeholders filled, or None when one has no value."""
    names = [name for _, name, _, _ in _FORMATTER.parse(text) if name]
    if any(values.get(name) is None for name in names):
        return None
    return text.format_map(values)


def stack_of(situation: Situation) -> str:
    """The accelerator stack the advice is for: the bundle's, else the one the first error
    names (a device a torch build says it lacks is not one), else `UNKNOWN_STACK`."""
    if situation.accelerator:
        return situation.accelerator
    text = _NOT_BUILT_WITH.sub(" ", situation.first_error_text)
    if _CUDA_WORDS.search(text):
        return "cuda"
    said = _NOT_BUILT_WITH.sub(" ", f"{text}\n{situation.first_error_line}")
    if _OTHER_ACCELERATOR_WORDS.search(said):
        return OTHER
    ascend = next(stack for stack in load_stacks() if stack.name == ASCEND)
    return ASCEND if ascend.lines.search(said) else UNKNOWN_STACK
