"""Whole-job diagnoses from multi-rank logs written the way real runs write them.

Each scenario is a set of files (rank logs, launcher log, env dump) scanned by the real
scanner and correlated by the real correlation; the test checks what an engineer reads
first: the label, the first error, the culprit ranks, the root cause and the advice.
"""

from __future__ import annotations

import pytest

from analyzers.classify.accelerator import switches_for
from analyzers.core.report import Report
from analyzers.tree.loading import load_tree
from tests.analyzers.excerpts import alternative_labels, assert_reads, diagnose_files
from tests.analyzers.job_bundles import ENV as ENV_DUMP
from tests.analyzers.job_bundles import SPLIT, analyze_job, ranks

STEPS = ["prefill start: 8 tokens"] + [
    line
    for layer in range(3)
    for line in (" norm passed", " attention passed", " MoE passed", f"layer {layer} passed")
]
LOADING = [
    "init process group: backend=hccl rank={rank} world_size=4 master=10.0.0.1:29500",
    "building decoder: layers=3 hidden=4096 experts=8 vocab=131125 tp=4",
    "weights loaded: embed rows [{start}, {end})",
    "load weights passed",
    "waiting for all ranks to finish loading weights",
]


def stamped(rank: int, lines: list[str], start_s: int = 0, level: str = "INFO") -> str:
    """Python-logging lines as the torch bundles print them."""
    out = []
    for n, line in enumerate(lines):
        seconds = start_s + n
        stamp = f"2026-11-29 07:{24 + seconds // 60:02d}:{seconds % 60:02d},{100 + n:03d}"
        out.append(f"{stamp} [rank{rank}] {level} {line}")
    return "\n".join(out) + "\n"


def loading(rank: int) -> list[str]:
    start = rank * 32782
    return [line.format(rank=rank, start=start, end=start + 32782) for line in LOADING]


ENV = "WORLD_SIZE=4\nMASTER_ADDR=10.0.0.1\nMASTER_PORT=29500\n"


def test_all_ranks_finishing_is_healthy() -> None:
    files = {
        f"job/log_{r}.log": stamped(r, [*loading(r), *STEPS, "model run success"]) for r in range(4)
    }
    diagnosis = diagnose_files({"job/env.txt": ENV, **files})
    assert (diagnosis.category, diagnosis.subsystem) == ("healthy", "none")
    assert diagnosis.first_error is None
    assert diagnosis.culprit_ranks == []
    assert diagnosis.confidence >= 0.8


def test_error_every_rank_carried_on_after_leaves_the_run_healthy() -> None:
    caught = "ERROR ImportError: cannot import name 'fused_rope' from 'vllm_ascend.ops'"
    files = {
        f"job/log_{r}.log": stamped(r, [*loading(r), caught, *STEPS, "model run success"]).replace(
            "INFO ERROR", "ERROR"
        )
        for r in range(4)
    }
    diagnosis = diagnose_files({"job/env.txt": ENV, **files})
    assert diagnosis.category == "healthy"
    assert diagnosis.culprit_ranks == []


def test_rank_that_stops_without_error_is_a_hang_with_that_rank_to_blame() -> None:
    files = {f"job/log_{r}.log": stamped(r, [*loading(r), *STEPS]) for r in range(3)}
    files["job/log_3.log"] = stamped(3, [*loading(3), *STEPS[:6]])
    diagnosis = diagnose_files({"job/env.txt": ENV, **files})
    assert diagnosis.category == "hang"
    assert diagnosis.culprit_ranks == [3]
    assert diagnosis.first_error is None
    assert diagnosis.root_cause.startswith("Rank 3 stopped making progress after")
    assert "while ranks 0, 1, 2 reached 'layer 2 passed'" in diagnosis.root_cause
    assert any("npu-smi" in action for action in diagnosis.next_actions)


def test_high_ranks_failing_the_tp_split_while_low_ranks_wait_is_weight_load() -> None:
    waiting = {f"job/log_{r}.log": stamped(r, loading(r)) for r in (0, 1)}
    failing = {
        f"job/log_{r}.log": stamped(r, loading(r)[:2])
        + f"[rank{r}]: Traceback (most recent call last):\n"
        + f'[rank{r}]:   File "/srv/infer/weights.py", line 88, in load_weights\n'
        + f"[rank{r}]:     shard = full.narrow(0, start, length)\n"
        + f"[rank{r}]: RuntimeError: start ({r * 35328}) + length (35328) exceeds dimension "
        + "size (131125).\n"
        for r in (2, 3)
    }
    diagnosis = diagnose_files({"job/env.txt": ENV, **waiting, **failing})
    assert diagnosis.category == "weight_load"
    assert diagnosis.culprit_ranks == [2, 3]
    assert diagnosis.first_error is not None
    assert "exceeds dimension size (131125)" in diagnosis.first_error.text
    assert any("TP size" in action for action in diagnosis.next_actions)


def test_high_ranks_missing_while_low_ranks_wait_in_loading_is_weight_load() -> None:
    waiting = {f"job/log_{r}.log": stamped(r, loading(r)) for r in (0, 1)}
    diagnosis = diagnose_files({"job/env.txt": ENV, **waiting})
    assert diagnosis.category == "weight_load"
    assert diagnosis.culprit_ranks == [2, 3]


def test_peer_timeouts_after_one_rank_ran_out_of_memory_are_cascades() -> None:
    oom = (
        "[rank1]: RuntimeError: NPU out of memory. Tried to allocate 2.00 GiB (NPU 1; 60.96 GiB "
        "total capacity; 58.10 GiB already allocated; 58.10 GiB current active; 1.20 GiB free; "
        "58.90 GiB reserved in total by PyTorch)\n"
    )
    files = {}
    for r in range(4):
        text = stamped(r, [*loading(r), *STEPS[:5]])
        if r == 1:
            text += oom
        else:
            text += (
                f"[rank{r}]:[E1129 07:55:01.428029551 ProcessGroupHCCL.cpp:660] [Rank {r}] "
                "Watchdog caught collective operation timeout: WorkHCCL(SeqNum=42, "
                "OpType=ALLREDUCE, Timeout(ms)=1800000) ran for 1800101 milliseconds before "
                "timing out.\n"
            )
        files[f"job/log_{r}.log"] = text
    diagnosis = diagnose_files({"job/env.txt": ENV, **files})
    assert diagnosis.category == "oom"
    assert diagnosis.culprit_ranks == [1]
    assert diagnosis.first_error is not None
    assert diagnosis.first_error.rank == 1
    cascades = [e for e in diagnosis.evidence if e.role == "cascade"]
    assert {e.ref.rank for e in cascades} == {0, 2, 3}
    assert "Ranks 0, 2, 3 failed afterwards" in diagnosis.root_cause


