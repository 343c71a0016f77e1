"""A just-in-time extension build that finds no host C++ compiler on the machine.

docs/labelling.md#config-driver_env-or-weight_load: torch's extension builder (and the op
builders that use it) first asks the shell where the host compiler is; on a machine or
container without one, that look-up fails (`CalledProcessError: Command '['which', 'c++']'
returned non-zero exit status 1.`), or Python cannot start the program (`No such file or
directory: 'g++'`), or the shell cannot find it (`gcc: not found`), or setuptools says the
command failed for want of the file. The toolchain is the host's, like the CUDA compiler:
`driver_env`, with `config` beside it, and the line is the first error ahead of the import of
a stale module the build could not replace. Counterexamples: the look-up that found the
compiler, a compiler that ran and refused the code, and another program's exit status.

The fixtures are written in the shape of a rank's launcher log, with our own values.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

NO_CXX_THEN_STALE_OP = """\
[2026-03-02 10:14:05,118] [INFO] [launch.py:146:main] WORLD INFO DICT: {'localhost': [0, 1]}
Using /home/dev/.cache/torch_extensions/py311_cu121 as PyTorch extensions root...
[rank1]: subprocess.CalledProcessError: Command '['which', 'c++']' returned non-zero exit status 1.
[rank1]: ImportError: /home/dev/.cache/torch_extensions/py311_cu121/fused_lamb/fused_lamb.so: undefined symbol: _ZN3c106detail14torchCheckFailEPKcS2_jS2_
[2026-03-02 10:14:09,502] [ERROR] [launch.py:325:sigkill_handler] ['python', '-u', 'train.py', '--local_rank=1'] exits with return code = 1
"""


def test_a_failed_compiler_lookup_is_the_machine() -> None:
    diagnosis = diagnose_text("launcher.log", NO_CXX_THEN_STALE_OP)
    assert_reads(
        diagnosis,
        "driver_env",
        first_error="Command '['which', 'c++']' returned non-zero",
        rule="env.host_compiler_missing",
        beside=["config"],
    )


def test_other_wordings_of_a_missing_host_compiler() -> None:
    for line, wanted in (
        ("FileNotFoundError: [Errno 2] No such file or directory: 'g++'", "'g++'"),
        ("/bin/sh: 1: x86_64-linux-gnu-gcc: not found", "gcc: not found"),
        ("error: command 'gcc' failed: No such file or directory", "command 'gcc' failed"),
    ):
        diagnosis = diagnose_text("build.log", line + "\n")
        assert_reads(diagnosis, "driver_env", first_error=wanted)


def test_a_compiler_that_was_found_or_refused_the_code_is_no_missing_compiler() -> None:
    text = (
        "which c++: /usr/bin/c++\n"
        "c++: fatal error: Killed signal terminated program cc1plus\n"
        "subprocess.CalledProcessError: Command '['git', 'rev-parse', 'HEAD']' returned"
        " non-zero exit status 128.\n"
        "FileNotFoundError: [Errno 2] No such file or directory: '/data/gcc/config.json'\n"
    )
    diagnosis = diagnose_text("build.log", text)
    assert "env.host_compiler_missing" not in rules_of(diagnosis)
