"""A data loader whose pin-memory thread ended without saying why.

docs/labelling.md#config-driver_env-or-weight_load: with `pin_memory=True` a loader's helper
thread copies each batch into page-locked memory, and the main loop raises `Pin memory thread
exited unexpectedly` once it finds the thread gone. The line names no reason (the thread's own
exception, a descriptor or shared-memory limit met while batches arrive, a crash), so the
reading is `other` with `device_fault` and `driver_env` beside it, at low confidence, and a
limit the bundle names comes first. The excerpts follow the real shapes (two ranks' lines
interleaved, as they are in one console) with paths and numbers of our own.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

INTERLEAVED = """\
    idx, data = self._get_data()  File "/opt/conda/lib/python3.8/site-packages/torch/utils/data/dataloader.py", line 1041, in _get_data

  File "/opt/conda/lib/python3.8/site-packages/torch/utils/data/dataloader.py", line 1041, in _get_data
    raise RuntimeError('Pin memory thread exited unexpectedly')
    raise RuntimeError('Pin memory thread exited unexpectedly')
RuntimeError: Pin memory thread exited unexpectedly
[rank1]: RuntimeError: Pin memory thread exited unexpectedly
"""

AFTER_THE_LIMIT = """\
RuntimeError: Too many open files. Communication with the workers is no longer possible. Please increase the limit using `ulimit -n` in the shell or change the sharing strategy by calling `torch.multiprocessing.set_sharing_strategy('file_system')` at the beginning of your code
RuntimeError: Pin memory thread exited unexpectedly
"""

SETTINGS = """\
INFO data: train loader num_workers=8 pin_memory=True persistent_workers=True
INFO data: pin memory thread started for device cuda:1
"""


def test_a_pin_memory_thread_gone_without_a_reason_is_read_at_low_confidence() -> None:
    diagnosis = diagnose_text("train.log", INTERLEAVED)
    assert_reads(
        diagnosis,
        "other",
        first_error="Pin memory thread exited unexpectedly",
        rule="other.pin_memory_thread_exited",
        beside=("device_fault", "driver_env"),
    )
    assert diagnosis.confidence < 0.8


def test_an_open_file_limit_named_before_it_decides() -> None:
    diagnosis = diagnose_text("train.log", AFTER_THE_LIMIT)
    assert_reads(diagnosis, "driver_env", first_error="Too many open files")


def test_the_loader_settings_are_no_failure() -> None:
    diagnosis = diagnose_text("train.log", SETTINGS)
    assert "other.pin_memory_thread_exited" not in rules_of(diagnosis)
