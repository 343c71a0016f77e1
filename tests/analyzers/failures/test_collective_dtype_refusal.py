"""A gloo collective handed a dtype it has no case for.

docs/labelling.md#a-collective-whose-backend-has-no-case-for-the-dtype: gloo's dtype dispatch
refuses a tensor it cannot carry (a boolean flag, an int16 buffer) with a bare `RuntimeError:
Invalid scalar type`, on the host and before anything is sent: `operator`, with `hccl` and
`config` beside it. A user class raising its own `ValueError` with the words is not the check.
Paths, ranks and frames are our own, in torch's wording.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

FLAG_BROADCAST = r"""Traceback (most recent call last):
  File "C:\jobs\det\run_ddp.py", line 31, in <module>
    trainer.fit()
  File "C:\jobs\det\engine\trainer.py", line 214, in setup
    dist.broadcast(self.use_amp, src=0)
  File "C:\envs\det\lib\site-packages\torch\distributed\distributed_c10d.py", line 1552, in broadcast
    work.wait()
RuntimeError: Invalid scalar type
"""


def test_a_gloo_collective_refusing_the_tensors_dtype_is_the_op() -> None:
    diagnosis = diagnose_text("console.log", FLAG_BROADCAST)
    assert_reads(
        diagnosis,
        "operator",
        first_error="RuntimeError: Invalid scalar type",
        rule="op.gloo_dtype_unsupported",
        beside=("hccl", "config"),
    )


def test_a_rank_tagged_refusal_reads_the_same() -> None:
    text = (
        '[rank3]:   File "/srv/eval/sync.py", line 12, in gather_masks\n'
        "[rank3]:     dist.all_gather(out, mask)\n"
        "[rank3]: RuntimeError: Invalid scalar type\n"
    )
    diagnosis = diagnose_text("rank3.log", text)
    assert diagnosis.category == "operator"
    assert "op.gloo_dtype_unsupported" in rules_of(diagnosis)


def test_a_user_class_raising_the_words_is_not_the_collective() -> None:
    text = (
        '  File "/srv/geom/mat.py", line 40, in __mul__\n'
        '    raise ValueError("Invalid scalar type")\n'
        "ValueError: Invalid scalar type\n"
    )
    diagnosis = diagnose_text("train.log", text)
    assert "op.gloo_dtype_unsupported" not in rules_of(diagnosis)
