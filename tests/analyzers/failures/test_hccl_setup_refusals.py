"""HCCL refusing the job's settings while it builds a communicator.

HCCL tags the error lines of its communicator set-up with the stage and a keyword for the
kind of failure. Three of those keywords name what the job handed it, not the network:
- `[EnvConfig]`: an environment variable it could not use (a value outside its range, an
  interface name the host does not have);
- `[RanktableConfig]`: the rank table file it was pointed at cannot be read;
- `[RanktableCheck]`: the cluster information (the table, or what the ranks reported) fails a
  consistency check, such as two devices of one super pod with the same id.
All read as `config` (docs/labelling.md#hccl-refuses-the-jobs-settings-at-set-up). The error
manager prints the variable refusal in its own words as well (EI0001, `Value ... for environment
variable ... is invalid`), and HCCP checks the device address the rank table gives against the
NIC. A set-up that timed out waiting for ranks (`[RanktableDetect]`) stays a collective failure,
and the call traces under a refusal only restate it.

The fixtures are in the shapes CANN prints, with values and wording of our own.
"""

from __future__ import annotations

from tests.analyzers.excerpts import (
    alternative_labels,
    assert_reads,
    diagnose_files,
    diagnose_text,
    rules_of,
)

VALUE_OUT_OF_RANGE_PLOG = """\
[ERROR] HCCL(51022,python3):2026-09-14-08:12:30.441.207 [externalinput.cc:940] [51022][Parse][rdmaTrafficClass]HCCL_RDMA_TC[300] is invalid. except: [0, 255]
[ERROR] HCCL(51022,python3):2026-09-14-08:12:30.441.260 [externalinput.cc:169] [51022][InitGroupStage][EnvConfig]errNo[0x0000000005000001] In init env variable param, parse HCCL_RDMA_TC failed. errno[1]
[ERROR] HCCL(51022,python3):2026-09-14-08:12:30.441.266 [externalinput.cc:47] [51022][InitExternalInput]call trace: hcclRet -> 1
[ERROR] HCCL(51022,python3):2026-09-14-08:12:30.441.271 [op_base.cc:866] [51022][HcclGetRootInfo]call trace: hcclRet -> 1
"""

VALUE_OUT_OF_RANGE_PRINTED = (
    "[PID: 51022] 2026-09-14-08:12:30.441.230 Config_Error_Invalid_Environment_Variable(EI0001): "
    "Value 300 for environment variable HCCL_RDMA_TC is invalid. Expected value : range[0, 255].\n"
)

# the same plog with the space after the level lost, as a paste or a guide can print it
GLUED_LEVEL_PLOG = VALUE_OUT_OF_RANGE_PLOG.replace("[ERROR] HCCL(", "[ERROR]HCCL(")

INTERFACE_NOT_ON_HOST = """\
[ERROR] HCCL(7710,train):2026-09-14-09:01:02.331.004 [sal.cc:501] [7710][InitGroupStage][EnvConfig]set ifname to [bond7] by HCCL_SOCKET_IFNAME, but not found in the environment, ifnames in the environment is as follows
[ERROR] HCCL(7710,train):2026-09-14-09:01:02.331.010 [sal.cc:504] [7710][InitGroupStage][EnvConfig]get host ip fail by socket Ifname. name[eth0] ip[10.8.0.21%eth0]
[ERROR] HCCL(7710,train):2026-09-14-09:01:02.331.015 [sal.cc:504] [7710][InitGroupStage][EnvConfig]get host ip fail by socket Ifname. name[eth1] ip[10.9.0.21%eth1]
"""

DUPLICATE_SUPER_DEVICE = """\
[ERROR] HCCL(88120,infer):2026-09-14-10:20:11.005.310 [topoinfo_exchange_agent.cc:695] [88120][InitGroupStage][RanktableCheck]devices have same superDeviceId[0x2010000] in superPod[pod_a]. Current device info: serverId[10.4.2.7], rankId[5], group[tp_group_1]. Another device info: rankId[13].
"""

