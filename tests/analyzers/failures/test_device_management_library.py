"""The driver's device-management library (DCMI) and tools that a container lacks.

npu-smi, device plugins and monitoring agents reach the NPUs through DCMI. When a container
was started without the driver's management files, the agent logs that DCMI could not be
initialised and why (the library was not found): the machine is not set up (`driver_env`),
the job itself is fine. docs/labelling.md#config-driver_env-or-weight_load
"""

from __future__ import annotations

from tests.analyzers.excerpts import alternative_labels, assert_reads, diagnose_text, rules_of

AGENT_LOG = """\
2026-03-04 10:11:12.130518+08:00 - fleet_agent.detector.ascend - ERROR - Failed to initialize DCMI
Traceback (most recent call last):
  File "/usr/local/lib/python3.11/dist-packages/fleet_agent/detector/ascend.py", line 51, in is_supported
    pydcmi.dcmi_init()
  File "/usr/local/lib/python3.11/dist-packages/fleet_agent/detector/pydcmi/__init__.py", line 702, in dcmi_init
    _load_library()
  File "/usr/local/lib/python3.11/dist-packages/fleet_agent/detector/pydcmi/__init__.py", line 695, in _load_library
    raise DCMIError(DCMI_ERROR_LIBRARY_NOT_FOUND)
fleet_agent.detector.pydcmi.DCMIError_LibraryNotFound: Library Not Found
"""

# Counterexample: DCMI came up; the failure is elsewhere and DCMI decides nothing.
DCMI_WORKED = """\
2026-03-04 10:15:40.002113+08:00 - fleet_agent.detector.ascend - INFO - DCMI initialized, 8 devices found
RuntimeError: NPU out of memory. Tried to allocate 4.00 GiB (NPU 2; 60.96 GiB total capacity; 58.20 GiB already allocated; 58.20 GiB current active; 0.90 GiB free; 58.70 GiB reserved in total by PyTorch)
"""


def test_an_agent_that_cannot_load_dcmi_is_the_machine() -> None:
    diagnosis = diagnose_text("worker.log", AGENT_LOG)
    assert diagnosis.category == "driver_env", diagnosis.root_cause
    assert diagnosis.confidence >= 0.8
    assert diagnosis.first_error is not None
    assert "Failed to initialize DCMI" in diagnosis.first_error.text


def test_a_working_dcmi_does_not_outrank_the_real_failure() -> None:
    diagnosis = diagnose_text("worker.log", DCMI_WORKED)
    assert diagnosis.category == "oom", diagnosis.root_cause


# The driver's command-line tools are mounted from the host too; a shell without them says so
# with no error word.
SHELL_WITHOUT_TOOL = """\
root@7c1e0a9d2b44:/workspace# npu-smi info
bash: npu-smi: command not found
"""

# Counterexample: another vendor's tool missing from an NPU container decides nothing.
SHELL_WITHOUT_OTHER_TOOL = """\
root@7c1e0a9d2b44:/workspace# nvidia-smi
bash: nvidia-smi: command not found
"""


def test_a_container_without_the_driver_tools_is_the_machine() -> None:
    diagnosis = diagnose_text("shell.log", SHELL_WITHOUT_TOOL)
    assert_reads(diagnosis, "driver_env", first_error="npu-smi: command not found")


def test_another_vendors_tool_missing_is_not_an_error() -> None:
    diagnosis = diagnose_text("shell.log", SHELL_WITHOUT_OTHER_TOOL)
    assert diagnosis.first_error is None
    assert diagnosis.category != "driver_env"


# A script that shells out for the device IPs (a rank-table generator calling hccn_tool) runs
# /bin/sh, which on Debian-based images is dash and words the missing command its own way; the
# script's fallback then fails on the empty table it read instead.
SCRIPT_WITHOUT_TOOL = """\
collecting device addresses for ranks [0, 1, 2, 3]
/bin/sh: 1: hccn_tool: not found
hccn_tool unavailable, reading /etc/hccn.conf
Traceback (most recent call last):
  File "tools/make_rank_table.py", line 96, in <module>
    table = build(devices)
  File "tools/make_rank_table.py", line 71, in build
    ip = addresses[str(dev)]
KeyError: '2'
"""

# Counterexample: dash missing some other command says nothing about the driver's tools.
SCRIPT_WITHOUT_OTHER_COMMAND = """\
collecting device addresses for ranks [0, 1, 2, 3]
/bin/sh: 1: jq: not found
Traceback (most recent call last):
  File "tools/make_rank_table.py", line 71, in build
    ip = addresses[str(dev)]
KeyError: '2'
"""


