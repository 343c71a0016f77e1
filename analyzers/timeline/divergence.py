"""Which ranks left the sequence of checkpoints the others followed, and a sentence saying so.

A rank that stops early or runs ahead is not divergent: that is progress, judged elsewhere.
Divergence is a rank logging a different checkpoint at the same position, the sign of ranks
taking different code paths (a skipped collective, a branch on rank-local data).

The vote is position by position among the ranks still on the common path, over every
checkpoint. Ranks nearly always agree, so instead of walking positions one by one the
sequences are compared as bytes: the next position where some voter differs is found by
binary search over memory comparisons, and only those positions are voted on.

Pipeline stages log different layer numbers by design: stage r holds its own layers and prints
`layer N passed` only for them (rank 0 layers 0-1, rank 1 layers 2-3). When every rank that
logs layer lines logs a set of layer numbers no other rank logs, the ranks' layer lines are
compared by their place in the rank's own set (its first layer, its second), so stages running
the same schedule agree. A stage split into tensor-parallel ranks is several ranks logging the
same set: the stages are then the groups of ranks with equal sets, each group's set disjoint
from every other group's. Counterexample: tensor-parallel ranks share every layer number, and a
rank that skipped a layer the others ran still shares the rest, so either keeps its numbers.
A stage that names each part by its layer (`layer 4 / self_attn passed`, read from
`model.layers.4.self_attn passed`) logs its layer numbers in those lines instead: each such
line is compared by its layer's place and its part, so stage 1's `layer 2 / mlp passed`
stands where stage 0's `layer 0 / mlp passed` does.

A server's data-parallel replicas serve queues of their own: each replica's ranks tag their
phases with the request they run (`request 3 / decode step 5 passed`), and requests are of
uneven lengths, so one replica is at its first request's step 4 while another has begun its
second request, or has served its last and logged success. Where the ranks still on the path
disagree only between request-tagged lines (and success lines), they are serving different
requests, not taking different code paths: the comparison stops there, and only what was
found before it counts. Counterexample: a rank whose request line stands where its peers log
a layer or an untagged phase has left their path.

Pipeline stages that log each microbatch (`microbatch 1 / fwd passed`) run them in the order
their schedule gives their place in the pipeline: under 1F1B the first stage pushes several
microbatches forward before its first backward while the last stage alternates, so their
sequences part at the first backward by design. Where the ranks still on the path disagree
only between microbatch lines, the comparison stops there as for served requests.
Counterexample: a rank whose microbatch line stands where its peers log a step line or a layer
has left their path.
"""

from __future__ import annotations

import re
from array import array
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass

from analyzers.checkpoints.patterns import classify_text
from analyzers.core.checkpoint_timeline import Timeline
from analyzers.core.phrases import Said, ranks_said, say

ITEM = 4  # bytes per text id in a sequence's buffer (array "I")


@dataclass(frozen=True, slots=True)
class Divergence:
    ranks: list[int]  # every rank that left the common path
    rank: int | None = None  # the first to leave
    position: int | None = None  # 0-based index of its first different checkpoint
    sentence: str | None = None
    sentence_zh: str | None = None  # the same sentence in Chinese


_LAYER = re.compile(r"layer (\d+) passed")
# a part line that names its layer, as knowledge/checkpoints.yaml normalises it
_LAYER_PART = re.compile(r"layer (\d+) / (.+)")
# a pipeline stage's per-microbatch line, as knowledge/checkpoints.yaml normalises it, with
# the verb the stage printed (`microbatch 2 / fwd passed`, `microbatch 2 / recv ok`)
_MICROBATCH = re.compile(r"microbatch \d+ / \S+ (?:passed|ok|done|finished|completed?|ready)")


def divergence(timeline: Timeline) -> Divergence:
    stages = stage_layers(timeline)
    views = {
        r: memoryview(
            _stage_relative(seq.text, stages[r]).tobytes() if stages else seq.text.tobytes()
        )
        for r, seq in timeline.ranks.items()
    }
    left = _vote(views, _served(timeline), _microbatches(timeline))
    if not left:
        return Divergence([])
    rank = min(left, key=lambda r: (left[r], r))
    sentence = _sentence(timeline, left, rank)
    return Divergence(sorted(left), rank, left[rank], sentence.en, sentence.zh)


