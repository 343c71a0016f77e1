"""Job-level verdicts that replace the first error's own label (`analyzers.report.multirank`).

Bundles are small gloo jobs shaped like the torch corpus (`tests/analyzers/job_bundles.py`).
"""

from __future__ import annotations

from pathlib import Path

from analyzers import AnalyzeOptions, analyze
from analyzers.causal.chain import CausalChain
from analyzers.classify.tiers import TIER_CAUSE
from analyzers.core.checkpoint_timeline import Timeline
from analyzers.core.types import Correlation, FileScan
from analyzers.report.multirank import correct
from tests.analyzers.causal.test_culprits_nodes import PARTS, progress
from tests.analyzers.classified import line, signature
from tests.analyzers.excerpts import alternative_labels, assert_reads, diagnose_text, scan_text
from tests.analyzers.job_bundles import (
    CLOSED,
    RECV_TIMEOUT,
    RankLog,
    analyze_job,
    bundle,
    pack,
    ranks,
    store_never_fills,
)


def test_a_store_waiting_for_ranks_never_started_is_a_configuration_error(tmp_path: Path) -> None:
    """Labelling guide, "A world size larger than the job started": four processes started
    (WORLD_SIZE=4 in the env dump) with world_size=5 in their lines; the store's timeout only
    reports the wait, the world size is what has to change."""
    diagnosis = analyze_job(tmp_path, store_never_fills(5, 4)).diagnosis
    assert diagnosis.category == "config"
    assert alternative_labels(diagnosis)[:1] == ["hccl"]
    assert "only 4 processes were started" in diagnosis.root_cause


def test_a_store_waiting_for_a_started_rank_stays_a_communication_error(tmp_path: Path) -> None:
    """Counterexample: the environment counts five processes, so rank 4 was started and the
    wait is the collective layer's failure to hear from it."""
    path = bundle(tmp_path, store_never_fills(5, 4), 5)
    assert analyze(path, AnalyzeOptions(workers=1)).diagnosis.category == "hccl"


SCATTER = (
    "RuntimeError: ProcessGroupGloo::scatter: invalid tensor size at index 0 "
    "(expected (1), got (2))"
)


def test_a_rank_that_finished_loading_fails_in_the_next_step_not_in_the_loader(
    tmp_path: Path,
) -> None:
    """Every rank said `load weights passed`; rank 0 then fails in the prompt's scatter and the
    others wait there. Their last checkpoint names loading, but so does the failing rank's,
    which says its loading finished: the tensor check's own label stands."""
    logs = ranks(4)
    for log in logs:
        log.loaded()
    logs[0].fails(SCATTER, frame="scatter_ids")
    diagnosis = analyze_job(tmp_path, logs).diagnosis
    assert diagnosis.category == "shape_mismatch", diagnosis.root_cause
    assert diagnosis.culprit_ranks == [0]


def test_a_rank_still_loading_when_it_fails_is_a_weight_load_failure(tmp_path: Path) -> None:
    """Counterexample: the failing rank's last checkpoint is loading in progress while the
    others wait after `load weights passed`: the size error is the loader's."""
    logs = ranks(4)
    for log in logs[:3]:
        log.loaded()
    logs[3].info("loading weights shard 2/4").fails(SCATTER, frame="load_weights")
    diagnosis = analyze_job(tmp_path, logs).diagnosis
    assert diagnosis.category == "weight_load", diagnosis.root_cause
    assert diagnosis.culprit_ranks == [3]


