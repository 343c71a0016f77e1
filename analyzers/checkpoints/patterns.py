"""Recognise checkpoint lines: whether a line is one, and the text ranks are compared on.

A checkpoint is a progress line a rank prints while a job is bisected, e.g.::

    2026-11-29 07:24:22,190 [rank2] INFO  MoE passed
    2026-11-29 07:24:22,190 [rank2] INFO layer 0 passed
    decode step 7 passed

`CheckpointMatcher.match` turns such a line (or its message) into the normalised text
(`MoE passed`, `layer 0 passed`) that ranks are compared on. The default patterns live in
`knowledge/checkpoints.yaml` (read and checked by `checkpoint_rules.py`); users add their own
regexes per incident or site-wide. The matcher also gives the scanner a prefilter, so a block
with no possible checkpoint is never parsed line by line, and the small helpers below read
one fact from a normalised text (the rank a wait names, what a start line opens). Which layer
a sub-module line ran in is read from the lines before it, by `layer_qualification.py`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

import re2

from analyzers.checkpoints.byte_patterns import bytes_prefilter
from analyzers.checkpoints.checkpoint_rules import (
    CheckpointHit,
    collapse,
    load_knowledge,
    user_rule,
)
from analyzers.checkpoints.launcher_ends import LauncherEnd, match_end
from analyzers.core import regex_programs
from analyzers.core.checkpoint_timeline import Opening

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
# a layer a model calls a block: `block 4 done` (`block 12 ok` is found by ` ok`), and a part
# that names its block: `Block 4: norm done`
_BLOCK_PART = rb"(?:\]? ?[:|/-] ?[a-z][\w.+/-]*(?: [a-z0-9][\w.+/-]*){0,2})?"
_BLOCK_DONE = rb"block[ _-]?\d+(?:/\d+)?" + _BLOCK_PART + rb" " + _LAYER_CLOSING
# the same shortened: `blk 4 done` (`blk 2 ✓` is found by its tick)
_BLK_DONE = rb"blk[ _-]?\d+(?:/\d+)?" + _BLOCK_PART + rb" " + _LAYER_CLOSING
# a microbatch closed with its count: `microbatch 5/8 complete`, `micro-batch 2 done`
_MICROBATCH_DONE = rb"micro[ _-]?batch[ _-]?#?\d+(?: ?/ ?\d+)? " + _CLOSING
# a pipeline stage's phase with its micro-batch after the verb (`stage 1 recv ok (micro-batch
# 4)`, `stage 3 logits ready (mb 2)`); `ok` and `ready` end many other lines, so only with the
# micro-batch right after them
_PHASE_THEN_MICROBATCH = (
    rb"(?:forward|backward|fwd|bwd|recv|receive|send|logits) (?:passed|ok|done|finished|"
    rb"completed?|ready) ?[(\[] ?(?:micro[ _-]?batch|mb)"
)
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
# a layer's own part closed with `ok` (`  norm ok`, `  MoE ok`), as the matcher's `submodule_ok`
# rule reads it (the block is folded to lower case)
_PART_OK = rb"(?:norm|attention|attn|mlp|ffn|forward|moe|experts?|router|gate|rotary|rope) ok"
# a debugging print that names the part it ran after `after`, with the layer's tag (`after attn
# L3: out.shape=...`, `after mlp layer 2: norm=3.1`), or the layer alone (`after layer 3: ...`)
_AFTER_PART = rb"after (?:[a-z][\w.+/-]*(?: [a-z][\w.+/-]*)? (?:l|layer ?)|layer[ _-]?)\d"
# a collective's line that names the layer it followed (`sync ok after layer 2`; `passed` is
# found by `passed`, ` ok` by its confirmation)
_DONE_AFTER_LAYER = (
    rb"done after layer|finished after layer|complete after layer|completed after layer"
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
    + _PHASE_THEN_MICROBATCH
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
    + rb"|"
    + _AFTER_PART
    + rb"|"
    + _DONE_AFTER_LAYER
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
# names a layer (or a model's block) or a layer's own part (`  norm ok`) before its ` ok`, or
# a model run before its `成功`, can be a checkpoint, and a block without one stays on the hot loop's single literal. `block` is in many a runtime's line (`blockDim`, a memory block):
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
    b" ok": Confirmation(
        re2.compile(rb"(?:layer[ _-]?|l|block[ _-]?)0+[^\n]* ok|ok after layer|" + _PART_OK)
    ),
    # `after` is in many a line; only a part or a layer named after it with a layer's number
    b"after ": Confirmation(re2.compile(_AFTER_PART)),
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
# The record's source set right-aligned at the end of its first row, as rich's console
# (`Console.log`) and logging handler write it: `[17:45:27] load weights passed      infer.py:197`.
# Only after two or more blanks: a message that names a file keeps it.
# Tried only where a run of blanks starts (the same match as from inside it, and a line of
# blanks no longer costs the square of its length).
_PATH_COLUMN = regex_programs.compile(r"(?<![ \t])[ \t]{2,}[\w.-]+\.py:\d+[ \t]*$")
# A rank written as a word and its number with a blank after it and no colon
# (`console.log(f"rank {rank} {msg}")`: `rank 3 load weights passed`). Cut only when the rest
# is a checkpoint of its own, so each rank's line reads as its peers' do.
_RANK_WORDS = regex_programs.compile(r"(?i:rank)[ \t]+\d+[ \t]+(?=\S)")
_PEER_ROLES = frozenset({"wait", "send", "group"})
# the tag a server puts on a request's lines: `request 3`, `[req 3]`, `req-3:`, `request_id=3`
_REQUEST_TAG = regex_programs.compile(
    r"[\[(]?\s*(?i:req(?:uest)?)(?:[ _-]?(?i:id))?(?:\s*[=:#-]\s*|\s+|[_-])#?\d+\s*[\])]?[\s:|,/-]*"
)


MEMO_LIMIT = 50_000  # distinct messages remembered per matcher (bounded memory)


class CheckpointMatcher:
    """Decides whether a log line is a checkpoint and what its normalised text is."""

    def __init__(self, extra_patterns: Sequence[str] = ()) -> None:
        self._knowledge = load_knowledge()
        self._user_patterns = tuple(extra_patterns)
        user_rules = tuple(user_rule(i, source) for i, source in enumerate(extra_patterns))
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
        body = strip_prefixes(message, self._knowledge.prefix)
        body = _SPACES.sub(" ", _PATH_COLUMN.sub("", body) if ".py:" in body else body)
        if not body:
            return None
        ranked = _RANK_WORDS.match(body)
        if ranked is not None:
            hit = self._classify(body[ranked.end() :])
            # a line about other ranks (`rank 2 waiting for rank 3`) may be a coordinator's
            # report on rank 2, so only progress is read past the rank
            if hit is not None and hit.role not in _PEER_ROLES:
                return hit
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
    return hit.text if hit is not None else collapse(message)


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