def test_error_a_rank_survived_does_not_outrank_the_one_that_stopped_the_job() -> None:
    survived = "ImportError: cannot import name 'fused_rope' from 'vllm_ascend.ops'"
    fatal = (
        "RuntimeError: NPU out of memory. Tried to allocate 2.00 GiB (NPU 1; 60.96 GiB total "
        "capacity; 58.10 GiB already allocated; 1.20 GiB free; 58.90 GiB reserved in total)"
    )
    files = {
        "job/log_0.log": stamped(
            0, [*loading(0)[:2], f"ERROR {survived}", *loading(0)[2:]]
        ).replace("INFO ERROR", "ERROR"),
        "job/log_1.log": stamped(1, loading(1)) + f"[rank1]: {fatal}\n",
    }
    diagnosis = diagnose_files(files)
    assert diagnosis.category == "oom"
    assert diagnosis.culprit_ranks == [1]


def test_timeouts_on_ranks_whose_checkpoints_diverged_blame_the_divergent_rank() -> None:
    files = {}
    for r in range(4):
        steps = list(STEPS[:6])
        if r == 2:  # rank 2 took the decode branch: MoE ran where the others ran attention
            steps[2] = " MoE passed"
        text = stamped(r, [*loading(r), *steps]) + (
            f"[rank{r}]:[E1129 07:55:01.428029551 ProcessGroupHCCL.cpp:660] [Rank {r}] "
            "Watchdog caught collective operation timeout: WorkHCCL(SeqNum=42, "
            "OpType=ALLREDUCE, Timeout(ms)=1800000) ran for 1800101 milliseconds before "
            "timing out.\n"
        )
        files[f"job/log_{r}.log"] = text
    diagnosis = diagnose_files({"job/env.txt": ENV, **files})
    assert (diagnosis.category, diagnosis.subsystem) == ("hccl", "communication")
    assert diagnosis.culprit_ranks == [2]
    assert "Watchdog caught collective operation timeout" in diagnosis.first_error.text


def test_rank_that_skipped_a_collective_is_blamed_for_the_peers_timeouts() -> None:
    timed_out = (
        "ERROR model run failed: [../third_party/gloo/gloo/transport/tcp/unbound_buffer.cc:81] "
        "Timed out waiting 10000ms for recv operation to complete"
    )
    closed = (
        "ERROR model run failed: [../third_party/gloo/gloo/transport/tcp/pair.cc:553] Connection "
        "closed by peer [127.0.0.1]:1946. This is typically caused by a remote worker crashing."
    )
    files = {}
    for r in range(4):
        ahead = r == 2  # rank 2 skipped the attention all_reduce and ran on into the MoE
        steps = [*loading(r), *STEPS[: 7 if ahead else 6]]
        text = stamped(r, steps)
        last = "2026-11-29 07:24:40,900" if ahead else "2026-11-29 07:24:39,500"
        text += f"{last} [rank{r}] {closed if ahead else timed_out}\n"
        files[f"job/log_{r}.log"] = text
    diagnosis = diagnose_files({"job/env.txt": ENV, **files})
    assert (diagnosis.category, diagnosis.subsystem) == ("hccl", "communication")
    assert diagnosis.culprit_ranks == [2]
    assert "Timed out waiting 10000ms" in diagnosis.first_error.text


def test_ranks_that_vanish_while_peers_lose_the_connection_died() -> None:
    closed = (
        "RuntimeError: [../third_party/gloo/gloo/transport/tcp/pair.cc:553] Connection closed "
        "by peer [127.0.0.1]:29398. This is typically caused by a remote worker crashing."
    )
    files = {f"job/log_{r}.log": stamped(r, [*loading(r), *STEPS[:6]]) for r in (1, 3)}
    for r in (0, 2):
        files[f"job/log_{r}.log"] = stamped(r, [*loading(r), *STEPS[:6]]) + f"[rank{r}]: {closed}\n"
    diagnosis = diagnose_files({"job/env.txt": ENV, **files})
    assert diagnosis.category == "device_fault"
    assert diagnosis.culprit_ranks == [1, 3]
    assert diagnosis.confidence < 0.5


def test_unknown_exception_is_other_with_low_confidence() -> None:
    text = stamped(0, loading(0)) + "ValueError: tokenizer returned an empty prompt\n"
    diagnosis = diagnose_files({"job/log_0.log": text})
    assert diagnosis.category == "other"
    assert diagnosis.confidence <= 0.3
    assert diagnosis.first_error is not None
    assert "empty prompt" in diagnosis.first_error.text


def test_a_log_that_just_stops_without_error_or_success_is_a_hang() -> None:
    text = (
        "INFO 03-14 09:12:01 engine.py:210] Avg prompt throughput: 0.0 tokens/s, Running: 4 reqs\n"
        "INFO 03-14 09:12:11 engine.py:210] Avg prompt throughput: 0.0 tokens/s, Running: 4 reqs\n"
    )
    diagnosis = diagnose_files({"serve/engine.log": text})
    assert (diagnosis.category, diagnosis.first_error) == ("hang", None)
    assert diagnosis.confidence <= 0.3


def test_a_log_whose_error_lines_cannot_be_cited_did_not_end_quietly() -> None:
    text = "INFO 03-14 09:12:01 run.py:88] step 7\nthe loader failed on shard 3 of 9\n"
    assert diagnose_files({"serve/engine.log": text}).category == "other"


def test_a_log_that_ends_with_its_success_line_is_not_a_hang() -> None:
    text = "INFO 03-14 09:12:01 run.py:88] decode step 7 passed\nmodel run success\n"
    assert diagnose_files({"serve/engine.log": text}).category == "healthy"


