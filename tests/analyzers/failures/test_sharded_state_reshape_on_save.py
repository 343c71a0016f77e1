"""A reshape that fails while a sharding plugin gathers optimizer state for a checkpoint save.

ZeRO-style optimizers keep each parameter's state flattened and padded in the rank's slice;
to save it they stack the pieces and view them back in the parameter's shape. When the job
arranged its parameters in a way the gatherer does not follow (extra parameter groups with
their own learning rates, parameters frozen or added after the optimizer was built, a tensor
parallel split the gatherer does not undo), the element counts no longer agree and torch's
view refuses (`shape '[...]' is invalid for input of size N`). Nothing is wrong with the model's
shapes: the save path does not serve the job's setup. The label is `config`, with
`shape_mismatch` (the words) and `other` (a gap the framework should close) beside it. The
words alone are torch's; only the frames of a checkpoint save decide, and the same refusal in
a model's forward keeps `shape_mismatch`.

docs/labelling.md#checkpoint-saves-the-sharding-setup-cannot-serve
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

RULE = "cfg.sharded_state_reshape_on_save"

LOW_LEVEL_ZERO_SAVE = """\
[rank1]: Traceback (most recent call last):
[rank1]:   File "/mnt/jobs/vdiff/train.py", line 412, in main
[rank1]:     booster.save_optimizer(optimizer, os.path.join(ckpt_dir, "optimizer"), shard=True)
[rank1]:   File "/opt/conda/lib/python3.10/site-packages/colossalai/booster/booster.py", line 327, in save_optimizer
[rank1]:     self.checkpoint_io.save_optimizer(optimizer, checkpoint, shard, gather_dtensor, prefix, size_per_shard)
[rank1]:   File "/opt/conda/lib/python3.10/site-packages/colossalai/checkpoint_io/checkpoint_io_base.py", line 201, in save_optimizer
[rank1]:     self.save_sharded_optimizer(optimizer, checkpoint, gather_dtensor, prefix, size_per_shard)
[rank1]:   File "/opt/conda/lib/python3.10/site-packages/colossalai/booster/plugin/low_level_zero_plugin.py", line 140, in save_sharded_optimizer
[rank1]:     for idx, shard_pair in enumerate(sharded_state):
[rank1]:   File "/opt/conda/lib/python3.10/site-packages/colossalai/zero/low_level/low_level_optim.py", line 902, in state_dict_shard
[rank1]:     torch.stack(state_tensor).view(-1)[: working_param.numel()].reshape_as(working_param).cpu()
[rank1]: RuntimeError: shape '[4096, 1024]' is invalid for input of size 65536
"""

GEMINI_COLLECT_STATES = """\
Traceback (most recent call last):
  File "/home/ops/llama-pt/pretrain.py", line 388, in <module>
    main()
  File "/home/ops/llama-pt/pretrain.py", line 371, in main
    booster.save_optimizer(optimizer, save_dir, shard=True)
  File "/usr/local/lib/python3.10/dist-packages/colossalai/checkpoint_io/checkpoint_io_base.py", line 201, in save_optimizer
    self.save_sharded_optimizer(optimizer, checkpoint, gather_dtensor, prefix, size_per_shard)
  File "/usr/local/lib/python3.10/dist-packages/colossalai/booster/plugin/gemini_plugin.py", line 194, in save_sharded_optimizer
    total_size = save_state_dict_shards(
  File "/usr/local/lib/python3.10/dist-packages/colossalai/zero/gemini/gemini_optimizer.py", line 512, in collect_states
    collected_states[state_name] = torch.reshape(state_tensor, param.shape)
RuntimeError: shape '[32000, 2048]' is invalid for input of size 32768000
"""

# The paste of a report that starts mid-stack: no header, the library frames are there.
HEADERLESS_SAVE = """\
    booster.save_optimizer(optimizer, os.path.join(out_dir, "optimizer"), shard=True, size_per_shard=2048)
  File "/opt/conda/lib/python3.9/site-packages/colossalai/booster/booster.py", line 307, in save_optimizer
    self.checkpoint_io.save_optimizer(optimizer, checkpoint, shard, gather_dtensor, prefix, size_per_shard)
  File "/opt/conda/lib/python3.9/site-packages/colossalai/checkpoint_io/checkpoint_io_base.py", line 197, in save_optimizer
    self.save_sharded_optimizer(optimizer, checkpoint, gather_dtensor, prefix, size_per_shard)
  File "/opt/conda/lib/python3.9/site-packages/colossalai/booster/plugin/low_level_zero_plugin.py", line 131, in save_sharded_optimizer
    for idx, shard_pair in enumerate(sharded_state):
  File "/opt/conda/lib/python3.9/site-packages/colossalai/zero/low_level/low_level_optim.py", line 881, in state_dict_shard
    torch.stack(state_tensor).view(-1)[: working_param.numel()].reshape_as(working_param).cpu()
RuntimeError: shape '[2304, 768]' is invalid for input of size 9216
"""

# The same refusal from a model's own forward: a head count that does not split the hidden size.
FORWARD_VIEW = """\
Traceback (most recent call last):
  File "/home/ops/llama-pt/pretrain.py", line 301, in train_step
    loss = model(**batch).loss
  File "/usr/local/lib/python3.10/dist-packages/transformers/models/llama/modeling_llama.py", line 318, in forward
    query_states = self.q_proj(hidden_states).view(bsz, q_len, self.num_heads, self.head_dim)
RuntimeError: shape '[4, 2048, 30, 128]' is invalid for input of size 33554432
"""


def test_a_zero_save_that_cannot_view_the_state_back_is_the_setup() -> None:
    diagnosis = diagnose_text("log_1.log", LOW_LEVEL_ZERO_SAVE)
    assert_reads(
        diagnosis,
        "config",
        first_error="shape '[4096, 1024]' is invalid for input of size 65536",
        rule=RULE,
        beside=("shape_mismatch", "other"),
    )


def test_the_gemini_gatherer_reads_the_same() -> None:
    diagnosis = diagnose_text("train.log", GEMINI_COLLECT_STATES)
    assert_reads(diagnosis, "config", first_error="is invalid for input of size", rule=RULE)


def test_a_paste_that_starts_mid_stack_reads_the_same() -> None:
    diagnosis = diagnose_text("train.log", HEADERLESS_SAVE)
    assert_reads(diagnosis, "config", first_error="is invalid for input of size 9216", rule=RULE)


def test_the_same_refusal_in_a_forward_keeps_the_shape_reading() -> None:
    diagnosis = diagnose_text("train.log", FORWARD_VIEW)
    assert RULE not in rules_of(diagnosis)
    assert_reads(diagnosis, "shape_mismatch", first_error="is invalid for input of size")