# docs/labelling.md#a-rank-handed-no-data-files: a streaming load whose tar shards are fewer
# than the ranks; the high rank's split step indexes an empty list of files.
_SITE = "/opt/venv/lib/python3.11/site-packages/datasets"
EMPTY_SPLIT = f"""\
[rank6]: Traceback (most recent call last):
[rank6]:   File "/srv/pretrain/data.py", line 31, in build
[rank6]:     ds = load_dataset("webdataset", data_files=shards, split="train", streaming=True)
[rank6]:   File "{_SITE}/builder.py", line 1121, in as_streaming_dataset
[rank6]:     splits_generators = {{sg.name: sg for sg in self._split_generators(dl_manager)}}
[rank6]:   File "{_SITE}/packaged_modules/webdataset/webdataset.py", line 82, in _split_generators
[rank6]:     first = self._first_examples(files[0])
[rank6]: IndexError: list index out of range
"""

# Counterexample: the same error raised in the job's own collate function.
OWN_INDEX = """\
[rank6]: Traceback (most recent call last):
[rank6]:   File "/srv/pretrain/train.py", line 140, in <module>
[rank6]:     batch = collate(samples)
[rank6]:   File "/srv/pretrain/data.py", line 57, in collate
[rank6]:     first = samples[0]
[rank6]: IndexError: list index out of range
"""


def test_an_index_error_in_a_dataset_split_step_is_the_data_layout() -> None:
    diagnosis = diagnose_text("logs/rank6.log", EMPTY_SPLIT)
    assert_reads(diagnosis, "config", first_error="IndexError: list index out of range")
    assert diagnosis.confidence < 0.5


def test_an_index_error_in_the_jobs_own_code_keeps_its_reading() -> None:
    diagnosis = diagnose_text("logs/rank6.log", OWN_INDEX)
    assert diagnosis.category != "config"


# --- ranks that went away a line behind their peers ("A node that drops out") ---------------


def _node_job(
    tmp_path: Path,
    waited: str,
    behind_ranks: tuple[int, ...] = (2, 3),
    reporting: tuple[int, ...] = (),
) -> Path:
    """Two nodes of two ranks: node1's ranks stop one progress line short of node0's (a
    killed process loses what it had not flushed); node0's ranks then fail with `waited`,
    and so do node1's `reporting` ranks."""

    def failed(rank: int) -> list[str]:
        return [
            f"[rank{rank}]: Traceback (most recent call last):",
            f'[rank{rank}]:   File "/srv/infer/model.py", line 88, in attention',
            f"[rank{rank}]: RuntimeError: {waited}",
        ]

    behind = {r: progress(r)[: len(PARTS) - (r in behind_ranks)] for r in (2, 3)}
    files = {
        "env.txt": "WORLD_SIZE=4\nMASTER_ADDR=127.0.0.1\n",
        "node0/stdout.log": "\n".join(progress(0) + progress(1) + failed(0) + failed(1)) + "\n",
        "node1/stdout.log": "\n".join(
            behind[2] + behind[3] + [line for r in reporting for line in failed(r)]
        )
        + "\n",
    }
    return pack(tmp_path / "job.tar.gz", files, "job-4a1c")


def test_silent_ranks_blamed_for_stopping_behind_a_lost_peer_died(tmp_path: Path) -> None:
    """The peers lost the connection, so node1's processes went away: that they also stopped
    a line behind (the progress a kill cuts off) does not make them hung. `device_fault`,
    node1's ranks the culprits, the lost peer's `hccl` beside it."""
    diagnosis = analyze(_node_job(tmp_path, CLOSED), AnalyzeOptions(workers=1)).diagnosis
    assert diagnosis.category == "device_fault"
    assert diagnosis.culprit_ranks == [2, 3]
    assert "hccl" in alternative_labels(diagnosis)


def test_silent_ranks_behind_a_timeout_are_waited_for_not_dead(tmp_path: Path) -> None:
    """Counterexample: the peers timed out waiting, so the ranks behind were alive and away
    from the collective; the wait keeps its reading and they stay its culprits."""
    diagnosis = analyze(_node_job(tmp_path, RECV_TIMEOUT), AnalyzeOptions(workers=1)).diagnosis
    assert diagnosis.category == "hccl"
    assert diagnosis.culprit_ranks == [2, 3]