AICORE_BLOCK = """\
Traceback (most recent call last):
  File "/srv/infer/run.py", line 453, in <module>
    torch.npu.synchronize()
RuntimeError: npuSynchronizeDevice:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:488 NPU function error: AclrtSynchronizeDeviceWithTimeout, error code is 507014
[ERROR] 2026-11-29-07:30:01 (PID:4242, Device:0, RankID:0) ERR00100 PTA call acl api failed
[Error]: The aicore execution times out.
        Rectify the fault based on the error information in the ascend log.
EE9999: Inner Error!
EE9999[PID: 4242] 2026-11-29-07:30:01.100.200 (EE9999):  rtStreamSynchronizeWithTimeout execution failed, reason=aicore timeout[FUNC:FuncErrorReason][FILE:error_message_manage.cc][LINE:61]
        TraceBack (most recent call last):
RuntimeError: The Inner error is reported as above. The process exits for this inner error, and the current working operator name is aclnnMoeDistributeDispatchV2.
"""


def test_aicore_timeout_names_the_operator_code_meaning_and_suggests_blocking_launch() -> None:
    diagnosis = diagnose_files({"job/log_0.log": stamped(0, loading(0)) + AICORE_BLOCK})
    assert (diagnosis.category, diagnosis.subsystem) == ("aicore_timeout", "operator")
    assert "reason=aicore timeout" in diagnosis.first_error.text
    assert "aclnnMoeDistributeDispatchV2" in diagnosis.root_cause
    assert "507014" in diagnosis.root_cause
    assert "did not finish" in diagnosis.root_cause
    assert {"507014", "EE9999", "ERR00100"} <= set(diagnosis.error_codes)
    assert any("ASCEND_LAUNCH_BLOCKING=1" in action for action in diagnosis.next_actions)
    assert next(e.role for e in diagnosis.evidence) == "cause"


SDMA_PLOG = (
    "[ERROR] RUNTIME(20431,python3):2026-11-29-07:30:01.100.200 [task.cc:1582]20431 "
    "PrintErrorInfo:E30008Memory async copy failed, device_id=0, stream_id=3, task_id=2, "
    "flip_num=0, copy_type=10, memcpy_type=0, copy_data_type=0, length=4096.\n"
)


def test_the_root_cause_explains_no_code_the_first_error_did_not_print() -> None:
    """A later line in another file prints a known code; the first error prints its own
    (unknown) one, so the sentence must not lend it the other line's meaning. The
    AI Core block above is the counterexample: there the code sits in the first error's
    own block and is named."""
    later = (
        "[ERROR] 2026-11-29-07:30:05 (PID:20431, Device:0, RankID:0) ERR01002 OPS invalid type\n"
    )
    diagnosis = diagnose_files(
        {"job/plog/plog-20431_20261129073000000.log": SDMA_PLOG, "job/log_0.log": later}
    )
    assert "E30008" in diagnosis.first_error.text
    assert "ERR01002" in diagnosis.error_codes
    assert "ERR01002" not in diagnosis.root_cause
    assert "invalid type" not in diagnosis.root_cause


def test_the_root_cause_explains_the_code_the_first_error_printed_itself() -> None:
    """A serving engine's kernel registration is refused (107000) and its first launch
    fails afterwards with an aclnn code that points more plainly at the label; the sentence
    quotes the registration line, so it explains that line's own code. Counterexample: the
    AI Core block above, whose first error prints only an error-manager code, still names
    the block's 507014."""
    engine = (
        "[I] loading 12 kernels for model qwen-7b\n"
        "RegisterKernelBinary aiv ret 107000\n"
        "\n"
        "[FATAL]  Acl return error serve/kernels/ascend/rope/rope_impl.cc:52, with ERROR 561103\n"
    )
    diagnosis = diagnose_files({"job/serve.log": engine})
    assert "RegisterKernelBinary aiv ret 107000" in diagnosis.first_error.text
    assert "561103" in diagnosis.error_codes
    assert "code 107000" in diagnosis.root_cause
    assert "561103" not in diagnosis.root_cause


def test_log_switch_already_set_in_the_env_dump_is_not_suggested_again() -> None:
    env = "ASCEND_LAUNCH_BLOCKING=1\nWORLD_SIZE=1\n"
    diagnosis = diagnose_files(
        {"job/env.txt": env, "job/log_0.log": stamped(0, loading(0)) + AICORE_BLOCK}
    )
    assert diagnosis.category == "aicore_timeout"
    assert not any("ASCEND_LAUNCH_BLOCKING=1" in action for action in diagnosis.next_actions)


@pytest.mark.parametrize(
    ("scenario", "other_numbers"),
    [("aicore", {"4242": "977", "07:30:01": "11:02:44", "aclnnMoe": "aclnnMoe"})],
)
def test_same_failure_with_other_numbers_gets_the_same_fingerprint(
    scenario: str, other_numbers: dict[str, str]
) -> None:
    again = AICORE_BLOCK
    for old, new in other_numbers.items():
        again = again.replace(old, new)
    first = diagnose_files({"a/log_0.log": AICORE_BLOCK})
    second = diagnose_files({"b/log_0.log": again})
    assert first.fingerprint == second.fingerprint
    assert "<NUM>" in (first.fingerprint_template or "")


PLOG_KERNEL = (
    "[ERROR] RUNTIME(555,python):2026-11-29-07:30:00.901.200 [device_error_proc.cc:1187]555 "
    "ProcessCoreErrorInfo:aicore kernel execute failed, device_id=1, stream_id=2, "
    "report_stream_id=2, task_id=79, flip_num=0, fault kernel_name=MoeDistributeDispatchV2_99_mix"
    "_aiv, program id=12, hash=998877\n"
)