RANK_TABLE_UNREADABLE = """\
[ERROR] HCCL(3020,worker):2026-09-14-11:00:41.700.118 [param_check.cc:66] [3020][InitGroupStage][RanktableConfig]errNo[0x0000000005010001] path /etc/hccl/cluster.json is not a valid real path
"""

TABLE_ADDRESS_NOT_THE_NIC = """\
[ERROR] HCCP(40410,eExecutor):2026-09-14-12:03:09.114.502 [ra_host.c:480]tid:40502,ra_rdev_init_check_ip(480) : [check][ip]fail, ret(129) the IP address(10.20.1.5) in the ranktable is inconsistent with the IP address(10.20.1.6) of the network adapter, please make sure they're consistent. num(2)
"""

AGENT_CANNOT_REACH_ROOT = """\
[ERROR] HCCL(9014,python):2026-09-14-13:11:40.208.771 [topoinfo_exchange_agent.cc:190] [9014][InitGroupStage][RanktableDetect]topo exchange agent get socket timeout! timeout[300]
[ERROR] HCCL(9014,python):2026-09-14-13:11:40.208.790 [topoinfo_exchange_agent.cc:41] [9014][TopoInfoExchangeAgent][Setup]TopoExchangeAgent: connect server[10.3.0.1 : 60000] failed
"""

# An older release's parser of a concise rank table names the device it was given and the
# device the process holds, under a `[Parse][ClusterInfo]` tag instead of the stage tag.
TABLE_DEVICE_NOT_LOCAL = """\
[ERROR] HCCL(20417,python):2026-07-03-09:14:05.118.402 [topoinfo_ranktableConcise.cc:169][20490][Parse][ClusterInfo]ranktable config devId[2], but local devId[6]
[ERROR] HCCL(20417,python):2026-07-03-09:14:05.118.409 [topoinfo_ranktableConcise.cc:51][20490][Init]call trace: hcclRet -> 7
[ERROR] HCCL(20417,python):2026-07-03-09:14:05.118.421 [op_base.cc:404][20490][Init][CommClusterInfo]errNo[0x0000000005000007]info error:rank[0]
[ERROR] HCCL(20417,python):2026-07-03-09:14:05.118.425 [op_base.cc:454][20490][Init][CommClusterInfo]HcclCommInitClusterInfo failed,rankNum[2],
"""

TABLE_DEVICE_LOCAL_AT_INFO = """\
[INFO] HCCL(20417,python):2026-07-03-09:14:05.110.020 [topoinfo_ranktableConcise.cc:160][20490][Parse][ClusterInfo]ranktable config devId[6], but local devId[6] is the same device
[INFO] HCCL(20417,python):2026-07-03-09:14:05.110.031 [op_base.cc:410][20490][Init][CommClusterInfo]rank[0] cluster info parsed
"""

SETTINGS_READ_AT_INFO = """\
[INFO] HCCL(51022,python3):2026-09-14-08:12:30.401.100 [externalinput.cc:382] [51022][InitGroupStage][EnvConfig]HCCL_RDMA_TC set by environment to [132]
[INFO] HCCL(51022,python3):2026-09-14-08:12:30.401.180 [externalinput.cc:382] [51022][InitGroupStage][RanktableCheck]check superDeviceId of 16 devices in superPod[pod_a] success
"""


def test_a_variable_out_of_range_is_the_settings_not_the_collective() -> None:
    diagnosis = diagnose_text("plog/plog-51022_20260914081230.log", VALUE_OUT_OF_RANGE_PLOG)
    assert_reads(diagnosis, "config", first_error="HCCL_RDMA_TC[300] is invalid")
    assert "call trace" not in diagnosis.first_error.text


def test_the_error_manager_wording_of_the_same_refusal_is_read_alike() -> None:
    diagnosis = diagnose_text("stdout.txt", VALUE_OUT_OF_RANGE_PRINTED)
    assert_reads(
        diagnosis,
        "config",
        first_error="for environment variable HCCL_RDMA_TC is invalid",
        rule="cfg.cann_env_var_invalid",
    )


