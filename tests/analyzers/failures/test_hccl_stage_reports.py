"""HCCL's own reports of why a collective or its communicator failed, in the plog.

Three kinds of line, each a wait that another rank's own failure explains when the bundle
holds one:
- communicator set-up through the root's topology exchange: the root gives up after its
  connect timeout and lists who connected, an agent lists whom it could not reach;
- a line tagged with HCCL's stage keywords saying an execution-stage task timed out, read
  like a notify timeout (docs/labelling.md#hang-or-hccl-when-a-stall-ends-in-a-notify-timeout);
- the heartbeat report naming a lost peer, which offers a rank that went away as the
  neighbour (docs/labelling.md#a-peer-that-stopped-answering);
- the socket manager giving up on a link (the plog form of EI0006), whose restatements
  (LinksEstablishCompleted, the LINK_ERROR_INFO table, call traces) follow it, and the socket
  adapter's receive from a peer that never sent, whose hints and rethrow follow it;
- the link checker finding that the two ends run different collectives (the plog form of
  EI0005): ranks out of step, which the taxonomy labels hccl;
- the run log's heartbeat events about one rank (`crimer rank [ip/id] status[...]`): a rank
  marked STUCK is alive but its collectives stopped, a hang unless the job then ends in a
  timeout; one marked LOST went away, read as the lost heartbeat above
  (docs/labelling.md#a-peer-that-stopped-answering).
"""

from __future__ import annotations

from tests.analyzers.excerpts import (
    alternative_labels,
    assert_reads,
    diagnose_files,
    diagnose_text,
    rules_of,
)

ROOT_TOPO_TIMEOUT = """\
[ERROR] HCCL(7731,python):2026-04-09-03:15:52.410.118 [topoinfo_exchange_server.cc:113] [7790][Get][Connection]topo exchange server get socket timeout! timeout[600 s]
[ERROR] HCCL(7731,python):2026-04-09-03:15:52.410.190 [topoinfo_exchange_server.cc:240][7790][TopoInfoExchangeServer][DisplayConnectedRank]total connected num is [7],line num is [1]
[ERROR] HCCL(7731,python):2026-04-09-03:15:52.410.201 [topoinfo_exchange_server.cc:253][7790][TopoInfoExchangeServer][DisplayConnectedRank]connected rankinfo[LINE 0]: [0000000000000000],[0000000000000001],[0000000000000002],[0000000000000004],[0000000000000005],[0000000000000006],[0000000000000007];
"""

AGENT_TOPO_FAILURE = """\
[ERROR] HCCL(7736,python):2026-04-09-03:15:52.433.907 [topoinfo_exchange_base.cc:145] [7736][InitGroupStage][RanktableDetect] TopoDetect ERROR occur !!! fault_type[1], fault_info["Failed to connect agent[3,]"]
[ERROR] HCCL(7736,python):2026-04-09-03:15:52.434.020 [topoinfo_exchange_agent.cc:552] [7736][InitGroupStage][RanktableDetect]rank num[8]is different with rank list size[7] in total topo rank info.
"""

# The rank the root waited for died while loading its shard, long before the timeout.
MISSING_RANK_OOM = """\
Traceback (most recent call last):
  File "/workspace/train.py", line 212, in <module>
    model = load_model(args).npu()
RuntimeError: NPU out of memory. Tried to allocate 3.50 GiB (NPU 3; 60.97 GiB total capacity; 58.02 GiB already allocated; 58.02 GiB current active; 1.21 GiB free; 58.70 GiB reserved in total by PyTorch)
"""

EXEC_STAGE_TIMEOUT = """\
[ERROR] HCCL(40021,python):2026-04-11-22:48:03.902.114 [task_exception_handler.cc:27] [40077][TaskExecStage][Timeout][HOST]Task run failed, base information is streamID:[6], taskID[31], tag[AllReduce_10.3.0.8%eth0_60000_0_1775900000]
"""

INIT_STAGE_TIMEOUT = """\
[ERROR] HCCL(40021,python):2026-04-11-22:18:03.100.006 [topoinfo_exchange_server.cc:314] [40077][InitGroupStage][RanktableDetect]topo exchange server get socket timeout! timeout[120 s]
"""

