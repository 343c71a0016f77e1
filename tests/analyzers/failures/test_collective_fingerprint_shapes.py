"""Fingerprint checks where two ranks run the same collective with tensors of other shapes.

docs/labelling.md#ranks-that-run-one-collective-with-other-shapes
"""

from __future__ import annotations

from tests.analyzers.excerpts import alternative_labels, diagnose_files

_OPTIONS = "TensorOptions(dtype=float (default), device=cuda, layout=Strided (default))"


def _fingerprint(step: int, op: str, shape: str, dtype: str = "BFloat16") -> str:
    return (
        f"CollectiveFingerPrint(SequenceNumber={step}, OpType={op}, TensorShape=[{shape}], "
        f"TensorDtypes={dtype}, TensorDeviceTypes={_OPTIONS})"
    )


def _report(rank: int, other: int, mine: str, theirs: str) -> str:
    return (
        f"[rank{rank}]: RuntimeError: Detected mismatch between collectives on ranks. "
        f"Rank {rank} is running collective: {mine}, but Rank {other} is running collective: "
        f"{theirs}.\n"
    )


def _job(theirs_of_odd: str) -> dict[str, str]:
    """Rank 2 of four gathers a sequence one token longer: every peer names it, it names 0."""
    even = _fingerprint(12, "_ALLGATHER_BASE", "96, 1, 2047, 64")
    return {
        "logs/log_0.log": _report(0, 2, even, theirs_of_odd),
        "logs/log_1.log": _report(1, 2, even, theirs_of_odd),
        "logs/log_2.log": _report(2, 0, theirs_of_odd, even),
        "logs/log_3.log": _report(3, 2, even, theirs_of_odd),
    }


def test_a_shape_only_difference_is_the_collective_with_shape_mismatch_beside_it() -> None:
    diagnosis = diagnose_files(_job(_fingerprint(12, "_ALLGATHER_BASE", "96, 1, 2048, 64")))
    assert diagnosis.category == "hccl"
    assert diagnosis.culprit_ranks == [2]
    assert "shape_mismatch" in alternative_labels(diagnosis)


def test_ranks_in_different_collectives_get_no_shape_neighbour() -> None:
    diagnosis = diagnose_files(_job(_fingerprint(12, "ALLREDUCE", "96, 1, 2047, 64")))
    assert diagnosis.category == "hccl"
    assert diagnosis.culprit_ranks == [2]
    assert "shape_mismatch" not in alternative_labels(diagnosis)


def test_a_dtype_alone_that_differs_is_no_shape() -> None:
    odd = _fingerprint(12, "_ALLGATHER_BASE", "96, 1, 2047, 64", dtype="Float")
    diagnosis = diagnose_files(_job(odd))
    assert "hccl.collective_shape_differs" not in {e.rule for e in diagnosis.evidence}


def _node_job(odd_of_five: bool) -> dict[str, str]:
    """Six ranks; rank 4 gathers a wider vector and every other rank's peer list names it
    first. Rank 5 either runs rank 4's fingerprint too (both ranks of a node whose env file
    turned on an extra column) and names rank 0, or runs the majority's and names rank 4."""
    even = _fingerprint(12, "ALLGATHER", "3", dtype="Float")
    wide = _fingerprint(12, "ALLGATHER", "4", dtype="Float")
    files = {f"logs/log_{r}.log": _report(r, 4, even, wide) for r in range(4)}
    files["logs/log_4.log"] = _report(4, 0, wide, even)
    files["logs/log_5.log"] = (
        _report(5, 0, wide, even) if odd_of_five else _report(5, 4, even, wide)
    )
    return files


def test_ranks_that_run_the_named_ranks_fingerprint_are_culprits_with_it() -> None:
    """Labelling guide, "Peers that name one rank": rank 5 is named by nobody (each rank names
    only its first differing peer), but its own fingerprint is the one the majority quotes for
    rank 4: it ran the same odd collective."""
    diagnosis = diagnose_files(_node_job(odd_of_five=True))
    assert diagnosis.category == "hccl"
    assert diagnosis.culprit_ranks == [4, 5]


def test_a_rank_that_runs_the_majoritys_fingerprint_is_not_added() -> None:
    """Counterexample: rank 5 runs what ranks 0-3 run and names rank 4 like them."""
    diagnosis = diagnose_files(_node_job(odd_of_five=False))
    assert diagnosis.culprit_ranks == [4]


def _op_job() -> dict[str, str]:
    """Rank 2 of four broadcasts where the others all-reduce; torch 2.x closes each report with
    the aspects that differ (`Collectives differ in the following aspects: ... Op type:
    BROADCASTvs ALLREDUCE`)."""
    mine = _fingerprint(18, "ALLREDUCE", "64, 16", dtype="Float")
    odd = _fingerprint(18, "BROADCAST", "64, 16", dtype="Float")
    diff = "Collectives differ in the following aspects:   Op type: {}vs {}"
    files = {}
    for r in (0, 1, 3):
        line = _report(r, 2, mine, odd).rstrip("\n") + diff.format("ALLREDUCE", "BROADCAST")
        files[f"logs/log_{r}.log"] = line + "\n"
    files["logs/log_2.log"] = (
        _report(2, 0, odd, mine).rstrip("\n") + diff.format("BROADCAST", "ALLREDUCE") + "\n"
    )
    return files


def test_the_op_type_aspect_of_a_fingerprint_report_is_no_operator() -> None:
    """torch's `Op type:` names the collective each rank ran, not an operator of the job:
    `operator` is no alternative of ranks in different collectives."""
    diagnosis = diagnose_files(_op_job())
    assert diagnosis.category == "hccl"
    assert diagnosis.culprit_ranks == [2]
    assert "operator" not in alternative_labels(diagnosis)
