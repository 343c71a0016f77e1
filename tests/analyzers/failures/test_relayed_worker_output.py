"""A trainer that relays its workers' output through its own logger.

Every worker line arrives as the trainer's INFO record with the torch rank tag inside
(`... - Tuner - INFO - [rank3]: RuntimeError: ...`), and a paste may join such records on one
line. The record's INFO is the relay's; the worker's line is read by its words. Values are ours.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

RELAYED_OOM = (
    "2026-02-03 04:05:06,100 - Tuner - INFO - Saving the sharded checkpoint at step 400\n"
    "2026-02-03 04:05:06,101 - Tuner - INFO - [rank3]: Traceback (most recent call last):"
    + " "
    * 30
    + '2026-02-03 04:05:06,101 - Tuner - INFO - [rank3]:   File "/srv/tuner/save.py", line 88,'
    " in save\n"
    "2026-02-03 04:05:06,102 - Tuner - INFO - [rank3]:     dcp.save(state, checkpoint_id=out)\n"
    "2026-02-03 04:05:06,102 - Tuner - INFO - [rank3]: torch.OutOfMemoryError: NPU out of memory."
    " Tried to allocate 3.10 GiB (NPU 3; 60.00 GiB total capacity; 55.20 GiB already allocated;"
    " 55.20 GiB current active; 1.10 GiB free; 58.00 GiB reserved in total by PyTorch)\n"
)


def test_a_relayed_worker_error_is_the_failure() -> None:
    diagnosis = diagnose_text("tuner.log", RELAYED_OOM)
    assert_reads(diagnosis, "oom", first_error="NPU out of memory")
    assert diagnosis.first_error.rank == 3