def test_one_silent_rank_behind_a_lost_peer_may_have_left_on_purpose(tmp_path: Path) -> None:
    """Counterexample: only rank 3 ended a line short and went quiet (it may have run out of
    data and left, the uneven-inputs case), while its node's other rank lost it like node0's
    did; one rank alone is no node that went down, and the lost peer keeps its reading with
    rank 3 its culprit. (Rank 2 silent beside it, the two exactly node1's folder, is the
    node that went down: tests/analyzers/causal/test_culprits_nodes.py.)"""
    path = _node_job(tmp_path, CLOSED, behind_ranks=(3,), reporting=(2,))
    diagnosis = analyze(path, AnalyzeOptions(workers=1)).diagnosis
    assert diagnosis.category == "hccl"
    assert diagnosis.culprit_ranks == [3]


def test_a_node_whose_files_are_empty_went_down_with_its_ranks(tmp_path: Path) -> None:
    """Every process of node1 killed before it flushed a line: its ranks' files are in the
    bundle but empty, the stated world size says they existed, and node0's ranks lost them.
    They went down together: `device_fault`, node1's ranks the culprits."""
    node0 = "node0/torchrun_logs/job_a1/attempt_0"
    node1 = "node1/torchrun_logs/job_b2/attempt_0"

    def lost(rank: int) -> str:
        return "\n".join(
            [
                *progress(rank),
                f"[rank{rank}]: Traceback (most recent call last):",
                f'[rank{rank}]:   File "/srv/infer/model.py", line 88, in attention',
                f"[rank{rank}]: RuntimeError: {CLOSED}",
            ]
        )

    files = {
        "env.txt": "WORLD_SIZE=4\nNPROC_PER_NODE=2\nMASTER_ADDR=127.0.0.1\n",
        **{f"{node0}/{r}/stderr.log": lost(r) + "\n" for r in (0, 1)},
        **{
            f"{node1}/{local}/{name}": ""
            for local in (0, 1)
            for name in ("stdout.log", "stderr.log")
        },
    }
    path = pack(tmp_path / "job.tar.gz", files, "job-4a1c")
    diagnosis = analyze(path, AnalyzeOptions(workers=1)).diagnosis
    assert diagnosis.category == "device_fault"
    assert diagnosis.culprit_ranks == [2, 3]


# A Trainer's fine-tune on two GPUs as its launcher's console keeps it: the last steps, then
# the summary of the whole run that the Trainer logs once training has ended.
TRAINER_FINISHED = """\
{'loss': 0.0031, 'grad_norm': 0.41, 'learning_rate': 1.2e-08, 'epoch': 2.0}
100%|##########| 840/840 [05:12<00:00,  2.69it/s]
{'train_runtime': 312.4, 'train_samples_per_second': 21.5, 'train_steps_per_second': 2.69, 'train_loss': 0.0522, 'epoch': 2.0}
11/02/2026 09:14:03 - INFO - trainer -   Saving model checkpoint to ./out/bge-ft
[rank0]:[W1102 09:14:05.118 ProcessGroupNCCL.cpp:1250] Warning: WARNING: process group has NOT been destroyed before we destruct ProcessGroupNCCL.
"""


def test_a_trainer_run_summary_is_the_run_finishing() -> None:
    """A console that ends with the Trainer's `train_runtime` summary is a finished run."""
    diagnosis = diagnose_text("stdout.log", TRAINER_FINISHED)
    assert diagnosis.category == "healthy"
    assert diagnosis.first_error is None


def test_an_evaluation_summary_is_not_the_run_finishing() -> None:
    text = TRAINER_FINISHED.replace("'train_runtime'", "'eval_runtime'")
    assert diagnose_text("stdout.log", text).category != "healthy"


def _started_with(*sizes: int) -> list[FileScan]:
    """One file per rank, each holding only the rank's start line with its world size."""
    return [
        scan_text(f"log_{rank}.log", RankLog(rank, size).lines[0] + "\n")
        for rank, size in enumerate(sizes)
    ]


