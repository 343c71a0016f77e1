"""A KV cache store (an offload tier, a shared store such as Mooncake's) that hands back none
or part of a batch of keys: the backend counts what it could not read, the connector lists the
blocks it could not load, and the engine stops. The path to the store failed, not the device's
memory, although the lines speak of the store's "memory state".
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

STORE_READ_FAILED = """\
(EngineCore pid=4410) INFO 02-14 09:11:58 [kv_transfer.py:702] Looking up 512 keys for request cmpl-4c1d-0
(EngineCore pid=4410) ERROR 02-14 09:12:03 [mooncake_backend.py:231] Failed to get 512 keys out of 512. error_codes=[-704]. Check key existence and memory state.
(EngineCore pid=4410) ERROR 02-14 09:12:03 [kv_transfer.py:741] Failed to load blocks. failed_count=32, failed_blocks={4, 5, 6, 7}. Check block availability and memory state.
(EngineCore pid=4410) ERROR 02-14 09:12:06 [core.py:1102] EngineCore encountered a fatal error.
(EngineCore pid=4410) ERROR 02-14 09:12:06 [core.py:1102] Traceback (most recent call last):
"""

KEYS_READ = """\
(EngineCore pid=4410) DEBUG 02-14 09:12:03 [mooncake_backend.py:219] Got 512 keys out of 512 from the store.
(EngineCore pid=4410) INFO 02-14 09:12:03 [kv_transfer.py:733] Loaded blocks. count=32
"""


def test_a_store_batch_read_that_fails_is_the_path_to_the_store() -> None:
    diagnosis = diagnose_text("decode/engine.log", STORE_READ_FAILED)
    assert_reads(diagnosis, "hccl", first_error="Failed to get 512 keys out of 512")
    assert diagnosis.confidence < 0.8


def test_keys_that_were_read_are_no_failure() -> None:
    diagnosis = diagnose_text("decode/engine.log", KEYS_READ)
    assert diagnosis.category != "hccl"
