"""Ray's object store refusing an object because it is full.

One class: Ray keeps the objects a job passes between its processes in a store in the node's
shared memory. When an object cannot be placed because the store is full of objects still in
use (or the object is larger than the whole store), the caller gets Ray's object-store-full
error, or the core worker logs the refusal with the object's size: host memory exhausted,
`oom`, with `config` (the store's size) beside it
(docs/labelling.md#an-object-store-that-is-full). A store that cannot spill because the node's
disk is full is the disk, and a notice of where the store lives or of a spill is no failure.
The excerpts follow Ray's shapes with values of our own.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

PUT_REFUSED = """\
  File "/opt/app/rollout.py", line 54, in broadcast_weights
    ref = ray.put(state_dict)
  File "python/ray/_raylet.pyx", line 1402, in ray._raylet.CoreWorker.put_serialized_object_and_increment_local_ref
  File "python/ray/_raylet.pyx", line 181, in ray._raylet.check_status
ray.exceptions.ObjectStoreFullError: Failed to put object 00ffffffffffffffffffffffffffffffffffffff0300000002000000 in object store because it is full. Object size is 3221225472 bytes.
The local object store is full of objects that are still in scope and cannot be evicted. Tip: Use the `ray memory` command to list active objects in the cluster.
"""

CORE_WORKER_LINE = (
    "(ShardReader pid=8841) [2026-04-09 10:12:33,517 E 8841 8841] plasma_store_provider.cc:130: "
    "Failed to put object 77a1c0ffffffffffffffffffffffffffffffffff0100000001000000 in object "
    "store because it is full. Object size is 96636764160 bytes.\n"
    "(ShardReader pid=8841) Plasma store status:\n"
    "(ShardReader pid=8841) (global lru) capacity: 64424509440\n"
)


def test_a_put_the_full_object_store_refused_is_host_memory() -> None:
    diagnosis = diagnose_text("driver.log", PUT_REFUSED)
    assert_reads(
        diagnosis,
        "oom",
        first_error="ObjectStoreFullError",
        rule="oom.ray_object_store_full",
        beside=("config",),
    )


def test_the_core_workers_own_record_of_the_refusal_is_read_the_same() -> None:
    diagnosis = diagnose_text("job.log", CORE_WORKER_LINE)
    assert_reads(diagnosis, "oom", first_error="because it is full")


def test_a_store_that_cannot_spill_to_a_full_disk_stays_the_disk() -> None:
    text = (
        "ray.exceptions.OutOfDiskError: Local disk is full\n"
        "The object cannot be created because the local object store is full and the local "
        "disk's utilization is over capacity (95% by default).\n"
    )
    diagnosis = diagnose_text("driver.log", text)
    assert "oom.ray_object_store_full" not in rules_of(diagnosis)
    assert diagnosis.category == "driver_env", diagnosis.root_cause


def test_a_notice_of_where_the_store_lives_is_no_failure() -> None:
    text = (
        "2026-04-09 10:02:11,004\tWARNING services.py:2009 -- WARNING: The object store is using "
        "/tmp instead of /dev/shm because /dev/shm has only 67108864 bytes available.\n"
        "(raylet) Spilled 4096 MiB, 9 objects, write throughput 1180 MiB/s.\n"
    )
    diagnosis = diagnose_text("driver.log", text)
    assert "oom.ray_object_store_full" not in rules_of(diagnosis)
