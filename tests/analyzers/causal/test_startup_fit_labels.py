"""Start-up failures where the installed packages, the model and the parallel layout do not fit.

- a tokenizer (or processor) class the checkpoint names but the installed transformers does
  not ship is a configuration failure, read before the serving wrapper's own lines
  (docs/labelling.md#config-driver_env-or-weight_load);
- an op that a package's compiled op library never registered in its torch namespace is an
  operator registration failure, with the package build as the alternative
  (docs/labelling.md#operator-installation-or-platform-limit);
- an op missing from the framework's own bare `_C` namespace is the framework's GPU path
  running where the platform plugin's should (releases that do not fit), `config`, with the op
  reading beside it and below the confident band
  (docs/labelling.md#operator-installation-or-platform-limit);
- a bare divisibility assertion keeps `weight_load` but offers `config` and
  `shape_mismatch` and stays below the confident band, while the same check worded in full
  stays `config` (docs/labelling.md#a-bare-divisibility-assertion);
- the training launchers' own layout checks (a model dimension that is no multiple of a
  `*_model_parallel_size`, a world size or global batch that does not split over the
  parallel layout, a parallel size that another grouping of the ranks must divide) are
  `config` too, while a kernel's "multiple of" tiling check is not.

Fixtures are written for these tests in the real shapes, with their own values.
"""

from __future__ import annotations

from tests.analyzers.excerpts import alternative_labels, assert_reads, diagnose_text

TOKENIZER_CLASS_UNKNOWN = """\
(ApiServer_0 pid=5120)   File "/opt/serve/tokenizers/hf.py", line 71, in from_pretrained
(ApiServer_0 pid=5120)     tokenizer = AutoTokenizer.from_pretrained(
(ApiServer_0 pid=5120)   File "/opt/py/site-packages/transformers/models/auto/tokenization_auto.py", line 1098, in from_pretrained
(ApiServer_0 pid=5120)     raise ValueError(
(ApiServer_0 pid=5120) ValueError: Tokenizer class OrbitFastTokenizer does not exist or is not currently imported.
"""

TOKENIZER_LOADED_THEN_KEY_MISSING = """\
INFO 05-02 08:10:11 [tokenizer.py:88] tokenizer class OrbitFastTokenizer loaded from /models/orbit-7b
(Worker_TP0 pid=811) ERROR 05-02 08:10:40 [multiproc_executor.py:600] KeyError: 'layers.3.mlp.down_proj.weight_scale'
"""

NAMESPACE_OP_MISSING = """\
(EngineCore pid=7301)   File "/srv/ext/sampling/topk.py", line 212, in _fused_path
(EngineCore pid=7301)     return torch.ops._C_orbit.fused_topk_topp(logits, k=k, p=p)
(EngineCore pid=7301)   File "/opt/py/site-packages/torch/_ops.py", line 1290, in __getattr__
(EngineCore pid=7301)     raise AttributeError(
(EngineCore pid=7301) AttributeError: '_OpNamespace' '_C_orbit' object has no attribute 'fused_topk_topp'
"""

# The framework's own helper calls its core extension's op; the install holds no such op.
CORE_NAMESPACE_OP_MISSING = """\
    return tuple(weak_ref_tensor(t) for t in tensors)
  File "/opt/py/site-packages/serve/utils.py", line 2210, in weak_ref_tensor
    return torch.ops._C.weak_ref_tensor(tensor)
  File "/opt/py/site-packages/torch/_ops.py", line 1267, in __getattr__
    raise AttributeError(
AttributeError: '_OpNamespace' '_C' object has no attribute 'weak_ref_tensor'
Traceback (most recent call last):
  File "/home/demo/run_offline.py", line 9, in <module>
    llm = LLM(model="/models/orbit-2b")
"""

CORE_NAMESPACE_OP_MISSING_IN_WORKER = """\
(Worker_TP1 pid=4410) ERROR 07-01 10:20:30 [multiproc_executor.py:611]     torch.ops._C.rms_norm(out, x, weight, eps)
(Worker_TP1 pid=4410) ERROR 07-01 10:20:30 [multiproc_executor.py:611]   File "/opt/py/site-packages/torch/_ops.py", line 1267, in __getattr__
(Worker_TP1 pid=4410) ERROR 07-01 10:20:30 [multiproc_executor.py:611]     raise AttributeError(
(Worker_TP1 pid=4410) ERROR 07-01 10:20:30 [multiproc_executor.py:611] AttributeError: '_OpNamespace' '_C' object has no attribute 'rms_norm'
"""

MODULE_ATTRIBUTE_MISSING = """\
Traceback (most recent call last):
  File "/srv/ext/attention.py", line 48, in forward
    out = torch_npu.npu_orbit_attention(q, k, v)
AttributeError: module 'torch_npu' has no attribute 'npu_orbit_attention'
"""

