"""Failures whose deciding line sits in a neighbour or in a CANN module code the analyzer did
not read before: the runtime's fftsplus-timeout reason inside an HCCL block, a device
headline whose detail was wrapped onto the next line, op-compile (E9xxxx / E4xxxx) blocks
under a torch_npu re-report, a launcher that rejects command-line flags, a container whose
NPU runtime hook failed and a pod whose device plugin could not allocate NPUs.

The fixtures are written here in the shapes these tools print (worker prefixes, CANN
error-manager blocks, docker and kubelet messages); ids, times and paths are made up.
"""

from __future__ import annotations

from analyzers.classify.block_context import yield_to_block_details
from analyzers.classify.events import classify_scans
from analyzers.classify.rules import load_knowledge
from analyzers.classify.tiers import TIER_CASCADE, TIER_SYMPTOM
from analyzers.core.report import Diagnosis
from tests.analyzers.excerpts import diagnose_text, scan_text


def first_text(diagnosis: Diagnosis) -> str:
    assert diagnosis.first_error is not None
    return diagnosis.first_error.text


HCCL_BLOCK = """\
EI0002: [PID: 50311] 2026-04-11-09:12:40.118.204 The wait execution of the Notify register \
times out. Reason: The Notify register has not received the Notify record from remote rank: \
[unknown]. base information: [streamID:[7], taskID[4410], tag[AllGather_10.1.0.7%eth1_6000_0_1]]
        Possible Cause: 1. An exception occurs during the execution on some NPUs in the cluster.
        TraceBack (most recent call last):
        The error from device(chipId:2, dieId:0), serial number is 5, hccl fftsplus task \
timeout occurred during task execution, stream_id:7, sq_id:7, task_id:4410, stuck notify \
num:2, timeout:1836.[FUNC:ProcessStarsHcclFftsPlusTimeoutErrorInfo][FILE:device_error_proc.cc]
        rtStreamSynchronize execute failed, reason=[fftsplus timeout][FUNC:FuncErrorReason]\
[FILE:error_message_manage.cc][LINE:53]
        synchronize stream failed, runtime result = 507048[FUNC:ReportCallError]
"""


def test_fftsplus_reason_inside_an_hccl_block_is_the_collective_task() -> None:
    diagnosis = diagnose_text("serve/engine.log", HCCL_BLOCK)
    assert diagnosis.category == "hccl"
    assert "wait execution of the Notify register times out" in first_text(diagnosis)


def test_a_lone_fftsplus_reason_reads_like_its_code_with_the_device_task_as_doubt() -> None:
    """docs/labelling.md#code-only-synchronize-failures: the reason word is 507048's name."""
    text = (
        "EH9999: Inner Error!\n"
        "        rtStreamSynchronize execute failed, reason=[fftsplus timeout]"
        "[FUNC:FuncErrorReason][FILE:error_message_manage.cc][LINE:53]\n"
    )
    diagnosis = diagnose_text("serve/engine.log", text)
    assert diagnosis.category == "hccl"
    assert "reason=[fftsplus timeout]" in first_text(diagnosis)
    assert "aicore_timeout" in {alt.category for alt in diagnosis.alternatives}


def test_a_device_headline_wrapped_above_its_hccl_detail_yields_to_it() -> None:
    text = (
        "The error from device(chipId:4, dieId:0), serial number is 31,\n"
        "hccl fftsplus task timeout occurred during task execution,\n"
        "stream_id:3, sq_id:3, task_id:118, stuck notify num:1, timeout=1836s.\n"
    )
    diagnosis = diagnose_text("report.log", text)
    assert diagnosis.category == "hccl"
    assert "hccl fftsplus task timeout occurred" in first_text(diagnosis)


def test_a_device_headline_wrapped_above_its_dma_detail_yields_to_it() -> None:
    text = (
        "EE9999[PID: 5120] The error from device(chipId:2, dieId:0), serial number is 4.\n"
        "there is a fftsplus sdma error, sdma channel is 1,\n"
        "sdmaState=0x3, sdmaTslotid=0x2, sdmaCxtid=0x0, sdmaThreadid=0x0,\n"
    )
    diagnosis = diagnose_text("device.log", text)
    assert diagnosis.category == "device_fault"
    assert "fftsplus sdma error" in first_text(diagnosis)


