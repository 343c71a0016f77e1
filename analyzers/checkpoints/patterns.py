"""Recognise checkpoint lines and name the layer a sub-module checkpoint ran in.

A checkpoint is a progress line a rank prints while a job is bisected, e.g.::

    2026-11-29 07:24:22,190 [rank2] INFO  MoE passed
    2026-11-29 07:24:22,190 [rank2] INFO layer 0 passed
    decode step 7 passed

`CheckpointMatcher.match` turns such a line (or its message) into the normalised text
(`MoE passed`, `layer 0 passed`) that ranks are compared on. The default patterns live in
`knowledge/checkpoints.yaml`; users add their own regexes per incident or site-wide.
`LayerTracker` qualifies sub-module lines: real runs print the sub-modules of a layer
first and `layer N passed` last, so `  norm passed` after `layer 2 passed` is
`layer 3 / norm passed`. A job that runs the model again and again (one forward per request
or step) with no phase line between passes starts over after its last layer, once its layer
numbers have been seen to come round (`LayerPasses`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import re2

from analyzers.checkpoints.byte_patterns import bytes_prefilter
from analyzers.checkpoints.launcher_ends import EndRule, LauncherEnd, match_end, read_end_rule
from analyzers.core import regex_programs
from analyzers.core.checkpoint_timeline import Opening
from analyzers.core.saferegex import UnsafeRegex, compile_user_regex
from analyzers.core.signal_names import Names, expand, load_signal_names
from analyzers.core.yamlcheck import parse_yaml_file

KNOWLEDGE = Path(__file__).parents[1] / "knowledge" / "checkpoints.yaml"
ROLES = frozenset(
    {
        "layer",
        "layer_start",
        "layer_part",
        "submodule",
        "phase",
        "success",
        "wait",
        "send",
        "custom",
        "train_step",
        "train_step_start",
        "request_start",
        "group",
    }
)
TRAIN_ROLES = frozenset({"train_step", "train_step_start"})
_SEPARATORS = regex_programs.compile(r"[\s:|-]*")
_SPACES = regex_programs.compile(r"\s+")
# Cheap test for the default patterns in raw bytes; every default checkpoint contains one.
# (the step may stand in brackets with its total: `Epoch [1/2] Step [4/4] done`)
# The words a train step's or an iteration's checkpoint closes on (a layer's: the first three).
# Written once: the patterns below are built from them, and so are the words the block search
# looks for before it runs those patterns (`_VERBS`), so the two cannot drift apart.
_CLOSING_WORDS = (b"done", b"finished", b"complete", b"ok", b"start", b"begin")
_CLOSING = b"(?:" + b"|".join(_CLOSING_WORDS) + b")"
_LAYER_CLOSING = b"(?:" + b"|".join(_CLOSING_WORDS[:3]) + b")"
# a bar or a colon may stand before the verb: `iter 30 | done`, `step 7: ok`
_BEFORE_VERB = rb"(?: ?[|:] ?| )"
_TRAIN_STEP_VERB = rb"step[ _-]?(?:\[ ?)?\d+(?:/\d+)?(?: ?\])?,?" + _BEFORE_VERB + _CLOSING
# the same line as a JSON record that gives the step in a field of its own, before or after
# the message (`"step": 3, "msg": "step done"`, `"event": "step_done", ... "step": 3`)
_JSON_STEP = (
    rb"step\"?: ?\d+[^\n]*\"(?:train(?:ing)?[ _])?step[ _]" + _CLOSING + rb"(?:ed)?\""
    rb"|step[ _]" + _CLOSING + rb"(?:ed)?\"[^\n]*\"(?:global_)?step\"?: ?\d"
)
# a loop that counts iterations: `iter 3 done loss=...`, `iteration 4 start`
_ITER_VERB = rb"iter(?:ation)?[ _-]?\d+(?:/\d+)?" + _BEFORE_VERB + _CLOSING
# a process group a rank builds, with its ranks: `creating group [0, 1]`
_GROUP_LIST = rb"group[^\[\]\n]{0,60}\[\d+(?:, ?\d+)*\]"
# `layer 7 done`, `layer 2 completed`, and a part that names its layer: `layer 1: attn done`
_LAYER_DONE = (
    rb"layer[ _=-]*\d+(?:/\d+)?(?:\]? ?[:|/-]? ?[a-z][\w.+/-]*(?: [a-z0-9][\w.+/-]*){0,2})?"
    rb" " + _LAYER_CLOSING
)
# a layer a model calls a block: `block 4 done` (`block 12 ok` is found by ` ok`)
_BLOCK_DONE = rb"block[ _-]?\d+ " + _LAYER_CLOSING
# the same shortened: `blk 4 done` (`blk 2 ✓` is found by its tick)
_BLK_DONE = rb"blk[ _-]?\d+ " + _LAYER_CLOSING
# a microbatch closed with its count: `microbatch 5/8 complete`, `micro-batch 2 done`
_MICROBATCH_DONE = rb"micro[ _-]?batch[ _-]?#?\d+(?: ?/ ?\d+)? " + _CLOSING
# a structured logger's event named as an identifier, its layer in a field of its own
# (`event=norm_done layer=1`, `{"event": "layer_done", "layer": 1}`): the record's reader
# words it as the printed line (`layer 1 norm done`); `_passed` is found by `passed`
_EVENT_DONE = b"_" + _LAYER_CLOSING
# a numbered phase closed with its count: `stage 2/5: all-to-all ok`, `phase 3/4 - weights done`
_NUMBERED_PHASE = (
    rb"(?:stage|phase) ?\d+ ?/ ?\d+ ?[:|-][^\n]* (?:ok|passed|"
    + b"|".join(_CLOSING_WORDS[:3])
    + rb")"
)
# a request's phase opened, as a server tags it (`request 2 prefill start: 46 tokens`, `[req 3]
# decode step 5 begin`): no checkpoint itself, but the parts after it run in that request
_REQUEST_PHASE_START = (
    rb"req(?:uest)?(?:[ _-]?id)?(?: ?[=:#-] ?| |[_-])#?\d+ ?[\])]?[ :|,/-]*"
    rb"(?:prefill|decode step[ _-]?\d+) (?:start|started|begin)"
)
# a loop's line that it saved its state after a step: `ckpt saved @ step 40`, `checkpoint
# saved at step 8`, `saved checkpoint for global step 12`
_SAVED_AT_STEP = (
    rb"saved (?:@ |at |for |(?:model )?(?:ckpt|checkpoint)s? (?:@|at|for) )(?:global[ _])?step"
)
# a layer closed with the verb first: `finished layer 3`, `completed layer 2 (1.1 ms)`
_LAYER_VERB_FIRST = rb"(?:finished|completed|done with) layer"
# a stage of a step logged as key=value fields: `stage=fwd step=12 ok`
_KEYED_STAGE = (
    rb"(?:stage|phase)=[\w.-]+[ ,]+(?:step|iter(?:ation)?)=\d+[ ,]+(?:passed|"
    + b"|".join(_CLOSING_WORDS[:4])
    + rb")"
)
# a part closed with its layer in a field after the verb: `fwd done [layer=5]`
# (`passed` is found by `passed`)
_DONE_AT_LAYER = rb" " + _LAYER_CLOSING + rb" ?[\[(] ?layer ?[=:] ?\d"
_EVENT_WITH_LAYER = (
    rb"[a-z0-9]_" + _LAYER_CLOSING + rb"\b[^\n]*\blayer\W{0,3}[0-9]"
    rb"|\blayer\W{0,3}[0-9][^\n]*[a-z0-9]_" + _LAYER_CLOSING + rb"\b"
)
# a training loop's line that closes a whole epoch: `epoch 0 finished: 1 steps`, `Epoch [2/3]
# done` (`epoch 2 passed` is found by `passed`)
_EPOCH_DONE = (
    rb"epoch[ _=-]?(?:\[ ?)?\d+(?:/\d+)?(?: ?\])? ?[,:|]? ?(?:"
    + b"|".join(_CLOSING_WORDS[:3])
    + rb")"
)
_DEFAULT_PREFILTER = (
    rb"(?i:passed|succe(?:ss|eded)|from rank|waiting for rank|waiting on rank|blocked on rank|"
    rb"to rank|"  # a hand-off's send line (`send hidden to rank 2`)
    rb"pipeline stage init|"  # torch.distributed.pipelining's `Finished pipeline stage init`
    rb"'train_runtime'|"  # a Trainer's summary of the whole run, logged once training ended
    # an evaluation or test script's closing line (`*****Evaluation done.*****`)
    rb"(?:eval(?:uation)?|test(?:ing)?|validation) (?:done|finished|complete)|"
    # the same Trainer's step dict whose decaying rate reached 0 (the schedule's last step)
    rb"'learning_rate': ?0(?:\.0+)?,|"
    + "通过|完成|成功|".encode()  # a Chinese print's "passed" / "done" / "success"
    + "✓|✔|✅|".encode()  # a tick mark a print puts for "passed" (`fwd layer 7 ✓`)
    + rb" ok|"  # `layer 2: norm ok`
    + _LAYER_DONE
    + rb"|"
    + _TRAIN_STEP_VERB
    + rb"|"
    + _JSON_STEP
    + rb"|"
    + _ITER_VERB
    + rb"|"
    + _GROUP_LIST
    + rb"|"
    + _BLOCK_DONE
    + rb"|"
    + _BLK_DONE
    + rb"|"
    + _MICROBATCH_DONE
    + rb"|"
    + _EVENT_DONE
    + rb"|"
    + _NUMBERED_PHASE
    + rb"|"
    + _SAVED_AT_STEP
    + rb"|"
    + _LAYER_VERB_FIRST
    + rb"|"
    + _KEYED_STAGE
    + rb"|"
    + _DONE_AT_LAYER
    + rb"|"
    + _EPOCH_DONE
    + rb"|"
    + _REQUEST_PHASE_START
    + rb")"
)
_VERBS = tuple(b" " + word for word in _CLOSING_WORDS)


@dataclass(frozen=True, slots=True)
class Confirmation:
    """A confirmed literal's pattern, with the words one of which each of its matches holds
    (its closing verb): a block the notable phrases' pass found to lack them all cannot match,
    so the pattern's own pass over it (~a quarter of that pass) is not needed."""

    pattern: Any  # RE2
    needs: tuple[bytes, ...] = ()

    def search(self, data: bytes, *bounds: int) -> Any:
        return self.pattern.search(data, *bounds)


