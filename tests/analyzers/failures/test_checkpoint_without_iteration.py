"""A resumed checkpoint that holds no iteration counter.

Megatron-LM's loader, and the forks and wrappers built on it (Megatron-DeepSpeed, NeMo's
Megatron models, asynchronous checkpoint tools that hand it their state), reads the training
iteration from the loaded state dict under `iteration`, and for saves of its oldest releases
falls back to `total_iters`. A dict with neither is not a full training checkpoint: a save that
never finished (the tracker file already names the step, the files are empty or partial), a
weights-only export, or a tool's own format handed to the loader. Python's words are a bare
`KeyError` naming the key, raised twice when the fallback fails too. The checkpoint is what has
to change: `weight_load`, with `config` (the job pointed at the wrong save or format) and
`other` (a tool that wrote the save without it) beside. Counterexample: another key of that
spelling (`iterations`, a metrics dict's `iteration_time`) and the loader's source line.

docs/labelling.md#a-resumed-checkpoint-without-its-iteration
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

RULE = "wl.checkpoint_without_iteration"

MEGATRON_FALLBACK_CHAIN = """\
 loading checkpoint from /mnt/ckpt/gpt-1b3 at iteration 2000
Traceback (most recent call last):
  File "/opt/Megatron-LM/megatron/checkpointing.py", line 540, in load_checkpoint
    iteration = state_dict['iteration']
KeyError: 'iteration'

During handling of the above exception, another exception occurred:

Traceback (most recent call last):
  File "/opt/Megatron-LM/megatron/checkpointing.py", line 543, in load_checkpoint
    iteration = state_dict['total_iters']
KeyError: 'total_iters'

During handling of the above exception, another exception occurred:

Traceback (most recent call last):
  File "/opt/Megatron-LM/pretrain_gpt.py", line 120, in <module>
    pretrain(train_valid_test_datasets_provider,
  File "/opt/Megatron-LM/megatron/training.py", line 118, in pretrain
    model, optimizer, opt_param_scheduler = setup_model_and_optimizer(
  File "/opt/Megatron-LM/megatron/training.py", line 399, in setup_model_and_optimizer
    args.iteration = load_checkpoint(model, optimizer, opt_param_scheduler)
  File "/opt/Megatron-LM/megatron/checkpointing.py", line 548, in load_checkpoint
    sys.exit()
SystemExit
"""

RANK_TAGGED = """\
[rank0]: Traceback (most recent call last):
[rank0]:   File "/workspace/Megatron-DeepSpeed/megatron/checkpointing.py", line 611, in load_checkpoint
[rank0]:     iteration = state_dict['iteration']
[rank0]: KeyError: 'iteration'
"""

OTHER_KEYS = """\
Traceback (most recent call last):
  File "/home/u/bench/report.py", line 40, in summarize
    per_step = stats['iterations'] / stats['iteration_time']
KeyError: 'iterations'
"""


def test_the_loader_and_its_fallback_both_missing_is_the_checkpoint() -> None:
    diagnosis = diagnose_text("train.log", MEGATRON_FALLBACK_CHAIN)
    assert_reads(
        diagnosis,
        "weight_load",
        first_error="KeyError: 'iteration'",
        rule=RULE,
        beside=("config", "other"),
    )


def test_a_rank_tagged_paste_reads_the_same() -> None:
    diagnosis = diagnose_text("log_0.log", RANK_TAGGED)
    assert_reads(diagnosis, "weight_load", first_error="KeyError: 'iteration'", rule=RULE)


def test_a_key_of_another_spelling_is_not_the_counter() -> None:
    diagnosis = diagnose_text("report.log", OTHER_KEYS)
    assert RULE not in rules_of(diagnosis)