def test_printed_refusal_and_plog_together_name_the_variable_first() -> None:
    diagnosis = diagnose_files(
        {
            "stdout.txt": VALUE_OUT_OF_RANGE_PRINTED,
            "plog/plog-51022_20260914081230.log": VALUE_OUT_OF_RANGE_PLOG,
        }
    )
    assert_reads(diagnosis, "config", first_error="HCCL_RDMA_TC")
    assert "call trace" not in diagnosis.first_error.text


def test_a_plog_whose_level_lost_its_space_is_read_the_same() -> None:
    diagnosis = diagnose_text("plog/plog-51022_20260914081230.log", GLUED_LEVEL_PLOG)
    assert_reads(diagnosis, "config", first_error="HCCL_RDMA_TC[300] is invalid")


def test_an_interface_the_host_lacks_is_the_variable_with_the_machine_beside_it() -> None:
    diagnosis = diagnose_text("plog/plog-7710_20260914090102.log", INTERFACE_NOT_ON_HOST)
    assert_reads(
        diagnosis,
        "config",
        first_error="by HCCL_SOCKET_IFNAME, but not found",
        beside=("driver_env",),
    )


def test_a_failed_cluster_consistency_check_is_the_cluster_settings() -> None:
    diagnosis = diagnose_text("plog/plog-88120_20260914102011.log", DUPLICATE_SUPER_DEVICE)
    assert_reads(diagnosis, "config", first_error="same superDeviceId")
    alternatives = alternative_labels(diagnosis)
    assert "hccl" in alternatives
    assert "driver_env" in alternatives


def test_a_rank_table_that_cannot_be_read_is_the_settings() -> None:
    diagnosis = diagnose_text("plog/plog-3020_20260914110041.log", RANK_TABLE_UNREADABLE)
    assert_reads(diagnosis, "config", first_error="is not a valid real path")


def test_a_table_address_that_is_not_the_nic_is_the_table_with_the_machine_beside_it() -> None:
    diagnosis = diagnose_text("plog/plog-40410_20260914120309.log", TABLE_ADDRESS_NOT_THE_NIC)
    assert_reads(
        diagnosis, "config", first_error="in the ranktable is inconsistent", beside=("driver_env",)
    )


def test_a_table_device_that_is_not_the_local_one_is_the_table_before_its_call_traces() -> None:
    diagnosis = diagnose_text("plog/plog-20417_20260703091405.log", TABLE_DEVICE_NOT_LOCAL)
    assert_reads(
        diagnosis,
        "config",
        first_error="but local devId[6]",
        rule="cfg.hccl_setup_settings_refused",
        beside=("hccl", "driver_env"),
    )


def test_a_table_device_compared_at_info_is_no_refusal() -> None:
    diagnosis = diagnose_text("plog/plog-20417_20260703091405.log", TABLE_DEVICE_LOCAL_AT_INFO)
    assert "cfg.hccl_setup_settings_refused" not in rules_of(diagnosis)
    assert diagnosis.category != "config"


def test_an_agent_that_could_not_reach_the_root_is_a_collective_setup_wait() -> None:
    diagnosis = diagnose_text("plog/plog-9014_20260914131140.log", AGENT_CANNOT_REACH_ROOT)
    assert_reads(
        diagnosis,
        "hccl",
        first_error="topo exchange agent get socket timeout",
        rule="hccl.topo_exchange_timeout",
    )
    assert diagnosis.confidence >= 0.5


def test_settings_read_at_info_are_no_refusal() -> None:
    diagnosis = diagnose_text("plog/plog-51022_20260914081230.log", SETTINGS_READ_AT_INFO)
    assert diagnosis.category != "config"
    rules = rules_of(diagnosis)
    assert "cfg.hccl_setup_settings_refused" not in rules
