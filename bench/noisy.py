"""Write a noisy-job bundle: every training step prints a handful of warnings, the real error
comes only at the very end.

Jobs like this are common: a torch UserWarning naming the step, a deprecation warning from a
library, an HCCL/NCCL WARN line and a tokenizer warning, printed on every step for hours.
Such a log is tens of thousands of warning lines that differ only in their numbers, and the
analysis must read past all of them to the one error that matters. Per rank, roughly:

    [default0]:/usr/local/lib/python3.10/site-packages/torch_npu/utils/_module.py:412:
        UserWarning: step 1288: the input tensor is not contiguous, a copy is made ...
    [default0]:[W1129 07:24:13.512034 40000 ProcessGroupHCCL.cpp:2384] [Rank 0] WARN ...
    [default0]:Token indices sequence length is longer than the specified maximum ...

The failing rank ends with a torch_npu aicore-exception traceback; its peers with an HCCL
watchdog timeout; launcher.log with torch elastic's ChildFailedError summary.
"""

from __future__ import annotations

import random
import tarfile
from datetime import datetime, timedelta
from pathlib import Path

from bench.synth import _add, _failure_lines, _peer_timeout_lines, launcher_lines

BASE_TIME = datetime(2026, 11, 29, 7, 24, 0)
SITE = "/usr/local/lib/python3.10/site-packages"


def _torch_warning(step: int, rng: random.Random) -> list[str]:
    kind = rng.randrange(3)
    if kind == 0:
        return [
            f"{SITE}/torch_npu/utils/_module.py:{rng.randint(300, 480)}: UserWarning: step {step}: "
            "the input tensor is not contiguous, a copy is made (it costs memory and time)",
            "  warnings.warn(",
        ]
    if kind == 1:
        return [
            f"{SITE}/torch/utils/checkpoint.py:{rng.randint(60, 90)}: UserWarning: None of the "
            f"inputs have requires_grad=True. Gradients will be None (step {step})",
            '  warnings.warn("None of the inputs have requires_grad=True. Gradients will be None")',
        ]
    return [
        f"{SITE}/torch/nn/modules/module.py:{rng.randint(1500, 1600)}: UserWarning: step {step}: "
        f"grad bucket {rng.randint(0, 63)} view does not match its stride, falling back to copy",
        "  return forward_call(*args, **kwargs)",
    ]


def _deprecation(step: int, rng: random.Random) -> str:
    if rng.random() < 0.5:
        return (
            f"{SITE}/transformers/deepspeed.py:{rng.randint(20, 40)}: FutureWarning: "
            "transformers.deepspeed module is deprecated and will be removed in a future "
            "version. Please import deepspeed modules directly from transformers.integrations"
        )
    return (
        f"{SITE}/torch/_dynamo/eval_frame.py:{rng.randint(600, 700)}: DeprecationWarning: "
        "torch.cuda.amp.autocast(args...) is deprecated. Please use "
        "torch.amp.autocast('npu', args...) instead."
    )


def _collective_warn(rank: int, step: int, clock: datetime, rng: random.Random) -> str:
    stamp = f"{clock:%m%d %H:%M:%S}.{clock.microsecond:06d}"
    if rng.random() < 0.5:
        return (
            f"[W{stamp} {40000 + rank} ProcessGroupHCCL.cpp:{rng.randint(2300, 2400)}] "
            f"[Rank {rank}] WARN HCCL stream {rng.randint(1, 60)} is busy at step {step}, "
            f"the collective waited {rng.randint(1, 900)} ms for a free slot"
        )
    return (
        f"node-{rank // 8}:{40000 + rank}:{40100 + rank} [{rank % 8}] NCCL WARN "
        f"Cuda failure 'out of resources' on ring {rng.randint(0, 7)}, retrying step {step}"
    )


def _tokenizer_warning(rng: random.Random) -> str:
    if rng.random() < 0.5:
        length = rng.randint(4097, 9000)
        return (
            f"Token indices sequence length is longer than the specified maximum sequence "
            f"length for this model ({length} > 4096). Running this sequence through the "
            "model will result in indexing errors"
        )
    return (
        "huggingface/tokenizers: The current process just got forked, after parallelism has "
        "already been used. Disabling parallelism to avoid deadlocks..."
    )


def _step_lines(rank: int, step: int, clock: datetime, rng: random.Random) -> list[str]:
    stamp = f"{clock:%Y-%m-%d %H:%M:%S},{clock.microsecond // 1000:03d}"
    lines = _torch_warning(step, rng)
    lines.append(_deprecation(step, rng))
    lines.append(_collective_warn(rank, step, clock, rng))
    lines.append(_tokenizer_warning(rng))
    lines.append(
        f"{stamp} [rank{rank}] INFO step {step} loss={rng.uniform(1.5, 3.5):.4f} "
        f"lr={rng.uniform(1e-5, 3e-4):.3e} tokens/s={rng.randint(9000, 15000)}"
    )
    return lines


def noisy_rank_lines(rank: int, lines_wanted: int, rng: random.Random, fails: bool) -> list[str]:
    """At least `lines_wanted` lines of a rank's stdout, torchrun-prefixed, then its ending."""
    head = f"[default{rank % 8}]:"
    clock, lines, step = BASE_TIME, [], 0
    while len(lines) < lines_wanted:
        step += 1
        clock += timedelta(microseconds=rng.randint(300_000, 900_000))
        lines += [head + line for line in _step_lines(rank, step, clock, rng)]
    ending = _failure_lines if fails else _peer_timeout_lines
    lines += ending(head, rank, _EndClock(clock))
    return lines


class _EndClock:
    """The one `tick()` the shared ending writers ask of a clock."""

    def __init__(self, now: datetime) -> None:
        self.now = now

    def tick(self) -> datetime:
        self.now += timedelta(seconds=2)
        return self.now


def write_noisy_bundle(out: Path, ranks: int = 8, lines: int = 50_000, seed: int = 11) -> int:
    """Write the bundle to `out` (.tar.gz); returns the uncompressed byte count."""
    rng = random.Random(seed)
    culprit = ranks * 5 // 8
    total = 0
    with tarfile.open(out, "w:gz", compresslevel=6) as tar:
        for rank in range(ranks):
            body = noisy_rank_lines(rank, lines, rng, rank == culprit)
            total += _add(tar, f"job/node-{rank // 8}/rank_{rank}/train.log", body)
        total += _add(tar, "job/launcher.log", launcher_lines(ranks, culprit))
        total += _add(tar, "job/env.txt", [f"WORLD_SIZE={ranks}", "HCCL_CONNECT_TIMEOUT=1200"])
    return total
