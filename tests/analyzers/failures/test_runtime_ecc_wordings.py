"""A device's uncorrectable memory error in the words of the runtime that met it.

docs/labelling.md#an-uncorrectable-memory-error-in-a-runtimes-words: CUDA answers a call on a
board whose memory holds an uncorrectable ECC error with code 214 (`CUDA_ERROR_ECC_UNCORRECTABLE`
in the driver API, `cudaErrorECCUncorrectable` in the runtime API, torch's `uncorrectable ECC
error encountered`). The OpenACC and CUDA Fortran runtime of NVIDIA's HPC compilers prints the
failed driver call with the number (`Accelerator Fatal Error: call to cuCtxCreate returned error
214`) and the code's name and sentence, often on the next line. Each spelling is the board's
memory failing: `device_fault`, the first line of the report the first error. A setting that
turns ECC on, or a status table that reports no error, is none. Values are our own.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

NVHPC_ECC_WRAPPED = """\
Accelerator Fatal Error: call to cuMemAlloc returned error 214
  (CUDA_ERROR_ECC_UNCORRECTABLE): uncorrectable ECC error encountered
solver: ERROR > preflight check failed with exit code 1.
"""

NVHPC_ECC_ONE_LINE = """\
Failing in Thread:1
call to cuMemcpyDtoHAsync returned error 214 (CUDA_ERROR_ECC_UNCORRECTABLE): uncorrectable ECC error encountered
"""

ECC_SETTINGS_ONLY = """\
ECC Mode
    Current                           : Enabled
    Pending                           : Enabled
the runtime maps code 214 to CUDA_ERROR_ECC_UNCORRECTABLE in its table of names
"""


def test_the_nvhpc_runtime_headline_of_an_ecc_error_is_the_first_error() -> None:
    diagnosis = diagnose_text("ci.log", NVHPC_ECC_WRAPPED)
    assert_reads(diagnosis, "device_fault", first_error="call to cuMemAlloc returned error 214")


def test_the_code_name_on_one_line_reads_the_same() -> None:
    diagnosis = diagnose_text("run.err", NVHPC_ECC_ONE_LINE)
    assert_reads(diagnosis, "device_fault", first_error="returned error 214")


def test_ecc_settings_and_a_table_of_code_names_are_no_error() -> None:
    diagnosis = diagnose_text("smi.txt", ECC_SETTINGS_ONLY)
    assert "dev.ecc_error" not in rules_of(diagnosis)
    assert diagnosis.category != "device_fault"
