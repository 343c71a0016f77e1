"""A weight loader set to read through GPUDirect Storage on a platform without it.

docs/labelling.md#a-weight-loader-that-needs-gpudirect-storage-the-platform-lacks: a loader
that copies safetensors files straight from storage to the GPU (GPUDirect Storage through
cuFile) checks the device first and, with its no-GDS fallback switched off, raises that the
check failed (`Exception: is_gds_supported(1) failed`), after its own warning that GDS is not
supported and the fallback should be switched on. Nothing is wrong with the weights or the
card: the loader's option does not fit the platform, `config`, with `driver_env` (the storage
stack) and `weight_load` (the stage that stopped) beside it, and the raised check is the first
error ahead of the engine's `Error executing method 'load_model'`. Counterexamples: the loader's
note that it falls back to the plain copy, and a check that passed, are no errors.

The fixtures are written in the shape of a serving engine's worker log, with our own values.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

NO_GDS = """\
(Worker_TP1 pid=3301) /opt/venv/lib/python3.12/site-packages/fastsafetensors/copier/gds.py:185: UserWarning: GDS is not supported in this platform but nogds is False. use nogds=True
(Worker_TP1 pid=3301)   warnings.warn(
(Worker_TP1 pid=3301) ERROR 05-02 11:20:31 [multiproc_executor.py:597]     loader = _init_loader(pg, device, f_list, nogds=nogds)
(Worker_TP1 pid=3301) ERROR 05-02 11:20:31 [multiproc_executor.py:597] Exception: is_gds_supported(1) failed
(Worker_TP0 pid=3300) ERROR 05-02 11:20:31 [worker_base.py:344] Error executing method 'load_model'. This might cause deadlock in distributed execution.
"""


def test_a_gds_check_that_failed_is_the_loader_option() -> None:
    diagnosis = diagnose_text("serve.log", NO_GDS)
    assert_reads(
        diagnosis,
        "config",
        first_error="is_gds_supported(1) failed",
        rule="cfg.loader_gds_unsupported",
        beside=["driver_env", "weight_load"],
    )


def test_the_check_alone_reads_the_same() -> None:
    diagnosis = diagnose_text("serve.log", "Exception: is_gds_supported(0) failed\n")
    assert_reads(diagnosis, "config", first_error="is_gds_supported(0) failed")


def test_a_fallback_note_is_no_failure() -> None:
    text = (
        "INFO 05-02 11:20:30 [weight_utils.py:780] GDS is not available, loading with nogds=True\n"
        "DEBUG is_gds_supported(0) passed, using cuFile\n"
    )
    diagnosis = diagnose_text("serve.log", text)
    assert diagnosis.first_error is None
