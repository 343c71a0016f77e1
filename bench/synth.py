"""Write a synthetic multi-rank job bundle that looks like a real failed Ascend run.

Per rank: a torchrun-prefixed training log (Python logging: step metrics, checkpoint lines,
some warnings) and a CANN plog (mostly INFO runtime/HCCL chatter, a few warnings). One rank
dies with a real-looking torch_npu error block and traceback; its peers then report HCCL
watchdog timeouts; launcher.log ends with torch elastic's ChildFailedError summary. Numbers
vary line to line so the bundle compresses like a real one (about 10:1), not like a
repeated template.
"""

from __future__ import annotations

import random
import tarfile
from datetime import datetime, timedelta
from pathlib import Path

BASE_TIME = datetime(2026, 11, 29, 7, 24, 0)
LAYERS = 8
SUBMODULES = ("norm", "attention", "MoE")
# Target bytes per rank at scale 1.0: 64 ranks x ~11 MB ≈ 700 MB uncompressed.
RANK_LOG_BYTES = 6_000_000
PLOG_BYTES = 5_000_000


class _Clock:
    """Monotonic fake time; formatting reuses the date-to-minute part (strftime is slow)."""

    def __init__(self, rng: random.Random) -> None:
        self.now = BASE_TIME
        self.rng = rng
        self._minute: tuple[datetime, str, str] | None = None

    def tick(self) -> datetime:
        self.now += timedelta(microseconds=self.rng.randint(200, 40_000))
        return self.now

    def _prefixes(self) -> tuple[str, str]:
        key = self.now.replace(second=0, microsecond=0)
        if self._minute is None or self._minute[0] != key:
            self._minute = (key, key.strftime("%Y-%m-%d %H:%M:"), key.strftime("%Y-%m-%d-%H:%M:"))
        return self._minute[1], self._minute[2]

    def py(self) -> str:
        self.tick()
        micro = self.now.microsecond
        return f"{self._prefixes()[0]}{self.now.second:02d},{micro // 1000:03d}"

    def cann(self) -> str:
        self.tick()
        micro = self.now.microsecond
        return f"{self._prefixes()[1]}{self.now.second:02d}.{micro // 1000:03d}.{micro % 1000:03d}"


def _py_time(moment: datetime) -> str:
    return moment.strftime("%Y-%m-%d %H:%M:%S,") + f"{moment.microsecond // 1000:03d}"


def _cann_time(moment: datetime) -> str:
    micro = moment.microsecond
    return moment.strftime("%Y-%m-%d-%H:%M:%S.") + f"{micro // 1000:03d}.{micro % 1000:03d}"


def rank_log_lines(
    rank: int, size: int, rng: random.Random, fails: bool, checkpoints: int | None = None
) -> list[str]:
    """`size` bytes of training log; with `checkpoints`, as many steps as print that many
    checkpoint lines (the last step cut short), whatever the size."""
    clock, lines, total, step = _Clock(rng), [], 0, 0
    head = f"[default{rank % 8}]:"
    tag = f" [rank{rank}] INFO "
    tails = [_metric_tail(rng) for _ in range(4096)]
    per_step = LAYERS * (len(SUBMODULES) + 1)
    while (total < size) if checkpoints is None else (step * per_step < checkpoints):
        step += 1
        start = len(lines)
        for layer in range(LAYERS):
            for part in SUBMODULES:
                lines.append(f"{head}{clock.py()}{tag} {part} passed")
            lines.append(f"{head}{clock.py()}{tag}layer {layer} passed")
        for micro_batch, tail in enumerate(rng.choices(tails, k=rng.randint(40, 60))):
            lines.append(f"{head}{clock.py()}{tag}step {step} micro_batch {micro_batch} {tail}")
        if rng.random() < 0.02:
            lines.append(
                f"{head}{clock.py()} [rank{rank}] WARNING grad norm is large "
                f"({rng.uniform(10, 99):.2f}) at step {step}, clipping"
            )
        total += sum(len(line) + 1 for line in lines[start:])
    if checkpoints is not None:
        _cut_checkpoints(lines, step * per_step - checkpoints)
    ending = _failure_lines if fails else _peer_timeout_lines
    lines += ending(head, rank, clock)
    return lines