def test_device_error_in_a_plog_is_tied_to_the_rank_that_reported_it() -> None:
    rank1 = stamped(1, loading(1)) + (
        "Traceback (most recent call last):\n"
        '  File "/srv/infer/run.py", line 12, in <module>\n'
        "    torch.npu.synchronize()\n"
        "RuntimeError: ACL stream synchronize failed, error code:507014\n"
        "[ERROR] 2026-11-29-07:30:01 (PID:555, Device:1, RankID:1) ERR00100 PTA call acl api "
        "failed\n"
    )
    rank0 = stamped(0, loading(0)) + (
        "[rank0]:[E1129 08:00:05.123456789 ProcessGroupHCCL.cpp:1500] [Rank 0] Watchdog caught "
        "collective operation timeout: WorkHCCL(SeqNum=88, OpType=ALLTOALL, Timeout(ms)=1800000) "
        "ran for 1800042 milliseconds before timing out.\n"
    )
    diagnosis = diagnose_files(
        {
            "job/env.txt": "WORLD_SIZE=2\n",
            "job/log_0.log": rank0,
            "job/log_1.log": rank1,
            "job/plog/plog-555_20261129073000000.log": PLOG_KERNEL,
        }
    )
    assert diagnosis.category == "aicore_timeout"
    assert diagnosis.first_error.file.endswith("plog-555_20261129073000000.log")
    assert diagnosis.culprit_ranks == [1]
    assert "MoeDistributeDispatchV2" in diagnosis.root_cause
    assert "code 507014" in diagnosis.root_cause
    assert "Rank 0 failed afterwards" in diagnosis.root_cause


NPU_SMI_HEAD = """\
| npu-smi 24.1.rc3                 Version: 24.1.rc3                                             |
| NPU   Name                | Health        | Power(W)    Temp(C)           Hugepages-Usage(page)|
| Chip                      | Bus-Id        | AICore(%)   Memory-Usage(MB)  HBM-Usage(MB)        |
"""
NPU_SMI = (
    NPU_SMI_HEAD
    + """\
| 0     910B3               | OK            | 94.6        49                0    / 0             |
| 0                         | 0000:C1:00.0  | 0           0    / 0          35913/ 65536         |
| 1     910B3               | OK            | 95.1        48                0    / 0             |
| 0                         | 0000:C2:00.0  | 0           0    / 0          35911/ 65536         |
| NPU     Chip              | Process id    | Process name             | Process memory(MB)      |
| 0       0                 | 1111          | python3                  | 32000                   |
| 1       0                 | 1112          | python3                  | 32000                   |
"""
)


def test_stalled_ranks_with_idle_npus_wait_on_communication() -> None:
    two_ranks = [line.replace("world_size=4", "world_size=2") for line in LOADING]
    files = {f"job/log_{r}.log": stamped(r, [*two_ranks, *STEPS[:3]]) for r in range(2)}
    diagnosis = diagnose_files({"job/npu_smi_info.txt": NPU_SMI, **files})
    assert (diagnosis.category, diagnosis.subsystem) == ("hang", "communication")
    assert diagnosis.culprit_ranks == []  # both stopped at the same place: nobody stands out
    assert "none is singled out" in diagnosis.root_cause
    assert "0% AICore" in diagnosis.root_cause