def _config_error_of_rank_3(**flags: bool) -> CausalChain:
    first = line(signature("cfg.launch_check", "config", **flags), TIER_CAUSE, rank=3)
    return CausalChain(first=first, top=[first])


def test_a_rule_flagged_rank_past_world_lets_the_stated_sizes_name_who_was_started_wrong() -> None:
    """Labelling guide, "Ranks started with different world sizes": whatever rule reads a rank
    refused for a number past its world size, the start lines say which ranks hold the odd
    size."""
    chain = _config_error_of_rank_3(rank_past_world=True)
    correlation = Correlation(ranks=[], timeline=Timeline(), world_size=4)
    verdict = correct(chain, "config", correlation, _started_with(4, 4, 4, 5))
    assert verdict is not None
    assert (verdict.rule, verdict.category, verdict.culprits) == (
        "multirank.world_size_differs",
        "config",
        (3,),
    )


def test_a_config_error_of_another_kind_leaves_the_stated_sizes_unread() -> None:
    # a missing config field says nothing of the sizes the ranks were started with
    chain = _config_error_of_rank_3()
    correlation = Correlation(ranks=[], timeline=Timeline(), world_size=4)
    assert correct(chain, "config", correlation, _started_with(4, 4, 4, 5)) is None


# A detector's evaluation on two GPUs as the terminal kept it: the launch command (so the world
# size is stated, but no line is tagged with a rank; only rank 0 prints, as most scripts do),
# the configuration dump and the metrics, then the script's closing banner.
EVAL_CONSOLE = """\
$ python -m torch.distributed.launch --nproc_per_node=2 tools/test.py --launcher pytorch --cfg cfgs/pv_rcnn.yaml
WARNING:torch.distributed.run:
*****************************************
Setting OMP_NUM_THREADS environment variable for each process to be 1 in default, to avoid your system being overloaded, please further tune the variable for optimal performance in your application as needed.
*****************************************
2024-03-05 10:12:40,311   INFO  **********************Start logging**********************
2024-03-05 10:12:40,312   INFO  CUDA_VISIBLE_DEVICES=0,1
2024-03-05 10:12:41,902   INFO  ==> Loading parameters from checkpoint ckpt/pv_rcnn_8369.pth to CPU
2024-03-05 10:12:42,017   INFO  *************** EPOCH 8369 EVALUATION *****************
eval: 100%|##########| 94/94 [01:58<00:00,  1.26s/it, recall_0.3=(6310, 6315) / 6620]
2024-03-05 10:14:40,551   INFO  recall_rcnn_0.7: 0.741201
2024-03-05 10:14:52,118   INFO  Car AP@0.70, 0.70, 0.70:
bbox AP:90.3051, 88.9104, 88.1202
2024-03-05 10:14:52,119   INFO  Result is save to output/pv_rcnn/default/eval/epoch_8369/val/default
2024-03-05 10:14:52,119   INFO  ****************Evaluation done.*****************
"""


def test_a_launch_console_that_ends_its_evaluation_is_the_run_finishing() -> None:
    """Labelling guide, "A launch whose only log is its console": the launch names two ranks
    and no line is any rank's own, so both read as missing; the console's closing banner is
    the job's success line, and the run finished rather than hung."""
    diagnosis = diagnose_text("test.log", EVAL_CONSOLE)
    assert diagnosis.category == "healthy"
    assert diagnosis.first_error is None


def test_a_launch_console_with_the_trainer_summary_is_the_run_finishing() -> None:
    """The same with a Trainer's run summary for the success line."""
    text = EVAL_CONSOLE.replace(
        "2024-03-05 10:14:52,119   INFO  ****************Evaluation done.*****************",
        "{'train_runtime': 118.4, 'train_steps_per_second': 0.79, 'train_loss': 0.311, 'epoch': 1.0}",
    )
    assert diagnose_text("test.log", text).category == "healthy"


