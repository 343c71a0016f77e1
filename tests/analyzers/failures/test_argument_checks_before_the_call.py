"""Checks that refuse a call's tensors before anything runs or is sent.

docs/labelling.md#a-kernel-library-that-refuses-a-tensor-it-was-handed: a kernel library that
names an argument whose shape, dtype or device it does not take is the operator refusing its
arguments (`operator`); for a shape, the tensor-shape label is the neighbour.

docs/labelling.md#a-collective-that-refuses-the-tensors-one-rank-handed-it: a process group
that finds the tensors one rank handed a collective disagree with each other is a shape
mismatch, with the collective layer as the neighbour; a message a peer sent that did not fit
stays the collective's (`hccl`). gloo's flat reduce-scatter words the check as a C++ assertion
(`Check failed: outputShape[0] * worldSize == inputShape[0] (24 vs. 26)`) and reads the same.

docs/labelling.md#an-einops-pattern-error-without-its-detail: an einops headline pasted
without its reason is still a shape mismatch, below the confident band, with `other` beside it.

Fixtures follow the shapes of a serving worker's traceback, torch's `[rankN]:` prefixes and
einops' two-part message, with sizes, paths and patterns of our own.
"""

from __future__ import annotations

from tests.analyzers.excerpts import alternative_labels, assert_reads, diagnose_files, diagnose_text

# A fused MoE call handed an output buffer twice as wide as the hidden size.
KERNEL_OUTPUT_SHAPE = """\
[rank0]:   File "/srv/venv/lib/python3.12/site-packages/sglang/srt/layers/moe/cutlass_moe.py", line 212, in apply
[rank0]:     flashinfer_cutlass_fused_moe(
[rank0]:   File "/srv/venv/lib/python3.12/site-packages/flashinfer/utils.py", line 490, in check_shape_dtype_device
[rank0]:     raise ValueError(
[rank0]: ValueError: Invalid shape of output: expected (256, 4096), got torch.Size([256, 8192])
"""

# The same check refusing a dtype: no shape neighbour.
KERNEL_OUTPUT_DTYPE = """\
ValueError: Invalid dtype of output: expected torch.bfloat16, got torch.float32
"""

# A model's own check that names no library argument is not this rule.
MODEL_OWN_CHECK = """\
ValueError: Invalid shape of the position ids for this request, retrying with padding
"""

# Ragged all-to-all blocks on a gloo group.
GLOO_ALLTOALL_SIZES = """\
[rank2]: Traceback (most recent call last):
[rank2]:   File "/srv/halo/exchange.py", line 61, in exchange
[rank2]:     dist.all_to_all(recv_blocks, send_blocks, group=cpu_group)
[rank2]: ValueError: ProcessGroupGloo::alltoall: invalid tensor size at index 3 (expected (12, 32), got (7, 32))
"""

# An all-gather on a two-rank sub-group handed an output list sized for the world.
GLOO_LIST_FOR_THE_WORLD = """\
2026-12-05 06:58:32,419 [rank5] ERROR model run failed: ProcessGroupGloo::allgather: invalid output tensor list at index 0 (expected length 2, got 8)
Traceback (most recent call last):
  File "/srv/moe/dispatch.py", line 88, in gather_experts
    dist.all_gather(outs, local, group=dp_group)
RuntimeError: ProcessGroupGloo::allgather: invalid output tensor list at index 0 (expected length 2, got 8)
"""

# NCCL's flat all-gather handed an output that is not world_size times the input.
NCCL_FLAT_ALLGATHER = """\
[rank5]:   File "/srv/venv/lib/python3.11/site-packages/torch/distributed/distributed_c10d.py", line 3840, in all_gather_into_tensor
[rank5]:     work = group._allgather_base(output_tensor, input_tensor, opts)
[rank5]: ValueError: output tensor size must be equal to world_size times input tensor size
"""

# The library's older C++ binding, naming the tensor and the shape it wanted.
KERNEL_BINDING_SHAPE = """\
RuntimeError: tensor: name = paged_kv_indptr, shape = [65] is_cont = 1, type = int is not as expected: shape = [33], type = Int
"""

