"""A binary the dynamic loader refuses because the host's system library is older.

docs/labelling.md#a-system-library-older-than-a-binary-needs: the loader's `version
`GLIBC_x' not found (required by ...)` line is the first error and the machine's failure
(`driver_env`, with `config` as the alternative), also when a kernel compile stage prints it
inside its own error banner; a loader note that a library has no version information is no
refusal, and the compile banner alone keeps the compile reading. The loader's second wording
(`symbol X version Y not defined in file Z with link time reference`) is the same finding, also
quoted bare; the plain `undefined symbol:` form keeps the package-set reading.

Fixtures follow Triton-Ascend's compile banner and a Python import; paths and versions are
made up.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

COMPILER_TOO_NEW_FOR_HOST = """\
Traceback (most recent call last):
  File "/srv/env/lib/python3.10/site-packages/triton/compiler/compiler.py", line 297, in compile
    next_module = compile_ir(module, metadata)
///------------------[ERROR][Triton][BEG]------------------
[ConvertLinalgRToBinary] encounters error:
/opt/cann/tools/bishengir/bin/bishengir-compile: /lib64/libc.so.6: version `GLIBC_2.34' not found (required by /opt/cann/tools/bishengir/bin/bishengir-compile)
///------------------[ERROR][Triton][END]------------------
"""


def test_a_compiler_the_host_library_is_too_old_for_is_the_machine() -> None:
    diagnosis = diagnose_text("job/console.txt", COMPILER_TOO_NEW_FOR_HOST)
    assert_reads(diagnosis, "driver_env", first_error="GLIBC_2.34' not found", beside=("config",))


def test_an_extension_needing_a_newer_libstdcxx_is_the_machine_too() -> None:
    text = (
        "Traceback (most recent call last):\n"
        '  File "/srv/app/main.py", line 4, in <module>\n'
        "    import fastops._C\n"
        "ImportError: /usr/lib/aarch64-linux-gnu/libstdc++.so.6: version `GLIBCXX_3.4.32' not "
        "found (required by /srv/env/lib/python3.11/site-packages/fastops/_C.so)\n"
    )
    diagnosis = diagnose_text("job/console.txt", text)
    assert_reads(diagnosis, "driver_env", first_error="GLIBCXX_3.4.32")


def test_a_compile_banner_without_the_loader_line_keeps_the_compile_reading() -> None:
    banner_only = "\n".join(
        line for line in COMPILER_TOO_NEW_FOR_HOST.splitlines() if "GLIBC" not in line
    )
    diagnosis = diagnose_text("job/console.txt", banner_only + "\n")
    assert diagnosis.category == "operator"


def test_a_loader_note_about_version_information_is_no_refusal() -> None:
    text = (
        "/opt/tool/bin/helper: /lib64/libz.so.1: no version information available "
        "(required by /opt/tool/bin/helper)\n"
        "helper finished, 12 files written\n"
    )
    diagnosis = diagnose_text("job/console.txt", text)
    assert diagnosis.category != "driver_env"


def test_a_versioned_symbol_the_runtime_library_lacks_is_the_machine() -> None:
    for text in (
        "symbol cudaMallocAsync version libcudart.so.11.0 not defined in file "
        "libcudart.so.11.0 with link time reference\n",
        "Traceback (most recent call last):\n"
        '  File "/srv/app/serve.py", line 3, in <module>\n'
        "    import engine._core\n"
        "ImportError: /srv/env/lib/python3.10/site-packages/engine/lib/_core.so: symbol "
        "cublasLtMatmulAlgoInit version libcublasLt.so.11 not defined in file libcublasLt.so.11 "
        "with link time reference\n",
    ):
        diagnosis = diagnose_text("job/console.txt", text)
        assert diagnosis.category == "driver_env", text
        assert diagnosis.first_error is not None
        assert "with link time reference" in diagnosis.first_error.text
        assert "config" in {alternative.category for alternative in diagnosis.alternatives}


def test_an_unversioned_missing_symbol_keeps_the_package_set_reading() -> None:
    text = (
        "ImportError: /srv/env/lib/python3.10/site-packages/engine/lib/_core.so: "
        "undefined symbol: cudaMallocAsync\n"
    )
    diagnosis = diagnose_text("job/console.txt", text)
    assert diagnosis.category == "config"


def test_a_loader_refusal_retyped_without_its_version_or_requiring_binary_is_the_machine() -> None:
    """A FAQ or a title keeps the refusal cut after `not found`, with the version written as
    placeholder letters and the quotes made straight; the loader's wording is still whole."""
    for text in (
        "libc.so.6: version 'GLIBC_x.yy' not found\n",
        "ImportError: /lib64/libm.so.6: version `GLIBC_2.29' not found\n",
        "/usr/lib64/libstdc++.so.6: version 'GLIBCXX_3.4.XX' not found\n",
    ):
        diagnosis = diagnose_text("job/train.log", text)
        assert_reads(diagnosis, "driver_env", first_error="' not found", beside=("config",))


def test_a_version_sentence_that_goes_on_after_not_found_is_no_loader_refusal() -> None:
    diagnosis = diagnose_text(
        "job/train.log", "release notes: version 'GLIBC_2.34' not found in the table, using 2.28\n"
    )
    assert diagnosis.category != "driver_env"
