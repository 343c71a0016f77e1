"""Training frameworks' own checks on where a tensor, a tie or a worker role sits.

Three checks that large-scale trainers run on their own layout before or while a step runs:
Megatron's sequence-parallel split of an activation over the tensor-parallel group, nanotron's
check that tied parameters lie in one model replica, and an RL controller's check of a worker
group's role before a checkpoint operation. Excerpts are in the shapes these tools print (a
rank prefix, interleaved launcher prefixes, Ray's actor prefix), with paths and numbers of our
own. Guide sections: docs/labelling.md#an-activation-split-that-does-not-divide-over-the-group,
#tied-parameters-placed-outside-one-model-replica and
#a-worker-group-asked-for-what-its-role-does-not-carry.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

MEGATRON = "/workspace/Megatron-LM/megatron/core"

# The sequence-parallel scatter in the embedding, reached from the pipeline schedule's forward
# step, on a batch whose sequence length the tensor-parallel size does not divide.
SEQUENCE_PARALLEL_SPLIT = f"""\
[rank1]: Traceback (most recent call last):
[rank1]:   File "/workspace/pretrain_gpt.py", line 301, in <module>
[rank1]:     pretrain(
[rank1]:   File "{MEGATRON}/pipeline_parallel/schedules.py", line 272, in forward_step
[rank1]:     output_tensor, loss_func = forward_step_func(data_iterator, model)
[rank1]:   File "{MEGATRON}/models/common/embeddings/language_model_embedding.py", line 127, in forward
[rank1]:     embeddings = tensor_parallel.scatter_to_sequence_parallel_region(embeddings)
[rank1]:   File "{MEGATRON}/tensor_parallel/mappings.py", line 88, in _split_along_first_dim
[rank1]:     dim_size % world_size == 0
[rank1]: AssertionError: First dimension of the tensor should be divisible by tensor parallel size
"""

# A model dimension checked against the same parallel size while the layers are built.
HEADS_CHECK = """\
[rank0]: ValueError: num_attention_heads (40) must be a multiple of tensor_model_parallel_size (16).
"""

# Two ranks' tracebacks interleaved by the launcher, both refusing the tie.
TIE_ACROSS_REPLICAS = """\
[default2]:  File "/opt/nanotron/src/nanotron/trainer.py", line 802, in _mark_tied_parameters
[default3]:  File "/opt/nanotron/src/nanotron/trainer.py", line 802, in _mark_tied_parameters
[default2]:    mark_tied_parameters(model=model, parallel_context=parallel_context, parallel_config=parallel_config)
[default3]:    mark_tied_parameters(model=model, parallel_context=parallel_context, parallel_config=parallel_config)
[default2]:AssertionError: Tying weights has to happen with a replica of a model. Got the ranks from the following replicas: (0, 2)
[default3]:AssertionError: Tying weights has to happen with a replica of a model. Got the ranks from the following replicas: (0, 2)
"""

# A recipe that reloads the reference-policy group from the actor's checkpoint.
ROLE_REFUSED = """\
(WorkerDict pid=51230) INFO:2026-03-02 10:11:04,208:[Rank 0] Saved model to /tmp/ckpt/actor/model_world_size_4_rank_0.pt
(TaskRunner pid=50877) Traceback (most recent call last):
(TaskRunner pid=50877)   File "/srv/verl/recipe/dpo/dpo_trainer.py", line 611, in fit
(TaskRunner pid=50877)     self.ref_policy_wg.load_checkpoint(actor_path, None, True)
(TaskRunner pid=50877)   File "/srv/verl/verl/single_controller/ray/base.py", line 51, in __call__
(TaskRunner pid=50877)     output = ray.get(output)
(TaskRunner pid=50877) AssertionError: Checkpoint loading is only supported for Actor or standalone Rollout Workers, but got False and False
"""


def test_megatron_sequence_parallel_split_reads_as_an_activation_split() -> None:
    diagnosis = diagnose_text("logs/rank1.log", SEQUENCE_PARALLEL_SPLIT)
    assert_reads(
        diagnosis, "shape_mismatch", first_error="First dimension of the tensor", beside=("config",)
    )


def test_a_model_dimension_against_the_same_size_stays_a_layout_check() -> None:
    diagnosis = diagnose_text("logs/rank0.log", HEADS_CHECK)
    assert diagnosis.category == "config"


def test_tied_parameters_across_replicas_read_as_config() -> None:
    diagnosis = diagnose_text("logs/train.log", TIE_ACROSS_REPLICAS)
    assert diagnosis.category == "config"
    assert diagnosis.confidence >= 0.5
    assert diagnosis.first_error is not None
    assert "Tying weights has to happen" in diagnosis.first_error.text


def test_a_worker_group_asked_for_another_roles_checkpoint_reads_as_config() -> None:
    diagnosis = diagnose_text("logs/driver.log", ROLE_REFUSED)
    assert diagnosis.category == "config"
    assert diagnosis.confidence >= 0.5
    assert diagnosis.first_error is not None
    assert "only supported for Actor" in diagnosis.first_error.text