# gloo's flat reduce-scatter handed an input two rows longer than world_size times the output:
# the process group's C++ assertion is logged as a fatal line, then raised with the same text
# under the rank's traceback; the peers lose the rank in their own reduce-scatter.
GLOO_REDUCE_SCATTER_ROWS = """\
2026-06-11 08:02:17,411 [rank3] INFO decode step 0 passed
[rank3]:[F611 08:02:17.468201733 ProcessGroupGloo.cpp:1537] Check failed: outputShape[0] * worldSize == inputShape[0] (24 vs. 26). 
[rank3]: Traceback (most recent call last):
[rank3]:   File "/srv/moe/layers.py", line 142, in forward
[rank3]:     dist.reduce_scatter_tensor(shard, expert_out)
[rank3]:   File "/opt/venv/lib/python3.11/site-packages/torch/distributed/distributed_c10d.py", line 4936, in reduce_scatter_single
[rank3]:     work = group.reduce_scatter_single(output, input, opts)
[rank3]: RuntimeError: [rank3]:[F611 08:02:17.468201733 ProcessGroupGloo.cpp:1537] Check failed: outputShape[0] * worldSize == inputShape[0] (24 vs. 26). 
"""

# A peer of that rank: it only lost the connection.
GLOO_REDUCE_SCATTER_PEER = """\
2026-06-11 08:02:17,411 [rank0] INFO decode step 0 passed
[rank0]: RuntimeError: [/opt/src/gloo/transport/tcp/pair.cc:553] Connection closed by peer [10.0.0.7]:41522. This is typically caused by a remote worker crashing. Check the logs of the remote worker before reporting an error.
"""

# all_to_all_single handed split sizes that do not add up to the tensor it sends.
SPLITS_DO_NOT_ADD_UP = """\
2026-05-02 11:40:03,104 [rank5] INFO   attention passed
2026-05-02 11:40:03,512 [rank5] ERROR dispatch failed: Split sizes doesn't match total dim 0 size
Traceback (most recent call last):
  File "/srv/moe/dispatch.py", line 74, in dispatch
    dist.all_to_all_single(recv, tokens, output_split_sizes=None, input_split_sizes=counts)
  File "/opt/venv/lib/python3.11/site-packages/torch/distributed/distributed_c10d.py", line 4711, in all_to_all_single
    work = group.alltoall_base(
RuntimeError: Split sizes doesn't match total dim 0 size
"""

# A peer's message longer than the receiver's buffer: ranks that disagree.
GLOO_PREAMBLE = """\
terminate called after throwing an instance of 'gloo::EnforceNotMet'
  what():  [enforce fail at /opt/src/gloo/transport/tcp/pair.cc:446] op.preamble.length <= op.nbytes. 768 vs 512
"""

# einops' headline alone, as a user pasted the last line of the traceback.
EINOPS_HEADLINE = """\
Traceback (most recent call last):
  File "/srv/video/blocks.py", line 88, in forward
    x = rearrange(x, "(b t) c h w -> b c t h w", t=self.frames)
  File "/opt/env/lib/python3.10/site-packages/einops/einops.py", line 591, in rearrange
    return reduce(tensor, pattern, reduction="rearrange", **axes_lengths)
einops.EinopsError:  Error while processing rearrange-reduction pattern "(b t) c h w -> b c t h w".
"""

# The same message with its reason: the shape words decide, as usual.
EINOPS_WITH_REASON = EINOPS_HEADLINE + (
    " Input tensor shape: torch.Size([10, 3, 64, 64]). Additional info: {'t': 4}.\n"
    " Shape mismatch, can't divide axis of length 10 in chunks of 4\n"
)

# einops refusing the pattern itself, a different message.
EINOPS_BAD_PATTERN = """\
einops.EinopsError: Unknown axis q on the right side of the pattern
"""


def alternatives(diagnosis) -> set[str]:
    return {alt.category for alt in diagnosis.alternatives}


def test_a_kernel_library_refusing_an_output_shape_is_the_operator() -> None:
    diagnosis = diagnose_text("serve/worker_0.log", KERNEL_OUTPUT_SHAPE)
    assert_reads(diagnosis, "operator", first_error="Invalid shape of output")
    assert "shape_mismatch" in alternatives(diagnosis)
    assert diagnosis.confidence < 0.8


def test_a_kernel_library_refusing_a_dtype_offers_no_shape_neighbour() -> None:
    diagnosis = diagnose_text("serve/worker_0.log", KERNEL_OUTPUT_DTYPE)
    assert diagnosis.category == "operator", diagnosis.root_cause
    assert "shape_mismatch" not in alternatives(diagnosis)


def test_a_sentence_that_names_no_argument_is_not_a_library_check() -> None:
    """Counterexample: the words `Invalid shape of` without `<arg>: expected ..., got`."""
    diagnosis = diagnose_text("serve/worker_0.log", MODEL_OWN_CHECK)
    assert diagnosis.category != "operator", diagnosis.root_cause