def test_a_launch_console_without_its_closing_line_stays_a_hang() -> None:
    """Counterexample: the same console cut before its closing banner ended on a metric, with
    no success line: the ranks stopped, and the quiet end keeps its `hang`."""
    text = EVAL_CONSOLE.replace(
        "2024-03-05 10:14:52,119   INFO  ****************Evaluation done.*****************\n", ""
    )
    assert diagnose_text("test.log", text).category == "hang"


def test_an_evaluation_done_for_one_epoch_is_not_the_run_finishing() -> None:
    """Counterexample: an evaluation that closes one epoch of a training loop says which and
    goes on (`Evaluation done for epoch 3`); it is no success line of the job."""
    text = EVAL_CONSOLE.replace(
        "****************Evaluation done.*****************", "Evaluation done for epoch 3, resuming"
    )
    assert diagnose_text("test.log", text).category != "healthy"


def _lost_peer_job(
    tmp_path: Path, quiet: int, quiet_file: str | None, quiet_path: str = "log_{rank}.log"
) -> Path:
    """Four ranks logging their progress; all but `quiet` lose it in layer 2's attention.
    `quiet`'s file at `quiet_path` holds `quiet_file` (empty: its buffered output died with
    it), or is left out of the bundle when None."""
    logs = {}
    for rank in range(4):
        if rank == quiet:
            continue
        log = RankLog(rank, 4).loaded().layers(2, [" norm passed"])
        logs[f"log_{rank}.log"] = log.fails(f"RuntimeError: {CLOSED}", frame="attention").text()
    if quiet_file is not None:
        logs[quiet_path.format(rank=quiet)] = quiet_file
    files = {"env.txt": "WORLD_SIZE=4\nMASTER_ADDR=127.0.0.1\n", **logs}
    return pack(tmp_path / "job.tar.gz", files, "job-6e2b")


def test_one_rank_whose_log_is_empty_among_full_ones_died(tmp_path: Path) -> None:
    """A rank that leaves on its own flushes its output as it exits; a file left empty while
    its peers logged their progress and then lost it is a process that went away at once
    (killed, crashed, `os._exit`): `device_fault`, that rank the culprit, the lost peer's
    `hccl` beside it."""
    diagnosis = analyze(_lost_peer_job(tmp_path, 2, ""), AnalyzeOptions(workers=1)).diagnosis
    assert diagnosis.category == "device_fault"
    assert diagnosis.culprit_ranks == [2]
    assert "hccl" in alternative_labels(diagnosis)


def test_one_rank_whose_log_is_not_in_the_bundle_keeps_the_lost_peers_reading(
    tmp_path: Path,
) -> None:
    """Counterexample: a log that was never collected says nothing of how its rank ended; the
    lost peer's `hccl` stays the answer, the rank the world size misses its culprit."""
    diagnosis = analyze(_lost_peer_job(tmp_path, 2, None), AnalyzeOptions(workers=1)).diagnosis
    assert diagnosis.category == "hccl"
    assert diagnosis.culprit_ranks == [2]


def test_one_rank_whose_only_file_is_an_empty_side_log_keeps_the_lost_peers_reading(
    tmp_path: Path,
) -> None:
    """Counterexample: an empty plog is not the rank's own output, so nothing of its stdout
    was collected: like a log never collected, it says nothing of how the rank ended."""
    job = _lost_peer_job(tmp_path, 2, "", quiet_path="rank_{rank}/plog/plog-1.log")
    diagnosis = analyze(job, AnalyzeOptions(workers=1)).diagnosis
    assert diagnosis.category == "hccl"
    assert diagnosis.culprit_ranks == [2]