# A literal the block search would find far more often than the checkpoints it leads to,
# with the pattern that confirms it: training logs print `step 61 micro_batch 23 loss=...`
# on every micro-batch, and only `step N done` / `step N start` lines are checkpoints.
# (`step N passed` is found by `passed`.) A block where the pattern finds nothing is searched
# without the literal, so metric lines cost one regex pass, not a parse each. The pattern runs
# on the block as the block search folds it (lower case, digits as 0), so it needs no (?i);
# RE2 runs it four times faster than `re` here (the literal recurs on every metric line).
# ` ok` ends many a status line and `成功` many a Chinese one (`连接成功`): only a line that
# names a layer (or a model's block) before its ` ok`, or a model run before its `成功`, can
# be a checkpoint, and a block without one stays on the hot loop's single literal. `block` is in many a runtime's line (`blockDim`, a memory block):
# only a numbered block with a verb of completion counts. `stage` and `phase` are in many a
# pipeline's or server's line: only a numbered phase with its count and a verb counts, or a
# stage of a step given as key=value fields with a verb.
_CONFIRMED_LITERALS = {
    b"step": Confirmation(
        re2.compile(_TRAIN_STEP_VERB + b"|" + _JSON_STEP),
        _VERBS + tuple(b"_" + word for word in _CLOSING_WORDS),
    ),
    b"iter": Confirmation(re2.compile(_ITER_VERB), _VERBS),
    b"group": Confirmation(re2.compile(_GROUP_LIST)),
    b" ok": Confirmation(re2.compile(rb"(?:layer[ _-]?|l|block[ _-]?)0+[^\n]* ok")),
    b"block": Confirmation(re2.compile(_BLOCK_DONE), _VERBS[:3]),
    b"blk": Confirmation(re2.compile(_BLK_DONE), _VERBS[:3]),
    # per-microbatch metric lines (`micro_batch 23 loss=...`) are many; only a numbered
    # microbatch with a verb of completion counts
    b"micro": Confirmation(re2.compile(_MICROBATCH_DONE), _VERBS),
    # every `layer 3 passed` holds it; `passed` finds those
    b"layer": Confirmation(re2.compile(_LAYER_DONE + b"|" + _DONE_AT_LAYER), _VERBS[:3]),
    "成功".encode(): Confirmation(re2.compile("模型 ?运行 ?成功".encode())),
    **{b"_" + word: Confirmation(re2.compile(_EVENT_WITH_LAYER)) for word in _CLOSING_WORDS[:3]},
    b"stage": Confirmation(re2.compile(_NUMBERED_PHASE + rb"|" + _KEYED_STAGE)),
    b"phase": Confirmation(re2.compile(_NUMBERED_PHASE + rb"|" + _KEYED_STAGE)),
    b"saved ": Confirmation(re2.compile(_SAVED_AT_STEP)),
    # `epoch` is on many a metric line (`'epoch': 2.0`, `epoch 1 step 40 loss ...`); only an
    # epoch closed with a verb of completion counts
    b"epoch": Confirmation(re2.compile(_EPOCH_DONE), _VERBS[:3]),
    # `req` is in many a line (`required`, a server's request log): only a request's phase
    # start counts
    b"req": Confirmation(re2.compile(_REQUEST_PHASE_START), (b" start", b" begin")),
}
_MAX_PREFIXES = 12
# the tag a server puts on a request's lines: `request 3`, `[req 3]`, `req-3:`, `request_id=3`
_REQUEST_TAG = regex_programs.compile(
    r"[\[(]?\s*(?i:req(?:uest)?)(?:[ _-]?(?i:id))?(?:\s*[=:#-]\s*|\s+|[_-])#?\d+\s*[\])]?[\s:|,/-]*"
)


