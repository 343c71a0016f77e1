"""A shell script that stops on a variable nothing set.

docs/labelling.md#a-shell-script-that-stops-on-a-variable-it-never-set: a launch script run
under `set -u` (nounset) stops at the first variable it reads that was never set, bash's
`<script>: line N: NAME: unbound variable`. When the line that read it is in the toolkit's
environment script, sourced by the job's own launcher, nothing after it in that script runs, so
the toolkit's paths are never set. The job's script and its shell options are what change:
`config`, with `driver_env` beside it, and the line is the first error. Fixtures in bash's
format with names and paths of our own.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

RULE = "cfg.shell_unbound_variable"

# The launcher sources the toolkit's script with nounset on; the server then cannot find the
# driver library the script would have put on the loader path.
SOURCED_UNDER_NOUNSET = """\
+ source /opt/ascend/cann/set_env.sh
/opt/ascend/cann/set_env.sh: line 27: LD_PRELOAD_EXTRA: unbound variable
ImportError: libascend_hal.so: cannot open shared object file: No such file or directory
"""

# The job's own script reads a variable its scheduler did not export.
JOB_SCRIPT_VARIABLE = """\
[2026-03-02 10:14:07] starting node 1 of 2
./launch_multinode.sh: line 58: MASTER_ADDR: unbound variable
"""

# An interactive shell says the same without a line number.
BARE_SHELL = "bash: NODE_RANK: unbound variable\n"


def test_a_toolkit_script_sourced_under_nounset_is_the_launch_script() -> None:
    diagnosis = diagnose_text("run_server.log", SOURCED_UNDER_NOUNSET)
    assert_reads(
        diagnosis,
        "config",
        first_error="LD_PRELOAD_EXTRA: unbound variable",
        rule=RULE,
        beside=["driver_env"],
    )


def test_the_jobs_own_script_reads_the_same() -> None:
    diagnosis = diagnose_text("launch.log", JOB_SCRIPT_VARIABLE)
    assert_reads(diagnosis, "config", first_error="MASTER_ADDR: unbound variable", rule=RULE)


def test_a_shell_without_a_line_number_reads_the_same() -> None:
    diagnosis = diagnose_text("console.log", BARE_SHELL)
    assert_reads(diagnosis, "config", first_error="NODE_RANK: unbound variable", rule=RULE)


def test_a_comment_about_nounset_is_no_abort() -> None:
    diagnosis = diagnose_text(
        "launch.log",
        "note: set -u is on, so every variable must be set (no unbound variable allowed)\n"
        "export NODE_RANK=${NODE_RANK:-0}  # avoids an unbound variable under nounset\n",
    )
    assert RULE not in rules_of(diagnosis)
