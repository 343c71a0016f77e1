"""The HCC runtime's own check of an HSA call, as ROCm builds of torch before HIP-Clang print it.

docs/labelling.md#a-gpu-fault-the-rocm-runtime-reports: HCC checks the status of every HSA
call it makes and, when one fails, prints one line headed by three hashes, the status by name
(or `Unknown Error Code` when the runtime has no name for it) with its number, and the source
place, then aborts the process: `### HCC STATUS_CHECK Error: HSA_STATUS_ERROR_EXCEPTION (0x1016)
at file:mcwamp_hsa.cpp line:1226`. A failed status under a running job is the device refusing
or stopping the work: `device_fault`, with `driver_env` beside it (an old ROCm stack is the
usual fix), the line the first error and the shell's `Aborted (core dumped)` after it only its
end. A status that names resources the runtime could not get is read as memory, like the queue
callback that names it. A line that only mentions the check, or the runtime's ordinary notices,
is no failure. Values are our own.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

STATUS_UNNAMED = """\
| epoch   1 |  2400/ 2983 batches | lr 20.00 | ms/batch 21.07 | loss  5.11 | ppl   165.70
-----------------------------------------------------------------------------------------
| end of epoch   1 | time: 66.21s | valid loss  4.93 | valid ppl   138.41
### HCC STATUS_CHECK Error: Unknown Error Code (0x29) at file:mcwamp_hsa.cpp line:1244
Aborted (core dumped)
"""

STATUS_NAMED = """\
Epoch 3: 41%|████      | 512/1250 [02:11<03:09,  3.90it/s, loss=0.412]
### HCC STATUS_CHECK Error: HSA_STATUS_ERROR_INVALID_ARGUMENT (0x1001) at file:mcwamp_hsa.cpp line:2310
Aborted (core dumped)
"""

STATUS_OUT_OF_RESOURCES = """\
### HCC STATUS_CHECK Error: HSA_STATUS_ERROR_OUT_OF_RESOURCES (0x1008) at file:mcwamp_hsa.cpp line:1195
Aborted (core dumped)
"""

CHECK_MENTIONED = """\
hcc: STATUS_CHECK wraps every HSA call of this build (HCC_PROFILE=2 writes the call trace)
| epoch   2 |   200/ 2983 batches | lr 20.00 | ms/batch 20.88 | loss  4.71 | ppl   111.05
"""


def test_an_unnamed_hsa_status_from_hcc_is_a_device_fault_before_the_abort() -> None:
    diagnosis = diagnose_text("word_language_model/train.log", STATUS_UNNAMED)
    assert_reads(
        diagnosis,
        "device_fault",
        first_error="### HCC STATUS_CHECK Error: Unknown Error Code (0x29)",
        rule="dev.hcc_status_check",
        beside=("driver_env",),
    )
    assert diagnosis.confidence >= 0.5


def test_a_named_hsa_status_from_hcc_reads_the_same() -> None:
    diagnosis = diagnose_text("train.log", STATUS_NAMED)
    assert_reads(
        diagnosis,
        "device_fault",
        first_error="HSA_STATUS_ERROR_INVALID_ARGUMENT (0x1001)",
        rule="dev.hcc_status_check",
    )


def test_hcc_naming_resources_it_could_not_get_stays_memory() -> None:
    diagnosis = diagnose_text("train.log", STATUS_OUT_OF_RESOURCES)
    assert_reads(diagnosis, "oom", first_error="HSA_STATUS_ERROR_OUT_OF_RESOURCES")


def test_a_note_about_the_check_is_no_failure() -> None:
    diagnosis = diagnose_text("train.log", CHECK_MENTIONED)
    assert diagnosis.category != "device_fault", diagnosis.root_cause
    assert diagnosis.first_error is None
