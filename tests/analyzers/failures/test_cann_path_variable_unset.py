"""A CANN path variable that the environment script would have set is missing.

docs/labelling.md#a-cann-path-variable-left-unset: the toolkit's components find their files
through variables its `set_env.sh` exports (`ASCEND_OPP_PATH`, `ASCEND_HOME_PATH`,
`ASCEND_TOOLKIT_HOME`, `ASCEND_AICPU_PATH`). A check that one of them is unset (`Exception:
ASCEND_OPP_PATH environment variable is not set.`) says the script was not sourced or the
variables were set by hand without it: the machine is not set up, `driver_env`, with `config`
beside it. The generic reading of a variable a job needs (`config`) stays for other names.
Lines of our own.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

RULE = "env.cann_path_variable_unset"

OPP_UNSET = """\
Traceback (most recent call last):
  File "/opt/ci/run_npu_tests.py", line 41, in <module>
    check_cann_env()
  File "/opt/ci/run_npu_tests.py", line 18, in check_cann_env
    raise Exception(f"{name} environment variable is not set.")
Exception: ASCEND_OPP_PATH environment variable is not set.
"""

HOME_UNSET_OTHER_ORDER = """\
RuntimeError: environment variable ASCEND_HOME_PATH is not set, please source set_env.sh
"""

MASTER_ADDR_UNSET = """\
RuntimeError: environment variable MASTER_ADDR is not set
"""

VISIBLE_DEVICES_NOTICE = """\
[WARNING] ASCEND_RT_VISIBLE_DEVICES environment variable is not set, all devices are visible
"""


def test_the_operator_package_path_unset_is_the_environment() -> None:
    diagnosis = diagnose_text("run_test.log", OPP_UNSET)
    assert_reads(
        diagnosis,
        "driver_env",
        first_error="ASCEND_OPP_PATH environment variable is not set",
        rule=RULE,
        beside=["config"],
    )


def test_the_other_word_order_reads_the_same() -> None:
    diagnosis = diagnose_text("train.log", HOME_UNSET_OTHER_ORDER)
    assert_reads(diagnosis, "driver_env", first_error="ASCEND_HOME_PATH is not set", rule=RULE)


def test_a_launch_variable_keeps_the_generic_reading() -> None:
    diagnosis = diagnose_text("train.log", MASTER_ADDR_UNSET)
    assert RULE not in rules_of(diagnosis)
    assert diagnosis.category == "config"


def test_a_visibility_variable_left_at_its_default_is_no_failure() -> None:
    assert RULE not in rules_of(diagnose_text("train.log", VISIBLE_DEVICES_NOTICE))