def test_a_script_whose_shell_lacks_the_driver_tool_is_the_machine() -> None:
    """docs/labelling.md#config-driver_env-or-weight_load: the driver's tools absent."""
    diagnosis = diagnose_text("ranktable.log", SCRIPT_WITHOUT_TOOL)
    assert_reads(diagnosis, "driver_env", first_error="hccn_tool: not found")


def test_dash_missing_another_command_is_not_the_driver() -> None:
    diagnosis = diagnose_text("ranktable.log", SCRIPT_WITHOUT_OTHER_COMMAND)
    assert diagnosis.category != "driver_env", diagnosis.root_cause
    assert diagnosis.first_error is not None
    assert "KeyError" in diagnosis.first_error.text


# A device plugin drives the chips through npu-smi and stops when the driver refuses a
# setting (here: sharing mode on a chip that still runs a workload); Go's exec error carries
# the command and the tool's exit status, npu-smi's own prompt and status follow.
PLUGIN_SETTING_REFUSED = """\
Matched node settings for gpu-node-07:
{Name:gpu-node-07 SharedCores:true VDeviceCount:0}
Failed to start plugin server:
enable chip sharing: npu-smi set -t device-share -i 2 -c 0 -d 1: exit status 203:
Sharing one chip between containers carries security risks,
make sure a single user owns the chip.
Continue? (Y/N)
    Status                         : Fail
"""

# Counterexample: the tool ran and the plugin went on; the pod's own failure decides.
PLUGIN_SETTING_APPLIED = """\
enable chip sharing: npu-smi set -t device-share -i 2 -c 0 -d 1: exit status 0
    Status                         : OK
RuntimeError: NPU out of memory. Tried to allocate 2.00 GiB (NPU 2; 29.50 GiB total capacity; 28.90 GiB already allocated; 28.90 GiB current active; 0.20 GiB free; 29.10 GiB reserved in total by PyTorch)
"""


def test_a_device_setting_the_driver_refuses_is_the_node() -> None:
    """docs/labelling.md#config-driver_env-or-weight_load: a refused npu-smi command."""
    diagnosis = diagnose_text("device-plugin.log", PLUGIN_SETTING_REFUSED)
    assert diagnosis.category == "driver_env", diagnosis.root_cause
    assert diagnosis.first_error is not None
    assert "npu-smi set -t device-share -i 2 -c 0 -d 1: exit status 203" in (
        diagnosis.first_error.text
    )
    assert "config" in alternative_labels(diagnosis)


def test_a_device_setting_that_was_applied_is_not_a_failure() -> None:
    diagnosis = diagnose_text("device-plugin.log", PLUGIN_SETTING_APPLIED)
    assert_reads(diagnosis, "oom", first_error="NPU out of memory")


# A container paste whose only legible failure is the driver-management query; the error
# after it was cut where the thread store stopped.
DRIVER_QUERY_ALONE = """\
$ docker run -e ASCEND_VISIBLE_DEVICES=2,3 --rm -t serving-image:v1.4 check_env
DrvMngGetConsoleLogLevel failed. (g_conLogLevel=2)
[EVENT] PROFILING(7,python3.11):2026-03-05-11:22:33.100.200 [msprof_callback_impl.cpp:336] >>> (tid:7) Started to register profiling ctrl callback.
[INFO] PROFILING(7,python3.11):2026-03-05-11:22:33.100.410 [prof_atls_plugin.cpp:83] >>> (tid:7) RegisterProfileCallback, callback type is 7
[ERROR] ATRACE(7,python3.11):2026-03-05-11:22:33.118
"""

# The same query printed before the reason it failed: the reason decides.
DRIVER_QUERY_WITH_REASON = """\
root@node-5:/workspace# npu-smi info
DrvMngGetConsoleLogLevel failed. (g_conLogLevel=2)
dcmi module initialize failed. ret is -8005
"""


def test_a_driver_query_that_fails_alone_is_the_machine_below_the_confident_band() -> None:
    """docs/labelling.md#config-driver_env-or-weight_load: the query says the container cannot
    reach the driver; with nothing else legible it is the answer, but not a confident one."""
    diagnosis = diagnose_text("console.txt", DRIVER_QUERY_ALONE)
    assert_reads(diagnosis, "driver_env", first_error="DrvMngGetConsoleLogLevel failed")
    assert diagnosis.confidence < 0.8