HEARTBEAT_LOST = """\
[W compiler_depend.ts:487] Warning: NPU warning, error code is 507048[Error]:
[Error]: The execution of the internal task times out.
Rectify the fault based on the error information in the ascend log.
EI0002: [PID: 5120] 2026-03-02-10:41:17.220.315 The wait execution of the Notify register times out. Reason: The Notify register has not received the Notify record from remote rank [unknown].base information: [streamID:[44], taskID[3], tag[AllReduce_10.9.0.2%eth0_60000_0_1772400000], AlgType(level 0-1-2):[fullmesh-ring-ring].] task information: [
there are(is) 1 abnormal device(s):
Cluster Exception Location[IP/ID]:[10.9.0.2/3], Arrival Time:[Mon Mar  2 10:38:09 2026], Discoverer:[10.9.0.2/0], ExceptionType:[Heartbeat Lost Occurred], Possible Reason:1. Process has exited, 2. Network Disconnected
]
"""

LINK_SETUP_TIMEOUT = """\
[ERROR] HCCL(60412,python):2026-05-04-09:12:40.118.305 [hccl_socket_manager.cc:816] [60470][Wait][LinkEstablish]wait socket establish timeout, role[1] rank[3] timeout[600 s]
[ERROR] HCCL(60412,python):2026-05-04-09:12:40.119.020 [hccl_socket_manager.cc:880] [60470][Wait][LinksEstablishCompleted] is failed. ret[9].
[ERROR] HCCL(60412,python):2026-05-04-09:12:40.119.160 [hccl_socket_manager.cc:642] [60470] _________________________LINK_ERROR_INFO___________________________
[ERROR] HCCL(60412,python):2026-05-04-09:12:40.119.171 [hccl_socket_manager.cc:599] [60470] | 10.20.0.7(2) | 16666 | 10.20.0.8(3) | 0 | client | time out | DISABLE |
[ERROR] HCCL(60412,python):2026-05-04-09:12:40.119.188 [transport_manager.cc:962] [60470][SetMachinePara]call trace: hcclRet -> 9
"""

SOCKET_RECV_TIMEOUT = """\
[ERROR] HCCL(31870,):2026-08-11-14:02:09.551.204 [orion_adapter_hccp.cc:618][31870][Recv][RaSocket]errNo[0x0000000005000013] Wait timeout for sockets recv, data[0x7ffc1a2b3c40], size[16], recvSize[0], fdHandle[0x55d0c0ffee10], ret[128201]
[ERROR] HCCL(31870,):2026-08-11-14:02:09.551.216 [orion_adapter_hccp.cc:619][31870]Please check the following reasons:
[ERROR] HCCL(31870,):2026-08-11-14:02:09.551.219 [orion_adapter_hccp.cc:620][31870]1. check the firewall configuration or try to disable the firewall.
[ERROR] HCCL(31870,):2026-08-11-14:02:09.553.007 [socket_agent.cc:47][31870][RecvMsg]Failed, exception caught:Network api exception: [Recv][RaSocket]errNo[0x0000000005000013] Wait timeout for sockets recv, data[0x7ffc1a2b3c40], size[16], recvSize[0], fdHandle[0x55d0c0ffee10], ret[128201]
"""

PARAMETER_CONFLICT = """\
[ERROR] HCCL(50218,python):2026-06-02-14:30:11.402.716 [rank_consistentcy_checker.cc:429] [50244][InitChannelStage][ParameterConflict]CMD information tag check fail. local[Broadcast_10.6.1.4%eth0_60000_0_1780410000], remote[AllReduce_10.6.1.4%eth0_60000_0_1780410000]
[ERROR] HCCL(50218,python):2026-06-02-14:30:11.402.740 [rank_consistentcy_checker.cc:439] [50244][InitChannelStage][ParameterConflict]CMD information cmdType check fail. local[4], remote[2]
"""

STUCK_PEER = HEARTBEAT_LOST.replace(
    "ExceptionType:[Heartbeat Lost Occurred], Possible Reason:1. Process has exited, 2. Network Disconnected",
    "ExceptionType:[Stuck Occurred], Possible Reason:1.Host process is stuck, 2.Device task is stuck",
)

