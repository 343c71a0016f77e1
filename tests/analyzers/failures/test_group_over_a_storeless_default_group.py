"""A second process group built over a default group that keeps no store.

docs/labelling.md#operator-installation-or-platform-limit: c10d builds every later group on
the store of the default group, and an MPI default group rendezvouses through MPI and has no
store, so a NCCL or gloo group asked for under it is refused before anything is sent
(`Underlying Non-PrefixStore shouldn't be null`): `config`, with `hccl` beside it, and the
refusal is the first error. Values of our own in the real shapes.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

NCCL_GROUP_UNDER_MPI = """\
[rank1]: Traceback (most recent call last):
[rank1]:   File "/work/jobs/hybrid_comm.py", line 21, in <module>
[rank1]:     gpu_group = dist.new_group(ranks=[0, 1], backend="nccl")
[rank1]:   File "/opt/venv/lib/python3.12/site-packages/torch/distributed/distributed_c10d.py", line 5012, in new_group
[rank1]:     return _new_group_with_tag(
[rank1]:   File "/opt/venv/lib/python3.12/site-packages/torch/distributed/distributed_c10d.py", line 1920, in _new_process_group_helper
[rank1]:     backend_class = ProcessGroupNCCL(
[rank1]: RuntimeError: Underlying Non-PrefixStore shouldn't be null.
"""


def test_a_group_under_a_default_group_without_a_store_is_a_set_up_that_does_not_fit() -> None:
    diagnosis = diagnose_text("rank1.log", NCCL_GROUP_UNDER_MPI)
    assert_reads(
        diagnosis,
        "config",
        first_error="Underlying Non-PrefixStore shouldn't be null",
        rule="cfg.group_store_missing",
        beside=("hccl",),
    )


def test_a_store_that_timed_out_under_the_same_call_is_no_missing_store() -> None:
    text = NCCL_GROUP_UNDER_MPI.replace(
        "RuntimeError: Underlying Non-PrefixStore shouldn't be null.",
        "torch.distributed.DistStoreError: Timed out after 1801 seconds waiting for clients."
        " 1/2 clients joined.",
    )
    diagnosis = diagnose_text("rank1.log", text)
    assert "cfg.group_store_missing" not in rules_of(diagnosis)
    assert diagnosis.category == "hccl"