# Excerpts as users paste them into issues: one file, other wording and wrappers than the
# corpus, the same failure kinds. (first error substring, category)
EXCERPTS = [
    pytest.param(
        "RuntimeError: InnerRunOpApi:torch_npu/csrc/framework/OpParamMaker.cpp:197 OPS function "
        "error: HcclAllreduce, error code is 9\n"
        "[ERROR] 2025-11-13-17:19:44 (PID:364941, Device:0, RankID:0) ERR01100 OPS call acl api "
        "failed.\n"
        "EI0002: [PID: 364941] 2025-11-13-17:19:44.070.578 The wait execution of the Notify "
        "register times out. Reason: The Notify register has not received the Notify record from "
        "remote rank: [unknown].\n",
        "The wait execution of the Notify register times out",
        "hccl",
        id="hccl-notify-wait",
    ),
    pytest.param(
        "RuntimeError: Sync:torch_npu/csrc/framework/OpCommand.cpp:289 NPU error, error code is "
        "107020\n"
        "EE9999: Inner Error!\n"
        "EE9999  rtDeviceSynchronize execute failed, reason=[task timeout][FUNC:FuncErrorReason]\n",
        "reason=[task timeout]",
        "stream_sync",
        id="stream-task-timeout",
    ),
    pytest.param(
        "EZ9999: Inner Error!\n"
        "EZ9999: [PID: 77] 2026-02-02-02:02:02.020.202 Kernel task happen error, retCode=0x25, "
        "[aicore timeout].[FUNC:PreCheckTaskErr][FILE:task_info.cc][LINE:1776]\n"
        "        TraceBack (most recent call last):\n"
        "        rtStreamSynchronizeWithTimeout execution failed, reason=aicore timeout\n",
        "Kernel task happen error, retCode=0x25",
        "aicore_timeout",
        id="aicore-kernel-task",
    ),
    pytest.param(
        "[PID: 12] 2026-03-03-03:03:03.030.303 Memory_Allocation_Failure(EL0004): Failed to "
        "allocate memory.\n"
        "        Possible Cause: Available memory is insufficient.\n",
        "Memory_Allocation_Failure(EL0004)",
        "oom",
        id="oom-el0004",
    ),
    pytest.param(
        "EJ0001: [PID: 4] 2026-04-04-04:04:04.040.404 Failed to initialize the HCCP process. "
        "Reason: Maybe the last training process is running.\n",
        "Failed to initialize the HCCP process",
        "hccl",
        id="hccp-start",
    ),
    pytest.param(
        "(Worker_DP0_TP5_EP5 pid=270) ERROR 04-02 19:33:00 [multiproc_executor.py:388] "
        "RuntimeError: start (105984) + length (35328) exceeds dimension size (131125).\n",
        "exceeds dimension size (131125)",
        "weight_load",
        id="vllm-tp-split",
    ),
    pytest.param(
        "worker-1: [rank9]: RuntimeError: NPU out of memory. Tried to allocate 4.00 GiB (NPU 1; "
        "29.50 GiB total capacity; 25.01 GiB already allocated; 25.01 GiB current active; 3.10 "
        "GiB free; 25.80 GiB reserved in total by PyTorch)\n",
        "NPU out of memory. Tried to allocate 4.00 GiB",
        "oom",
        id="deepspeed-oom",
    ),
    pytest.param(
        "2026-05-05 08:00:00,000 [rank2] INFO prefill start: 8 tokens\n"
        "Fatal Python error: Segmentation fault\n\n"
        "Current thread 0x00007f2a1c3ff700 (most recent call first):\n"
        '  File "/srv/model.py", line 44 in forward\n',
        "Fatal Python error: Segmentation fault",
        "device_fault",
        id="segfault",
    ),
    pytest.param(
        "EZ1001: [PID: 3] 2026-06-06-06:06:06.060.606 moeExpertNum / (epWorldSize - "
        "sharedExpertRankNum) should be less than or equal to 24, but got 32.\n"
        "RuntimeError: npu_moe_distribute_dispatch_v2:build/CMakeFiles/torch_npu.dir/"
        "compiler_depend.ts:651 NPU function error: call aclnnMoeDistributeDispatchV2 failed, "
        "error code is 161002\n",
        "should be less than or equal to 24",
        "op_constraint",
        id="mc2-experts-per-rank",
    ),
    pytest.param(
        "Traceback (most recent call last):\n"
        '  File "/srv/vllm_ascend/attention.py", line 88, in __init__\n'
        "    self.scale = config.rope_scaling['factor']\n"
        "AttributeError: 'DeepseekV3Config' object has no attribute 'rope_scaling'\n",
        "has no attribute 'rope_scaling'",
        "config",
        id="config-field",
    ),
    pytest.param(
        "[ERROR] DRV(1234,python):2026-07-07-07:07:07.070.707 [ascend_hal.c:88] Firmware version "
        "incompatible (600001), driver 24.1.rc3 needs firmware 7.5\n",
        "Firmware version incompatible",
        "driver_env",
        id="firmware",
    ),
    pytest.param(
        "(EngineCore_DP0 pid=4410) (RayWorkerWrapper pid=4502) [PID: 4502] 2026-02-11-"
        "08:31:09.412.006 AclNN_Runtime_Error(EZ9903): rtKernelLaunchWithHandleV2 failed: 507015\n"
        "(EngineCore_DP0 pid=4410) (RayWorkerWrapper pid=4502)         TraceBack (most recent "
        "call last):\n",
        "rtKernelLaunchWithHandleV2 failed: 507015",
        "aicore_timeout",
        id="aclnn-runtime-error-carrying-507015",
    ),
    pytest.param(
        '[2026-03-12 07:51:09] ERROR: request failed: {"message":"index_put:build/CMakeFiles/'
        "torch_npu.dir/compiler_depend.ts:51 NPU function error: call aclnnIndexPutImpl failed, "
        "error code is 161002\\n[PID: 4410] 2026-03-12-07:51:09.604.117 AclNN_Parameter_Error"
        '(EZ1001): The dtype of indices must be int64 or bool.\\n","code":400}\nKilled\n',
        "The dtype of indices must be int64 or bool.",
        "operator",
        id="json-escaped-error-body",
    ),
    pytest.param(
        "acl Error, code: 207001 at /opt/build/vllm-ascend/csrc/camem_allocator.cpp:71\n",
        "acl Error, code: 207001",
        "oom",
        id="helper-library-alloc-failed",
    ),
    pytest.param(
        "RuntimeError: aclnnGroupNormSiluGetWorkspaceSize failed with aclnnStatus=561002.\n",
        "aclnnStatus=561002",
        "operator",
        id="workspace-status",
    ),
    pytest.param(
        "root@node-7:/workspace# npu-smi info\n"
        "DrvMngGetConsoleLogLevel failed. (g_conLogLevel=3)\n"
        "dcmi model initialized failed, because the device is used. ret is -8020\n",
        "dcmi model initialized failed",
        "driver_env",
        id="dcmi-device-used",
    ),
    pytest.param(
        "EH9999: [PID: 2207] 2025-06-02-10:14:51.330.118 [Init][PlatformInfo]init runtime "
        "platform info failed, SocVersion = Ascend910B4[FUNC:ReportInnerError]\n"
        "       GEInitialize failed.[FUNC:GEInitialize][FILE:ge_api.cc][LINE:337]\n",
        "init runtime platform info failed",
        "driver_env",
        id="platform-info",
    ),
    pytest.param(
        "[rank3]: RuntimeError: aclnnMoeInitRoutingV3 or aclnnMoeInitRoutingV3GetWorkspaceSize "
        "not in libopapi.so, or libopapi.sonot found.\n",
        "not in libopapi.so",
        "operator",
        id="op-missing-from-cann",
    ),
    pytest.param(
        "terminate called after throwing an instance of 'gloo::IoException'\n"
        "  what():  [/pytorch/third_party/gloo/gloo/transport/tcp/pair.cc:799] connect "
        "[10.1.2.3]:29511: Connection refused\n"
        "Aborted (core dumped)\n",
        "Connection refused",
        "hccl",
        id="gloo-connect-refused",
    ),
    pytest.param(
        "[rank2]: RuntimeError: create_config:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:"
        "102 HCCL function error: hcclCommInitRootInfoConfig(numRanks, &rootInfo, rank, config, "
        "&(comm->hcclComm_)), error code is 7\n"
        "[rank2]: EE9999: [PID: 6610] 2026-01-15-10:20:30.405.506 get error: phyid:2 "
        "realDeviceId:2 is err:0x7010003[FUNC:GetDeviceIndexByPhyId][FILE:api_error.cc]\n",
        "realDeviceId:2 is err",
        "hccl",
        id="generic-cann-line-labelled-by-its-block",
    ),
    pytest.param(
        "ray.exceptions.ActorDiedError: The actor died unexpectedly before finishing this task.\n"
        "The actor is dead because its worker process has died. Worker exit type: SYSTEM_ERROR "
        "Worker exit detail: Worker unexpectedly exits with a connection error code 2. There are "
        "some potential root causes. (1) The process is killed by SIGKILL by OOM killer\n",
        "The actor died unexpectedly",
        "device_fault",
        id="ray-actor-died",
    ),
    pytest.param(
        "[2026-01-09 11:40:02.31193] [error] [5130] [hccl_runner.cpp:132] AllReduceHcclRunner:0 "
        "HcclCommInitRootInfo fail, error:4, rank:2, rankSize:8\n"
        "[2026-01-09 11:40:02.31201] [error] [5130] [comm_pool.h:43] CommPool commCreateFunc "
        "fail\n",
        "HcclCommInitRootInfo fail",
        "hccl",
        id="mindie-comm-init",
    ),
    pytest.param(
        "EE9999 The error from device(chipId:5, dieId:0), serial number is 2, event wait timeout "
        "occurred during task execution, stream_id:31, sq_id:31, task_id:1204, event_id=18, "
        "timeout=1980.[FUNC:ProcessStarsWaitTimeoutErrorInfo]\n",
        "event wait timeout occurred",
        "stream_sync",
        id="event-wait-timeout-headline",
    ),
    pytest.param(
        "RuntimeError: SetPrecisionMode:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:156 NPU "
        "function error: at_npu::native::AclSetCompileopt(aclCompileOpt::ACL_PRECISION_MODE, "
        "precision_mode), error code is 500001\n"
        "[ERROR] 2026-02-02-09:10:11 (PID:77, Device:0, RankID:-1) ERR00100 PTA call acl api "
        "failed\n",
        "error code is 500001",
        "driver_env",
        id="acl-compile-options",
    ),
    pytest.param(
        "(allocate:torch_npu/csrc/core/npu/NPUCachingAllocator.cpp:1412 NPU error, error code is "
        "107002\n"
        "[Error]: The context is empty.\n"
        "EE1001: The argument is invalid.Reason: rtGetDevMsg execute failed, reason=[context "
        "pointer null]\n",
        "error code is 107002",
        "config",
        id="context-null-107002",
    ),
    pytest.param(
        "[rank1]: Traceback (most recent call last):\n"
        '[rank1]:   File "/opt/job/train.py", line 88, in <module>\n'
        "[rank1]:     loss.backward()\n"
        "[rank1]: RuntimeError: Function MmBackward0 returned an invalid gradient at index 1 - "
        "got [0] but expected shape compatible with [1024, 256]\n",
        "returned an invalid gradient at index 1",
        "shape_mismatch",
        id="autograd-invalid-gradient",
    ),
    pytest.param(
        "torch.distributed.DistStoreError: Timed out after 601 seconds waiting for clients. 2/4 "
        "clients joined.\n",
        "waiting for clients",
        "hccl",
        id="store-clients-missing",
    ),
    pytest.param(
        "[ERROR] HCCL(7311,python3):2026-03-02-10:15:40.221.908 [hccl_communicator_host.cc:6296]"
        " [7402][AllocComResource]call trace: hcclRet -> 9\n"
        "[ERROR] OP(7311,):2026-03-02-10:15:40.222.017 [indv_mc2_aicpu.cpp:40][NNOP]"
        "[NnopbaseGetHcomResource][7402] errno[561000] OpName:[MoeDistributeCombineV2_0] Check "
        "resource failed\n",
        "hcclRet -> 9",
        "hccl",
        id="mc2-resource-call-trace",
    ),
]


