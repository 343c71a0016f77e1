"""A framework's check that an option the job turned on needs something the run did not produce.

docs/labelling.md#a-required-setting-the-job-left-out: a framework that finds a piece of data
missing and names the option whose use demands it (`... is required in <batch> when <option> is
set`) reports a set-up that does not fit: the option was switched on without the feature that
feeds it (another flag, another release of the serving engine). `config`, the line the first
error. A model input named with no option of the job (`attention_mask is required when padding
is used`) is not this. Fixtures are plain tracebacks and Ray-prefixed lines with names of our own.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

REPLAY_INPUT_MISSING = """\
Traceback (most recent call last):
  File "/srv/rl/trainer/actor.py", line 212, in train_step
    self.load_route_replay(batch)
  File "/srv/rl/trainer/actor.py", line 148, in load_route_replay
    raise ValueError(
ValueError: draft_routes is required in rollout_batch when use_route_replay is set.
"""

RAY_PREFIXED_ASSERT = """\
(TrainerActor pid=4411) Traceback (most recent call last):
(TrainerActor pid=4411)   File "/srv/rl/reward.py", line 40, in build
(TrainerActor pid=4411)     assert self.reward_fn is not None
(TrainerActor pid=4411) AssertionError: reward_fn must be provided when use_rule_reward is enabled
"""

# Counterexample: a model input, with no option of the job in the condition.
MODEL_INPUT_REQUIRED = """\
Traceback (most recent call last):
  File "/srv/model/attn.py", line 88, in forward
    raise ValueError("attention_mask is required when padding is used")
ValueError: attention_mask is required when padding is used
"""


def test_data_an_enabled_option_needs_reads_as_config() -> None:
    diagnosis = diagnose_text("logs/train.log", REPLAY_INPUT_MISSING)
    assert_reads(diagnosis, "config", first_error="draft_routes is required in rollout_batch")
    assert "cfg.input_required_by_option" in rules_of(diagnosis)
    assert diagnosis.confidence >= 0.5


def test_an_assertion_under_a_ray_actor_reads_alike() -> None:
    diagnosis = diagnose_text("logs/actor.log", RAY_PREFIXED_ASSERT)
    assert_reads(diagnosis, "config", first_error="reward_fn must be provided when use_rule_reward")


def test_a_model_input_with_no_option_is_not_this() -> None:
    diagnosis = diagnose_text("logs/train.log", MODEL_INPUT_REQUIRED)
    assert "cfg.input_required_by_option" not in rules_of(diagnosis)