def _left_early_job(tmp_path: Path, last_words: str | None) -> Path:
    """Four gloo ranks logging `%(asctime)s - %(levelname)s - rank N - %(message)s`: all run
    steps 0-2; rank 1 then logs `last_words` (a `- LEVEL - message` tail) or nothing and ends,
    while ranks 0, 2, 3 enter step 3 and lose it in their first all_reduce."""

    def stamp(rank: int, n: int) -> str:
        return f"2026-12-07 09:32:{10 + n // 20:02d},{(n * 37 + rank) % 1000:03d} - "

    def progress(rank: int, extra: list[str]) -> list[str]:
        words = ["INFO - load weights passed"]
        for step in range(3):
            for layer in range(2):
                words += [f"INFO - layer {layer} {part} passed" for part in PARTS_OF_LAYER]
                words.append(f"INFO - layer {layer} passed")
            words.append(f"INFO - step {step} done loss=6.9454")
        words += extra
        return [
            stamp(rank, n) + w.replace(" - ", f" - rank {rank} - ", 1) for n, w in enumerate(words)
        ]

    lost = [
        "Traceback (most recent call last):",
        '  File "/srv/train/train.py", line 113, in attention',
        "    dist.all_reduce(out)",
        f"RuntimeError: {CLOSED}",
    ]
    files = {"env.txt": "WORLD_SIZE=4\nMASTER_ADDR=127.0.0.1\n"}
    for rank in (0, 2, 3):
        head = progress(rank, ["INFO - layer 0 norm passed"])
        files[f"log_{rank}.log"] = "\n".join(head + [f"[rank{rank}]: {t}" for t in lost]) + "\n"
    files["log_1.log"] = "\n".join(progress(1, [last_words] if last_words else [])) + "\n"
    return pack(tmp_path / "job.tar.gz", files, "job-fd95")


PARTS_OF_LAYER = ("norm", "attention", "mlp")


def test_a_rank_that_said_it_was_leaving_ran_fewer_collectives(tmp_path: Path) -> None:
    """Labelling guide, "A rank that exits without a word": rank 1 logs at INFO that its shard
    has no more batches and leaves; its peers lose it in the next step. The lost connection
    stays the first error, the label `hccl` (the ranks ran different numbers of collectives)
    with more certainty than a lost peer alone, rank 1 the culprit, and no process death is
    offered beside it, the data's split (`config`) is."""
    path = _left_early_job(tmp_path, "INFO - no more batches in shard, finishing")
    diagnosis = analyze(path, AnalyzeOptions(workers=1)).diagnosis
    assert diagnosis.category == "hccl"
    assert diagnosis.culprit_ranks == [1]
    assert diagnosis.first_error is not None
    assert "Connection closed by peer" in diagnosis.first_error.text
    assert diagnosis.confidence >= 0.5
    assert "device_fault" not in alternative_labels(diagnosis)
    assert "config" in alternative_labels(diagnosis)
    assert "no more batches in shard, finishing" in diagnosis.root_cause


def test_a_rank_that_stopped_without_saying_so_may_have_been_killed(tmp_path: Path) -> None:
    """Counterexample: rank 1's log ends on its last checkpoint with no word of leaving: it may
    as well have been killed, so the lost peer keeps its low confidence and its `device_fault`
    neighbour."""
    diagnosis = analyze(_left_early_job(tmp_path, None), AnalyzeOptions(workers=1)).diagnosis
    assert diagnosis.category == "hccl"
    assert diagnosis.culprit_ranks == [1]
    assert diagnosis.confidence < 0.5
    assert "device_fault" in alternative_labels(diagnosis)


def test_a_rank_that_logged_its_departure_as_an_error_failed_on_its_own(tmp_path: Path) -> None:
    """Counterexample: the same words at ERROR are the rank's own failure (its rule reads the
    line), not a rank leaving on purpose: that line is the first error."""
    path = _left_early_job(tmp_path, "ERROR - no more batches in shard, exiting")
    diagnosis = analyze(path, AnalyzeOptions(workers=1)).diagnosis
    assert diagnosis.first_error is not None
    assert "no more batches in shard" in diagnosis.first_error.text
    assert "said it was leaving" not in diagnosis.root_cause
