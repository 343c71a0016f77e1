"""Divergence over whole sequences: the bytes-level vote must decide exactly what a plain
position-by-position vote decides, on any sequences."""

from __future__ import annotations

import random
from array import array
from collections import Counter

import pytest

from analyzers.core.checkpoint_timeline import RankSequence, Timeline
from analyzers.timeline.divergence import divergence, first_difference, stage_order


def _timeline(sequences: dict[int, list[int]]) -> Timeline:
    texts = [f"part{i} passed" for i in range(10)]
    ranks = {r: RankSequence(text=array("I", seq)) for r, seq in sequences.items()}
    return Timeline(texts=texts, labels=[], files=[], ranks=ranks)


def _plain_vote(sequences: dict[int, list[int]]) -> dict[int, int]:
    """The definition: at each position the ranks still on the path vote."""
    on_path, left, position = sorted(sequences), {}, 0
    while True:
        voters = [r for r in on_path if len(sequences[r]) > position]
        if len(voters) < 2:
            return left
        votes = Counter(sequences[r][position] for r in voters)
        best = max(votes.values())
        expected = next(
            sequences[r][position] for r in voters if votes[sequences[r][position]] == best
        )
        for r in voters:
            if sequences[r][position] != expected:
                left[r] = position
        on_path = [r for r in on_path if r not in left]
        position += 1


def _random_job(rng: random.Random) -> dict[int, list[int]]:
    common = [rng.randrange(4) for _ in range(rng.randrange(1, 60))]
    job = {}
    for rank in range(rng.randrange(2, 7)):
        seq = common[: rng.randrange(len(common) + 1)] if rng.random() < 0.3 else list(common)
        if seq and rng.random() < 0.4:
            seq[rng.randrange(len(seq))] = rng.randrange(4)
        job[rank] = seq
    return job


@pytest.mark.parametrize("seed", range(300))
def test_the_fast_vote_agrees_with_the_plain_vote(seed):
    job = _random_job(random.Random(seed))
    left = _plain_vote(job)
    found = divergence(_timeline(job))
    assert found.ranks == sorted(left)
    if left:
        first = min(left, key=lambda r: (left[r], r))
        assert (found.rank, found.position) == (first, left[first])


def test_a_rank_that_stops_early_has_not_diverged():
    found = divergence(_timeline({0: [1, 2, 3, 4], 1: [1, 2], 2: [1, 2, 3, 4, 5]}))
    assert (found.ranks, found.sentence) == ([], None)


def test_the_sentence_names_the_rank_and_where_it_left():
    found = divergence(_timeline({0: [0, 1, 2], 1: [0, 1, 2], 2: [0, 2, 2]}))
    assert found.sentence == (
        "rank 2 left the common sequence after 'part0 passed' (checkpoint 1): it logged "
        "'part2 passed' where ranks 0, 1 logged 'part1 passed'."
    )


@pytest.mark.parametrize(
    ("a", "b", "expected"),
    [([1, 2, 3], [1, 2, 3], 3), ([1, 2, 3], [1, 9, 3], 1), ([5], [6], 0), ([], [], 0)],
)
def test_first_difference_of_two_sequences(a, b, expected):
    views = [memoryview(array("I", seq).tobytes()) for seq in (a, b)]
    assert first_difference(*views, 0, len(a)) == expected


def _layers(sequences: dict[int, list[str]]) -> Timeline:
    texts: list[str] = []
    ranks = {}
    for rank, seq in sequences.items():
        ids = array("I")
        for text in seq:
            if text not in texts:
                texts.append(text)
            ids.append(texts.index(text))
        ranks[rank] = RankSequence(text=ids)
    return Timeline(texts=texts, labels=texts, files=[], ranks=ranks)


def _stage(first: int, microbatches: int = 2) -> list[str]:
    """A pipeline stage holding layers `first` and `first + 1`, as our runs print it."""
    out = ["load weights passed"]
    for _ in range(microbatches):
        for layer in (first, first + 1):
            out += ["norm passed", "attention passed", "MoE passed", f"layer {layer} passed"]
    return out


def test_pipeline_stages_logging_their_own_layers_do_not_diverge() -> None:
    job = {rank: _stage(2 * rank) for rank in range(4)}
    assert divergence(_layers(job)).ranks == []


def test_a_stage_behind_its_peers_is_no_divergence_either() -> None:
    job = {rank: _stage(2 * rank, 1 if rank >= 2 else 2) for rank in range(4)}
    assert divergence(_layers(job)).ranks == []


def test_ranks_sharing_layer_numbers_keep_them() -> None:
    """Counterexample: tensor-parallel ranks share the layers; one that skipped layer 1 still
    shares layer 0 with the others, so its layer 2 at layer 1's place is a divergence."""
    job = {rank: _stage(0) for rank in range(3)}
    skipped = [
        "load weights passed",
        "norm passed",
        "attention passed",
        "MoE passed",
        "layer 0 passed",
    ]
    job[3] = [*skipped, "norm passed", "attention passed", "MoE passed", "layer 2 passed"]
    assert divergence(_layers(job)).ranks == [3]