def test_a_device_headline_with_a_core_error_stays_the_cores() -> None:
    # near miss: the wrapped detail names a core exception, not the DMA engine
    text = (
        "EE9999[PID: 5120] The error from device(chipId:2, dieId:0), serial number is 4.\n"
        "there is an exception of fftsplus aivector error, core id is 7,\n"
    )
    diagnosis = diagnose_text("device.log", text)
    assert diagnosis.category == "aicore_timeout"


def test_yielding_only_looks_inside_the_block() -> None:
    far = "\n".join(f"INFO heartbeat {n} sent" for n in range(40))
    text = (
        "        rtStreamSynchronize execute failed, reason=[fftsplus timeout]\n"
        f"{far}\n"
        "hccl fftsplus task timeout occurred during task execution, stream_id:2, sq_id:2, "
        "task_id:9, stuck notify num:1, timeout:1836.\n"
    )
    items = classify_scans([scan_text("engine.log", text)], load_knowledge())
    reason = next(i for i in items if "reason=[fftsplus timeout]" in i.event.text)
    assert reason.tier == TIER_SYMPTOM  # a collective's wait, read like its code 507048
    assert not reason.demoted
    yield_to_block_details(items, TIER_CASCADE)  # idempotent: still too far apart
    assert reason.tier == TIER_SYMPTOM


def test_op_compile_code_under_a_re_report_is_the_first_error() -> None:
    prefix = "[rank1]: "
    lines = [
        "RuntimeError: The Inner error is reported as above. The process exits for this inner "
        "error, and the current working operator name is Identity.",
        "[ERROR] 2026-02-03-04:05:06 (PID:7102, Device:1, RankID:-1) ERR00100 PTA call acl api "
        "failed.",
        "E90003: [PID: 7102] 2026-02-03-04:05:06.070.809 Compile operator failed, cause: "
        "Template constraint, detailed information: bfloat16 of tbe.dsl.vconv is not supported.",
        "        TraceBack (most recent call last):",
        "        Failed to compile Op [trans_Cast_3,]. (oppath: [Compile /opt/cann/opp/cast.py",
    ]
    diagnosis = diagnose_text("train/rank1.log", "".join(f"{prefix}{line}\n" for line in lines))
    assert diagnosis.category == "operator"
    assert "Compile operator failed, cause: Template constraint" in first_text(diagnosis)


def test_ge_python_helper_failure_is_an_environment_problem() -> None:
    worker = "ERROR 05-06 07:08:09 [engine.py:411] "
    lines = [
        "InnerRun:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:230 OPS function error: "
        "Gather, error code is 500002",
        "[ERROR] 2026-05-06-07:08:09 (PID:2201, Device:0, RankID:-1) ERR01100 OPS call acl api "
        "failed",
        "[Error]: A GE error occurs in the system.",
        "E40024: 2026-05-06-07:07:58.004.120 Failed call Python Func/Meathod [fetch_kernel_hash],"
        " Reason[SystemError: unsupported interpreter feature",
    ]
    diagnosis = diagnose_text("serve.log", "".join(f"{worker}{line}\n" for line in lines))
    assert diagnosis.category == "driver_env"
    assert "E40024" in first_text(diagnosis)


def test_a_launcher_that_rejects_flags_is_a_config_problem() -> None:
    text = (
        '[rank0]:   File "/opt/tool/args.py", line 52, in parse\n'
        "[rank0]:     raise ValueError(f'remaining_argv: {rest}')\n"
        "[rank0]: ValueError: remaining_argv: ['--fused_norm', '--fused_rope']\n"
    )
    diagnosis = diagnose_text("train.log", text)
    assert diagnosis.category == "config"
    assert "remaining_argv" in first_text(diagnosis)


def test_a_container_whose_npu_hook_failed_is_an_environment_problem() -> None:
    text = (
        "$ docker compose up -d\n"
        "Error response from daemon: failed to create task for container: failed to create "
        "shim task: OCI runtime create failed: runc create failed: unable to start container "
        "process: error during container init: error running prestart hook #0: exit status 1, "
        "stdout: , stderr: mount /usr/local/Ascend/driver/lib64 failed: unknown\n"
    )
    diagnosis = diagnose_text("compose.log", text)
    assert diagnosis.category == "driver_env"
    assert "prestart hook" in first_text(diagnosis)


