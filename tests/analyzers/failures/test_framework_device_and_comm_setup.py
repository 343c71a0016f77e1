"""A framework's own words for a device id past the node's devices, a communicator whose
root information never arrived, and an HCCL rank table refused as invalid.

MindSpore wraps the runtime's SetDevice refusal in a sentence that states the device count
and the id it asked for; its dynamic-cluster launcher makes each rank fetch the
communicator's root information from the scheduler and gives up after its retries; HCCL
refuses a rank table whose entries do not fit the node (EI0004). Fixtures are written here
in those formats with our own values.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text


def alternatives(diagnosis) -> set[str]:
    return {alt.category for alt in diagnosis.alternatives}


# Two hosts with one host name: the launcher numbered the second host's ranks on, past the
# four cards each host has.
DEVICE_ID_PAST_COUNT = """\
RuntimeError: Ascend kernel runtime initialization failed, device id: 6. The details refer to 'Ascend Error Message'.

---------------------------------------------------
-Framework Error Message: (For framework developers)
---------------------------------------------------
Call aclrtSetDevice failed, ret[107001]. Got device count[4] and device id[6], please check if device id is valid.
"""

# The same sentence for an id inside the range: SetDevice failed for another reason, which
# the code carries; the count says nothing against the job's setting.
DEVICE_ID_IN_RANGE = """\
[ERROR] DEVICE(3120,fffe1a2b3c4d,python):2026-04-05-06:07:08.101.202 [ascend_hal_manager.cc:98] InitDevice] Call aclrtSetDevice failed, ret[507033]. Got device count[4] and device id[1], please check if device id is valid.
"""


def test_a_device_id_at_or_past_the_stated_count_is_the_jobs_setting() -> None:
    # docs/labelling.md#config-driver_env-or-weight_load
    diagnosis = diagnose_text("worker_1.log", DEVICE_ID_PAST_COUNT)
    assert_reads(diagnosis, "config", first_error="Got device count[4] and device id[6]")
    assert "driver_env" in alternatives(diagnosis)


def test_the_id_equal_to_the_count_is_past_the_last_device() -> None:
    text = DEVICE_ID_PAST_COUNT.replace("device id[6]", "device id[4]")
    assert "cfg.device_id_past_device_count" in {
        e.rule for e in diagnose_text("worker_1.log", text).evidence
    }


def test_an_id_inside_the_stated_count_is_not_read_as_the_setting() -> None:
    diagnosis = diagnose_text("worker_1.log", DEVICE_ID_IN_RANGE)
    assert "cfg.device_id_past_device_count" not in {e.rule for e in diagnosis.evidence}


# A rank of a 64-rank job retries for the group's root information, then gives up.
ROOT_INFO_NEVER_CAME = """\
[WARNING] DEVICE(5120,fffd0a1b2c3d,python):2026-04-05-06:17:08.101.202 [ms_collective_comm_lib.cc:251] QueryUniqueID] Retry to lookup the unique id for group tp-0-1 from the meta server node...Retry time: 2/66, sleep 2
[WARNING] DEVICE(5120,fffd0a1b2c3d,python):2026-04-05-06:17:10.101.202 [ms_collective_comm_lib.cc:251] QueryUniqueID] Retry to lookup the unique id for group tp-0-1 from the meta server node...Retry time: 1/66, sleep 1
RuntimeError: Communicator of group tp-0-1 inited: failed. Result: Init communicator for group tp-0-1 exception info: Failed to fetch the unique id of the collective lib from the meta server node. Maybe the root rank process of this group has exited or has not executed to QueryUniqueID step. Please check root rank: 8's log.
"""


def test_a_root_information_fetch_that_gives_up_is_a_wait_in_communicator_setup() -> None:
    # docs/labelling.md#a-rank-that-never-reached-the-store
    diagnosis = diagnose_text("worker_9.log", ROOT_INFO_NEVER_CAME)
    assert_reads(diagnosis, "hccl", first_error="Failed to fetch the unique id")
    assert "hccl.root_info_fetch_gave_up" in {e.rule for e in diagnosis.evidence}
    assert "config" in alternatives(diagnosis)


def test_the_retry_warnings_alone_are_no_failure() -> None:
    warnings = "\n".join(ROOT_INFO_NEVER_CAME.splitlines()[:2]) + "\n"
    diagnosis = diagnose_text("worker_9.log", warnings)
    assert "hccl.root_info_fetch_gave_up" not in {e.rule for e in diagnosis.evidence}


# A hand-written rank table that gives two ranks the same device.
RANKTABLE_REFUSED = """\
Traceback (most recent call last):
  File "train.py", line 88, in <module>
    init()
RuntimeError: Ascend collective communication initialization failed.

----------------------------------------------------
- Ascend Error Message:
----------------------------------------------------
EI0004: The ranktable is invalid,Reason:[The ranktable config devId is inconsistent with the local devId.]. Please check the configured ranktable. [{"server_count":"1","server_list":[{"device":[{"device_id":"0","device_ip":"10.1.0.11","rank_id":"0"},{"device_id":"0","device_ip":"10.1.0.12","rank_id":"1"}],"server_id":"10.0.0.5"}],"status":"completed","version":"1.0"}]
        Solution: Try again with a valid cluster configuration in the ranktable file. Ensure that the configuration matches the operating environment.
"""


def test_a_refused_rank_table_is_the_jobs_configuration_unconfidently() -> None:
    # docs/labelling.md#config-driver_env-or-weight_load
    diagnosis = diagnose_text("train.log", RANKTABLE_REFUSED)
    assert_reads(diagnosis, "config", first_error="EI0004: The ranktable is invalid")
    assert "hccl" in alternatives(diagnosis)
    assert diagnosis.confidence < 0.8
