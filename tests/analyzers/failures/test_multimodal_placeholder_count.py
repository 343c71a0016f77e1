"""A vision- or audio-language model merges its encoder's embeddings into the placeholder
tokens of the prompt one for one, and stops when the two counts differ: transformers'
`Image features and image tokens do not match: tokens: X, features Y` (video and audio alike),
vLLM's `Attempted to assign N multimodal tokens to M placeholders`. The shapes handed to the
merge disagree (`shape_mismatch`, a setting such as a truncating cutoff beside it), and the
check is the first error under the trainer's or engine's re-raise
(docs/labelling.md#a-multimodal-merge-whose-counts-differ).
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_files, diagnose_text

# A two-rank fine-tuning run of a Qwen-VL model under torchrun: rank 1's forward step finds
# more image embeddings than placeholders (the cutoff cut the prompt), the launcher follows.
RANKED_TRAINER = """\
[rank1]: Traceback (most recent call last):
[rank1]:   File "/srv/work/vlm-tune/train.py", line 88, in <module>
[rank1]:     trainer.train()
[rank1]:   File "/opt/env/lib/python3.11/site-packages/transformers/models/qwen2_5_vl/modeling_qwen2_5_vl.py", line 1702, in forward
[rank1]:     raise ValueError(
[rank1]: ValueError: Image features and image tokens do not match: tokens: 1536, features 2048
W0312 10:41:07.118000 5521 torch/distributed/elastic/multiprocessing/api.py:897] Sending process 5530 closing signal SIGTERM
E0312 10:41:07.552000 5521 torch/distributed/elastic/multiprocessing/api.py:869] failed (exitcode: 1) local_rank: 1 (pid: 5531) of binary: /opt/env/bin/python
"""

# A serving engine with two tensor-parallel workers: a worker re-raises the merge's check
# with the input-dump prefix, the next worker reports the method that failed.
SERVING_WORKERS = """\
(VllmWorkerProcess pid=7102) ERROR 02-11 08:15:40 multiproc_worker_utils.py:236] Exception in worker VllmWorkerProcess while processing method start_worker_execution_loop.
(VllmWorkerProcess pid=7102) ERROR 02-11 08:15:40 multiproc_worker_utils.py:236] Traceback (most recent call last):
(VllmWorkerProcess pid=7102) ERROR 02-11 08:15:40 multiproc_worker_utils.py:236]   File "/usr/local/lib/python3.12/dist-packages/vllm/worker/model_runner_base.py", line 152, in _wrapper
(VllmWorkerProcess pid=7102) ERROR 02-11 08:15:40 multiproc_worker_utils.py:236]     raise type(err)(
(VllmWorkerProcess pid=7102) ERROR 02-11 08:15:40 multiproc_worker_utils.py:236] ValueError: Error in model execution (input dumped to /tmp/err_execute_model_input_20250211-081540.pkl): Attempted to assign 3 x 1024 = 3072 multimodal tokens to 3010 placeholders
"""

# A rollout engine inside an RL trainer, plain traceback: the per-image counts are summed.
ROLLOUT_SUM = """\
  File "/opt/env/lib/python3.10/site-packages/vllm/model_executor/models/utils.py", line 371, in _merge_multimodal_embeddings
    raise ValueError(
ValueError: Attempted to assign 412 + 398 + 640 = 1450 multimodal tokens to 1312 placeholders
"""

# Counterexample: a healthy run that logs both counts while merging, then a real failure of
# another kind (a device out of memory).
COUNTS_THEN_OOM = """\
[rank0]: DEBUG merged 2048 multimodal tokens into 2048 placeholders
[rank0]: DEBUG prompt has 2048 image tokens and 2048 image features
[rank0]: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.50 GiB. GPU 0 has a total capacity of 79.15 GiB of which 1.21 GiB is free.
"""


def test_a_ranked_trainer_count_check_is_a_shape_mismatch_with_the_setting_beside_it() -> None:
    diagnosis = diagnose_files({"logs/train.log": RANKED_TRAINER})
    assert_reads(
        diagnosis, "shape_mismatch", first_error="tokens: 1536, features 2048", beside=("config",)
    )


def test_a_worker_re_raise_of_the_engine_merge_is_read_from_its_count() -> None:
    diagnosis = diagnose_text("logs/serve.log", SERVING_WORKERS)
    assert_reads(
        diagnosis, "shape_mismatch", first_error="3072 multimodal tokens to 3010 placeholders"
    )


def test_a_summed_count_is_the_same_check() -> None:
    diagnosis = diagnose_text("logs/rollout.log", ROLLOUT_SUM)
    assert_reads(
        diagnosis, "shape_mismatch", first_error="= 1450 multimodal tokens to 1312 placeholders"
    )


def test_counts_logged_while_all_is_well_are_no_failure() -> None:
    diagnosis = diagnose_text("logs/train.log", COUNTS_THEN_OOM)
    assert_reads(diagnosis, "oom", first_error="out of memory")