def test_a_pod_the_device_plugin_could_not_serve_is_an_environment_problem() -> None:
    text = (
        "Warning  UnexpectedAdmissionError  9s  kubelet  Allocate failed due to rpc error: "
        "code = Unknown desc = device share tool missing on node npu-07, which is unexpected\n"
    )
    diagnosis = diagnose_text("describe-pod.txt", text)
    assert diagnosis.category == "driver_env"
    assert "Allocate failed due to" in first_text(diagnosis)


def test_a_line_yields_to_an_earlier_line_of_its_file_however_far_above() -> None:
    """`yields_to_earlier`: Ray's report of a dead worker, twenty lines below the watchdog's
    timeout in that worker, is its cascade; the timeout itself is not demoted."""
    filler = "".join(f"(Worker pid=9) frame #{n}: <unknown function>\n" for n in range(20))
    text = (
        "(Worker pid=9) [E1103 08:14:51.207800112 ProcessGroupNCCL.cpp:632] [Rank 2] "
        "Watchdog caught collective operation timeout: WorkNCCL(SeqNum=8, OpType=BROADCAST, "
        "Timeout(ms)=600000) ran for 600042 milliseconds before timing out.\n"
        + filler
        + "ray.exceptions.ActorDiedError: The actor died unexpectedly before finishing this task.\n"
    )
    items = classify_scans([scan_text("driver.log", text)], load_knowledge())
    died = next(i for i in items if i.best is not None and i.best.id == "dev.ray_worker_died")
    timeout = next(i for i in items if i.best is not None and i.best.id == "hccl.watchdog_timeout")
    assert died.demoted
    assert died.tier <= TIER_CASCADE
    assert not timeout.demoted


def test_a_line_does_not_yield_to_a_line_printed_below_it() -> None:
    text = (
        "ray.exceptions.ActorDiedError: The actor died unexpectedly before finishing this task.\n"
        "(Worker pid=9) [E1103 08:24:51.207800112 ProcessGroupNCCL.cpp:632] [Rank 2] "
        "Watchdog caught collective operation timeout: WorkNCCL(SeqNum=8, OpType=BROADCAST, "
        "Timeout(ms)=600000) ran for 600042 milliseconds before timing out.\n"
    )
    items = classify_scans([scan_text("driver.log", text)], load_knowledge())
    died = next(i for i in items if i.best is not None and i.best.id == "dev.ray_worker_died")
    assert not died.demoted


def test_a_line_yields_to_a_line_its_file_printed_below_it() -> None:
    """`yields_to_later`: an agent's report of its worker's plain exit, followed in the same
    file by its finding that the rendezvous was closed, goes below that finding."""
    text = (
        "E0902 16:40:11.731000 2208 torch/distributed/elastic/multiprocessing/api.py:869] "
        "failed (exitcode: 1) local_rank: 0 (pid: 2251) of binary: /opt/venv/bin/python3.11\n"
        "torch.distributed.elastic.rendezvous.api.RendezvousClosedError\n"
    )
    items = classify_scans([scan_text("agent.log", text)], load_knowledge())
    exited = next(
        i for i in items if i.best is not None and i.best.id == "dev.launcher_child_exit_code"
    )
    closed = next(
        i for i in items if i.best is not None and i.best.id == "hccl.elastic_rendezvous_closed"
    )
    assert exited.demoted
    assert exited.tier < closed.tier


def test_a_line_does_not_yield_to_the_same_line_printed_above_it() -> None:
    text = (
        "torch.distributed.elastic.rendezvous.api.RendezvousClosedError\n"
        "E0902 16:40:11.731000 2208 torch/distributed/elastic/multiprocessing/api.py:869] "
        "failed (exitcode: 1) local_rank: 0 (pid: 2251) of binary: /opt/venv/bin/python3.11\n"
    )
    items = classify_scans([scan_text("agent.log", text)], load_knowledge())
    exited = next(
        i for i in items if i.best is not None and i.best.id == "dev.launcher_child_exit_code"
    )
    assert not exited.demoted


def test_a_line_yields_to_a_line_in_another_file_of_the_bundle() -> None:
    """docs/labelling.md#a-ray-cluster-with-fewer-gpus-than-the-job-asks-for: the head's count
    of the cluster's GPUs comes up short because another node never reached the head."""
    from tests.analyzers.excerpts import diagnose_files

    head = (
        "ValueError: The number of required GPUs exceeds the total number of available GPUs in "
        "the placement group.\n"
    )
    node = (
        "[2026-05-06 07:08:00,010 W 51 51] gcs_rpc_client.h:151: Failed to connect to GCS at "
        "address 10.3.0.2:6380 within 5 seconds.\n"
    )
    assert first_text(diagnose_files({"head/engine.log": head})).startswith("ValueError")
    both = diagnose_files({"head/engine.log": head, "node1/raylet.out": node})
    assert "Failed to connect to GCS" in first_text(both)