@pytest.mark.parametrize(("text", "first", "category"), EXCERPTS)
def test_pasted_excerpt_gets_its_label_and_first_error(text: str, first: str, category: str):
    diagnosis = diagnose_files({"issue/log.txt": text})
    assert_reads(diagnosis, category, first_error=first)


def test_python_reraise_is_not_the_first_error_of_its_chain() -> None:
    text = (
        "Traceback (most recent call last):\n"
        '  File "/srv/infer/store.py", line 40, in fetch\n'
        "    data = sock.recv(4096)\n"
        "ConnectionResetError: [Errno 104] Connection reset by peer\n"
        "\n"
        "During handling of the above exception, another exception occurred:\n"
        "\n"
        "Traceback (most recent call last):\n"
        '  File "/srv/infer/run.py", line 12, in <module>\n'
        "    weights = fetch_weights()\n"
        "RuntimeError: failed to fetch the shard list from the coordinator\n"
    )
    diagnosis = diagnose_files({"job/log_1.log": text})
    assert_reads(diagnosis, "hccl", first_error="Connection reset by peer")


def test_npus_holding_memory_at_zero_aicore_without_any_error_are_a_hang() -> None:
    rows = "".join(
        f"| {n}     910B3               | OK            | 92.{n}        41                0    / 0 "
        "            |\n"
        f"| 0                         | 0000:C{n}:00.0  | 0           0    / 0          60312/ 65536 "
        "        |\n"
        for n in range(4)
    )
    diagnosis = diagnose_files({"job/npu_smi_info.txt": NPU_SMI_HEAD + rows})
    assert (diagnosis.category, diagnosis.first_error) == ("hang", None)
    assert "0% AICore" in diagnosis.root_cause


def test_npus_left_without_processes_are_the_ranks_that_died_in_loading() -> None:
    table = NPU_SMI.replace(
        "| 1       0                 | 1112          | python3                  | 32000      "
        "             |\n",
        "| No running processes found in NPU 1                                              "
        "              |\n",
    )
    diagnosis = diagnose_files(
        {"job/npu_smi_info.txt": table, "job/log_0.log": stamped(0, loading(0)[1:])}
    )
    assert diagnosis.category == "weight_load"
    assert diagnosis.culprit_ranks == [1]
    assert "none on NPUs 1" in diagnosis.root_cause


AGENT_STOPPED = """\
W1129 07:25:02.410000 5150 torch/distributed/elastic/agent/server/api.py:753] Received 15 death signal, shutting down workers
W1129 07:25:02.411000 5150 torch/distributed/elastic/multiprocessing/api.py:1028] Sending process 5161 closing signal SIGTERM
W1129 07:25:02.412000 5150 torch/distributed/elastic/multiprocessing/api.py:1028] Sending process 5162 closing signal SIGTERM
Traceback (most recent call last):
  File "/srv/venv/bin/torchrun", line 8, in <module>
    sys.exit(main())
  File "/srv/venv/lib/python3.11/site-packages/torch/distributed/elastic/multiprocessing/api.py", line 87, in _terminate_process_handler
    raise SignalException(f"Process {os.getpid()} got signal: {sigval}", sigval=sigval)
torch.distributed.elastic.multiprocessing.api.SignalException: Process 5150 got signal: 15
"""


