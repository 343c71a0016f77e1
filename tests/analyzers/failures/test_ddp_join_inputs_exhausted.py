"""DDP's Join context with early termination stops every rank once one has run out of inputs
(docs/labelling.md#ranks-given-different-numbers-of-batches). The rank that ran out raises
`Rank N exhausted all inputs.`; the others raise `Detected at least one rank that exhausted
inputs. Throwing across all ranks.` at their next forward. The first is the first error and its
rank the culprit, whichever file is read first. Excerpts follow the real shapes with values of
our own.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_files


def _rank_log(rank: int, line: str) -> str:
    return (
        "train step 2 passed loss=4.3701\n"
        "train step 3 start\n"
        f"[rank{rank}]: Traceback (most recent call last):\n"
        f'[rank{rank}]:   File "/srv/fit/train.py", line 104, in one_epoch\n'
        f'[rank{rank}]:     logits = model(batch["ids"])\n'
        f"[rank{rank}]: RuntimeError: {line}\n"
    )


PEER = "Detected at least one rank that exhausted inputs. Throwing across all ranks."


def test_the_rank_that_ran_out_is_the_first_error_and_the_culprit() -> None:
    files = {f"job-1/log_{r}.log": _rank_log(r, PEER) for r in (0, 2, 3)}
    files["job-1/log_1.log"] = _rank_log(1, "Rank 1 exhausted all inputs.")
    diagnosis = diagnose_files(dict(sorted(files.items())))
    assert_reads(
        diagnosis,
        "hccl",
        first_error="Rank 1 exhausted all inputs",
        rule="hccl.ddp_join_inputs_exhausted",
        beside=["config"],
    )
    assert diagnosis.culprit_ranks == [1]


def test_the_peers_line_alone_reads_as_the_same_check() -> None:
    diagnosis = diagnose_files({"job-1/log_0.log": _rank_log(0, PEER)})
    assert_reads(diagnosis, "hccl", first_error=PEER, rule="hccl.ddp_join_peer_exhausted")
