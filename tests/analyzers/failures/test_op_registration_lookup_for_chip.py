"""An op whose registration the op runtime cannot find for the chip it runs on.

- aclnn looks an op up in the kernel package's registration before it runs it and, when the
  package registers the op for other SoCs only (a custom Ascend C op defined with `AddConfig`
  for one chip and run on another), refuses with `Get regInfo failed`, the chip and op type
  often wrapped onto the next line: `config`, the lookup line first, `operator` and
  `driver_env` beside it.
- The same refusal on one line reads the same.
- Counterexamples: the kernel package's registration file that cannot be read at all keeps the
  installation reading; a parameter check of the same code that names an argument stays the
  op's.

Fixtures are written here in the real shapes with their own values.

docs/labelling.md#operator-installation-or-platform-limit
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

WRAPPED_LOOKUP = """\
[PID: 40417] 2026-05-11-09:14:02.311.907 AclNN_Parameter_Error(EZ1001): Get regInfo failed, The binary_info_config.json
of socVersion [ascend310p] does not support opType [AddRmsNormCustom]
"""

ONE_LINE_LOOKUP = """\
EZ1001: [PID: 7310] 2026-02-18-16:40:11.020.113 Get regInfo failed, The binary_info_config.json of socVersion [ascend910b] does not support opType [ScatterMaxCustom].
"""

UNREADABLE_REGISTRATION = """\
EZ1001: [PID: 7310] 2026-02-18-16:40:11.020.113 Get path and read binary_info_config.json failed, please check if the opp_kernel package is installed!
"""

PARAMETER_CHECK = """\
AclNN_Parameter_Error(EZ1001): Tensor self not implemented for DT_INT8, should be in dtype support list [DT_FLOAT16, DT_FLOAT].
"""


def test_a_wrapped_registration_lookup_is_the_chip_the_package_was_not_built_for() -> None:
    diagnosis = diagnose_text("run.log", WRAPPED_LOOKUP)
    assert_reads(
        diagnosis,
        "config",
        first_error="Get regInfo failed",
        rule="cfg.op_registration_missing_for_chip",
        beside=("operator", "driver_env"),
    )


def test_the_lookup_on_one_line_reads_the_same() -> None:
    diagnosis = diagnose_text("run.log", ONE_LINE_LOOKUP)
    assert_reads(diagnosis, "config", first_error="Get regInfo failed")


def test_a_registration_file_that_cannot_be_read_keeps_the_installation_reading() -> None:
    diagnosis = diagnose_text("run.log", UNREADABLE_REGISTRATION)
    assert diagnosis.category == "driver_env"


def test_a_parameter_check_of_the_same_code_stays_the_ops() -> None:
    diagnosis = diagnose_text("run.log", PARAMETER_CHECK)
    assert diagnosis.category == "operator"