def test_job_stopped_by_its_scheduler_after_one_rank_ran_ahead_is_that_ranks_hang() -> None:
    files = {f"job/log_{r}.log": stamped(r, [*loading(r), *STEPS[:6]]) for r in range(4)}
    files["job/log_1.log"] = stamped(1, [*loading(1), *STEPS[:7]])
    diagnosis = diagnose_files({"job/env.txt": ENV, "job/launcher.log": AGENT_STOPPED, **files})
    assert diagnosis.category == "hang"
    assert diagnosis.culprit_ranks == [1]
    assert diagnosis.first_error is None


def test_job_stopped_by_its_scheduler_while_ranks_kept_pace_is_the_stop_itself() -> None:
    files = {f"job/log_{r}.log": stamped(r, [*loading(r), *STEPS[:6]]) for r in range(4)}
    diagnosis = diagnose_files({"job/env.txt": ENV, "job/launcher.log": AGENT_STOPPED, **files})
    assert diagnosis.category == "other"
    assert diagnosis.culprit_ranks == []
    assert diagnosis.first_error is not None
    assert "Received 15 death signal" in diagnosis.first_error.text


# docs/labelling.md, "A job stopped from outside": a process's own record of the SIGTERM it got,
# printed by a native failure-signal handler (Paddle's summary under its C++ stack, glog's and
# abseil's one-line reports). It is the stop, not a crash: `other` with `hang` beside it.
PADDLE_STOPPED = """\
I1207 10:11:02.118220  7731 trainer.py:214] epoch 3 step 1800 loss 2.114
--------------------------------------
C++ Traceback (most recent call last):
--------------------------------------
0   paddle::distributed::ProcessGroupNCCL::Broadcast(phi::DenseTensor*, phi::DenseTensor const&)
1   ncclBroadcast

----------------------
Error Message Summary:
----------------------
FatalError: `Termination signal` is detected by the operating system.
  [TimeInfo: *** Aborted at 1733566262 (unix time) try "date -d @1733566262" if you are using GNU date ***]
  [SignalInfo: *** SIGTERM (@0x1e36) received by PID 7731 (TID 0x7f2a3c1ff740) from PID 7734 ***]
"""


GLOG_STOPPED = """\
I1207 10:11:02.118220  7500 server.cc:88] served 1200 requests
*** Aborted at 1733566262 (unix time) try "date -d @1733566262" if you are using GNU date ***
PC: @     0x7f31b80c8e1d  (unknown)
*** SIGTERM (@0x3e800001d4c) received by PID 7500 (TID 0x7f31aa3fe700) from PID 7488; stack trace: ***
    @     0x7f31b80c8e1d  (unknown)
"""

ABSEIL_STOPPED = """\
I1207 10:11:02.118220  7500 core_worker.cc:410] task 12 finished
*** SIGTERM received at time=1733566262 on cpu 5 ***
PC: @     0x7f31b80c8e1d  (unknown)  pthread_cond_wait
"""


@pytest.mark.parametrize("text", [PADDLE_STOPPED, GLOG_STOPPED, ABSEIL_STOPPED])
def test_a_process_that_records_the_sigterm_it_got_was_stopped_from_outside(text: str) -> None:
    diagnosis = diagnose_files({"log/workerlog.0": text})
    assert diagnosis.category == "other"
    assert "hang" in alternative_labels(diagnosis)
    assert diagnosis.first_error is not None
    assert "SIGTERM" in diagnosis.first_error.text or "Termination signal" in (
        diagnosis.first_error.text
    )


def test_a_process_that_records_a_segfault_it_got_crashed() -> None:
    """Counterexample: the same summary for SIGSEGV is the process's own crash."""
    text = PADDLE_STOPPED.replace("`Termination signal`", "`Segmentation fault`").replace(
        "SIGTERM (@0x1e36)", "SIGSEGV (@0x0)"
    )
    diagnosis = diagnose_files({"log/workerlog.0": text})
    assert diagnosis.category == "device_fault"


# docs/labelling.md, "A job stopped from outside": an interrupt the agent passes on to its
# workers. The agent's record comes before the workers' KeyboardInterrupt tracebacks (printed
# with no time of day in their own stderr files) and is the first error.
AGENT_INTERRUPTED = """\
W0305 14:02:11.530000 4410 torch/distributed/elastic/agent/server/api.py:753] Received 2 death signal, shutting down workers
W0305 14:02:11.531000 4410 torch/distributed/elastic/multiprocessing/api.py:1028] Sending process 4421 closing signal SIGINT
W0305 14:02:11.531000 4410 torch/distributed/elastic/multiprocessing/api.py:1028] Sending process 4422 closing signal SIGINT
Traceback (most recent call last):
  File "/srv/venv/bin/torchrun", line 8, in <module>
    sys.exit(main())
  File "/srv/venv/lib/python3.11/site-packages/torch/distributed/elastic/multiprocessing/api.py", line 87, in _terminate_process_handler
    raise SignalException(f"Process {os.getpid()} got signal: {sigval}", sigval=sigval)
torch.distributed.elastic.multiprocessing.api.SignalException: Process 4410 got signal: 2
"""


def _interrupted_worker(rank: int) -> str:
    return (
        f"[rank{rank}]: Traceback (most recent call last):\n"
        f'[rank{rank}]:   File "/srv/infer/run.py", line 88, in <module>\n'
        f"[rank{rank}]:     time.sleep(5)\n"
        f"[rank{rank}]: KeyboardInterrupt\n"
    )


def test_an_interrupt_the_agent_passed_on_is_first_recorded_by_the_agent() -> None:
    files = {
        f"job/attempt_0/{r}/stdout.log": stamped(r, [*loading(r), *STEPS[:6]]) for r in range(2)
    }
    files.update({f"job/attempt_0/{r}/stderr.log": _interrupted_worker(r) for r in range(2)})
    diagnosis = diagnose_files({"job/launcher.log": AGENT_INTERRUPTED, **files})
    assert_reads(diagnosis, "hang", first_error="Received 2 death signal")