def _cut_checkpoints(lines: list[str], extra: int) -> None:
    """Drop the last `extra` checkpoint lines (the rank stopped inside its last step)."""
    for index in range(len(lines) - 1, -1, -1):
        if extra <= 0:
            return
        if lines[index].endswith(" passed"):
            del lines[index]
            extra -= 1


def _metric_tail(rng: random.Random) -> str:
    return (
        f"loss={rng.uniform(1.5, 3.5):.4f} lr={rng.uniform(1e-5, 3e-4):.3e} "
        f"grad_norm={rng.uniform(0.1, 2.0):.3f} tokens/s={rng.randint(9000, 15000)} "
        f"mem_alloc={rng.randint(20000, 60000)}MB"
    )


def _failure_lines(prefix: str, rank: int, clock: _Clock) -> list[str]:
    moment = clock.tick()
    pta = moment.strftime("%Y-%m-%d-%H:%M:%S")
    p = f"{prefix}[rank{rank}]: "
    return [
        f"{p}Traceback (most recent call last):",
        f'{p}  File "/workspace/train.py", line 412, in <module>',
        f"{p}    main()",
        f'{p}  File "/workspace/train.py", line 388, in train_step',
        f"{p}    torch.npu.synchronize()",
        f"{p}RuntimeError: npuSynchronizeDevice:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:488 "
        "NPU function error: AclrtSynchronizeDeviceWithTimeout, error code is 507015",
        f"{p}[ERROR] {pta} (PID:{40000 + rank}, Device:{rank % 8}, RankID:{rank}) ERR00100 PTA call acl api failed",
        f"{p}[Error]: The aicore execution is abnormal.",
        f"{p}        Rectify the fault based on the error information in the ascend log.",
        f"{p}EZ9999: Inner Error!",
        f"{p}EZ9999: [PID: {40000 + rank}] {_cann_time(moment)} The error from device(chipId:{rank % 8}, "
        "dieId:0), serial number is 7, there is an exception of fftsplus aivector error, core id is 12, "
        "error code = 0x51e467",
        f"{p}        TraceBack (most recent call last):",
        f"{p}        rtStreamSynchronizeWithTimeout execute failed, reason=[aicore exception]"
        "[FUNC:FuncErrorReason][FILE:error_message_manage.cc][LINE:53]",
    ]


def _peer_timeout_lines(prefix: str, rank: int, clock: _Clock) -> list[str]:
    moment = clock.tick() + timedelta(seconds=1800)
    glog = (
        f"E{moment.month}{moment.day:02d} {moment.strftime('%H:%M:%S')}.{moment.microsecond:06d}123"
    )
    return [
        f"{prefix}[rank{rank}]:[{glog} compiler_depend.ts:721] [Rank {rank}] Watchdog caught "
        "collective operation timeout: WorkHCCL(SeqNum=9051, OpType=ALLREDUCE, Timeout(ms)=1800000) "
        "ran for 1800093 milliseconds before timing out.",
        f"{prefix}[rank{rank}]:[{glog} compiler_depend.ts:9708] [Rank {rank}] HCCL watchdog thread "
        "terminated with exception",
    ]


def _plog_tails(rank: int, pid: int, rng: random.Random) -> list[tuple[str, str]]:
    """(level+module head, text after the time) pairs in the mix of a busy INFO plog."""
    device = rank % 8
    tails = []
    for _ in range(4096):
        roll = rng.random()
        if roll < 0.55:
            tails.append(
                (
                    f"[INFO] RUNTIME({pid},python):",
                    (
                        f" [stream.cc:{rng.randint(100, 999)}]{pid} ReportTask: launch kernel success, "
                        f"device_id={device}, stream_id={rng.randint(1, 60)}, task_id="
                        f"{rng.randint(1, 65535)}, sqe_type=0(ffts)"
                    ),
                )
            )
        elif roll < 0.9:
            tails.append(
                (
                    f"[INFO] HCCL({pid},python):",
                    (
                        f" [hcom.cc:{rng.randint(100, 999)}][{pid}]Entry-HcomAllReduce:tag[HcomAllReduce_"
                        f"{rng.getrandbits(60)}_0], count[{rng.randint(1, 1 << 24)}], dataType[bfloat16], "
                        f"op[sum], group[hccl_world_group], take time [{rng.randint(20, 9000)}]us"
                    ),
                )
            )
        elif roll < 0.997:
            tails.append(
                (
                    f"[INFO] GE({pid},python):",
                    (
                        f" [graph_manager.cc:{rng.randint(100, 999)}]{pid} RunGraph: graph_id="
                        f"{rng.randint(1, 40)}, session_id=0, run ok"
                    ),
                )
            )
        else:
            tails.append(
                (
                    f"[WARNING] DRV({pid},python):",
                    (
                        f" [ascend_hal.c:{rng.randint(100, 999)}]{pid} halGetDeviceInfo: device {device} "
                        "info type 9 not supported, use default"
                    ),
                )
            )
    return tails