# A serving worker re-raises the exception of its model runner's start as a RuntimeError that
# keeps only the message: the attribute the code expected is missing all the same.
WRAPPED_ATTRIBUTE_MISSING = """\
(Worker pid=3120) ERROR 02-11 09:10:11 [multiproc_executor.py:702] RuntimeError: DemoModelRunner init failed, error is DemoModelRunner failed, error is 'ModelInput' object has no attribute 'cpu_view'
(Worker pid=3120) ERROR 02-11 09:10:11 [multiproc_executor.py:702]
(EngineCore pid=3100) ERROR 02-11 09:10:11 [core.py:88] EngineCore failed to start.
"""

BARE_DIVISIBILITY = """\
  File "/opt/py/site-packages/serve/models/vision.py", line 402, in __init__
    self.num_heads_per_rank = divide(num_heads, tp_size)
  File "/opt/py/site-packages/serve/distributed/utils.py", line 19, in ensure_divisibility
    assert numerator % denominator == 0, "{} is not divisible by {}".format(
AssertionError: 12 is not divisible by 5
"""

FULL_WORDING = """\
ERROR 05-02 09:00:01 [engine.py:410] ValueError: Total number of attention heads (12) must be divisible by tensor parallel size (5).
"""


KV_GROUPS_OVER_TP = """\
[rank2]: Traceback (most recent call last):
[rank2]:   File "/work/llm-train/pretrain_gpt.py", line 188, in <module>
[rank2]:     pretrain(train_valid_test_datasets_provider, model_provider, ModelType.encoder_or_decoder)
[rank2]:   File "/work/megatron/core/transformer/transformer_config.py", line 611, in __post_init__
[rank2]:     raise ValueError(
[rank2]: ValueError: num_query_groups (6) must be a multiple of tensor_model_parallel_size (4).
"""

WORLD_OVER_TP_PP = """\
using world size: 48, data-parallel size: 1, tensor-model-parallel size: 8, pipeline-model-parallel size: 5
Traceback (most recent call last):
  File "/work/llm-train/megatron/training/arguments.py", line 402, in validate_args
AssertionError: world size (48) is not divisible by tensor model parallel size (8) times pipeline model parallel size (5)
"""

BATCH_OVER_DP = """\
node-1: [rank11]: AssertionError: global batch size (36) is not divisible by micro batch size (2) times data parallel size (8)
"""

TILING_MULTIPLE = """\
[rank0]: RuntimeError: call aclnnGroupedMatmul failed, detail:E89999: [PID: 4410] 2026-05-02-09:00:01.000.100 Tiling_Check_Failed(E89999): tokens per group must be a multiple of 16, but got 12
"""


def test_a_tokenizer_class_the_library_lacks_is_a_configuration_failure() -> None:
    diagnosis = diagnose_text("serve/api_server.log", TOKENIZER_CLASS_UNKNOWN)
    assert_reads(
        diagnosis, "config", first_error="Tokenizer class OrbitFastTokenizer does not exist"
    )


def test_a_tokenizer_that_loaded_does_not_decide_a_later_failure() -> None:
    diagnosis = diagnose_text("serve/worker.log", TOKENIZER_LOADED_THEN_KEY_MISSING)
    assert_reads(diagnosis, "weight_load", first_error="weight_scale")


def test_an_op_missing_from_its_namespace_is_an_operator_registration_failure() -> None:
    diagnosis = diagnose_text("serve/engine.log", NAMESPACE_OP_MISSING)
    assert_reads(
        diagnosis,
        "operator",
        first_error="'_C_orbit' object has no attribute 'fused_topk_topp'",
        beside=("config",),
    )


def test_an_op_missing_from_the_framework_core_namespace_is_a_configuration_failure() -> None:
    for text in (CORE_NAMESPACE_OP_MISSING, CORE_NAMESPACE_OP_MISSING_IN_WORKER):
        diagnosis = diagnose_text("serve/engine.log", text)
        assert diagnosis.category == "config"
        assert "operator" in alternative_labels(diagnosis)
        assert diagnosis.confidence < 0.8
        assert diagnosis.first_error is not None
        assert "'_OpNamespace' '_C' object has no attribute" in diagnosis.first_error.text


def test_a_suffixed_namespace_keeps_the_registration_reading() -> None:
    text = NAMESPACE_OP_MISSING.replace("_C_orbit", "_C_plugin")
    diagnosis = diagnose_text("serve/engine.log", text)
    assert diagnosis.category == "operator"


def test_a_module_attribute_missing_is_not_read_as_a_namespace_op() -> None:
    diagnosis = diagnose_text("train/rank0.log", MODULE_ATTRIBUTE_MISSING)
    assert diagnosis.category != "operator"


def test_an_attribute_message_kept_by_a_wrapper_reads_as_config() -> None:
    diagnosis = diagnose_text("serve/worker.log", WRAPPED_ATTRIBUTE_MISSING)
    assert_reads(diagnosis, "config", first_error="'ModelInput' object has no attribute 'cpu_view'")


def test_a_wrapped_message_about_an_unset_value_is_not_a_version_mismatch() -> None:
    text = WRAPPED_ATTRIBUTE_MISSING.replace("'ModelInput'", "'NoneType'")
    diagnosis = diagnose_text("serve/worker.log", text)
    assert diagnosis.category != "config"


