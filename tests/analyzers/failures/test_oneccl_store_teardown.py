"""oneCCL's own key-value store and process-management layer failing after a peer went away.

oneCCL keeps a small key-value store of its own (its `internal_kvs` client and server) and a
process-management layer over it (`pmi_resizable_simple_internal`). When another worker of the
job dies, the survivor's teardown cannot reach that worker's end of the store any more: a
read or write on the store's socket fails (`put: read/write error: Broken pipe`), the key it
wanted to remove stays (`kvs_remove_name_key: client: remove_key`), the layer's finalisation
fails (`pmrt_finalize: failed to remove info`) and its destructor throws. These lines say that
a peer is gone, not why: the dead worker's own line, or the engine's note that it died, is the
first error. docs/labelling.md#collective-libraries-of-other-accelerators
Fixtures are written for these tests in the real shapes, with their own values.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

DIED_THEN_STORE_TEARDOWN = """\
(EngineCore pid=88) INFO 03-11 10:02:30 [core.py:812] Loading model weights took 25.1 GiB
(EngineCore pid=88) ERROR 03-11 10:02:41 [multiproc_executor.py:283] Worker proc VllmWorker-1 died unexpectedly, shutting down executor.
(Worker_TP0 pid=141) INFO 03-11 10:02:41 [multiproc_executor.py:872] WorkerProc shutting down.
2026:03:11-10:02:42:(  141) |CCL_ERROR| internal_kvs_server.hpp:70 put: read/write error: Connection reset by peer
2026:03:11-10:02:42:(  141) |CCL_ERROR| internal_kvs.cpp:94 kvs_remove_name_key: client: remove_key
2026:03:11-10:02:42:(  141) |CCL_ERROR| pmi_resizable_simple_internal.cpp:197 pmrt_finalize: failed to remove info
2026:03:11-10:02:42:(  141) |CCL_ERROR| pmi_resizable_simple_internal.cpp:363 ~pmi_resizable_simple_internal: condition pmrt_finalize() == ATL_STATUS_SUCCESS failed
terminate called after throwing an instance of 'ccl::v1::exception'
  what():  oneCCL: pmi_resizable_simple_internal.cpp:363 ~pmi_resizable_simple_internal: EXCEPTION: ~pmi_resizable_simple_internal: failed
(EngineCore pid=88) ERROR 03-11 10:02:49 [core.py:1141] EngineCore failed to start.
"""

STORE_TEARDOWN_ONLY = """\
2026:03:11-10:02:42:(  141) |CCL_ERROR| internal_kvs_server.hpp:70 put: read/write error: Broken pipe
2026:03:11-10:02:42:(  141) |CCL_ERROR| internal_kvs.cpp:94 kvs_remove_name_key: client: remove_key
terminate called after throwing an instance of 'ccl::v1::exception'
"""

DEAD_WORKER_SAID_WHY = """\
(Worker_TP1 pid=142) ERROR 03-11 10:02:40 [multiproc_executor.py:611] RuntimeError: level_zero backend failed with error: 40 (UR_RESULT_ERROR_OUT_OF_RESOURCES)
(EngineCore pid=88) ERROR 03-11 10:02:41 [multiproc_executor.py:283] Worker proc VllmWorker-1 died unexpectedly, shutting down executor.
2026:03:11-10:02:42:(  141) |CCL_ERROR| internal_kvs_server.hpp:70 put: read/write error: Broken pipe
2026:03:11-10:02:42:(  141) |CCL_ERROR| pmi_resizable_simple_internal.cpp:197 pmrt_finalize: failed to remove info
"""

STORE_START_FAILURE = """\
2026:03:11-09:58:02:(  141) |CCL_WARN| did not find MPI-launcher specific variables, switch to ATL/OFI, to force enable ATL/MPI set CCL_ATL_TRANSPORT=mpi
2026:03:11-09:59:02:(  141) |CCL_ERROR| internal_kvs.cpp:521 kvs_init: connection time (60) >= limit (60)
"""


def test_a_worker_that_died_comes_before_the_survivors_store_teardown() -> None:
    diagnosis = diagnose_text("logs/docker-compose.log", DIED_THEN_STORE_TEARDOWN)
    assert_reads(
        diagnosis, "device_fault", first_error="Worker proc VllmWorker-1 died unexpectedly"
    )


def test_the_store_teardown_alone_is_a_peer_that_went_away() -> None:
    diagnosis = diagnose_text("logs/serve.log", STORE_TEARDOWN_ONLY)
    assert_reads(
        diagnosis, "hccl", first_error="internal_kvs_server.hpp:70 put", beside=("device_fault",)
    )


def test_the_dead_workers_own_error_stays_first() -> None:
    diagnosis = diagnose_text("logs/serve.log", DEAD_WORKER_SAID_WHY)
    assert_reads(diagnosis, "oom", first_error="UR_RESULT_ERROR_OUT_OF_RESOURCES")


def test_a_store_that_never_came_up_is_still_the_library_failing() -> None:
    diagnosis = diagnose_text("logs/rank0.log", STORE_START_FAILURE)
    assert_reads(diagnosis, "hccl", first_error="kvs_init: connection time")
