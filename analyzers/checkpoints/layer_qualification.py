"""Name the layer, step and request a checkpoint ran in, from the checkpoints before it.

A rank prints its sub-modules' lines bare (`  norm passed`); only their place in the rank's
sequence says which layer they ran in. Real runs print the sub-modules of a layer first and
`layer N passed` last, so `norm passed` after `layer 2 passed` is `layer 3 / norm passed`,
and a decode step, a training step or a server's request line scopes the layers after it the
same way (`request 3 / decode step 6 / layer 0 / norm passed`). A job that runs the model
again and again (one forward per request or step) with no phase line between passes starts
over after its last layer, once its layer numbers have been seen to come round
(`LayerPasses`). This reads a sequence of texts the matcher (`patterns.py`) already
recognised, so it is kept apart from how a single line is recognised.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from analyzers.checkpoints.checkpoint_rules import TRAIN_ROLES, CheckpointHit
from analyzers.checkpoints.patterns import CheckpointMatcher, classify_text
from analyzers.core import regex_programs
from analyzers.core.checkpoint_timeline import Opening


class LayerPasses:
    """Which layer the sub-modules after a `layer N passed` line run in.

    Normally N + 1. A rank that loops over the model prints its layers again from the first
    (the only context line between passes, `prefill start: 8 tokens`, is no checkpoint), so
    once a layer number has not risen, the pass is known to repeat: after the highest layer
    seen comes the lowest (layer 0, or a pipeline stage's first layer) again.
    """

    __slots__ = ("_highest", "_last", "_looping", "_lowest")

    def __init__(self) -> None:
        self._last: int | None = None
        self._lowest = self._highest = -1
        self._looping = False

    def after(self, layer: int) -> int:
        if self._last is not None and layer <= self._last:
            self._looping = True
        self._last = layer
        self._lowest = layer if self._lowest < 0 else min(self._lowest, layer)
        self._highest = max(self._highest, layer)
        return self._lowest if self._looping and layer == self._highest else layer + 1

    def first(self) -> int:
        """The layer a new pass starts in: once the passes are known to repeat, the lowest
        layer the rank runs (a pipeline stage's first layer); else layer 0."""
        return self._lowest if self._looping else 0


# The phases of a training loop's step, as a `<part> passed` line names them: the whole
# model's forward and backward, the loss, the optimizer and the gradients' collective.
_STEP_PHASE = regex_programs.compile(
    r"(?i)(?:(?:the |model |full )?(?:forward|fwd|backward|bwd)(?: pass)?|loss|zero[ _]grad"
    r"|optimi[sz]er(?: step)?|optim(?: step)?"
    r"|grad(?:ient)?s? (?:all[ _-]?reduce|allreduce|all[ _-]?gather|reduce[ _-]?scatter|sync|reduce|clip(?:ping)?))"
    r" passed"
)

# A part named as one of a decoder layer's own sub-modules (its norms, attention, MLP or MoE,
# router, rotary embedding), whatever words stand around the name; a gradient's norm is a
# step's stage, not a layer's norm.
_LAYER_PART = regex_programs.compile(
    r"(?i)(?<!grad )(?<!gradient )(?<!grads )\b(?!grad(?:ient)?s?_)"
    r"(?:\w*norm|attention|attn|mlp|ffn|feed[ _-]?forward"
    r"|moe|experts?|router|gate|rotary|rope)\b"
)


def names_layer_part(text: str) -> bool:
    """Whether a sub-module line names a layer's own part (`norm passed`), not a step's stage
    (`model forward passed`, `grad norm passed`)."""
    return _LAYER_PART.search(text) is not None and _STEP_PHASE.fullmatch(text) is None


def layer_part_in_step(text: str, layered: bool, flat: bool) -> bool:
    """Whether a sub-module line inside a training step is read in a layer: always once the
    rank has printed layer lines; before that, while it has closed no step without any (a rank
    that fails inside layer 0 of its first step), when the part names a layer's own part."""
    return layered or (not flat and names_layer_part(text))


class LayerParts:
    """Tells a stage after the layers from a sub-module of the next layer.

    A `<part> passed` line is read as a sub-module of the layer after the last `layer N
    passed`. But a run also marks what it does once the layers are done (`grad all_reduce
    passed`, `lm head passed`) in the same words, and there is no layer N + 1 for it to be in.
    Such a part comes straight after a layer line and is none of the parts the rank has already
    printed inside its layers; it is a stage of its own, outside the layers, like a phase line.
    A part that first appears further into a layer (the MoE of the first sparse layer after
    dense ones, printed after that layer's norm) is still that layer's, and so is every part
    while no layer has shown its parts yet (a run that fails inside layer 0). A stage may be
    followed by more of its kind (a pipeline stage's `bwd passed` for each microbatch after
    the forwards of all of them): a new part straight after a stage is a stage too.
    A training loop's own phases (`forward passed`, `backward passed`, `optimizer passed`,
    `grad all_reduce passed`) are never a part of one layer, so after a layer line they are a
    stage even while the layers have shown no parts (a forward that prints only its layers).
    A phase line (`prefill passed`, `decode step 2 passed`) ends a pass through the layers as
    a layer line does: a new part straight after it (`save checkpoint passed` once the decode
    loop is done) is a stage too, while a part the layers printed opens the next pass's layer.
    """

    __slots__ = ("_after_layer", "_known")

    def __init__(self) -> None:
        self._known: set[object] = set()
        self._after_layer = False

    def after_layers(self, part: object, text: str) -> bool:
        """Whether this sub-module line (`text`) is a stage after the layers instead."""
        if not self._after_layer or part in self._known:
            return False
        return bool(self._known) or _STEP_PHASE.fullmatch(text) is not None

    def saw(self, role: str, part: object) -> None:
        if role == "submodule":
            self._known.add(part)
        self._after_layer = role in ("layer", "stage", "phase")


class LayerTracker:
    """Follows one rank's checkpoints in order and qualifies sub-module lines by layer.

    Feed every checkpoint (and context line, if available) of one rank in log order.
    """

    def __init__(self, matcher: CheckpointMatcher | None = None) -> None:
        self._matcher = matcher
        self._next_layer = 0
        self._passes = LayerPasses()
        self._parts = LayerParts()
        self._train: int | None = None  # the training step sub-module lines run in
        self._layered = False  # whether the rank prints layer lines
        self._flat = False  # whether it closed a step with no layer line before it

    def qualify(self, text: str) -> str:
        hit = self._matcher.classify(text) if self._matcher else classify_text(text)
        if hit is None:
            return text
        if hit.role in TRAIN_ROLES:
            self._flat = self._flat or (hit.role == "train_step" and not self._layered)
            self._train = _step_after(hit)
            self._next_layer = self._passes.first()
            return hit.text
        self._layered = self._layered or hit.role in ("layer", "layer_start", "layer_part")
        if self._train is None:
            return self._qualify(hit)
        if hit.in_step:
            self._next_layer = self._passes.first()
            return f"step {self._train} / {hit.text}"
        if hit.role == "submodule" and not layer_part_in_step(hit.text, self._layered, self._flat):
            return f"step {self._train} / {hit.text}"
        if hit.role in ("submodule", "layer", "layer_part"):
            return f"step {self._train} / {self._qualify(hit)}"
        return self._qualify(hit)

    def _qualify(self, hit: CheckpointHit) -> str:
        if hit.role == "submodule" and self._parts.after_layers(hit.text, hit.text):
            self._parts.saw("stage", hit.text)
            self._next_layer = self._passes.first()
            return hit.text
        self._parts.saw(hit.role, hit.text)
        if hit.role == "submodule":
            return f"layer {self._next_layer} / {hit.text}"
        if hit.role == "layer" and hit.layer is not None:
            self._next_layer = self._passes.after(hit.layer)
        elif hit.role in ("layer_start", "layer_part") and hit.layer is not None:
            self._next_layer = hit.layer
        elif hit.role in ("phase", "success"):
            self._next_layer = self._passes.first()
        return hit.text


def qualified_names(texts: Iterable[str], matcher: CheckpointMatcher | None = None) -> list[str]:
    """Layer-qualified names for one rank's checkpoint texts, in order."""
    tracker = LayerTracker(matcher)
    return [tracker.qualify(text) for text in texts]


class SequenceQualifier:
    """Qualifies whole sequences of interned texts: `decode step 137 / layer 41 / attention
    passed` for the sub-module line in layer 41 of step 137.

    A layer line closes its layer (sub-modules after `layer 2 passed` are in layer 3) and a
    `decode step N passed` line closes its step (layers after it are in step N + 1); a
    phase or success line without a step starts over. The layers after `prefill passed` run
    in the decode loop's first step, numbered as the job numbers its steps (the lowest step
    any rank closed, else 0): a rank that fails there is in decode step 0, not in prefill.
    A server's phase line tagged with a request (`request 3 / decode step 5 passed`) scopes
    the layers after it to that request (`request 3 / decode step 6 / layer 0 / norm passed`)
    until a phase or success line of no request.
    A training loop's step lines (`train step 3 passed`, `step 3 done`) close their step
    the same way and a `train step 4 start` opens one: the sub-module lines in it are `step 4 /
    backward passed` (with the layer between when the rank prints layer lines, or, before its
    first layer line, when the part names a layer's own sub-module and no step has closed
    without one: `step 1 / layer 0 / norm passed`), and those before any step line are in the
    job's first training step. A phase a step holds (a
    pipeline stage's `microbatch 2 / forward passed`) is placed in its step the same way:
    `step 4 / microbatch 2 / forward passed`.
    A job that prefills several batches in a row prints `prefill passed` again after layers
    and before any decode step line (the `prefill start` between is no checkpoint); once a
    rank's sequence shows that (`learn`), the layers after `prefill passed` are the next
    batch's prefill on every rank, not the decode loop's first step.
    Each distinct text is classified once, so a sequence costs a tuple and a dict lookup per entry: a big job has millions.
    """

    def __init__(self, texts: Sequence[str]) -> None:
        self._texts = texts
        self._hits: list[CheckpointHit | None] = []
        self._first: int | None = None  # the lowest step a text closes, once one is seen
        self._first_train: int | None = None  # the lowest training step a text names
        self.labels: list[str] = []
        self._ids: dict[tuple[int | None, int | None, int, int, int | None], int] = {}
        self._prefills_repeat = False  # the layers after `prefill passed` are another prefill
        self._layer_parts: dict[int, bool] = {}  # text id: names a layer's own part

    def learn(self, sequences: Iterable[Sequence[int]]) -> None:
        """Read the ranks' sequences (text ids) for a prefill that runs again: a `prefill
        passed` line, layer or sub-module lines, and `prefill passed` again, with no decode
        step line between. Call before `qualify`."""
        self._classify_new()
        hits = self._hits
        openers = [i for i, hit in enumerate(hits) if _opens_decode(hit)]
        for text_ids in sequences:
            # only a second opening line can show the repeat: a rank with fewer is not walked
            if sum(map(text_ids.count, openers)) < 2:
                continue
            opened = layered = False
            for text_id in text_ids:
                hit = hits[text_id]
                if hit is None:
                    continue
                if hit.role == "phase" and hit.opens_decode:
                    if opened and layered:
                        self._prefills_repeat = True
                        return
                    opened, layered = True, False
                elif hit.role in ("layer", "submodule", "layer_part"):
                    layered = True
                elif hit.role in ("phase", "success") or hit.step is not None:
                    opened = layered = False

    def qualify(
        self, text_ids: Iterable[int], opens: Mapping[int, Opening] | None = None
    ) -> list[int]:
        """Label ids (into `self.labels`) for one rank's text ids, in order. `opens` maps the
        position of a checkpoint that comes first after a start line (`step 3 start`,
        `request 2 prefill start`, kept out of the sequence) to what that line opened."""
        self._classify_new()
        opens = opens or {}
        hits, ids, label_of = self._hits, self._ids, self._label
        request: int | None = None
        step: int | None = None
        train = self._first_train
        layered = flat = False
        layer = 0
        passes = LayerPasses()
        parts = LayerParts()
        out = []
        for position, text_id in enumerate(text_ids):
            if position in opens:
                opened, layer = opens[position], passes.first()
                if opened.request is None:
                    train, step = opened.step, None
                else:  # a request's phase: its layers are that request's, in that decode step
                    request, step = opened.request, opened.decode_step
            hit = hits[text_id]
            role = hit.role if hit is not None else "custom"
            if role == "submodule" and parts.after_layers(text_id, self._texts[text_id]):
                role, layer = "stage", passes.first()
            parts.saw(role, text_id)
            if role == "submodule":
                in_layer = (
                    layer
                    if train is None or layered or (not flat and self._names_part(text_id))
                    else -1
                )
                key = (request, step, in_layer, text_id, train)
            elif role == "layer":
                key, layered = (request, step, -1, text_id, train), True
                layer = passes.after(hit.layer) if hit.layer is not None else layer  # type: ignore[union-attr]
            elif role == "layer_part":  # names its layer: no layer before it, its step kept
                key, layered = (request, step, -1, text_id, train), True
                layer = hit.layer if hit.layer is not None else layer  # type: ignore[union-attr]
            elif role == "phase" and hit.in_step:  # type: ignore[union-attr]
                key, layer = (None, None, -1, text_id, train), passes.first()
            elif role in ("phase", "success", "request_start"):
                key, layer = (None, None, -1, text_id, None), passes.first()
                request = hit.request  # type: ignore[union-attr]
                step = hit.step + 1 if hit.step is not None else None  # type: ignore[union-attr]
                if hit.opens_decode and not self._prefills_repeat:  # type: ignore[union-attr]
                    step = self._first if self._first is not None else 0
            elif role in TRAIN_ROLES:
                flat = flat or (role == "train_step" and not layered)
                key, layer, step = (None, None, -1, text_id, None), passes.first(), None
                train = _step_after(hit)  # type: ignore[arg-type]
            elif role == "stage":
                key = (None, None, -1, text_id, train)
            else:
                layered = layered or role == "layer_start"
                key = (None, None, -1, text_id, None)
            found = ids.get(key)
            out.append(found if found is not None else label_of(key))
        return out

    def _names_part(self, text_id: int) -> bool:
        found = self._layer_parts.get(text_id)
        if found is None:
            found = self._layer_parts[text_id] = names_layer_part(self._texts[text_id])
        return found

    def _classify_new(self) -> None:
        while len(self._hits) < len(self._texts):
            hit = classify_text(self._texts[len(self._hits)])
            self._hits.append(hit)
            if hit is None or hit.step is None:
                continue
            if hit.role in TRAIN_ROLES:
                low = self._first_train
                self._first_train = hit.step if low is None else min(low, hit.step)
            else:
                self._first = hit.step if self._first is None else min(self._first, hit.step)

    def _label(self, key: tuple[int | None, int | None, int, int, int | None]) -> int:
        request, step, layer, text_id, train = key
        label = self._texts[text_id]
        if layer >= 0:
            label = f"layer {layer} / {label}"
        if step is not None:
            label = f"decode step {step} / {label}"
        if train is not None:
            label = f"step {train} / {label}"
        if request is not None:
            label = f"request {request} / {label}"
        self._ids[key] = len(self.labels)
        self.labels.append(label)
        return self._ids[key]


def _step_after(hit: CheckpointHit) -> int | None:
    """The training step the sub-module lines after a step line run in: the next one after
    a line that closes a step, the one a start line opens."""
    if hit.step is None:
        return None
    return hit.step + 1 if hit.role == "train_step" else hit.step


def _opens_decode(hit: CheckpointHit | None) -> bool:
    """A phase line that opens the decode loop (`prefill passed`)."""
    return hit is not None and hit.role == "phase" and hit.opens_decode