# The run log of rank 2: the runtime keeps recycling its pools every ten minutes, the only
# other thing it writes after HCCL heard that rank 6 stopped advancing.
RUN_LOG_STUCK = """\
[INFO] HCCL(2210,python):2026-04-18-22:40:03.118.090 [heartbeat.cc:951] [2291][TaskExecStage][HeartbeatAbnormal]local rank [10.6.1.3/2]: crimer rank [10.6.1.3/6] status[STUCK] by informer rank [10.6.1.3/6]
[INFO] RUNTIME(2210,python):2026-04-18-22:49:11.004.512 [context.cc:304] 2295 TryToRecycleProgPool: recycle prog pool
[INFO] RUNTIME(2210,python):2026-04-18-22:59:11.751.030 [context.cc:304] 2295 TryToRecycleProgPool: recycle prog pool
"""

# The same rank's error log when the stall later runs into HCCL's execution timeout.
ENDS_IN_NOTIFY_TIMEOUT = """\
[ERROR] HCCL(2210,python):2026-04-18-23:10:05.300.771 [task_exception_handler.cc:27] [2291][TaskExecStage][Timeout][HOST]Task run failed, base information is streamID:[6], taskID[31], tag[AllReduce_10.6.1.3%eth0_60000_0_1776550000]
"""

RUN_LOG_LOST = """\
[INFO] HCCL(4410,python):2026-03-09-11:02:17.301.552 [heartbeat.cc:951] [4502][TaskExecStage][HeartbeatAbnormal]local rank [10.4.0.7/0]: crimer rank [10.4.0.8/9] status[LOST] by informer rank [10.4.0.8/10]
"""


# The older form of the same report (CANN 8.1 and before) names the peer by its server and
# device instead of the IP/ID pair, on the line under the notify timeout.
OLD_FORM_HEARTBEAT_LOST = """\
Error. Message is
EI0002:The wait execution of the Notify register times out. Reason: The Notify register has not received the Notify record from remote rank [2].base information: [streamID:[9],taskID[41], taskType[Notify Wait], tag[AllGather_5520971133402217710_0].] task information: [notify id:[0x000000600000031], stage:[fffffff], remote rank:[2].]
there are(is) 1 abnormal device(s):
serverId[10.31.4.17], deviceId[2], Heartbeat Lost Occurred, Possible Reason: 1. Process has exited, 2. Network Disconnected
"""

OLD_FORM_STUCK_PEER = OLD_FORM_HEARTBEAT_LOST.replace(
    "Heartbeat Lost Occurred, Possible Reason: 1. Process has exited, 2. Network Disconnected",
    "Stuck Occurred, Possible Reason: 1. Host process is stuck, 2. Device task is stuck",
)


LONE_SOCKET_TIMEOUT = """\
[W VariableFallbackKernel.cpp:51] Warning: CAUTION: The operator 'aten::unique_consecutive' is not currently supported on the NPU backend and will fall back to run on the CPU. This may have performance implications. (function npu_cpu_fallback)
EI0006: 2026-05-14-07:21:44.612.087 Getting socket times out. Reason: Remote Rank did not send the data in time. Please check the reason for the rank being stuck
        Solution: 1. Check the rank service processes with other errors or no errors in the cluster.2. If this error is reported for all NPUs, check whether the time difference between the earliest and latest errors is greater than the connect timeout interval (120s by default)
"""


def test_root_that_gave_up_waiting_for_ranks_is_a_communicator_setup_failure() -> None:
    diagnosis = diagnose_text("plog/plog-7731_20260409031552410.log", ROOT_TOPO_TIMEOUT)
    assert_reads(
        diagnosis,
        "hccl",
        first_error="topo exchange server get socket timeout",
        rule="hccl.topo_exchange_timeout",
    )
    assert diagnosis.confidence >= 0.5


def test_agent_that_could_not_reach_ranks_is_the_same_failure() -> None:
    diagnosis = diagnose_text("plog/plog-7736_20260409031552433.log", AGENT_TOPO_FAILURE)
    assert_reads(diagnosis, "hccl", first_error="TopoDetect ERROR occur")


def test_the_missing_rank_own_failure_explains_the_root_wait() -> None:
    diagnosis = diagnose_files(
        {
            "plog/plog-7731_20260409031552410.log": ROOT_TOPO_TIMEOUT,
            "rank_3.log": MISSING_RANK_OOM,
        }
    )
    assert_reads(diagnosis, "oom", first_error="NPU out of memory")