def plog_lines(rank: int, size: int, rng: random.Random, fails: bool) -> list[str]:
    clock, lines, total, pid = _Clock(rng), [], 0, 40000 + rank
    tails = _plog_tails(rank, pid, rng)
    while total < size:
        batch = [f"{head}{clock.cann()}{tail}" for head, tail in rng.choices(tails, k=1000)]
        lines += batch
        total += sum(len(line) + 1 for line in batch)
    if fails:
        lines.append(
            f"[ERROR] RUNTIME({pid},python):{clock.cann()} [stars_engine.cc:7900]{pid} "
            f"ProcLogicCqReport:Task run failed, device_id={rank % 8}, stream_id=46, task_id=42528, "
            "sqe_type=0(ffts), errType=0x1(task exception), sqSwStatus=0x2110"
        )
    return lines


def launcher_lines(world: int, culprit: int) -> list[str]:
    lines = [
        f"W1129 07:23:58.000000 100 torch/distributed/run.py:793] nproc_per_node: {min(world, 8)}"
    ]
    lines += [
        "torch.distributed.elastic.multiprocessing.errors.ChildFailedError: ",
        "============================================================",
        "/workspace/train.py FAILED",
        "------------------------------------------------------------",
        "Failures:",
        "  <NO_OTHER_FAILURES>",
        "------------------------------------------------------------",
        "Root Cause (first observed failure):",
        "[0]:",
        "  time      : 2026-11-29_08:01:12",
        "  host      : node-3",
        f"  rank      : {culprit} (local_rank: {culprit % 8})",
        f"  exitcode  : 1 (pid: {40000 + culprit})",
        "  error_file: <N/A>",
        "  traceback : To enable traceback see: https://pytorch.org/docs/stable/elastic/errors.html",
        "============================================================",
    ]
    return lines


def write_bundle(
    out: Path, ranks: int = 64, scale: float = 1.0, seed: int = 7, checkpoints: int | None = None
) -> int:
    """Write the bundle to `out` (.tar.gz); returns the uncompressed byte count.

    With `checkpoints`, every rank prints that many checkpoint lines and its plog keeps the
    usual size ratio to its training log (`scale` is then ignored)."""
    rng = random.Random(seed)
    culprit = ranks * 3 // 5
    total = 0
    with tarfile.open(out, "w:gz", compresslevel=6) as tar:
        for rank in range(ranks):
            fails = rank == culprit
            node = rank // 8
            train = rank_log_lines(rank, int(RANK_LOG_BYTES * scale), rng, fails, checkpoints)
            plog_bytes = int(PLOG_BYTES * scale)
            if checkpoints is not None:
                plog_bytes = sum(len(line) + 1 for line in train) * PLOG_BYTES // RANK_LOG_BYTES
            members = (
                (f"job/node-{node}/rank_{rank}/train.log", train),
                (
                    f"job/node-{node}/plog/plog-{40000 + rank}_20261129072400000.log",
                    plog_lines(rank, plog_bytes, rng, fails),
                ),
            )
            for name, lines in members:
                total += _add(tar, name, lines)
        total += _add(tar, "job/launcher.log", launcher_lines(ranks, culprit))
        total += _add(tar, "job/env.txt", [f"WORLD_SIZE={ranks}", "HCCL_CONNECT_TIMEOUT=1200"])
    return total


def _add(tar: tarfile.TarFile, name: str, lines: list[str]) -> int:
    import io

    data = ("\n".join(lines) + "\n").encode()
    info = tarfile.TarInfo(name)
    info.size = len(data)
    info.mtime = int(BASE_TIME.timestamp())
    tar.addfile(info, io.BytesIO(data))
    return len(data)
