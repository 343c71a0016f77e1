"""Rank 0 alone saves a checkpoint or prints the step's metrics while the others wait for it.

docs/labelling.md#config-driver_env-or-weight_load: torch.save refusing to write into a folder
that does not exist (`Parent directory ... does not exist.`) is the output path the job was
given, `config` with `driver_env` beside it. docs/labelling.md#a-metric-printed-with-a-format-its-tensor-does-not-take:
a loss that was never reduced to a number, printed with `:.4f`, is refused by
`Tensor.__format__`: the job's reporting code, `other` with `shape_mismatch` beside it. In
both the rank that did the solo work fails first and the waiting ranks' lost connection is
the cascade. Counterexamples: a line that only says where the checkpoint goes, and a format a
plain float refuses.

Paths, ranks, times and numbers are our own.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_files, diagnose_text

LOST = (
    "RuntimeError: [/__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp/pair.cc:553] "
    "Connection closed by peer [127.0.0.1]:41877. This is typically caused by a remote worker "
    "crashing. Check the logs of the remote worker before reporting an error. GLHF!"
)
LAYER0 = ["  norm passed", "  attention passed", "  MoE passed", "layer 0 passed"]


def _logged(rank: int, second: int, lines: list[str]) -> str:
    return "".join(
        f"2026-12-04 18:42:{second:02d},{100 + 7 * i:03d} [rank{rank}] INFO {text}\n"
        for i, text in enumerate(lines)
    )


def _traceback(rank: int, second: int, call: str, error: str) -> str:
    return (
        f"2026-12-04 18:42:{second:02d},512 [rank{rank}] ERROR model run failed\n"
        "Traceback (most recent call last):\n"
        '  File "/srv/moe/train_step.py", line 151, in main\n'
        f"    {call}\n"
        f"{error}\n"
    )


def _save_job(error: str) -> dict[str, str]:
    files = {
        "job-31d7/log_0.log": _logged(0, 11, ["prefill start", *LAYER0])
        + _logged(0, 11, ["saving checkpoint to /mnt/nfs/ckpt/exp12/step0.pt"])
        + _traceback(0, 11, "torch.save(layers.state_dict(), path)", error)
    }
    for rank in (1, 2, 3):
        files[f"job-31d7/log_{rank}.log"] = _logged(
            rank, 11, ["prefill start", *LAYER0, "waiting for rank 0 (ckpt)"]
        ) + _traceback(rank, 12, "dist.barrier()", LOST)
    return files


def test_rank_0_saving_into_a_missing_folder_is_the_jobs_output_path() -> None:
    diagnosis = diagnose_files(
        _save_job("RuntimeError: Parent directory /mnt/nfs/ckpt/exp12 does not exist.")
    )
    assert_reads(
        diagnosis, "config", first_error="Parent directory /mnt/nfs/ckpt/exp12 does not exist"
    )
    assert diagnosis.culprit_ranks == [0]
    assert "driver_env" in {alt.category for alt in diagnosis.alternatives}


def test_a_line_naming_the_checkpoint_folder_is_no_failure() -> None:
    text = _logged(0, 11, ["layer 0 passed", "saving checkpoint to /mnt/nfs/ckpt/exp12/step0.pt"])
    assert diagnose_text("job-31d7/log_0.log", text).first_error is None


def _print_job(error: str) -> dict[str, str]:
    files = {
        "run/log_0.log": "".join(t + "\n" for t in ["prefill start", *LAYER0])
        + "model run failed\nTraceback (most recent call last):\n"
        '  File "/srv/moe/train_step.py", line 112, in report_metrics\n'
        '    print(f"step {i} loss {loss:.4f}", flush=True)\n'
        f"{error}\n"
    }
    for rank in (1, 2, 3):
        files[f"run/log_{rank}.log"] = (
            "".join(
                t + "\n"
                for t in [
                    "prefill start",
                    *LAYER0,
                    "waiting for rank 0 (print)",
                    "model run failed",
                ]
            )
            + f"Traceback (most recent call last):\n    dist.all_reduce(t)\n{LOST}\n"
        )
    return files


def test_an_unreduced_loss_printed_by_rank_0_is_the_jobs_reporting_code() -> None:
    diagnosis = diagnose_files(
        _print_job("TypeError: unsupported format string passed to Tensor.__format__")
    )
    assert_reads(diagnosis, "other", first_error="Tensor.__format__")
    assert diagnosis.culprit_ranks == [0]
    assert "shape_mismatch" in {alt.category for alt in diagnosis.alternatives}


def test_a_format_a_plain_float_refuses_keeps_its_own_reading() -> None:
    diagnosis = diagnose_files(
        _print_job("ValueError: Unknown format code 'd' for object of type 'float'")
    )
    assert "Tensor.__format__" not in (diagnosis.first_error.text if diagnosis.first_error else "")
    assert diagnosis.category != "other" or not any(
        alt.category == "shape_mismatch" for alt in diagnosis.alternatives
    )