def test_peers_that_lost_an_interrupted_rank_after_the_stop_are_what_the_stop_did() -> None:
    """One combined stdout: the agent's record, then rank 1 ends in its KeyboardInterrupt and
    rank 0 reports the closed connection, with no time of day on either."""
    closed = (
        "[default0]:[rank0]: RuntimeError: [/__w/pytorch/pytorch/third_party/gloo/gloo/"
        "transport/tcp/pair.cc:553] Connection closed by peer [127.0.0.1]:5771. This is "
        "typically caused by a remote worker crashing. Check the logs of the remote worker "
        "before reporting an error.\n"
    )
    worker = "".join(f"[default1]:{line}\n" for line in _interrupted_worker(1).splitlines())
    stdout = [*AGENT_INTERRUPTED.splitlines(True)[:3], worker, closed]
    diagnosis = diagnose_files({"job/stdout.txt": "".join(stdout)})
    assert_reads(diagnosis, "hang", first_error="Received 2 death signal")


def test_a_workers_interrupt_with_no_agent_record_stays_its_own_first_error() -> None:
    files = {f"job/log_{r}.log": stamped(r, [*loading(r), *STEPS[:6]]) for r in range(2)}
    files["job/log_1.log"] += _interrupted_worker(1)
    diagnosis = diagnose_files(files)
    assert_reads(diagnosis, "hang", first_error="KeyboardInterrupt")


# --- the stack the advice and the tree's texts are for ------------------------------------

ASCEND_TOOLS = ("npu-smi", "CANN", "plog", "HCCL", "AI Core", "torch_npu", "set_env", "ASCEND_")
ILLEGAL_ACCESS = "RuntimeError: CUDA error: an illegal memory access was encountered"
NPU_OOM = (
    "RuntimeError: NPU out of memory. Tried to allocate 2.00 GiB (NPU 0; 60.97 GiB total "
    "capacity; 1.20 GiB free)"
)


def _job(tmp_path, failure: str, backend: str = "gloo") -> Report:
    """Two ranks of a torch run like the corpus's: rank 1 fails in its first layer. A job
    that states no backend (`backend=""`) leaves it to the first error to name a stack."""
    stated = f" backend={backend}" if backend else ""
    logs = ranks(2)
    for log in logs:
        log.loaded().layers(1)
        log.lines = [line.replace(" backend=gloo", stated) for line in log.lines]
    logs[1].fails(failure, frame="forward")
    env = ENV_DUMP.format(size=2).replace(
        "BACKEND=gloo\n", f"BACKEND={backend}\n" if backend else ""
    )
    return analyze_job(tmp_path, logs, {"env.txt": env})


def _path_texts(report: Report) -> tuple[str, list[str]]:
    """The guidance and commands, and the switches, the tree shows along the report's path."""
    tree, stack = load_tree(), report.diagnosis.stack
    said, switches = [], []
    for node in (tree.node(node_id) for node_id in report.diagnosis.tree_path):
        texts = node.for_stack(stack)
        said += [texts.guidance, *texts.commands]
        switches += switches_for(stack, node.env)
    return "\n".join(said), switches


@pytest.mark.parametrize(
    ("failure", "backend", "stack"),
    [
        ("RuntimeError: " + SPLIT.format(start=98346), "gloo", "cpu"),
        (ILLEGAL_ACCESS, "nccl", "cuda"),
    ],
    ids=["gloo job", "cuda job"],
)
def test_a_gloo_or_cuda_job_is_shown_no_ascend_step(tmp_path, failure, backend, stack):
    report = _job(tmp_path, failure, backend)

    assert report.diagnosis.stack == stack
    assert len(report.diagnosis.tree_path) > 2
    said, switches = _path_texts(report)
    assert not [tool for tool in ASCEND_TOOLS if tool in said]
    assert not [switch for switch in switches if switch.startswith(("ASCEND_", "HCCL_"))]


def test_a_job_naming_no_stack_is_shown_ascend_steps_only_beside_cudas(tmp_path):
    report = _job(tmp_path, "RuntimeError: stream synchronize failed", backend="")

    assert report.diagnosis.stack == "unknown"
    assert len(report.diagnosis.tree_path) > 2
    said, switches = _path_texts(report)
    assert not [switch for switch in switches if switch.startswith(("ASCEND_", "HCCL_"))]
    assert "nvidia-smi" in said
    assert said.count("npu-smi") <= said.count("nvidia-smi")


def test_an_ascend_job_is_shown_the_trees_own_ascend_steps(tmp_path):
    report = _job(tmp_path, NPU_OOM, "hccl")

    assert report.diagnosis.stack == "ascend"
    said, switches = _path_texts(report)
    assert "npu-smi info" in said
    assert "PYTORCH_NPU_ALLOC_CONF=expandable_segments:True" in switches


def _peers_lose_one_rank(steps: list[str]) -> str:
    """Rank 2 raises after `steps`; ranks 0, 1, 3 lose it in their next collective."""
    files = {}
    for r in range(4):
        text = stamped(r, [*loading(r), *steps])
        if r == 2:
            text += "[rank2]: RuntimeError: mat1 and mat2 shapes cannot be multiplied (8x16 and 32x32)\n"
        else:
            text += (
                f"[rank{r}]: RuntimeError: [../third_party/gloo/gloo/transport/tcp/pair.cc:553] "
                "Connection closed by peer [127.0.0.1]:41022\n"
            )
        files[f"job/log_{r}.log"] = text
    diagnosis = diagnose_files({"job/env.txt": ENV, **files})
    assert diagnosis.culprit_ranks == [2]
    return diagnosis.root_cause


def test_the_root_cause_names_the_layer_of_a_sub_module_checkpoint_every_rank_reached() -> None:
    # every layer prints ` norm passed`: the sentence says which layer's
    said = _peers_lose_one_rank(STEPS[:6])
    assert "Last checkpoint every rank reached: 'layer 1 / norm passed'." in said


def test_the_root_cause_names_a_layer_checkpoint_every_rank_reached_as_printed() -> None:
    said = _peers_lose_one_rank(STEPS[:5])
    assert "Last checkpoint every rank reached: 'layer 0 passed'." in said
