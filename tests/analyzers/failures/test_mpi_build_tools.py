"""A package build that cannot run the MPI compiler wrapper it needs.

docs/labelling.md#an-mpi-launcher-that-cannot-place-or-start-its-ranks: a build of a package
with MPI support (Horovod's setup, an mpi4py build) first asks the MPI compiler wrapper for its
flags; a wrapper that is not on the PATH, or that cannot load MPI's own libraries, stops the
build before anything compiles. The host's MPI set-up: `driver_env`, `config` beside it, and
the build's line that names the wrapper is the first error. Values are our own, in the tools'
real wordings.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

# pip building Horovod on a host whose MPI is installed outside the shell's PATH.
WRAPPER_NOT_ON_PATH = """\
  Running setup.py install for horovod ... error
error: mpicxx -show failed, is mpicxx in $PATH?

Traceback (most recent call last):
  File "/tmp/pip-install-k2v8a1/horovod/setup.py", line 81, in get_mpi_flags
    output = subprocess.check_output(['mpicxx', '-show'], universal_newlines=True)
  File "/opt/py38/lib/python3.8/subprocess.py", line 411, in check_output
    **kwargs).stdout
FileNotFoundError: [Errno 2] No such file or directory: 'mpicxx'
"""

# The same build where only the wording of the check differs, and the shell's own refusal.
WRAPPER_SHELL = """\
$ HOROVOD_WITH_MPI=1 pip install --no-cache-dir horovod
/bin/sh: 1: mpicxx: not found
error: mpicxx -show failed (see error below), is MPI in $PATH?
"""

WRAPPER_OK = """\
$ mpicxx -show
g++ -I/opt/ompi/include -pthread -L/opt/ompi/lib -lmpi_cxx -lmpi
Successfully installed horovod-0.28.1
"""


def test_a_build_that_cannot_run_the_mpi_wrapper_is_the_hosts_mpi() -> None:
    diagnosis = diagnose_text("logs/install.log", WRAPPER_NOT_ON_PATH)
    assert_reads(diagnosis, "driver_env", first_error="mpicxx -show failed", beside=("config",))


def test_the_shells_refusal_of_the_wrapper_reads_the_same() -> None:
    diagnosis = diagnose_text("logs/install.log", WRAPPER_SHELL)
    assert_reads(diagnosis, "driver_env", first_error="mpicxx: not found")


def test_the_wrappers_flags_printed_are_no_failure() -> None:
    diagnosis = diagnose_text("logs/install.log", WRAPPER_OK)
    assert diagnosis.category == "healthy" or diagnosis.first_error is None, diagnosis.root_cause