def _served(timeline: Timeline) -> tuple[frozenset[bytes], frozenset[bytes]]:
    """The items (as in a sequence's buffer) of request-tagged texts and of success texts."""
    tagged, done = set(), set()
    for tid, text in enumerate(timeline.texts):
        hit = classify_text(text)
        if hit is not None and hit.request is not None:
            tagged.add(array("I", [tid]).tobytes())
        elif hit is not None and hit.role == "success":
            done.add(array("I", [tid]).tobytes())
    return frozenset(tagged), frozenset(done)


def _microbatches(timeline: Timeline) -> frozenset[bytes]:
    """The items (as in a sequence's buffer) of a pipeline stage's microbatch lines."""
    return frozenset(
        array("I", [tid]).tobytes()
        for tid, text in enumerate(timeline.texts)
        if _MICROBATCH.fullmatch(text.strip())
    )


def _vote(
    views: Mapping[int, memoryview],
    served: tuple[frozenset[bytes], frozenset[bytes]] = (frozenset(), frozenset()),
    microbatches: frozenset[bytes] = frozenset(),
) -> dict[int, int]:
    """Rank -> position where it left the majority's path (up to where replicas of a server
    part on the requests they serve, or pipeline stages on their schedule's order)."""
    tagged, done = served
    lengths = {r: len(v) // ITEM for r, v in views.items()}
    on_path = sorted(views)
    left: dict[int, int] = {}
    position = 0
    while True:
        voters = [r for r in on_path if lengths[r] > position]
        if len(voters) < 2:
            return left
        ref = max(voters, key=lambda r: (lengths[r], -r))
        differs = [first_difference(views[r], views[ref], position, lengths[r]) for r in voters]
        real = [d for r, d in zip(voters, differs, strict=True) if d < lengths[r]]
        if not real:
            return left
        at = min(real)
        ballot = [r for r in voters if lengths[r] > at]
        items = {_item(views[r], at) for r in ballot}
        if items & tagged and items <= tagged | done:
            return left
        if len(items) > 1 and items <= microbatches:
            return left
        expected = _majority(views, ballot, at)
        for r in ballot:
            if _item(views[r], at) != expected:
                left[r] = at
        on_path = [r for r in on_path if r not in left]
        position = at + 1


def stage_layers(timeline: Timeline) -> dict[int, dict[int, int]] | None:
    """Rank -> {layer-line text id: its place among the rank's own layer numbers, with the
    part a part line names}, when the ranks hold disjoint sets of layers (pipeline stages);
    None otherwise."""
    return _stages(timeline, _layer_numbers(timeline))


def microbatch_stages(timeline: Timeline) -> bool:
    """Whether every rank is a pipeline stage logging each microbatch it pushed through
    (`microbatch 3 / forward passed`). A stage sends a microbatch on before the next stage
    has finished it, so upstream stages are microbatches ahead of downstream ones by the
    schedule: how many lines a stage logged says nothing about who stopped the pipeline."""
    ids = {tid for tid, text in enumerate(timeline.texts) if _MICROBATCH.fullmatch(text.strip())}
    ranks = timeline.ranks
    if not ids or len(ranks) < 2:
        return False
    return all(not ids.isdisjoint(seq.text) for seq in ranks.values())


def stage_order(timeline: Timeline) -> list[list[tuple[int, int, int]]] | None:
    """Pipeline stages in layer order, each the list of its ranks (one, or its tensor-parallel
    ranks in rank order) as (rank, times it logged its first layer line, times it logged its
    last one): microbatches started and finished. None when the ranks are not pipeline stages
    (`stage_layers`). Where a stage names its layers in part lines, a microbatch started once
    any part of its first layer was logged and finished once every part of its last was."""
    numbers = _layer_numbers(timeline)
    stages = _stages(timeline, numbers)
    if not stages:
        return None
    out: dict[int, list[tuple[int, int, int]]] = {}
    for rank, places in sorted(stages.items()):
        texts = timeline.ranks[rank].text
        layers = sorted({numbers[tid][0] for tid in places})
        first = [texts.count(t) for t in places if numbers[t][0] == layers[0]]
        last = [texts.count(t) for t in places if numbers[t][0] == layers[-1]]
        out.setdefault(layers[0], []).append((rank, max(first), min(last)))
    return [out[first] for first in sorted(out)]


def _layer_numbers(timeline: Timeline) -> dict[int, tuple[int, str]]:
    """Text id -> (layer number, part), for the `layer N passed` lines of the timeline (no
    part) and the part lines that name their layer (`layer N / attention passed`)."""
    numbers = {}
    for tid, text in enumerate(timeline.texts):
        found = _LAYER.fullmatch(text.strip()) or _LAYER_PART.fullmatch(text.strip())
        if found:
            numbers[tid] = (int(found.group(1)), found.group(2) if found.re is _LAYER_PART else "")
    return numbers


def _stages(
    timeline: Timeline, numbers: Mapping[int, tuple[int, str]]
) -> dict[int, dict[int, int]] | None:
    if not numbers:
        return None
    held: dict[int, dict[int, tuple[int, str]]] = {}
    for rank, seq in timeline.ranks.items():
        held[rank] = {tid: numbers[tid] for tid in set(seq.text) if tid in numbers}
    logging = [r for r in held if held[r]]
    if len(logging) < 2 or len(logging) != len(held):
        return None
    groups = {frozenset(layer for layer, _ in held[rank].values()) for rank in logging}
    if len(groups) < 2 or sum(map(len, groups)) != len(frozenset().union(*groups)):
        return None  # one group is no pipeline; overlapping groups are no stages
    shared: dict[tuple[int, str], int] = {}  # (place of the layer, part) -> one id for all ranks
    out: dict[int, dict[int, int]] = {}
    for rank, ids in held.items():
        order = {layer: place for place, layer in enumerate(sorted({n for n, _ in ids.values()}))}
        out[rank] = {
            tid: shared.setdefault((order[layer], part), len(shared))
            for tid, (layer, part) in sorted(ids.items(), key=lambda item: item[1])
        }
    return out


def _stage_relative(texts: array, places: Mapping[int, int]) -> array:
    """The rank's text ids with each layer line replaced by a shared id for its place."""
    top = 1 << 31
    return array(texts.typecode, (top + places[t] if t in places else t for t in texts))


def first_difference(a: memoryview, b: memoryview, start: int, stop: int) -> int:
    """The first index in [start, stop) where the two sequences differ, else stop."""
    low, high = start, stop
    if a[low * ITEM : high * ITEM] == b[low * ITEM : high * ITEM]:
        return stop
    while high - low > 1:  # invariant: a difference lies in [low, high)
        middle = (low + high) // 2
        if a[low * ITEM : middle * ITEM] == b[low * ITEM : middle * ITEM]:
            low = middle
        else:
            high = middle
    return low


def _item(view: memoryview, index: int) -> bytes:
    return bytes(view[index * ITEM : (index + 1) * ITEM])


def _majority(views: Mapping[int, memoryview], ballot: list[int], at: int) -> bytes:
    """The most logged text at a position; a tie goes to the lowest rank's text."""
    texts = {r: _item(views[r], at) for r in ballot}
    votes = Counter(texts.values())
    best = max(votes.values())
    return next(texts[r] for r in ballot if votes[texts[r]] == best)


# --- the sentence --------------------------------------------------------------------------


def _sentence(timeline: Timeline, left: Mapping[int, int], rank: int) -> Said:
    position = left[rank]
    own = _label(timeline, rank, position)
    on_path = [r for r in timeline.ranks if r not in left]
    longer = [r for r in sorted(on_path) if len(timeline.ranks[r]) > position]
    peers = longer or [
        r for r in sorted(timeline.ranks) if r not in left and _reaches(timeline, r, position)
    ]
    where = _after(timeline, rank, position)
    sentence = say("diverged.left", rank=rank, where=where, own=own)
    if peers:
        theirs = _label(timeline, peers[0], position)
        sentence += say("diverged.peers", ranks=ranks_said(peers), checkpoint=theirs)
    others = sorted(set(left) - {rank})
    if others:
        sentence += say("diverged.also", ranks=ranks_said(others))
    return sentence + say("diverged.stop")


def _reaches(timeline: Timeline, rank: int, position: int) -> bool:
    return len(timeline.ranks[rank]) > position


def _label(timeline: Timeline, rank: int, position: int) -> str:
    seq = timeline.ranks[rank]
    if len(seq.label) > position:
        return timeline.labels[seq.label[position]]
    return timeline.texts[seq.text[position]]


def _after(timeline: Timeline, rank: int, position: int) -> Said:
    if position == 0:
        return say("diverged.at_first")
    return say("diverged.after", checkpoint=_label(timeline, rank, position - 1), position=position)