def test_a_collective_refusing_ragged_blocks_is_a_shape_mismatch() -> None:
    diagnosis = diagnose_text("rank_2.log", GLOO_ALLTOALL_SIZES)
    assert_reads(diagnosis, "shape_mismatch", first_error="invalid tensor size at index 3")
    assert "hccl" in alternatives(diagnosis)
    assert diagnosis.confidence < 0.8


def test_gloo_reduce_scatter_rows_that_do_not_fit_the_output_are_a_shape_mismatch() -> None:
    """The assertion names the two sizes it compared; the rank that raised it is the culprit."""
    diagnosis = diagnose_files(
        {"job/log_0.log": GLOO_REDUCE_SCATTER_PEER, "job/log_3.log": GLOO_REDUCE_SCATTER_ROWS}
    )
    assert_reads(
        diagnosis,
        "shape_mismatch",
        first_error="outputShape[0] * worldSize == inputShape[0] (24 vs. 26)",
    )
    assert diagnosis.culprit_ranks == [3]
    assert "hccl" in alternatives(diagnosis)


def test_all_to_all_split_sizes_that_do_not_add_up_are_a_shape_mismatch() -> None:
    diagnosis = diagnose_text("log_5.log", SPLITS_DO_NOT_ADD_UP)
    assert_reads(
        diagnosis, "shape_mismatch", first_error="Split sizes doesn't match total dim 0 size"
    )
    assert "hccl" in alternatives(diagnosis)
    assert "op_constraint" not in [diagnosis.category, *alternatives(diagnosis)]


def test_a_message_a_peer_sent_that_did_not_fit_stays_the_collectives() -> None:
    """Counterexample: ranks that disagree, seen on arrival, are not the local check."""
    diagnosis = diagnose_text("rank_1.log", GLOO_PREAMBLE)
    assert diagnosis.category == "hccl", diagnosis.root_cause


def test_an_einops_headline_alone_is_a_shape_mismatch_below_the_confident_band() -> None:
    diagnosis = diagnose_text("train/rank0.log", EINOPS_HEADLINE)
    assert_reads(diagnosis, "shape_mismatch", first_error="rearrange-reduction pattern")
    assert "other" in alternatives(diagnosis)
    assert diagnosis.confidence < 0.7


def test_an_einops_headline_with_its_reason_is_more_sure() -> None:
    headline = diagnose_text("train/rank0.log", EINOPS_HEADLINE)
    full = diagnose_text("train/rank0.log", EINOPS_WITH_REASON)
    assert full.category == "shape_mismatch", full.root_cause
    assert full.confidence > headline.confidence


def test_an_einops_message_about_the_pattern_itself_is_not_the_headline_rule() -> None:
    """Counterexample: no `Error while processing ... pattern` headline."""
    diagnosis = diagnose_text("train/rank0.log", EINOPS_BAD_PATTERN)
    assert diagnosis.category != "shape_mismatch", diagnosis.root_cause


def test_a_flat_all_gather_whose_buffers_do_not_fit_is_a_shape_mismatch() -> None:
    diagnosis = diagnose_text("rank_5.log", NCCL_FLAT_ALLGATHER)
    assert_reads(diagnosis, "shape_mismatch", first_error="world_size times input tensor size")
    assert "hccl" in alternatives(diagnosis)


def test_the_older_binding_of_a_kernel_library_is_read_alike() -> None:
    diagnosis = diagnose_text("serve/worker_0.log", KERNEL_BINDING_SHAPE)
    assert diagnosis.category == "operator", diagnosis.root_cause
    assert "shape_mismatch" in alternatives(diagnosis)


# Transformer Engine's host check, as a Megatron rank raises it: file, line and function first.
TE_HOST_CHECK = """\
[rank4]:   File "/usr/local/lib/python3.12/dist-packages/transformer_engine/pytorch/module/linear.py", line 301, in forward
[rank4]:     out, *_ = general_gemm(
[rank4]: RuntimeError: /opt/te/transformer_engine/common/gemm/cublaslt_gemm.cu:131 in function CanonicalizeGemmInput: Assertion failed: ret.ldb % 16 == 0. Leading dimension of B must be a multiple of 16.
"""

# The same check as a CI summary keeps it: the launcher's name and the condition only.
TE_HOST_CHECK_SUMMARY = """\
RuntimeError: fused_topk_router_kernel_launcher: Assertion failed: topk <= num_experts.
Top-k (12) must not exceed the number of experts (8).
"""

# An exception's own message that starts with the same words names no function.
EXCEPTION_SAYS_ASSERTION_FAILED = """\
RuntimeError: Assertion failed: the work queue was empty when the step began
"""