@dataclass(frozen=True, slots=True)
class CheckpointHit:
    """What a line is: the normalised text, its role and, for layer lines, the layer."""

    text: str
    role: str
    counted: bool = True
    layer: int | None = None
    step: int | None = None  # a decode step a phase line closes, a training step its line
    peer: int | None = None  # the rank a wait line names
    opens_decode: bool = False  # a phase line after which the decode loop's first step runs
    request: int | None = None  # the request a server's phase line is tagged with
    in_step: bool = False  # a phase a training step holds (a pipeline stage's microbatch)
    # a line many jobs print on one rank only (a checkpoint save): kept only when every rank
    # with progress prints such lines (analyzers/timeline/rank_sequences.py)
    shared: bool = False
    sends_to: int | None = None  # the rank a wait line says it sends to (a ring exchange)


@dataclass(frozen=True, slots=True)
class CheckpointRule:
    id: str
    role: str
    regex: re.Pattern[str]
    text: str | None = None
    counted: bool = True
    examples: tuple[tuple[str, str], ...] = ()
    counterexamples: tuple[str, ...] = ()
    user: bool = False
    opens_decode: bool = False
    in_step: bool = False
    shared: bool = False

    def hit(self, message: str) -> CheckpointHit | None:
        found = self.regex.search(message) if self.user else self.regex.fullmatch(message)
        if found is None:
            return None
        text = _collapse(self._text(found))
        groups = found.groupdict()
        return CheckpointHit(
            text,
            self.role,
            self.counted,
            _number(groups.get("layer")),
            _number(groups.get("step")),
            _number(groups.get("peer")),
            self.opens_decode,
            _number(groups.get("request")),
            self.in_step,
            self.shared,
            _number(groups.get("to")),
        )

    def _text(self, found: re.Match[str]) -> str:
        if self.text is not None:
            return self.text.format(**found.groupdict())
        if "checkpoint" in self.regex.groupindex:
            return found.group("checkpoint") or found.group(0)
        return found.group(0)


