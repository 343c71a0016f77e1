"""A group-sampling RL trainer whose generated batch does not hold whole groups.

GRPO-style trainers generate several completions per prompt and compare rewards inside each
group, so they check before the first step that processes x per-device batch (or the
generation batch) is a multiple of the completions per prompt. Only the launch settings decide
that: `config` in the confident band, the first rank's refusal first
(docs/labelling.md#a-batch-the-controller-cannot-split-evenly-over-its-workers). A start-up
line that prints the sizes is no failure.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

SIX_TRAINING_RANKS = """\
[rank0]: Traceback (most recent call last):
[rank0]:   File "/work/rl/train_grpo.py", line 77, in <module>
[rank0]:     trainer = GRPOTrainer(model=policy, reward_funcs=rewards, args=cfg)
[rank0]:   File "/opt/venv/lib/python3.11/site-packages/trl/trainer/grpo_trainer.py", line 402, in __init__
[rank0]:     raise ValueError(
[rank0]: ValueError: The global train batch size (6 x 2) must be evenly divisible by the number of generations per prompt (16). Given the current train batch size, the valid values for the number of generations are: [2, 3, 4, 6, 12].
[rank4]: ValueError: The global train batch size (6 x 2) must be evenly divisible by the number of generations per prompt (16). Given the current train batch size, the valid values for the number of generations are: [2, 3, 4, 6, 12].
W0611 08:14:03.552000 4410 torch/distributed/elastic/multiprocessing/api.py:897] Sending process 4452 closing signal SIGTERM
E0611 08:14:03.790000 4410 torch/distributed/elastic/multiprocessing/api.py:869] failed (exitcode: 1) local_rank: 0 (pid: 4451) of binary: /opt/venv/bin/python
"""

LATER_WORDING = """\
Traceback (most recent call last):
  File "/work/rl/train_grpo.py", line 61, in <module>
    cfg = GRPOConfig(output_dir="out", num_generations=6, generation_batch_size=20)
ValueError: generation_batch_size (20) must be divisible by num_generations (6).
"""

SIZES_PRINTED_ONLY = """\
INFO grpo: global train batch size 48 (6 x 8), 8 generations per prompt
INFO grpo: step 1/500 reward_mean=0.21
"""


def test_group_size_check_over_all_ranks_is_a_confident_config() -> None:
    diagnosis = diagnose_text("grpo.log", SIX_TRAINING_RANKS)
    assert diagnosis.category == "config"
    assert diagnosis.confidence >= 0.8
    assert diagnosis.first_error is not None
    assert diagnosis.first_error.text.startswith("[rank0]: ValueError: The global train batch size")


def test_generation_batch_wording_is_read_the_same() -> None:
    diagnosis = diagnose_text("train.log", LATER_WORDING)
    assert diagnosis.category == "config"
    assert diagnosis.confidence >= 0.8
    assert diagnosis.first_error is not None
    assert "must be divisible by num_generations (6)" in diagnosis.first_error.text


def test_printed_sizes_are_no_failure() -> None:
    diagnosis = diagnose_text("grpo.log", SIZES_PRINTED_ONLY)
    assert diagnosis.first_error is None


# An RL trainer whose FSDP workers split the rollout batch over their device mesh checks the
# sizes as it builds the workers: the batch times the samples per prompt must divide by the
# smallest batch the mesh can take, and the mini-batch divided by the mesh must stay above 0.
MESH_SPLIT_REFUSED = """\
(TaskRunner pid=8812) Traceback (most recent call last):
(TaskRunner pid=8812)   File "/work/rl/verl/trainer/main_ppo.py", line 64, in run
(TaskRunner pid=8812)     trainer.init_workers()
(TaskRunner pid=8812) AssertionError: real_train_batch_size (6) must be divisible by minimal possible batch size (16)
"""

MINI_BATCH_NORMALISED_AWAY = """\
(WorkerDict pid=9120) AssertionError: ppo_mini_batch_size 0 should be larger than 0 after normalization
"""

MESH_SIZES_PRINTED = """\
(TaskRunner pid=8812) real_train_batch_size=32, minimal possible batch size=16, ppo_mini_batch_size=4 after normalization
"""


def test_batch_over_the_worker_mesh_is_a_confident_config() -> None:
    diagnosis = diagnose_text("train.log", MESH_SPLIT_REFUSED)
    assert_reads(
        diagnosis,
        "config",
        first_error="must be divisible by minimal possible batch size (16)",
        rule="cfg.rl_batch_not_divisible_by_worker_mesh",
    )
    assert diagnosis.confidence >= 0.8


def test_mini_batch_normalised_to_nothing_is_read_the_same() -> None:
    diagnosis = diagnose_text("train.log", MINI_BATCH_NORMALISED_AWAY)
    assert_reads(
        diagnosis,
        "config",
        first_error="ppo_mini_batch_size 0 should be larger than 0",
        rule="cfg.rl_batch_not_divisible_by_worker_mesh",
    )


def test_mesh_sizes_printed_are_no_failure() -> None:
    diagnosis = diagnose_text("train.log", MESH_SIZES_PRINTED)
    assert "cfg.rl_batch_not_divisible_by_worker_mesh" not in rules_of(diagnosis)
