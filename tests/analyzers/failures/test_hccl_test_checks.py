"""HCCL Test's own checks of the calls it makes.

docs/labelling.md#hccl-tests-own-check-of-a-call: the HCCL performance test (`all_reduce_test`
and its siblings, run under mpirun) checks every HCCL and ACL call with a macro that prints the
source place and the call's return code, then names the step of its main that failed. The
code is read from HCCL's or ACL's table; the step line only restates it. Values are ours, in
the tool's own wording.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

# Two ranks of the test fail to build their communicator: HCCL returns 7 (a resource is taken).
COMM_INIT_UNAVAILABLE = """\
the minbytes is 1024, maxbytes is 67108864, iters is 10, warmup_iters is 3
hccl interface return err ./common/src/hccl_test_common.cc:611, retcode: 7 
This is an error in init_hcclComm.
hccl interface return err ./common/src/hccl_test_common.cc:611, retcode: 7 
This is an error in init_hcclComm.
"""

# A device memory allocation checked by the ACL macro fails (ACL's 207001).
ACL_MALLOC = """\
acl interface return err ./common/src/hccl_test_common.cc:402, retcode: 207001.
memory allocation error, check whether the current memory space is sufficient.
This is an error in device_init.
"""

# The step lines alone: no code was printed (the check macro's line was cut away).
STEP_ONLY = "the minbytes is 8, maxbytes is 1024\nThis is an error in parse_cmd_line.\n"


def test_an_hccl_call_the_test_checked_is_read_by_hccls_code() -> None:
    diagnosis = diagnose_text("hccl_test.log", COMM_INIT_UNAVAILABLE)
    assert_reads(
        diagnosis,
        "hccl",
        first_error="retcode: 7",
        rule="hccl.hccl_test_call_failed",
        beside=("driver_env",),
    )


def test_an_acl_call_the_test_checked_is_read_by_acls_code() -> None:
    diagnosis = diagnose_text("hccl_test.log", ACL_MALLOC)
    assert_reads(diagnosis, "oom", first_error="retcode: 207001")


def test_the_step_line_alone_is_no_call_check() -> None:
    diagnosis = diagnose_text("hccl_test.log", STEP_ONLY)
    assert "hccl.hccl_test_call_failed" not in rules_of(diagnosis)
