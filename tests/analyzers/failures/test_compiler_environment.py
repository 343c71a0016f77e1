"""torch.compile stopped by the Python environment it runs in, before any kernel is built.

Inductor checks for a usable Triton before it generates a GPU kernel; a missing or mismatched
one stops it with `TritonMissing` (no error word) or a RuntimeError with the same sentence:
the package set does not fit, `config` with `driver_env` beside it
(docs/labelling.md#a-triton-the-compiler-cannot-use). Inductor and Triton name their cache
directories after the user, and a uid with no entry in the user database stops the lookup with
`KeyError: 'getpwuid(): uid not found: N'`: the machine's set-up, `driver_env` with `config`
beside it (docs/labelling.md#a-user-id-with-no-name). Excerpts in a serving engine's, torchrun's
and a launcher's formats, with values of our own.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

TRITON_MISSING_SERVER = """\
[2026-03-04 05:06:07 TP1] Scheduler hit an exception: Traceback (most recent call last):
  File "/opt/venv/lib/python3.12/site-packages/torch/_inductor/scheduler.py", line 4120, in create_backend
    raise TritonMissing(inspect.currentframe())
torch._inductor.exc.TritonMissing: Cannot find a working triton installation. Either the package is not installed or it is too old. More information on installing Triton can be found at: https://github.com/triton-lang/triton

Set TORCHDYNAMO_VERBOSE=1 for the internal stack trace (please do this especially if you're reporting a bug to PyTorch). For even more developer context, set TORCH_LOGS="+dynamo"

[2026-03-04 05:06:08] Received sigquit from a child process. It usually means the child failed.
"""

TRITON_MISSING_OLD_RELEASE = """\
[rank2]:   File "/opt/venv/lib/python3.10/site-packages/torch/_inductor/scheduler.py", line 2611, in create_backend
[rank2]:     raise RuntimeError(
[rank2]: torch._dynamo.exc.BackendCompilerFailed: backend='inductor' raised:
[rank2]: RuntimeError: Cannot find a working triton installation. Either the package is not installed or it is too old. More information on installing Triton can be found at https://github.com/openai/triton
"""

UID_WITHOUT_NAME = """\
[default1]:[rank1]:   File "/usr/local/lib/python3.10/dist-packages/torch/_inductor/runtime/runtime_utils.py", line 141, in cache_dir
[default1]:[rank1]:     sanitized_username = re.sub(r'[\\\\/:*?"<>|]', "_", getpass.getuser())
[default1]:[rank1]:   File "/usr/lib/python3.10/getpass.py", line 169, in getuser
[default1]:[rank1]:     return pwd.getpwuid(os.getuid())[0]
[default1]:[rank1]: torch._dynamo.exc.BackendCompilerFailed: backend='inductor' raised:
[default1]:[rank1]: KeyError: 'getpwuid(): uid not found: 41007'
"""


def test_a_compiler_that_finds_no_usable_triton_is_the_package_set() -> None:
    diagnosis = diagnose_text("server.log", TRITON_MISSING_SERVER)
    assert_reads(
        diagnosis,
        "config",
        first_error="TritonMissing: Cannot find a working triton",
        rule="cfg.triton_unusable",
        beside=("driver_env",),
    )


def test_the_older_runtime_error_wording_reads_the_same() -> None:
    diagnosis = diagnose_text("launcher.log", TRITON_MISSING_OLD_RELEASE)
    assert_reads(diagnosis, "config", first_error="RuntimeError: Cannot find a working triton")


def test_a_uid_with_no_user_entry_is_the_machine_set_up() -> None:
    diagnosis = diagnose_text("pretrain.log", UID_WITHOUT_NAME)
    assert_reads(
        diagnosis,
        "driver_env",
        first_error="getpwuid(): uid not found",
        rule="env.uid_without_user_entry",
        beside=("config",),
    )