def test_execution_stage_timeout_is_a_collective_wait_with_hang_beside_it() -> None:
    diagnosis = diagnose_text("plog/plog-40021_20260411224803902.log", EXEC_STAGE_TIMEOUT)
    assert_reads(
        diagnosis,
        "hccl",
        first_error="[TaskExecStage][Timeout]",
        rule="hccl.exec_stage_timeout",
        beside=("hang",),
    )


def test_an_init_stage_tag_is_not_read_as_an_execution_timeout() -> None:
    diagnosis = diagnose_text("plog/plog-40021_20260411221803100.log", INIT_STAGE_TIMEOUT)
    assert diagnosis.category == "hccl"
    rules = rules_of(diagnosis)
    assert "hccl.exec_stage_timeout" not in rules
    assert "hccl.topo_exchange_timeout" in rules


def test_lost_heartbeat_offers_a_rank_that_went_away() -> None:
    diagnosis = diagnose_text("rank_0.log", HEARTBEAT_LOST)
    assert_reads(
        diagnosis, "hccl", first_error="Notify register times out", beside=("device_fault",)
    )
    assert 3 in diagnosis.culprit_ranks


def test_lost_heartbeat_in_the_older_server_device_form_offers_a_rank_that_went_away() -> None:
    diagnosis = diagnose_text("train.log", OLD_FORM_HEARTBEAT_LOST)
    assert_reads(
        diagnosis,
        "hccl",
        first_error="Notify register times out",
        rule="hccl.peer_heartbeat_lost_device",
        beside=("device_fault",),
    )


def test_a_stuck_peer_in_the_older_form_is_not_offered_as_a_crash() -> None:
    diagnosis = diagnose_text("train.log", OLD_FORM_STUCK_PEER)
    assert diagnosis.category == "hccl"
    assert "hccl.peer_heartbeat_lost_device" not in rules_of(diagnosis)
    assert "device_fault" not in alternative_labels(diagnosis)


def test_a_stuck_peer_is_not_offered_as_a_crash() -> None:
    diagnosis = diagnose_text("rank_0.log", STUCK_PEER)
    assert diagnosis.category == "hccl"
    assert "device_fault" not in alternative_labels(diagnosis)


def test_a_link_that_timed_out_is_read_before_its_restatements() -> None:
    diagnosis = diagnose_text("plog/plog-60412_20260504091240118.log", LINK_SETUP_TIMEOUT)
    assert_reads(
        diagnosis, "hccl", first_error="wait socket establish timeout", rule="hccl.socket_timeout"
    )


def test_without_the_timeout_line_the_restatement_is_the_first_error() -> None:
    text = LINK_SETUP_TIMEOUT.split("\n", 1)[1]
    diagnosis = diagnose_text("plog/plog-60412_20260504091240119.log", text)
    assert_reads(diagnosis, "hccl", first_error="[LinksEstablishCompleted] is failed")
    assert "hccl.socket_timeout" not in rules_of(diagnosis)


def test_a_socket_receive_that_timed_out_is_a_wait_for_the_peer() -> None:
    diagnosis = diagnose_text("plog/plog-31870_20260811140009551.log", SOCKET_RECV_TIMEOUT)
    assert_reads(diagnosis, "hccl", first_error="Wait timeout for sockets recv")
    assert "[RecvMsg]Failed" not in diagnosis.first_error.text
    assert "hccl.socket_timeout" in rules_of(diagnosis)
    assert diagnosis.confidence >= 0.5


def test_a_lone_socket_timeout_offers_a_stall_beside_the_collective() -> None:
    """EI0006 only ends a wait; with no peer's failure in the log the peer may have stalled
    without a word (docs/labelling.md#hang-or-hccl-when-a-stall-ends-in-a-notify-timeout)."""
    diagnosis = diagnose_text("train.log", LONE_SOCKET_TIMEOUT)
    assert_reads(diagnosis, "hccl", first_error="Getting socket times out", beside=("hang",))


def test_the_peer_own_failure_explains_the_socket_receive_timeout() -> None:
    """Counterexample: a wait yields to the failure of the rank it waited for."""
    diagnosis = diagnose_files(
        {
            "plog/plog-31870_20260811140009551.log": SOCKET_RECV_TIMEOUT,
            "rank_3.log": MISSING_RANK_OOM,
        }
    )
    assert diagnosis.category == "oom"


def test_ends_of_a_link_running_different_collectives_are_out_of_step() -> None:
    diagnosis = diagnose_text("plog/plog-50218_20260602143011402.log", PARAMETER_CONFLICT)
    assert_reads(
        diagnosis,
        "hccl",
        first_error="CMD information tag check fail",
        rule="hccl.collective_mismatch",
    )


