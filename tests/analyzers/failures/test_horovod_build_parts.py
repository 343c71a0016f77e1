"""A Horovod installed without the part a launch asks for stops before any worker starts.

docs/labelling.md#a-distributed-library-installed-without-the-part-a-run-needs: horovodrun
asks the installed Horovod which controllers (MPI, Gloo) and framework extensions were built;
when the answer is "not built" or cannot be had, the installation on the machine is what is
missing (`driver_env`), with `config` (a build flag that was left out) as the alternative.
Values are our own, in the tools' real wordings.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

RUNNER_CANNOT_TELL = """\
Traceback (most recent call last):
  File "/opt/venv/bin/horovodrun", line 8, in <module>
    sys.exit(run_commandline())
  File "/opt/venv/lib/python3.8/site-packages/horovod/runner/launch.py", line 634, in run_controller
    if not gloo_built(verbose=verbose):
  File "/opt/venv/lib/python3.8/site-packages/horovod/common/util.py", line 143, in gloo_built
    raise RuntimeError('Failed to determine if Gloo support has been built. '
RuntimeError: Failed to determine if Gloo support has been built. Run again with --verbose for more details.
"""

EXTENSION_NOT_BUILT = """\
Traceback (most recent call last):
  File "train.py", line 3, in <module>
    import horovod.torch as hvd
  File "/opt/venv/lib/python3.8/site-packages/horovod/torch/__init__.py", line 27, in <module>
    __file__, 'mpi_lib_v2')
  File "/opt/venv/lib/python3.8/site-packages/horovod/common/util.py", line 47, in check_extension
    'Horovod with %s=1 to debug the build error.' % (ext_name, ext_env_var))
ImportError: Extension horovod.torch has not been built.  If this is not expected, reinstall Horovod with HOROVOD_WITH_PYTORCH=1 to debug the build error.
"""

# Counterexample: a Gloo collective that failed at run time is the collective, not the build.
GLOO_RUNTIME_FAILURE = """\
[1,0]<stderr>:terminate called after throwing an instance of 'gloo::IoException'
[1,0]<stderr>:  what():  [/tmp/gloo/transport/tcp/pair.cc:575] Connection closed by peer [10.20.0.12]:4433
"""


def test_a_runner_that_cannot_tell_what_was_built_is_the_installation() -> None:
    diagnosis = diagnose_text("horovodrun.log", RUNNER_CANNOT_TELL)
    assert_reads(
        diagnosis,
        "driver_env",
        first_error="Failed to determine if Gloo support has been built",
        rule="env.horovod_part_not_built",
        beside=("config",),
    )


def test_a_framework_extension_that_was_not_built_is_the_installation() -> None:
    diagnosis = diagnose_text("worker.log", EXTENSION_NOT_BUILT)
    assert_reads(
        diagnosis,
        "driver_env",
        first_error="Extension horovod.torch has not been built",
        rule="env.horovod_part_not_built",
    )


def test_a_gloo_connection_closed_at_run_time_is_not_the_build() -> None:
    diagnosis = diagnose_text("worker.log", GLOO_RUNTIME_FAILURE)
    assert "env.horovod_part_not_built" not in rules_of(diagnosis)