def _replica(lengths: list[int]) -> list[str]:
    """One rank of a server's data-parallel replica: its queue's requests, each a prefill and
    as many decode steps as it generates, then the success line."""
    out = []
    for request, steps in enumerate(lengths):
        out.append(f"request {request} / prefill passed")
        out += [f"request {request} / decode step {s} passed" for s in range(steps)]
    return [*out, "model run success"]


def test_replicas_serving_uneven_requests_do_not_diverge() -> None:
    job = {0: _replica([4, 2, 5]), 1: _replica([4, 2, 5]), 2: _replica([6, 3]), 3: _replica([6, 3])}
    assert divergence(_layers(job)).ranks == []


def test_a_replica_that_served_its_queue_first_does_not_diverge() -> None:
    job = {0: _replica([5, 2, 3]), 1: _replica([5, 2, 3]), 2: _replica([7]), 3: _replica([7])}
    assert divergence(_layers(job)).ranks == []


def test_a_request_line_where_the_peers_log_a_layer_is_a_divergence() -> None:
    """Counterexample: the path splits between a request line and a layer line."""
    job = {r: ["request 0 / prefill passed", "layer 0 passed", "layer 1 passed"] for r in range(3)}
    job[3] = ["request 0 / prefill passed", "request 1 / prefill passed", "layer 1 passed"]
    assert divergence(_layers(job)).ranks == [3]


def _one_f_one_b(stage: int, stages: int, microbatches: int = 4) -> list[str]:
    """One step of a 1F1B schedule as a stage logs it: as many forwards as stages after it
    before its first backward, then one forward and one backward in turn, then the rest."""
    warm = min(stages - stage - 1, microbatches)
    out = [f"microbatch {m} / fwd passed" for m in range(warm)]
    for m in range(warm, microbatches):
        out += [f"microbatch {m} / fwd passed", f"microbatch {m - warm} / bwd passed"]
    out += [f"microbatch {m} / bwd passed" for m in range(microbatches - warm, microbatches)]
    return [*out, "step 1 done"]


def test_1f1b_stages_part_on_their_schedule_not_on_a_code_path() -> None:
    job = {rank: ["load weights passed", *_one_f_one_b(rank, 3)] for rank in range(3)}
    assert divergence(_layers(job)).ranks == []


def test_a_microbatch_line_where_the_peers_close_the_step_is_a_divergence() -> None:
    """Counterexample: a stage that logs a fifth microbatch where the others close the step."""
    job = {rank: ["load weights passed", *_one_f_one_b(0, 1)] for rank in range(3)}
    job[2] = [*job[2][:-1], "microbatch 4 / fwd passed", "step 1 done"]
    assert divergence(_layers(job)).ranks == [2]


def _named_stage(first: int, microbatches: int = 2) -> list[str]:
    """A pipeline stage holding layers `first` and `first + 1` whose part lines name their
    layer (`model.layers.4.self_attn passed` reads `layer 4 / self_attn passed`)."""
    out = ["load weights passed"]
    for mb in range(microbatches):
        for layer in (first, first + 1):
            out += [
                f"layer {layer} / {part} passed" for part in ("input_layernorm", "self_attn", "mlp")
            ]
        out.append(f"microbatch {mb} / forward passed")
    return out


def test_stages_whose_part_lines_name_their_own_layers_do_not_diverge() -> None:
    job = {rank: _named_stage(2 * rank) for rank in range(4)}
    assert divergence(_layers(job)).ranks == []
    order = stage_order(_layers(job))
    assert order == [[(r, 2, 2)] for r in range(4)]


def test_a_stage_that_skipped_a_part_named_by_its_layer_still_diverges() -> None:
    """Counterexample: the stages hold their own layers, but stage 2 logs no self_attn where
    the others do: a different path, compared by the part at the same layer place."""
    job = {rank: _named_stage(2 * rank) for rank in range(4)}
    job[2] = [line for line in job[2] if line != "layer 4 / self_attn passed"]
    assert divergence(_layers(job)).ranks == [2]


def _exchanging_stage(stage: int, stages: int, microbatches: int = 3) -> list[str]:
    """A stage that logs its receive, its forward and its send of each micro-batch, as
    `stage 1 recv ok (micro-batch 2)` normalises: the first stage receives nothing and the
    last one hands its logits out instead of sending."""
    out = []
    for m in range(1, microbatches + 1):
        if stage > 0:
            out.append(f"microbatch {m} / recv ok")
        out.append(f"microbatch {m} / forward done")
        out.append(
            f"microbatch {m} / send ok" if stage < stages - 1 else f"microbatch {m} / logits ready"
        )
    return out


def test_stages_that_log_their_exchanges_part_on_their_place_not_on_a_code_path() -> None:
    job = {rank: _exchanging_stage(rank, 4) for rank in range(4)}
    assert divergence(_layers(job)).ranks == []


def test_an_exchange_line_where_the_peers_close_a_layer_is_a_divergence() -> None:
    """Counterexample: a stage whose micro-batch line stands where its peers log a layer."""
    job = {rank: ["layer 0 passed", "layer 1 passed"] for rank in range(3)}
    job[1] = ["layer 0 passed", "microbatch 1 / send ok"]
    assert divergence(_layers(job)).ranks == [1]
