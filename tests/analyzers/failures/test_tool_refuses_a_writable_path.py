"""An Ascend development tool that refuses a file other users may write.

- The operator project generator (and the tools built with it) checks the mode of every file
  it is handed and refuses one that the user's group or others can write
  (`[ERROR] The path <file> should not be written by user group or others`): the account's
  files are set up wrongly (a wide umask, a copy from a shared place), `driver_env` with
  `config` beside it, and the line is the first error.
- Counterexample: the same tool's note that it checked a path's permission is no failure.

Fixtures are written here in the real shapes with their own values.

docs/labelling.md#custom-operator-projects-that-fail-to-build-install-or-debug
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

GENERATOR_REFUSAL = """\
$ msopgen gen -i ./rms_norm_custom.json -c ai_core-ascend910b -lan cpp -out ./RmsNormCustom
[ERROR] The path ./rms_norm_custom.json should not be written by user group or others
"""

CHECKED_NOTE = """\
[INFO] Check the permission of path ./rms_norm_custom.json, it should not be written by user group or others: ok
"""


def test_a_definition_file_others_can_write_is_the_accounts_setup() -> None:
    diagnosis = diagnose_text("msopgen.log", GENERATOR_REFUSAL)
    assert_reads(
        diagnosis,
        "driver_env",
        first_error="should not be written by user group or others",
        rule="env.tool_refuses_writable_path",
        beside=("config",),
    )


def test_a_note_that_the_check_passed_is_no_failure() -> None:
    diagnosis = diagnose_text("msopgen.log", CHECKED_NOTE)
    assert "env.tool_refuses_writable_path" not in {e.rule for e in diagnosis.evidence}
