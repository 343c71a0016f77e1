"""Ranks of two physical super pods configured as one logical super pod.

When a link between two ranks fails, HCCL's transport manager logs what it knows of the local
rank: the NIC type it chose, the logical super-pod id the job configured and the physical one
the hardware reports. With a logical id set it adds a note that ranks of different physical
super pods must not share one logical id. The logical id comes from the job's settings
(HCCL_LOGIC_SUPERPOD_ID); two ranks that share it across physical pods are sent over the
in-pod virtual NIC and wait on each other until the link times out. The setting has to change:
`config`, with `hccl` beside it (docs/labelling.md#hccl-refuses-the-jobs-settings-at-set-up).

The fixtures are in the shape HCCL prints, with values and wording of our own.
"""

from __future__ import annotations

from tests.analyzers.excerpts import (
    alternative_labels,
    assert_reads,
    diagnose_files,
    diagnose_text,
    rules_of,
)

NOTE = (
    "Note: Do not configure ranks belonging to different physical superpod ID info a single "
    "logical superpod ID"
)

LOCAL_SIDE = (
    "[ERROR] HCCL(70412,gather_run):2026-04-11-09:30:12.501.220 [transport_manager.cc:885] "
    "[70488][TransportManager][PrintErrorInfo]local rank information: nicType[VNIC_TYPE], "
    f"logicSuperPodId[pod_x], phySuperPodId[2]. {NOTE}\n"
)

REMOTE_SIDE = (
    "[ERROR] HCCL(70413,gather_run):2026-04-11-09:30:12.501.310 [transport_manager.cc:885] "
    "[70490][TransportManager][PrintErrorInfo]local rank information: nicType[VNIC_TYPE], "
    f"logicSuperPodId[pod_x], phySuperPodId[3]. {NOTE}\n"
)

# a grep over the plog directory puts the file name and line number in front of each line
GREPPED = "debug/plog/plog-70412_20260411092950123.log:22:" + LOCAL_SIDE

WITH_THE_TIMEOUT = (
    "[ERROR] HCCL(70412,gather_run):2026-04-11-09:30:10.100.004 [hccl_socket_manager.cc:797] "
    "[70488][Wait][LinkEstablish]wait socket establish timeout, role[0] rank[4] timeout[120 s]\n"
    "[ERROR] HCCL(70412,gather_run):2026-04-11-09:30:12.500.990 [transport_manager.cc:1252] "
    "[70488][CreateLink][InitChannelStage][Timeout]SetMachinePara error.\n" + LOCAL_SIDE
)

# no logical id configured: HCCL prints the local rank's link facts without the note
NO_LOGICAL_ID = (
    "[ERROR] HCCL(70412,gather_run):2026-04-11-09:30:10.100.004 [hccl_socket_manager.cc:797] "
    "[70488][Wait][LinkEstablish]wait socket establish timeout, role[0] rank[4] timeout[120 s]\n"
    "[ERROR] HCCL(70412,gather_run):2026-04-11-09:30:12.501.220 [transport_manager.cc:1214] "
    "[70488][TransportManager][PrintErrorInfo]local rank information: nicType[VNIC_TYPE], "
    "logicSuperPodId is not set, phySuperPodId[2].\n"
)

AT_INFO = LOCAL_SIDE.replace("[ERROR] HCCL(", "[INFO] HCCL(")


def test_one_logical_pod_over_two_physical_pods_is_the_setting() -> None:
    diagnosis = diagnose_files(
        {
            "local/plog-70412.log": LOCAL_SIDE,
            "remote/plog-70413.log": REMOTE_SIDE,
        }
    )
    assert_reads(
        diagnosis,
        "config",
        first_error="logicSuperPodId[pod_x], phySuperPodId[",
        rule="cfg.hccl_logical_superpod_mixed",
    )
    assert "hccl" in alternative_labels(diagnosis)


def test_a_grepped_line_is_read_alike() -> None:
    diagnosis = diagnose_text("grep_plog.txt", GREPPED)
    assert_reads(
        diagnosis,
        "config",
        first_error="phySuperPodId[2]",
        rule="cfg.hccl_logical_superpod_mixed",
    )


def test_the_note_names_the_cause_of_the_link_timeout_before_it() -> None:
    diagnosis = diagnose_text("plog/plog-70412_20260411092950123.log", WITH_THE_TIMEOUT)
    assert_reads(
        diagnosis,
        "config",
        first_error="logicSuperPodId[pod_x]",
        rule="cfg.hccl_logical_superpod_mixed",
    )
    assert "hccl" in alternative_labels(diagnosis)


def test_link_facts_without_a_logical_id_stay_a_link_timeout() -> None:
    diagnosis = diagnose_text("plog/plog-70412_20260411092950123.log", NO_LOGICAL_ID)
    assert "cfg.hccl_logical_superpod_mixed" not in rules_of(diagnosis)
    assert diagnosis.category == "hccl"


def test_the_note_at_info_is_no_cause() -> None:
    diagnosis = diagnose_text("plog/plog-70412_20260411092950123.log", AT_INFO)
    assert "cfg.hccl_logical_superpod_mixed" not in rules_of(diagnosis)
    assert diagnosis.category != "config"