def test_a_kernel_librarys_host_check_naming_its_function_is_the_operator() -> None:
    for path, text, words in (
        ("job/rank4.log", TE_HOST_CHECK, "Assertion failed: ret.ldb % 16 == 0"),
        ("ci/unit.log", TE_HOST_CHECK_SUMMARY, "Assertion failed: topk <= num_experts"),
    ):
        diagnosis = diagnose_text(path, text)
        assert diagnosis.category == "operator", path
        assert diagnosis.first_error is not None
        assert words in diagnosis.first_error.text
        assert "config" in alternative_labels(diagnosis)
        assert diagnosis.confidence < 0.8


def test_an_exception_that_only_says_assertion_failed_is_not_a_library_check() -> None:
    diagnosis = diagnose_text("job/rank0.log", EXCEPTION_SAYS_ASSERTION_FAILED)
    assert "op.kernel_library_host_check" not in {e.rule for e in diagnosis.evidence}


def test_a_tensor_list_sized_for_another_group_is_the_group_layout() -> None:
    """docs/labelling.md#a-collective-that-refuses-the-tensors-one-rank-handed-it: a list of
    one tensor per rank of the world, handed to a sub-group's all-gather."""
    diagnosis = diagnose_text("job/log_5.log", GLOO_LIST_FOR_THE_WORLD)
    assert_reads(diagnosis, "hccl", first_error="invalid output tensor list at index 0")
    assert diagnosis.culprit_ranks == [5]
    assert "shape_mismatch" in alternatives(diagnosis)
    assert diagnosis.confidence >= 0.5


# ProcessGroupNCCL's own wording of the same two checks, as torch 1.x raised them under the
# pre-torchrun launcher: a feature gather whose output list holds tensors of another length than
# the rank's input, then the launcher's report of the child.
NCCL_GATHER_OPERAND_SIZES = """\
Traceback (most recent call last):
  File "train_contrastive.py", line 214, in <module>
    main()
  File "train_contrastive.py", line 171, in main
    loss = criterion(feats, labels)
  File "/opt/envs/simclr/lib/python3.7/site-packages/simclr/losses.py", line 48, in forward
    dist.all_gather(gathered, feats)
  File "/opt/envs/simclr/lib/python3.7/site-packages/torch/distributed/distributed_c10d.py", line 1153, in all_gather
    work = _default_pg.allgather([tensor_list], [tensor])
RuntimeError: All tensor operands to scatter/gather must have the same size
Traceback (most recent call last):
  File "/opt/envs/simclr/lib/python3.7/runpy.py", line 193, in _run_module_as_main
    "__main__", mod_spec)
  File "/opt/envs/simclr/lib/python3.7/site-packages/torch/distributed/launch.py", line 256, in main
    cmd=cmd)
subprocess.CalledProcessError: Command '['/opt/envs/simclr/bin/python', '-u', 'train_contrastive.py', '--local_rank=1']' returned non-zero exit status 1.
"""

# gloo's scatter and gather count their list in words of their own: the source rank of an
# object scatter whose per-rank plan was built for one group fewer.
GLOO_SCATTER_LIST_COUNT = """\
0: [rank0]:   File "/srv/moe/plan.py", line 52, in share_plan
0: [rank0]:     dist.scatter_object_list(box, plan, src=0)
0: [rank0]: RuntimeError: ProcessGroupGloo::scatter: Incorrect input list size 5. Input list size should be 6, same as size of the process group.
"""
GLOO_GATHER_LIST_COUNT = """\
[rank0]: RuntimeError: ProcessGroupGloo::gather: Incorrect output list size 8. Output list size should be 2, same as size of the process group.
"""


def test_gloos_scatter_and_gather_list_counts_are_the_group_layout() -> None:
    for path, text in (
        ("job/job.out", GLOO_SCATTER_LIST_COUNT),
        ("job/rank0.log", GLOO_GATHER_LIST_COUNT),
    ):
        diagnosis = diagnose_text(path, text)
        assert diagnosis.category == "hccl", (path, diagnosis.root_cause)
        assert diagnosis.first_error is not None
        assert "same as size of the process group" in diagnosis.first_error.text
        assert "shape_mismatch" in alternatives(diagnosis)
        assert diagnosis.confidence >= 0.5


# A later release's wording of the size check, behind torch's rank prefix.
NCCL_GATHER_OPERAND_ELEMENTS = """\
[rank1]:   File "/srv/train/sync_stats.py", line 33, in gather_stats
[rank1]:     dist.all_gather(out, local_stats)
[rank1]: RuntimeError: All tensor operands to scatter/gather must have the same number of elements
"""