def test_a_bare_divisibility_assertion_offers_its_neighbours_below_the_confident_band() -> None:
    diagnosis = diagnose_text("serve/scheduler.log", BARE_DIVISIBILITY)
    assert diagnosis.category == "weight_load"
    assert {"config", "shape_mismatch"} <= set(alternative_labels(diagnosis))
    assert diagnosis.confidence < 0.8
    assert diagnosis.first_error is not None
    assert "12 is not divisible by 5" in diagnosis.first_error.text


def test_the_same_check_worded_in_full_stays_a_configuration_failure() -> None:
    diagnosis = diagnose_text("serve/engine.log", FULL_WORDING)
    assert_reads(diagnosis, "config", first_error="must be divisible by tensor parallel size")


def test_a_model_dimension_that_is_no_multiple_of_the_parallel_size_is_a_configuration_failure() -> (
    None
):
    diagnosis = diagnose_text("job/rank2.log", KV_GROUPS_OVER_TP)
    assert_reads(
        diagnosis, "config", first_error="must be a multiple of tensor_model_parallel_size"
    )


def test_a_world_size_or_batch_that_does_not_split_over_the_layout_is_a_configuration_failure() -> (
    None
):
    for path, text, words in (
        ("job/launcher.log", WORLD_OVER_TP_PP, "world size (48) is not divisible"),
        ("job/node1.log", BATCH_OVER_DP, "global batch size (36) is not divisible"),
    ):
        diagnosis = diagnose_text(path, text)
        assert diagnosis.category == "config", path
        assert diagnosis.first_error is not None
        assert words in diagnosis.first_error.text


# Megatron's parallel-state set-up names the parallel size first and the grouping after it.
PARALLEL_SIZE_FIRST = """\
[rank0]:   File "/work/megatron/training/initialize.py", line 352, in _initialize_distributed
[rank0]:     mpu.initialize_model_parallel(
[rank0]:   File "/work/megatron/core/parallel_state.py", line 1260, in initialize_model_parallel
[rank0]:     data_parallel_size % num_distributed_optimizer_instances == 0
[rank0]: AssertionError: Data parallel size should be divisible by the number of optimizer instances
"""


def test_a_parallel_size_named_before_the_grouping_it_must_divide_is_a_configuration_failure() -> (
    None
):
    diagnosis = diagnose_text("job/rank0.log", PARALLEL_SIZE_FIRST)
    assert diagnosis.category == "config"
    assert diagnosis.confidence >= 0.8
    assert diagnosis.first_error is not None
    assert "Data parallel size should be divisible by" in diagnosis.first_error.text


def test_a_kernels_multiple_of_tiling_check_is_no_layout_failure() -> None:
    diagnosis = diagnose_text("job/rank0.log", TILING_MULTIPLE)
    assert diagnosis.category != "config"


# Trainers that build a device mesh from named degrees check that the degrees multiply to the
# processes started, in words of their own: a logged refusal naming the product of the
# degrees, or an assertion that writes the product out against the world size.
DEGREES_PRODUCT_LOGGED = """\
2026-04-11 09:12:03 - [DEBUG] - Parsed parallel backend: ptd
2026-04-11 09:12:03 - [ERROR] - An error occurred during training: World size 6 must be divisible by the product of all parallel degrees and data parallel shards.
2026-04-11 09:12:03 - [ERROR] - Traceback (most recent call last):
  File "/srv/trainers/train.py", line 70, in main
"""

DEGREES_PRODUCT_ASSERTED = """\
[rank1]: Traceback (most recent call last):
[rank1]:   File "/srv/titan/train.py", line 88, in __init__
[rank1]:     parallel_dims = ParallelDims(
[rank1]: AssertionError: Invalid parallel dims: dp_replicate(1) * dp_shard(4) * cp(1) * tp(2) * pp(1) != WORLD_SIZE(4)
"""

MESH_BUILT_THEN_OOM = """\
[rank0]:2026-04-11 09:20:01,112 - root - INFO - Building 2-D device mesh with ['dp_shard', 'tp'], [2, 2]
[rank0]: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 79.10 GiB of which 1.20 GiB is free.
"""


def test_degrees_whose_product_is_not_the_world_size_are_the_launch_settings() -> None:
    for text, words in (
        (DEGREES_PRODUCT_LOGGED, "must be divisible by the product of all parallel degrees"),
        (DEGREES_PRODUCT_ASSERTED, "Invalid parallel dims"),
    ):
        diagnosis = diagnose_text("job/train.log", text)
        assert_reads(
            diagnosis, "config", first_error=words, rule="cfg.parallel_layout_not_divisible"
        )
        assert diagnosis.confidence >= 0.5


def test_a_mesh_built_from_the_degrees_is_no_layout_failure() -> None:
    diagnosis = diagnose_text("job/train.log", MESH_BUILT_THEN_OOM)
    assert_reads(diagnosis, "oom", first_error="CUDA out of memory")