# A serving worker's stderr that kept only nnopbase's caller trace of an MC2 op, while the
# process's plog holds the resource step HCCL refused, with its return code and time. Made-up
# ids, a timeout code (9) and an expert-parallel combine op.
MC2_CALLERS_IN_STDERR = """\
        Check nnopbase::IndvHcclWrapper::GetInstance().HcclAllocComResourceByTiling(handle, \
stream, tiling, &ctx) failed
        Check NnopbaseGetHcomResource(executor, stream) failed
        Check NnopbaseExecutorGetMc2Num(executor, stream, &argsAddr, &mc2Num) failed
"""

MC2_RESOURCE_IN_PLOG = """\
[ERROR] HCCL(52010,python3):2026-10-03-14:20:07.300.101 [hccl_communicator_host.cc:6296] \
[52077][AllocComResource]call trace: hcclRet -> 9
[ERROR] OP(52010,):2026-10-03-14:20:07.300.160 [indv_lib_wrapper.h:168][NNOP]\
[HcclAllocComResourceByTiling][52077] errno[561000] OpName:[MoeDistributeCombineV2_3] Nnopbase \
fails to invoke the HcclAllocComResourceByTiling function of the hccl module. ret = 9, comm = \
0xfffd20003000.
"""


def test_an_mc2_caller_trace_yields_to_the_resource_step_in_the_process_plog() -> None:
    """docs/labelling.md#wrappers: the callers restate the resource step wherever it stands."""
    from tests.analyzers.excerpts import diagnose_files

    diagnosis = diagnose_files(
        {
            "worker_2.log": MC2_CALLERS_IN_STDERR,
            "plog/plog-52010_20261003142001000.log": MC2_RESOURCE_IN_PLOG,
        }
    )
    assert diagnosis.category == "hccl"
    assert "Check " not in first_text(diagnosis)
    assert "HCCL(52010" in first_text(diagnosis) or "Nnopbase fails" in first_text(diagnosis)


def test_an_mc2_caller_trace_stays_the_record_beside_an_unrelated_hccl_trace() -> None:
    """Counterexample: a plog with only HCCL's call trace, no resource step, explains nothing
    the callers say; they remain the record of the failure."""
    from tests.analyzers.excerpts import diagnose_files

    unrelated = MC2_RESOURCE_IN_PLOG.splitlines()[0] + "\n"
    diagnosis = diagnose_files(
        {"worker_2.log": MC2_CALLERS_IN_STDERR, "plog/plog-52010_20261003142001000.log": unrelated}
    )
    assert diagnosis.category == "hccl"
    assert first_text(diagnosis).lstrip().startswith("Check ")


# The driver tears down the channels of a job whose GPU lost an NVLink, pointing back at the
# Xid that did it; the first line is that Xid's own report.
XIDS_WITH_THEIR_CAUSE = """\
kernel: NVRM: Xid (PCI:0000:dc:00): 149, NETIR_LINK_EVT Fatal XC0 i0 Link 04 (0x004505c6 0x00000000 0x00000000)
kernel: NVRM: Xid (PCI:0000:dc:00): 45, pid=2207431, name=python3, Ch 00000001 caused by previous Xid 149
"""


def test_an_xid_naming_an_earlier_xid_as_its_cause_yields_to_that_line() -> None:
    scan = scan_text("kern.log", XIDS_WITH_THEIR_CAUSE)
    cause, consequence = classify_scans([scan], load_knowledge())
    assert not cause.demoted
    assert consequence.demoted
    assert consequence.tier == TIER_CASCADE


def test_an_xid_whose_named_cause_is_not_in_the_log_keeps_its_reading() -> None:
    alone = XIDS_WITH_THEIR_CAUSE.splitlines(keepends=True)[1]
    (item,) = classify_scans([scan_text("kern.log", alone)], load_knowledge())
    assert not item.demoted
    assert item.category == "device_fault"


