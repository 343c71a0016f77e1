"""Several prefills in a row: the layers after `prefill passed` are the next batch's prefill.

A job that feeds its prompts in batches prefills each one (`prefill start: batch 2`, the
layers, `prefill passed`) before any decode step. `prefill start` places the lines after it
but is no checkpoint, so the sequence alone shows `prefill passed` followed by layers; when a
rank's sequence shows `prefill passed` again after such layers with no decode step line
between, the prefill is known to repeat, and a rank that stopped in the next batch's first
layer is in `layer 0`, not in the decode loop's first step. A job that decodes after its one
prefill keeps the decode step.
"""

from __future__ import annotations

from pathlib import Path

from analyzers.checkpoints.layer_qualification import SequenceQualifier
from analyzers.checkpoints.patterns import CheckpointMatcher
from tests.analyzers.job_bundles import analyze_job, ranks

LAYER = [" norm passed", " attention passed", " MoE passed"]


def _labels(sequences: list[list[str]]) -> list[list[str]]:
    matcher = CheckpointMatcher()
    texts: list[str] = []
    ids = []
    for lines in sequences:
        seq = []
        for line in lines:
            hit = matcher.classify(line)
            if hit is None or not hit.counted:
                continue
            if hit.text not in texts:
                texts.append(hit.text)
            seq.append(texts.index(hit.text))
        ids.append(seq)
    qualifier = SequenceQualifier(texts)
    qualifier.learn(ids)
    return [[qualifier.labels[i] for i in qualifier.qualify(seq)] for seq in ids]


def test_rank_stopped_in_the_next_batch_prefill_is_in_layer_0(tmp_path: Path) -> None:
    logs = ranks(4)
    for log in logs:
        log.loaded()
        for _batch in range(2):
            log.layers(2, then=["prefill passed"])
    for log in logs[:3]:  # a third batch: ranks 0-2 start it, rank 3's loader had only two
        log.layers(0, then=[LAYER[0]])
    report = analyze_job(tmp_path, logs)
    last = {r.rank: r.last_checkpoint_qualified for r in report.ranks}
    assert last == {
        0: "layer 0 / norm passed",
        1: "layer 0 / norm passed",
        2: "layer 0 / norm passed",
        3: "prefill passed",
    }


def test_prefill_then_decoded_layers_stay_in_the_first_decode_step() -> None:
    one = [
        "prefill start: 8 tokens",
        *LAYER,
        "layer 0 passed",
        "prefill passed",
        *LAYER,
        "layer 0 passed",
        "decode step 0 passed",
        LAYER[0],
    ]
    labels = _labels([one])[0]
    assert labels[5] == "decode step 0 / layer 0 / norm passed"
    assert labels[-1] == "decode step 1 / layer 0 / norm passed"


def test_a_single_prefill_keeps_its_decode_step_reading() -> None:
    # one prefill, then a rank that died in the first decode step's first layer
    one = ["prefill start: 8 tokens", *LAYER, "layer 0 passed", "prefill passed", LAYER[0]]
    assert _labels([one])[0][-1] == "decode step 0 / layer 0 / norm passed"


def test_a_repeat_on_one_rank_is_learned_whatever_the_other_ranks_hold() -> None:
    # ranks with one `prefill passed` or none are skipped unread; the one with two still
    # shows the repeat, and every rank's layers after `prefill passed` read it
    repeated = [*LAYER, "layer 0 passed", "prefill passed"] * 2 + [LAYER[0]]
    single = [*LAYER, "layer 0 passed", "prefill passed", LAYER[0]]
    plain = [*LAYER, "layer 0 passed"]
    labels = _labels([plain, single, repeated])
    assert labels[1][-1] == "layer 0 / norm passed"
    assert labels[2][-1] == "layer 0 / norm passed"
    assert _labels([plain, single])[1][-1] == "decode step 0 / layer 0 / norm passed"