@dataclass(frozen=True, slots=True)
class KilledRule:
    id: str
    regex: re.Pattern[str]
    examples: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Knowledge:
    """The validated content of `knowledge/checkpoints.yaml`."""

    prefix: re.Pattern[str]
    rules: tuple[CheckpointRule, ...]
    termination_signals: frozenset[str]
    killed_lines: tuple[KilledRule, ...]
    teardown_signals: frozenset[str] = frozenset()
    launcher_ends: tuple[EndRule, ...] = ()


MEMO_LIMIT = 50_000  # distinct messages remembered per matcher (bounded memory)


class CheckpointMatcher:
    """Decides whether a log line is a checkpoint and what its normalised text is."""

    def __init__(self, extra_patterns: Sequence[str] = ()) -> None:
        self._knowledge = load_knowledge()
        self._user_patterns = tuple(extra_patterns)
        user_rules = tuple(_user_rule(i, source) for i, source in enumerate(extra_patterns))
        # User patterns first: a site that configures its own marker means that marker.
        self._rules = user_rules + self._knowledge.rules
        # Checkpoint messages repeat endlessly ("layer 3 passed"): remember the answers.
        self._seen: dict[str, CheckpointHit | None] = {}

    def classify(self, message: str) -> CheckpointHit | None:
        """The hit for a checkpoint or a context line (`prefill start`), else None."""
        try:
            return self._seen[message]
        except KeyError:
            pass
        hit = self._classify(message)
        if len(self._seen) < MEMO_LIMIT:
            self._seen[message] = hit
        return hit

    def _classify(self, message: str) -> CheckpointHit | None:
        body = _SPACES.sub(" ", strip_prefixes(message, self._knowledge.prefix))
        if not body:
            return None
        for rule in self._rules:
            hit = rule.hit(body)
            if hit is not None:
                return hit
        # `[req 3] norm passed`: the request tag of a line no request rule reads (the part
        # runs in the request the last phase line named) is a prefix like any other.
        tagged = _REQUEST_TAG.match(body)
        if tagged is not None and tagged.end() < len(body):
            return self._classify(body[tagged.end() :])
        return None

    def match(self, message: str) -> str | None:
        """The normalised checkpoint text, or None when the line is no checkpoint."""
        hit = self.classify(message)
        return hit.text if hit is not None and hit.counted else None

    def prefilter_confirmations(self) -> dict[bytes, Any]:
        """Literals of `prefilter_bytes_pattern` that only count in a block where their
        pattern (an RE2 pattern, with `re.Pattern`'s `search`) matches (see
        `_CONFIRMED_LITERALS`)."""
        return dict(_CONFIRMED_LITERALS)

    def prefilter_bytes_pattern(self) -> bytes:
        """A regex source (for re.MULTILINE search in raw bytes) that every checkpoint
        line matches; lines it misses are never checkpoints."""
        parts = [_DEFAULT_PREFILTER]
        parts.extend(bytes_prefilter(source) for source in self._user_patterns)
        return b"|".join(parts)


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

    def qualify(self, text: str) -> str:
        hit = self._matcher.classify(text) if self._matcher else classify_text(text)
        if hit is None:
            return text
        if hit.role in TRAIN_ROLES:
            self._train = _step_after(hit)
            self._next_layer = self._passes.first()
            return hit.text
        self._layered = self._layered or hit.role in ("layer", "layer_start", "layer_part")
        if self._train is None:
            return self._qualify(hit)
        if hit.in_step:
            self._next_layer = self._passes.first()
            return f"step {self._train} / {hit.text}"
        if hit.role == "submodule" and not self._layered:
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
    backward passed` (with the layer between when the rank prints layer lines), and those
    before any step line are in the job's first training step. A phase a step holds (a
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

    def learn(self, sequences: Iterable[Sequence[int]]) -> None:
        """Read the ranks' sequences (text ids) for a prefill that runs again: a `prefill
        passed` line, layer or sub-module lines, and `prefill passed` again, with no decode
        step line between. Call before `qualify`."""
        self._classify_new()
        hits = self._hits
        for text_ids in sequences:
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
        layered = False
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
                in_layer = layer if train is None or layered else -1
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


@cache
def classify_text(text: str) -> CheckpointHit | None:
    """Classify a (normalised) checkpoint text with the default patterns; cached because a
    job repeats the same few texts on every rank."""
    return _default_matcher().classify(text)


def waited_peer(text: str) -> int | None:
    """The rank a wait line's normalised text names (`waiting for rank 3`), else None."""
    hit = classify_text(text)
    return hit.peer if hit is not None and hit.role == "wait" else None


def sent_peer(text: str) -> int | None:
    """The rank an exchange's wait line says it sends to (`sending to rank 0, waiting for
    rank 1`), else None."""
    hit = classify_text(text)
    return hit.sends_to if hit is not None and hit.role == "wait" else None


def lone_send_peer(text: str) -> int | None:
    """The rank a hand-off's send line names on its own line (`send hidden to rank 2`), else
    None."""
    hit = classify_text(text)
    return hit.sends_to if hit is not None and hit.role == "send" else None


def group_members(text: str) -> tuple[int, ...] | None:
    """The ranks a group line's normalised text names (`group [0, 1]`), else None."""
    hit = classify_text(text)
    if hit is None or hit.role != "group":
        return None
    return tuple(int(n) for n in re.findall(r"\d+", text))


def opened(text: str) -> Opening | None:
    """What a start line's normalised text opens, a training step (`step 3 start`) or a
    request (`request 2 / prefill start`), else None: such a line is no checkpoint itself."""
    hit = classify_text(text)
    if hit is None:
        return None
    if hit.role == "train_step_start" and hit.step is not None:
        return Opening(step=hit.step)
    if hit.role == "request_start" and hit.request is not None:
        return Opening(request=hit.request, decode_step=hit.step)
    return None


def is_success(text: str) -> bool:
    hit = classify_text(text)
    return hit is not None and hit.role == "success"


def normalise(message: str) -> str:
    """The default normalised text of a checkpoint message; unknown (user) texts are kept
    with their whitespace collapsed."""
    hit = classify_text(message)
    return hit.text if hit is not None else _collapse(message)


def strip_prefixes(message: str, prefix: re.Pattern[str] | None = None) -> str:
    """The message without log prefixes (time, level, rank tags) and indentation."""
    prefix = prefix or load_knowledge().prefix
    body = message.strip()
    for _ in range(_MAX_PREFIXES):
        found = prefix.match(body)
        if found is None or not found.group(0):
            break
        body = body[_SEPARATORS.match(body, found.end()).end() :]  # type: ignore[union-attr]
    return body


def is_killed_line(message: str) -> bool:
    body = strip_prefixes(message)
    return any(rule.regex.search(body) for rule in load_knowledge().killed_lines)


def launcher_end(message: str) -> LauncherEnd | None:
    """How the ranks a launcher line names ended, when the line is one of `launcher_ends`."""
    return match_end(load_knowledge().launcher_ends, message)


def termination_signals() -> frozenset[str]:
    return load_knowledge().termination_signals


def teardown_signals() -> frozenset[str]:
    """Signals a launcher itself sends a survivor that outlived its grace period."""
    return load_knowledge().teardown_signals


@cache
def _default_matcher() -> CheckpointMatcher:
    return CheckpointMatcher()


def _step_after(hit: CheckpointHit) -> int | None:
    """The training step the sub-module lines after a step line run in: the next one after
    a line that closes a step, the one a start line opens."""
    if hit.step is None:
        return None
    return hit.step + 1 if hit.role == "train_step" else hit.step


def _number(digits: str | None) -> int | None:
    """A layer or step number; absurd digit strings (a corrupted line) are no number."""
    return int(digits) if digits and len(digits) <= 9 else None


def _collapse(text: str) -> str:
    return _SPACES.sub(" ", text).strip().rstrip(".!").strip()


# --- loading and validating the knowledge file -------------------------------------------


@cache
def load_knowledge(path: Path = KNOWLEDGE) -> Knowledge:
    """Read and validate the checkpoint knowledge; a broken file fails loudly at load."""
    data = parse_yaml_file(path)
    _require(isinstance(data, dict), path, "top level must be a mapping")
    prefixes = [_compile(p, path, "prefixes") for p in _entries(data, "prefixes", path)]
    rules = tuple(_rule(entry, path) for entry in _entries(data, "checkpoints", path))
    status = data.get("status") or {}
    # the shell's words for a death in each language, shared with the rules that read it
    words = load_signal_names(path.parent)
    killed = tuple(
        KilledRule(e["id"], _compile(e, path, "killed_lines", words), tuple(e.get("examples", ())))
        for e in status.get("killed_lines", ())
    )
    return Knowledge(
        prefix=regex_programs.compile("|".join(f"(?:{p.pattern})" for p in prefixes)),
        rules=rules,
        termination_signals=frozenset(status.get("termination_signals", ())),
        killed_lines=killed,
        teardown_signals=frozenset(status.get("teardown_signals", ())),
        launcher_ends=tuple(
            read_end_rule(e, _compile(e, path, "launcher_ends", words), path, words)
            for e in status.get("launcher_ends", ())
        ),
    )


def _entries(data: Mapping[str, Any], key: str, path: Path) -> list[Mapping[str, Any]]:
    entries = data.get(key)
    _require(isinstance(entries, list) and entries, path, f"'{key}' must be a non-empty list")
    for entry in entries:
        _require(isinstance(entry, dict) and "id" in entry, path, f"'{key}' entry without id")
    ids = [entry["id"] for entry in entries]
    _require(len(ids) == len(set(ids)), path, f"duplicate ids in '{key}'")
    return entries


def _rule(entry: Mapping[str, Any], path: Path) -> CheckpointRule:
    role = entry.get("role")
    _require(role in ROLES, path, f"checkpoint {entry['id']}: unknown role {role!r}")
    regex = _compile(entry, path, "checkpoints")
    text = entry.get("text")
    if text is not None:
        unknown = set(re.findall(r"{(\w+)}", text)) - set(regex.groupindex)
        _require(not unknown, path, f"checkpoint {entry['id']}: text uses unknown {unknown}")
    return CheckpointRule(
        id=entry["id"],
        role=role,
        regex=regex,
        text=text,
        counted=bool(entry.get("counted", True)),
        examples=tuple((line, expected) for line, expected in entry.get("examples", ())),
        counterexamples=tuple(entry.get("counterexamples", ())),
        opens_decode=bool(entry.get("opens_decode", False)),
        in_step=bool(entry.get("in_step", False)),
        shared=bool(entry.get("shared", False)),
    )


def _compile(
    entry: Mapping[str, Any], path: Path, section: str, words: Names | None = None
) -> re.Pattern[str]:
    """The entry's regex, with each `{{name}}` standing for a list of `signal_names.yaml` when
    `words` are given."""
    try:
        pattern = entry["pattern"]
        if words is not None:
            pattern = expand(pattern, words, f"{path.name}: {section} entry {entry['id']}")
        return regex_programs.compile(pattern)
    except (KeyError, TypeError, re.error) as error:
        raise ValueError(f"{path}: {section} entry {entry['id']}: bad pattern: {error}") from None


def _require(condition: bool, path: Path, message: str) -> None:
    if not condition:
        raise ValueError(f"{path}: {message}")


# --- user patterns -------------------------------------------------------------------------


def _user_rule(position: int, source: str) -> CheckpointRule:
    """A user regex as a rule; bad input raises ValueError naming the pattern."""
    if not isinstance(source, str) or not source.strip():
        raise ValueError(f"checkpoint pattern {source!r} is empty")
    try:  # linear time: anyone who can re-analyze an incident writes these
        regex = compile_user_regex(source)
    except UnsafeRegex as error:
        raise ValueError(f"checkpoint pattern {error}") from None
    if regex.search(""):
        raise ValueError(f"checkpoint pattern {source!r} matches an empty line")
    role = "layer" if "layer" in regex.groupindex else "custom"
    return CheckpointRule(id=f"user-{position}", role=role, regex=regex, user=True)
