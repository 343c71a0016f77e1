"""A source checkout written for another system: script line endings and links.

docs/labelling.md#a-checkout-made-for-another-system: a repository cloned or copied on Windows
keeps Windows line endings in its shell scripts and turns its symbolic links into small text
files that hold the link's target. Bash then reads the carriage return as part of a command
(`line N: $'\\r': command not found`), a script's `#!/bin/bash^M` names an interpreter that is
not there, and a C++ compiler meets a header whose first line is a relative path (`<header>:1:1:
error: expected unqualified-id before '.' token`). Nothing ran on a device and the toolkit is
not at fault: the checkout has to be converted, so the label is `config`, with `driver_env`
beside it, and the first such line is the first error ahead of the syntax errors it causes.

The fixtures are written in the shape of a build script's and a compiler's console output,
with our own paths.
"""

from __future__ import annotations

import pytest

from tests.analyzers.excerpts import assert_reads, diagnose_text

CRLF_SCRIPT = """\
scripts/build_ext.sh: line 3: $'\\r': command not found
scripts/build_ext.sh: line 5: $'\\r': command not found
scripts/build_ext.sh: line 14: syntax error near unexpected token `$'{\\r''
'cripts/build_ext.sh: line 14: `function main() {
"""

LINK_AS_TEXT = """\
[ 12%] Building CXX object ops/CMakeFiles/npu_ops.dir/src/launch.cpp.o
In file included from /src/ext/ops/src/launch.cpp:4:
/src/ext/third_party/vendor/include/runtime/status_codes.h:1:1: error: expected unqualified-id before ‘.’ token
    1 | ../../../common/include/status_codes.h
      | ^
make[2]: *** [ops/CMakeFiles/npu_ops.dir/build.make:76: ops/CMakeFiles/npu_ops.dir/src/launch.cpp.o] Error 1
"""


def test_a_carriage_return_read_as_a_command_is_the_checkout() -> None:
    diagnosis = diagnose_text("build.log", CRLF_SCRIPT)
    assert_reads(
        diagnosis,
        "config",
        first_error="line 3: $'\\r': command not found",
        rule="cfg.script_windows_line_endings",
        beside=["driver_env"],
    )


@pytest.mark.parametrize(
    "line",
    [
        "bash: ./run_train.sh: /bin/bash^M: bad interpreter: No such file or directory",
        "/usr/bin/env: ‘python3\\r’: No such file or directory",
    ],
)
def test_an_interpreter_name_ending_in_a_carriage_return_is_the_same(line: str) -> None:
    diagnosis = diagnose_text("console.log", line + "\n")
    assert_reads(diagnosis, "config", first_error=line)


def test_a_header_holding_a_link_path_is_the_checkout_not_the_op() -> None:
    diagnosis = diagnose_text("build.log", LINK_AS_TEXT)
    assert_reads(
        diagnosis,
        "config",
        first_error="status_codes.h:1:1: error: expected unqualified-id",
        rule="cfg.source_link_checked_out_as_text",
        beside=["driver_env"],
    )


@pytest.mark.parametrize(
    "text",
    [
        # a command that is really missing says which one
        "scripts/build_ext.sh: line 3: cmake: command not found\n",
        # the same compiler message further into a header is the code's own syntax
        "/src/ext/include/ops.h:42:7: error: expected unqualified-id before ‘.’ token\n",
    ],
)
def test_other_command_and_syntax_errors_keep_their_readings(text: str) -> None:
    diagnosis = diagnose_text("build.log", text)
    rules = {e.rule for e in diagnosis.evidence}
    assert not rules & {"cfg.script_windows_line_endings", "cfg.source_link_checked_out_as_text"}