def test_a_driver_query_yields_to_the_reason_printed_with_it() -> None:
    diagnosis = diagnose_text("npu_smi.txt", DRIVER_QUERY_WITH_REASON)
    assert_reads(diagnosis, "driver_env", first_error="dcmi module initialize failed")


# npu-smi in a container whose card another container holds: DCMI loaded and gave its code.
DCMI_REFUSED_CARD = """\
root@infer-3:/srv# npu-smi info -t board -i 2
DrvMngGetConsoleLogLevel failed. (g_conLogLevel=3)
dcmi model initialized failed, because the device is used. ret is -8020
"""

# The same refusal spelled by another tool on the library, with another code.
DCMI_REFUSED_OTHER_CODE = """\
[2026-05-06 07:08:09] health probe: dcmi module initialize failed. ret is -8001
"""


def test_a_dcmi_that_refuses_to_start_names_the_card_not_a_missing_driver() -> None:
    """docs/labelling.md#config-driver_env-or-weight_load: the library's refusal with its code
    is the machine's state, and the advice is to free the card or map the management nodes."""
    for name, text in (("npu_smi.txt", DCMI_REFUSED_CARD), ("probe.log", DCMI_REFUSED_OTHER_CODE)):
        diagnosis = diagnose_text(name, text)
        assert_reads(diagnosis, "driver_env", first_error="initialize")
        assert diagnosis.root_cause.startswith("The device-management library (DCMI) refused")
        assert "another container or process" in diagnosis.next_actions[0]


def test_a_dcmi_that_cannot_be_loaded_keeps_the_missing_library_reading() -> None:
    """Counterexample: no return code from the library, because it was never loaded."""
    diagnosis = diagnose_text("worker.log", AGENT_LOG)
    assert diagnosis.root_cause.startswith("The driver's device-management library (DCMI) is")
    assert all("another container or process" not in action for action in diagnosis.next_actions)


# The driver's tools and libraries reach the device manager over a local message channel; in a
# container given the device nodes but not the host daemon's socket, each send fails in turn,
# logged by the driver's own module. docs/labelling.md#config-driver_env-or-weight_load
MANAGER_CHANNEL_DOWN = """\
[ERROR] DRV(412,npu-smi):2026-05-06-09:40:02.118.204 [dm_udp.c:91][dmp] [__dm_send_msg 91] sendmsg fail:111.
[ERROR] DRV(412,npu-smi):2026-05-06-09:40:02.118.290 [dm_msg_intf.c:757][dmp] [dm_send_req 757] failed call intf->send_msg, ret = 111, send_msg->opcode = 0x3.
[ERROR] DRV(412,npu-smi):2026-05-06-09:40:02.118.331 [dsmi_common.c:642][dmp] [_dsmi_send_msg_rec_res 642] call dev_mon_send_request error:27.
"""


def test_a_driver_tool_that_cannot_reach_the_device_manager_is_the_machine() -> None:
    diagnosis = diagnose_text("npu-smi.txt", MANAGER_CHANNEL_DOWN)
    assert_reads(
        diagnosis,
        "driver_env",
        first_error="sendmsg fail:111",
        rule="env.driver_message_channel_unreachable",
    )


def test_the_channel_failure_read_from_a_runtime_process_is_the_same_class() -> None:
    text = (
        "[ERROR] DRV(3050,python3):2026-05-06-09:41:10.200.001 [dsmi_common.c:642][dmp] "
        "[_dsmi_send_msg_rec_res 642] call dev_mon_send_request error:27.\n"
    )
    diagnosis = diagnose_text("plog/plog-3050.log", text)
    assert_reads(
        diagnosis,
        "driver_env",
        first_error="dev_mon_send_request error:27",
        rule="env.driver_message_channel_unreachable",
    )


def test_a_channel_that_carried_its_message_is_no_failure() -> None:
    """Counterexample: the same module logging a send that went through, and a collective's
    own socket send failing, which is the communication layer's and not the driver's."""
    ok = "[INFO] DRV(412,npu-smi):2026-05-06-09:40:02.118.100 [dm_msg_intf.c:700][dmp] [dm_send_req 700] send msg ok, opcode = 0x3.\n"
    gloo = "[E ProcessGroupGloo.cpp:143] Gloo connectFullMesh failed: sendmsg: Broken pipe\n"
    for text in (ok, gloo):
        diagnosis = diagnose_text("worker.log", text)
        assert "env.driver_message_channel_unreachable" not in rules_of(diagnosis)