# The count check: a reduce-scatter input list sized for the world, run on a two-rank group.
NCCL_LIST_FOR_THE_WORLD = """\
[rank3]:   File "/srv/train/zero_shard.py", line 77, in reduce_grads
[rank3]:     dist.reduce_scatter(shard, chunks, group=dp_group)
[rank3]: RuntimeError: Tensor list input to scatter/gather must match number of collective participants but got 8 inputs with world_size 2 and 1 devices.
"""


def test_nccls_own_wording_of_the_operand_size_check_is_a_shape_mismatch() -> None:
    for path, text in (
        ("launch/train.log", NCCL_GATHER_OPERAND_SIZES),
        ("job/rank1.log", NCCL_GATHER_OPERAND_ELEMENTS),
    ):
        diagnosis = diagnose_text(path, text)
        assert diagnosis.category == "shape_mismatch", (path, diagnosis.root_cause)
        assert diagnosis.first_error is not None
        assert "All tensor operands to scatter/gather" in diagnosis.first_error.text
        assert "hccl" in alternatives(diagnosis)


def test_nccls_own_wording_of_the_list_count_check_is_the_group_layout() -> None:
    diagnosis = diagnose_text("job/rank3.log", NCCL_LIST_FOR_THE_WORLD)
    assert_reads(diagnosis, "hccl", first_error="must match number of collective participants")
    assert "shape_mismatch" in alternatives(diagnosis)


# A sharded data-parallel wrapper checks the same count in its own reduce-scatter bucketer,
# in an assertion of its own that names both numbers, while the backward hook runs.
SHARDED_BUCKETER_COUNT = """\
  File "/opt/env/lib/python3.9/site-packages/torch/autograd/__init__.py", line 154, in backward
    Variable._execution_engine.run_backward(
  File "/opt/env/lib/python3.9/site-packages/shardlib/nn/data_parallel/sharded.py", line 1480, in _post_backward_hook
    self._reducer.reduce_scatter_async(
  File "/opt/env/lib/python3.9/site-packages/shardlib/utils/reduce_scatter_bucketer.py", line 118, in reduce_scatter_async
    assert (
AssertionError: reduce_scatter received 4 inputs, expected group.size() (16)
"""

# Counterexample: a progress line of the same bucketer that reports matching counts.
SHARDED_BUCKETER_PROGRESS = """\
INFO bucketer: reduce_scatter received 16 inputs for group of 16, flushing bucket 3
"""


def test_a_sharded_wrappers_bucketer_count_check_is_the_group_layout() -> None:
    """docs/labelling.md#a-collective-that-refuses-the-tensors-one-rank-handed-it: the
    wrapper's own assertion counts the list against the group it runs on."""
    diagnosis = diagnose_text("job/rank0.log", SHARDED_BUCKETER_COUNT)
    assert_reads(diagnosis, "hccl", first_error="reduce_scatter received 4 inputs")
    assert "shape_mismatch" in alternatives(diagnosis)
    assert diagnosis.confidence >= 0.5


def test_a_bucketer_progress_line_is_no_count_check() -> None:
    diagnosis = diagnose_text("job/rank0.log", SHARDED_BUCKETER_PROGRESS)
    assert diagnosis.first_error is None or "received 16 inputs" not in diagnosis.first_error.text


# a serving engine's just-in-time kernel refuses a padded index tensor while a piecewise graph
# runs; the root cause follows on its own line and the engine's advice after it
JIT_KERNEL_TENSOR_MATCH = """\
[2026-03-02 10:11:12 TP3] Piecewise CUDA Graph failed with error: Tensor match failed for Tensor<16>[strides=<1>, dtype=int32, device=cuda:3] at /opt/engine/jit_kernel/csrc/cache/store_kv.cuh:88
- Root cause: Size mismatch for shape#0('num_tokens'): expected 12 but got 16
To work around this error, add --disable-piecewise-cuda-graph to your launch command.
[2026-03-02 10:11:12 TP3] Scheduler hit an exception: Traceback (most recent call last):
  File "/opt/engine/managers/scheduler.py", line 3811, in run_scheduler_process
    scheduler.run_event_loop()
"""


def test_a_jit_kernel_refusing_a_tensor_is_the_operator_with_the_shape_beside() -> None:
    """Before, only the root-cause line was read: an unrecognised shape disagreement."""
    diagnosis = diagnose_text("server.log", JIT_KERNEL_TENSOR_MATCH)
    assert_reads(
        diagnosis,
        "operator",
        first_error="Tensor match failed for Tensor<16>",
        rule="op.jit_kernel_tensor_match_failed",
        beside=["shape_mismatch", "config"],
    )
