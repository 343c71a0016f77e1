"""Fingerprint checks where two ranks run the same collective with tensors of other shapes.

docs/labelling.md#ranks-that-run-one-collective-with-other-shapes
"""

from __future__ import annotations

from tests.analyzers.excerpts import diagnose_files

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
    assert "shape_mismatch" in [alt.category for alt in diagnosis.alternatives]


def test_ranks_in_different_collectives_get_no_shape_neighbour() -> None:
    diagnosis = diagnose_files(_job(_fingerprint(12, "ALLREDUCE", "96, 1, 2047, 64")))
    assert diagnosis.category == "hccl"
    assert diagnosis.culprit_ranks == [2]
    assert "shape_mismatch" not in [alt.category for alt in diagnosis.alternatives]


def test_a_dtype_alone_that_differs_is_no_shape() -> None:
    odd = _fingerprint(12, "_ALLGATHER_BASE", "96, 1, 2047, 64", dtype="Float")
    diagnosis = diagnose_files(_job(odd))
    assert "hccl.collective_shape_differs" not in {e.rule for e in diagnosis.evidence}