# A metrics exporter words the same refusal in its own device manager's log: DCMI loaded and
# answered with its code, so the card or the driver's state is what has to change.
EXPORTER_DCMI_REFUSED = """\
[ERROR]    2026-04-02 09:10:11.120300 7      devmanager/devmanager.go:88    deviceManager init failed, prepare dcmi failed, err: dcmi init failed, error code: -8005
[ERROR]    2026-04-02 09:10:11.120900 7      collector/npu_collector.go:460    new npu collector failed, error is auto init failed, err: get chip info failed, err: device Manager is nil
"""

# Counterexample: an exporter whose DCMI came up says nothing about the card.
EXPORTER_DCMI_READY = """\
[INFO]     2026-04-02 09:10:11.120300 7      devmanager/devmanager.go:120    the dcmi version is 24.1.rc3, dcmi init success
"""


def test_an_exporter_whose_dcmi_init_returns_a_code_is_the_card_state() -> None:
    """docs/labelling.md#config-driver_env-or-weight_load: DCMI's refusal, an agent's words."""
    diagnosis = diagnose_text("npu-exporter.log", EXPORTER_DCMI_REFUSED)
    assert_reads(
        diagnosis,
        "driver_env",
        first_error="dcmi init failed, error code: -8005",
        rule="env.dcmi_init_refused",
    )


def test_an_exporter_whose_dcmi_started_is_no_refusal() -> None:
    diagnosis = diagnose_text("npu-exporter.log", EXPORTER_DCMI_READY)
    assert "env.dcmi_init_refused" not in rules_of(diagnosis)


# A job's pod or a cluster agent told that the NPU it was given is held by someone else (another
# container mounted it, an earlier process still runs on it). Nothing of the job ran.
NPU_BUSY = """\
checking npu devices for default-test-pytorch-master-0
npu is busy, check again
"""

NPU_BUSY_NUMBERED = """\
[2026-04-02 09:10:11] preflight: NPU 3 is occupied.
"""

# Counterexample: a progress line that says the card is busy with the job's own work.
NPU_BUSY_WORKING = """\
step 40: the NPU is busy with the previous batch, queueing 2 requests
step 41 done, loss 1.83
"""


def test_an_npu_reported_busy_is_held_by_another_holder() -> None:
    """docs/labelling.md#config-driver_env-or-weight_load: a card another holder keeps."""
    for text, phrase in ((NPU_BUSY, "npu is busy"), (NPU_BUSY_NUMBERED, "NPU 3 is occupied")):
        diagnosis = diagnose_text("pod.log", text)
        assert_reads(
            diagnosis,
            "driver_env",
            first_error=phrase,
            rule="env.npu_held_elsewhere",
            beside=["config"],
        )


def test_an_npu_busy_with_the_jobs_own_work_is_no_failure() -> None:
    diagnosis = diagnose_text("pod.log", NPU_BUSY_WORKING)
    assert "env.npu_held_elsewhere" not in rules_of(diagnosis)


# A device plugin or a rank-table tool reads each NPU's network address (set with hccn_tool on
# the host) and cannot: the address was never configured, or the driver's network side is not
# reachable from the agent's container. The node is not set up for collectives across servers.
DEVICE_IP_UNREADABLE = """\
[INFO]     2026-04-02 09:10:11.100000 1       main.go:190    ascend device plugin starting
Get device ip failed
"""

DEVICE_IP_UNREADABLE_WARN = """\
[WARN]     2026-04-02 09:10:21.195394 1       device/ascendcommon.go:650    get device ip failed, logic id: 3, err: dcmi get device ip failed
"""

# Counterexample: the address was read.
DEVICE_IP_READ = """\
[INFO]     2026-04-02 09:10:21.195394 1       device/ascendcommon.go:660    get device ip success, logic id: 3, ip: 192.168.100.3
"""


def test_an_npu_address_the_agent_cannot_read_is_the_node() -> None:
    """docs/labelling.md#config-driver_env-or-weight_load: a device IP not set up on the node."""
    for text in (DEVICE_IP_UNREADABLE, DEVICE_IP_UNREADABLE_WARN):
        diagnosis = diagnose_text("device-plugin.log", text)
        assert_reads(
            diagnosis,
            "driver_env",
            first_error="et device ip failed",
            rule="env.npu_device_ip_unreadable",
            beside=["config"],
        )


def test_an_npu_address_that_was_read_is_no_failure() -> None:
    diagnosis = diagnose_text("device-plugin.log", DEVICE_IP_READ)
    assert "env.npu_device_ip_unreadable" not in rules_of(diagnosis)