def test_ncclS_lines_count_as_its_own_with_or_without_the_writer_prefix() -> None:
    """docs/labelling.md#nccls-reason-in-a-debug-file-of-its-own: NCCL's lines are known by
    `host:pid:tid [dev]` or, in a paste cut down to them, by the source place before the
    level word at the start of the line. A program's line that only mentions NCCL's level
    word is not NCCL's."""
    from analyzers.classify.block_context import writes_as_nccl

    assert writes_as_nccl("gpu-2:811:830 [3] graph/topo.cc:640 NCCL WARN Could not find NET")
    assert writes_as_nccl("graph/topo.h:230 NCCL WARN Could not find NIC with id 3")
    assert writes_as_nccl("  transport/net_ib.cc:91 NCCL INFO Call to ibv_open_device failed")
    assert not writes_as_nccl("2026-02-01 10:00:01 WARNING train.py:88 NCCL WARN lines seen")
    assert not writes_as_nccl("RuntimeError: NCCL WARN printed above, see the debug file")


# torch_npu's generic wrapper (`NPU function error: <call>, error code is N`) sums up the
# error-manager block printed under it, whatever the call it names. Here the call's name was
# retyped by hand (a letter lost), so the aclnn call rule does not read it and only the generic
# wrapper does; the block under it still holds the MC2 op's own line that HCCL could not set up
# its communication resources. Made-up ids, times and code.
WRAPPER_OVER_MC2_RESOURCE = """\
[rank3]:[E611 10:20:30.123456789 compiler_depend.ts:444] operator():build/CMakeFiles/\
torch_npu.dir/compiler_depend.ts:162 NPU function error: call aclnMoeDistributeCombineV2 \
failed, error code is 561000

[ERROR] 2026-06-11-10:20:30 (PID:9120, Device:3, RankID:-1) ERR00100 PTA call acl api failed.

EZ9999: Inner Error!

EZ9999[PID: 9120] 2026-06-11-10:20:30.456.789 AclNN_Inner_Error(EZ9999): Nnopbase fails to \
invoke the HcclAllocComResourceByTiling function of the hccl module. ret = 4, comm = \
0xfffe10203000.

TraceBack (most recent call last):
"""

WRAPPER_ALONE = """\
[rank3]:[E611 10:20:30.123456789 compiler_depend.ts:444] operator():build/CMakeFiles/\
torch_npu.dir/compiler_depend.ts:162 NPU function error: call aclnMoeDistributeCombineV2 \
failed, error code is 561000
[ERROR] 2026-06-11-10:20:30 (PID:9120, Device:3, RankID:-1) ERR00100 PTA call acl api failed.
"""


def test_the_generic_npu_wrapper_yields_to_the_mc2_resource_line_under_it() -> None:
    """docs/labelling.md#an-operator-name-decides-nothing: the wrapper only sums the block up."""
    diagnosis = diagnose_text("worker_3.log", WRAPPER_OVER_MC2_RESOURCE)
    assert diagnosis.category == "hccl"
    assert "Nnopbase fails to invoke the HcclAllocComResourceByTiling" in first_text(diagnosis)
    assert "operator" in {alt.category for alt in diagnosis.alternatives}


def test_the_generic_npu_wrapper_alone_stays_the_first_error() -> None:
    """Counterexample: with no block under it the wrapper is the record of the failure."""
    diagnosis = diagnose_text("worker_3.log", WRAPPER_ALONE)
    assert "NPU function error" in first_text(diagnosis)
    assert diagnosis.category != "hccl"


def test_a_file_of_another_writers_lines_is_settled_by_its_first_one(monkeypatch) -> None:
    """NCCL's prefix is looked for only as far as it decides: a rank's log whose first error
    line is its program's own is no file of NCCL's lines whatever follows, and a bundle with
    no such file needs no line looked at again."""
    from analyzers.classify import block_context

    looked: list[str] = []

    def writes_as_nccl(text: str) -> bool:
        looked.append(text)
        return bool(block_context._NCCL_WRITER.search(text))

    monkeypatch.setattr(block_context, "writes_as_nccl", writes_as_nccl)
    text = "\n".join(
        f"2026-01-02 10:00:0{rank} ERROR [rank{rank}] Watchdog caught collective operation "
        "timeout: WorkNCCL(SeqNum=5, OpType=ALLREDUCE) ran for 600000 milliseconds"
        for rank in range(4)
    )
    items = classify_scans([scan_text("job/rank_0/train.log", text)], load_knowledge())
    assert len(items) == 4
    assert looked == [items[0].event.text]
