"""A framework and its device plugin that do not fit, found by a registry while they load.

docs/labelling.md#a-patch-registry-that-refuses-a-second-patch: a process-wide flag registry
refusing a second definition of a flag (Paddle's `paddle flags error: illegal RegisterFlag,
flag "x" has been defined in <file>`, gflags' `ERROR: flag 'x' was defined more than once`) is
two builds of the defining code loaded into one process: `config`, with `other` beside it.
Before, Paddle's line had no rule, did not read as an error line at all, and the report said
there was none.

docs/labelling.md#operator-installation-or-platform-limit: Paddle's lowering refusing a
registered kernel whose argument definitions do not match its op (`op [pd_op.x] kernel output
args (0) defs should equal op outputs (1)`) is a kernel registration failure, `operator`, with
`config` beside it. Before, it was an unrecognised error at almost no confidence.

docs/labelling.md#config-driver_env-or-weight_load: an exception message that a paste broke at
its blanks (each piece but the last ends in a blank) is one message; its reason on a later
piece (an undefined symbol of a library the plugin loads) decides. Before, only the first two
pieces were read and the answer was a `driver_env` guess from the words.

Fixtures follow Paddle's import-time output (glog INFO lines of the device loader, then the
refusal); values are made up.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

LOADER = (
    "I0312 08:10:11.402113  3301 init.cc:237] ENV [CUSTOM_DEVICE_ROOT]=/opt/venv/lib/python3.9/"
    "site-packages/paddle_custom_device\n"
    "I0312 08:10:11.402190  3301 init.cc:146] Try loading custom device libs from: "
    "[/opt/venv/lib/python3.9/site-packages/paddle_custom_device]\n"
)

FLAG_TWICE = (
    ">>> import paddle\n"
    + LOADER
    + 'paddle flags error: illegal RegisterFlag, flag "selected_gpus" has been defined in '
    "/opt/build/paddle/fluid/platform/init.cc (at /opt/build/paddle/utils/flags_native.cc:288)\n"
)

GFLAGS_TWICE = (
    "ERROR: flag 'v' was defined more than once (in files 'src/base/logging.cc' and "
    "'/tmp/build/glog/src/logging.cc').\n"
)

KERNEL_DEFS = (
    "RuntimeError: (PreconditionNotMet) op [pd_op.arange] kernel output args (0) defs should "
    "equal op outputs (1)\n"
    "  [Hint: Expected op_item->num_results() == output_defs.size(), but received "
    "op_item->num_results():1 != output_defs.size():0.] (at /paddle/paddle/fluid/pir/transforms/"
    "pd_op_to_kernel_pass.cc:2470)\n"
)

# the reporter's paste broke the message at blanks: every piece but the last ends in one
SOFT_WRAPPED = (
    "ValueError: (InvalidArgument) Fail to open library: \n"
    "/opt/venv/lib/python3.10/site-packages/paddle_custom_device/libpaddle-custom-npu.so \n"
    "with error: /usr/local/Ascend/nnal/atb/latest/atb/cxx_abi_1/lib/libmki_adapter.so: \n"
    "undefined symbol: _ZN3Mki6Loader4OpenERKSs\n"
)

# the same pieces without the blanks at their ends are separate lines
HARD_BROKEN = (
    "ValueError: (InvalidArgument) Fail to open library: /opt/venv/lib/python3.10/"
    "site-packages/paddle_custom_device/libpaddle-custom-npu.so\n"
    "with retry disabled the loader stops here\n"
)


def test_a_flag_defined_twice_is_two_builds_in_one_process() -> None:
    diagnosis = diagnose_text("import.log", FLAG_TWICE)
    assert diagnosis.category == "config"
    assert diagnosis.first_error is not None
    assert 'illegal RegisterFlag, flag "selected_gpus"' in diagnosis.first_error.text
    assert "other" in {alt.category for alt in diagnosis.alternatives}


def test_gflags_wording_of_the_same_refusal() -> None:
    diagnosis = diagnose_text("server.log", GFLAGS_TWICE)
    assert_reads(diagnosis, "config", first_error="was defined more than once")


def test_a_flag_registered_at_info_level_is_no_failure() -> None:
    diagnosis = diagnose_text(
        "server.log",
        "I0312 08:10:11.402113  3301 flags.cc:84] register flag selected_gpus defined in "
        "paddle/fluid/platform/init.cc\n",
    )
    assert diagnosis.first_error is None


def test_a_kernel_whose_argument_defs_do_not_fit_its_op_is_a_registration_failure() -> None:
    diagnosis = diagnose_text("taskflow.log", KERNEL_DEFS)
    assert_reads(
        diagnosis,
        "operator",
        first_error="kernel output args (0) defs should equal op outputs (1)",
        beside=("config",),
    )
    assert diagnosis.confidence >= 0.5


def test_a_message_broken_at_its_blanks_is_read_whole() -> None:
    diagnosis = diagnose_text("import.log", SOFT_WRAPPED)
    assert diagnosis.category == "config"
    assert diagnosis.first_error is not None
    assert diagnosis.first_error.line == 1
    assert "undefined symbol: _ZN3Mki6Loader4OpenERKSs" in diagnosis.first_error.text
    assert "driver_env" in {alt.category for alt in diagnosis.alternatives}


def test_a_line_without_a_blank_at_its_end_ends_the_message() -> None:
    diagnosis = diagnose_text("import.log", HARD_BROKEN)
    assert diagnosis.first_error is not None
    assert "retry disabled" not in diagnosis.first_error.text