def test_a_check_that_passed_is_not_a_mismatch() -> None:
    text = PARAMETER_CONFLICT.replace("[ERROR]", "[INFO]").replace("check fail", "check pass")
    diagnosis = diagnose_text("plog/plog-50218_20260602143011403.log", text)
    assert "hccl.collective_mismatch" not in rules_of(diagnosis)


def test_a_rank_heartbeat_marks_stuck_is_a_hang_blamed_on_it() -> None:
    diagnosis = diagnose_text("plog/plog-2210_20260418224003118.log", RUN_LOG_STUCK)
    assert_reads(diagnosis, "hang", first_error="status[STUCK]")
    assert diagnosis.culprit_ranks == [6]
    assert "hccl" in alternative_labels(diagnosis)
    assert "device_fault" not in alternative_labels(diagnosis)


def test_the_same_event_pasted_without_its_header_is_still_read() -> None:
    line = RUN_LOG_STUCK.splitlines()[0]
    bare = line[line.index("[TaskExecStage]") :] + "\n"
    diagnosis = diagnose_text("npu_log.txt", bare)
    assert diagnosis.category == "hang"
    assert "hang.hccl_heartbeat_stuck" in rules_of(diagnosis)


def test_a_stuck_rank_that_ends_in_a_timeout_is_read_by_the_timeout() -> None:
    diagnosis = diagnose_files(
        {
            "run/plog/plog-2210_20260418224003118.log": RUN_LOG_STUCK,
            "debug/plog/plog-2210_20260418231005300.log": ENDS_IN_NOTIFY_TIMEOUT,
        }
    )
    assert_reads(diagnosis, "hccl", first_error="[TaskExecStage][Timeout]")


def test_a_rank_heartbeat_marks_lost_offers_a_rank_that_went_away() -> None:
    diagnosis = diagnose_text("plog/plog-4410_20260309110217301.log", RUN_LOG_LOST)
    assert_reads(diagnosis, "hccl", first_error="status[LOST]")
    assert 9 in diagnosis.culprit_ranks
    assert "device_fault" in alternative_labels(diagnosis)


def test_runtime_chatter_without_a_heartbeat_event_is_no_hang() -> None:
    text = "".join(RUN_LOG_STUCK.splitlines(keepends=True)[1:])
    diagnosis = diagnose_text("plog/plog-2210_20260418224911004.log", text)
    assert diagnosis.category != "hang"
    assert diagnosis.first_error is None


# A communicator's settings and set-up records as a paste keeps them without their plog
# header: the group's buffer size, determinism and execution timeout, its entry record and
# its key information. A job that stops after them stopped without an error line.
GROUP_SETTINGS_ONLY = """\
[Load] comm config of [group_name_41]: bufferSize[1048576000], deterministic[1], execTimeOut[1200]
Entry-HcclCommInitRootInfoConfigInner: ranks[16], rank[3], rootinfo: host ip[10.9.4.2], identifier[group_name_41], deviceLogicId[3]
[Communicator Key Info] identifier[group_name_41] rankSize[16] serverNum[2] moduleNum[2] superPodNum[1]
"""


def test_a_groups_settings_record_is_no_timeout() -> None:
    diagnosis = diagnose_text("rank3.log", GROUP_SETTINGS_ONLY)
    assert diagnosis.category == "hang"
    assert diagnosis.first_error is None


def test_a_plog_of_settings_records_cites_no_line() -> None:
    diagnosis = diagnose_text("plog-3.log", GROUP_SETTINGS_ONLY)
    assert diagnosis.first_error is None
    assert diagnosis.category != "config"


def test_a_socket_wait_that_names_its_timeout_setting_is_still_read() -> None:
    text = GROUP_SETTINGS_ONLY + (
        "[ERROR] HCCL(8812,python):2026-05-02-10:41:07.221.304 [hccl_socket_manager.cc:816] "
        "[8870][Wait][LinkEstablish]wait socket establish timeout, role[1] rank[3] timeout[120 s]\n"
    )
    diagnosis = diagnose_text("plog-3.log", text)
    assert diagnosis.category == "hccl"
    assert diagnosis.first_error is not None
    assert "wait socket establish timeout" in diagnosis.first_error.text
