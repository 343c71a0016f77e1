"""Shape errors as users paste them, and where they were raised.

A reshape error keeps its meaning when a chat tool or a bug form turned the quotes
typographic and the spaces into tabs. A size mismatch raised by a weight loader (a plugin's
or the model's own) is a checkpoint that does not fit its sharded parameter, not a forward
pass going wrong; the same mismatch in a forward stays a shape mismatch.

A `KeyError` naming a parameter is a checkpoint key the loader did not find; one naming an
attention layer module is the runner's layer registry lacking a layer this stage did not build
(docs/labelling.md#config-driver_env-or-weight_load).

The graph engine's shape inference for an op that finds its inputs' dimensions disagree is a
shape mismatch, printed in the older error-manager form with no error word on its line; an
InferShape refusal of a dtype pair stays the operator's
(docs/labelling.md#shape-inference-that-finds-the-inputs-disagree).

A matrix product whose operands' inner sizes disagree is a shape mismatch whichever check says
it: the eager kernel's `mat1 and mat2` or the shape check that fake tensors, compiled graphs
and DTensor's sharding propagation run (`a and b must have same reduction dim`), as a
row-wise tensor-parallel layer meets it when a dimension does not split evenly over the ranks.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

TYPOGRAPHIC_VIEW = "RuntimeError:\tshape \u2018[-1, 2, 384]' is invalid for input of size\t50304\n"

LOADER_COPY = """\
(Worker pid=311) (Worker_TP1 pid=311) ERROR 05-11 09:12:40 [multiproc_executor.py:812] Traceback (most recent call last):
(Worker pid=311) (Worker_TP1 pid=311) ERROR 05-11 09:12:40 [multiproc_executor.py:812]   File "/srv/venv/lib/python3.12/site-packages/vllm/model_executor/models/llama.py", line 470, in load_weights
(Worker pid=311) (Worker_TP1 pid=311) ERROR 05-11 09:12:40 [multiproc_executor.py:812]     weight_loader(param, loaded_weight)
(Worker pid=311) (Worker_TP1 pid=311) ERROR 05-11 09:12:40 [multiproc_executor.py:812]   File "/srv/plugins/rotate/loader.py", line 31, in _scale_weight_loader
(Worker pid=311) (Worker_TP1 pid=311) ERROR 05-11 09:12:40 [multiproc_executor.py:812]     target.copy_(loaded_weight)
(Worker pid=311) (Worker_TP1 pid=311) ERROR 05-11 09:12:40 [multiproc_executor.py:812] RuntimeError: The size of tensor a (1536) must match the size of tensor b (3072) at non-singleton dimension 0
(Worker pid=310) (Worker_TP0 pid=310) INFO 05-11 09:12:40 [multiproc_executor.py:760] Parent process exited, terminating worker
"""

REGISTRY_LOOKUP = """\
(EngineCore pid=2048) ERROR 02-03 10:11:12 [core.py:1099] EngineCore failed to start.
(EngineCore pid=2048) ERROR 02-03 10:11:12 [core.py:1099] Traceback (most recent call last):
(EngineCore pid=2048) ERROR 02-03 10:11:12 [core.py:1099]   File "/opt/vllm-ascend/vllm_ascend/worker/model_runner_v1.py", line 2702, in initialize_kv_cache
(EngineCore pid=2048) ERROR 02-03 10:11:12 [core.py:1099]     self.initialize_attn_backend(kv_cache_config)
(EngineCore pid=2048) ERROR 02-03 10:11:12 [core.py:1099]   File "/opt/vllm-ascend/vllm_ascend/worker/model_runner_v1.py", line 3210, in initialize_attn_backend
(EngineCore pid=2048) ERROR 02-03 10:11:12 [core.py:1099]     attn_backends = get_attn_backends_for_group(kv_cache_group_spec)
(EngineCore pid=2048) ERROR 02-03 10:11:12 [core.py:1099] KeyError: 'model.layers.16.self_attn.attn'
"""

CACHE_REGISTRY_LOOKUP = """\
(EngineCore_DP0 pid=512) (RayWorkerWrapper pid=77, ip=10.1.2.3) ERROR 02-03 10:11:12 [worker_base.py:620]   File "/srv/vllm/vllm/v1/worker/gpu_model_runner.py", line 4100, in get_attn_backends_for_group
(EngineCore_DP0 pid=512) (RayWorkerWrapper pid=77, ip=10.1.2.3) ERROR 02-03 10:11:12 [worker_base.py:620]     layers = get_layers_from_vllm_config(
(EngineCore_DP0 pid=512) (RayWorkerWrapper pid=77, ip=10.1.2.3) ERROR 02-03 10:11:12 [worker_base.py:620] KeyError: 'model.layers.9.self_attn.indexer.k_cache'
"""

LOADER_KEY = """\
(Worker_TP2 pid=733) ERROR 02-03 10:11:12 [multiproc_executor.py:772]   File "/opt/vllm/vllm/model_executor/models/qwen3.py", line 512, in load_weights
(Worker_TP2 pid=733) ERROR 02-03 10:11:12 [multiproc_executor.py:772]     param = params_dict[name]
(Worker_TP2 pid=733) ERROR 02-03 10:11:12 [multiproc_executor.py:772] KeyError: 'model.layers.16.self_attn.attn.k_scale'
"""

PRETRAINED_COPY = """\
Loading weights from safetensors:   0%|          | 0/12 [00:02<?, ?it/s]
Process engine_main:
Traceback (most recent call last):
  File "/opt/serve/engine/launch.py", line 77, in _run
    engine = Engine.from_pretrained(
  File "/opt/serve/engine/core.py", line 301, in from_pretrained
    return cls(model_path=path,
RuntimeError: The expanded size of the tensor (16384) must match the existing size (2048) at non-singleton dimension 1.  Target sizes: [56, 16384].  Tensor sizes: [56, 2048]
"""

FORWARD_MISMATCH = """\
Traceback (most recent call last):
  File "/srv/app/model/attention.py", line 88, in forward
    scores = scores + bias
RuntimeError: The size of tensor a (1536) must match the size of tensor b (3072) at non-singleton dimension 0
"""

REDUCTION_DIM = """\
[rank4]:   File "/opt/venv/lib/python3.11/site-packages/torch/_meta_registrations.py", line 2204, in meta_mm
[rank4]:     torch._check(
[rank4]: RuntimeError: a and b must have same reduction dim, but got [6, 12] X [20, 8].
"""

# the older block form: code and two spaces, no PID, and the reason has no error word
INFER_SHAPE_DIMS = """\
denoise step 1/30
EZ9999: Inner Error!
EZ9999  [InferShape] The k-axis of a(320) and b(1280) tensors must be the same[FUNC:InferShape][FILE:matrix_calculation_ops.cc][LINE:1398]
        TraceBack (most recent call last):
        Failed to infer output shape[FUNC:BatchMatMulInferShape][FILE:matrix_calculation_ops.cc][LINE:2451]
        Call InferShapeAndType for node:BatchMatMulV2(BatchMatMulV2) failed[FUNC:Infer][FILE:infershape_pass.cc][LINE:117]
        [Build][SingleOpModel]call ge interface generator.BuildSingleOpModel failed. ge result = 1343242270[FUNC:ReportCallError][FILE:log_inner.cpp][LINE:159]
        build op model failed, result = 500002[FUNC:ReportInnerError][FILE:log_inner.cpp][LINE:143]
"""

INFER_SHAPE_DTYPE = """\
EZ9999: Inner Error!
EZ9999  [InferShape] the dtype of x1 and x2 must be the same[FUNC:InferShape][FILE:elewise_calculation_ops.cc][LINE:95]
        TraceBack (most recent call last):
        Call InferShapeAndType for node:Add(Add) failed[FUNC:Infer][FILE:infershape_pass.cc][LINE:117]
        build op model failed, result = 500002[FUNC:ReportInnerError][FILE:log_inner.cpp][LINE:143]
"""


def test_shape_inference_finding_input_dims_disagree_is_a_shape_mismatch() -> None:
    # docs/labelling.md#shape-inference-that-finds-the-inputs-disagree
    diagnosis = diagnose_text("unet.log", INFER_SHAPE_DIMS)
    assert_reads(
        diagnosis,
        "shape_mismatch",
        first_error="k-axis of a(320) and b(1280)",
        beside=("operator",),
    )


def test_shape_inference_refusing_a_dtype_pair_stays_the_operators() -> None:
    # docs/labelling.md#shape-inference-that-finds-the-inputs-disagree
    diagnosis = diagnose_text("unet.log", INFER_SHAPE_DTYPE)
    assert_reads(diagnosis, "operator", first_error="the dtype of x1 and x2 must be the same")


def test_typographic_quotes_and_tabs_still_read_as_a_reshape_error() -> None:
    diagnosis = diagnose_text("stress.log", TYPOGRAPHIC_VIEW)
    assert_reads(diagnosis, "shape_mismatch", first_error="is invalid for input of size")


def test_size_mismatch_raised_in_a_weight_loader_is_weight_load() -> None:
    diagnosis = diagnose_text("serve.log", LOADER_COPY)
    assert_reads(diagnosis, "weight_load", first_error="size of tensor a (1536)")


def test_same_mismatch_in_a_forward_stays_shape_mismatch() -> None:
    diagnosis = diagnose_text("train.log", FORWARD_MISMATCH)
    assert diagnosis.category == "shape_mismatch"


def test_a_key_naming_an_attention_layer_module_is_the_runner_registry() -> None:
    diagnosis = diagnose_text("engine.log", REGISTRY_LOOKUP)
    assert_reads(diagnosis, "config", first_error="self_attn.attn'", beside=("weight_load",))


def test_a_key_naming_a_parameter_under_that_layer_stays_a_missing_checkpoint_key() -> None:
    diagnosis = diagnose_text("worker.log", LOADER_KEY)
    assert_reads(diagnosis, "weight_load", first_error="attn.k_scale")


# docs/labelling.md#config-driver_env-or-weight_load: torch's one-line wrapper around a copy
# of a checkpoint tensor that raised. A device-placement complaint inside it names no cause of
# its own, so the loader is what failed; an allocator refusal inside it is the memory's.
COPY_RAISED_DEVICE_PLACEMENT = (
    '[rank3]: \tWhile copying the parameter named "base_model.model.model.layers.41.self_attn.'
    'o_proj.lora_B.default.weight", whose dimensions in the model are torch.Size([5120, 16]) and '
    "whose dimensions in the checkpoint are torch.Size([5120, 16]), an exception occurred : "
    "('Expected all tensors to be on the same device, but found at least two devices, npu:3 and "
    "npu:1! (when checking argument for argument src in method wrapper__npu_dtype_cast_)',)\n"
)

COPY_RAISED_OUT_OF_MEMORY = COPY_RAISED_DEVICE_PLACEMENT.replace(
    "Expected all tensors to be on the same device, but found at least two devices, npu:3 and "
    "npu:1! (when checking argument for argument src in method wrapper__npu_dtype_cast_)",
    "NPU out of memory. Tried to allocate 320.00 MiB (NPU 3; 60.96 GiB total capacity; 60.41 "
    "GiB already allocated; 60.41 GiB current active; 12.30 MiB free; 60.52 GiB reserved in "
    "total by PyTorch)",
)


def test_a_parameter_copy_that_raised_is_a_weight_load_failure() -> None:
    diagnosis = diagnose_text("train/rank3.log", COPY_RAISED_DEVICE_PLACEMENT)
    assert_reads(
        diagnosis,
        "weight_load",
        first_error="While copying the parameter named",
        beside=("config",),
    )


def test_a_parameter_copy_out_of_memory_is_read_by_its_inner_error() -> None:
    diagnosis = diagnose_text("train/rank3.log", COPY_RAISED_OUT_OF_MEMORY)
    assert diagnosis.category == "oom", diagnosis.root_cause


def test_size_error_under_from_pretrained_is_weight_loading() -> None:
    # a packed checkpoint tensor copied into the unpacked parameter while the engine loads
    diagnosis = diagnose_text("serve.log", PRETRAINED_COPY)
    assert_reads(diagnosis, "weight_load", first_error="expanded size of the tensor (16384)")


# Megatron's checkpoint converter: the saver process cuts each received weight into the target's
# tensor-parallel shards, and the size error is raised there.
CONVERTER_SAVER_SPLIT = """\
Process Process-1:
Traceback (most recent call last):
  File "/usr/lib/python3.11/multiprocessing/process.py", line 108, in run
    self._target(*self._args, **self._kwargs)
  File "/opt/megatron/tools/checkpoint/saver_demo.py", line 288, in save_checkpoint
    set_layer_state(models, layer_id, msg)
RuntimeError: The size of tensor a (12288) must match the size of tensor b (3072) at non-singleton dimension 0
"""


def test_size_error_in_a_checkpoint_converters_saver_is_weight_loading() -> None:
    diagnosis = diagnose_text("logs/convert.log", CONVERTER_SAVER_SPLIT)
    assert_reads(diagnosis, "weight_load", first_error="tensor a (12288)")


# Converters outside Megatron's tree are standalone scripts named for the two formats they turn
# one into the other (`hf2mcore_<model>.py`, `mcore2hf_<model>.py`) or kept in a converter
# folder; they reshape each weight by the head and group counts of the model they were written
# for, so a reshape that does not fit is the checkpoint not fitting that split
# (docs/labelling.md#a-checkpoint-cut-for-another-number-of-ranks).
SCRIPT_CONVERTER_RESHAPE = """\
[rank0]: Traceback (most recent call last):
[rank0]:   File "/data/tools/model_checkpoints_convertor/demo/hf2mcore_demo.py", line 410, in <module>
[rank0]:     main()
[rank0]:   File "/data/tools/model_checkpoints_convertor/demo/hf2mcore_demo.py", line 377, in pack_layers
[rank0]:     merged = qkv.view(groups, -1, head_dim, args.hidden_size)
[rank0]: RuntimeError: shape '[8, -1, 64, 2048]' is invalid for input of size 4096
"""

# The same reshape raised in a training script's forward step is no converter, even when the
# script's name holds a format's name.
TRAINING_SCRIPT_RESHAPE = """\
Traceback (most recent call last):
  File "/data/jobs/pretrain_mcore_demo.py", line 92, in forward_step
    merged = qkv.view(groups, -1, head_dim, hidden)
RuntimeError: shape '[8, -1, 64, 2048]' is invalid for input of size 4096
"""


def test_reshape_in_a_standalone_checkpoint_converter_is_weight_loading() -> None:
    diagnosis = diagnose_text("logs/convert.log", SCRIPT_CONVERTER_RESHAPE)
    assert_reads(diagnosis, "weight_load", first_error="is invalid for input of size 4096")


def test_reverse_converter_named_alone_is_weight_loading() -> None:
    text = SCRIPT_CONVERTER_RESHAPE.replace(
        "/data/tools/model_checkpoints_convertor/demo/", "/srv/"
    )
    text = text.replace("hf2mcore_demo.py", "mcore2hf_demo.py")
    diagnosis = diagnose_text("logs/convert.log", text)
    assert diagnosis.category == "weight_load"


def test_reshape_in_a_training_scripts_forward_stays_a_shape_mismatch() -> None:
    diagnosis = diagnose_text("train.log", TRAINING_SCRIPT_RESHAPE)
    assert diagnosis.category == "shape_mismatch"


def test_a_checkpoint_folder_in_a_models_own_path_is_no_converter() -> None:
    forward = FORWARD_MISMATCH.replace("/srv/app/model/attention.py", "/srv/checkpoint/model.py")
    diagnosis = diagnose_text("forward.log", forward)
    assert diagnosis.category == "shape_mismatch"


def test_same_size_error_in_a_forward_after_loading_stays_a_shape_mismatch() -> None:
    diagnosis = diagnose_text("forward.log", FORWARD_MISMATCH.replace("forward", "generate"))
    assert diagnosis.category == "shape_mismatch"


# torch's load_state_dict raises every problem under one headline, `Error(s) in loading
# state_dict for <Model>:`, and the traceback reader joins the indented lines under it into the
# headline's message. The headline is a wrapper: here the only line under it is a copy whose
# inner error is the runtime refusing a device-pair query, so the driver's refusal decides
# (docs/labelling.md#config-driver_env-or-weight_load).
HEADLINE_OVER_PEER_QUERY_REFUSED = (
    "[rank6]: Traceback (most recent call last):\n"
    '[rank6]:   File "/opt/serve/adapters.py", line 57, in attach\n'
    "[rank6]:     model = PeftModel.from_pretrained(base, adapter_dir)\n"
    "[rank6]: RuntimeError: Error(s) in loading state_dict for PeftModelForCausalLM:\n"
    '[rank6]: \tWhile copying the parameter named "base_model.model.model.layers.17.mlp.'
    'gate_proj.lora_B.default.weight", whose dimensions in the model are torch.Size([13824, 32]) '
    "and whose dimensions in the checkpoint are torch.Size([13824, 32]), an exception occurred : "
    "('get_p2p_access:torch_npu/csrc/core/npu/NPUPeerToPeerAccess.cpp:80 NPU error, error code "
    "is 107000\\n[ERROR] 2026-08-03-14:05:09 (PID:9021, Device:6, RankID:6) ERR00100 PTA call "
    "acl api failed\\n[Error]: Parameter verification failed.\\nEE1001: The argument is invalid."
    "Reason: rtDeviceCanAccessPeer execute failed, reason=[invalid value]\\n        TraceBack "
    "(most recent call last):\\n        call rtDeviceCanAccessPeer failed, deviceId = 6, "
    "peerPhyId = 2, runtime result = 107000[FUNC:ReportCallError]\\n',).\n"
)

# Counterexamples: under the same headline a missing key is the loader's own cause and stays a
# confident weight_load; a headline whose details were cut still says that the loader failed.
HEADLINE_OVER_MISSING_KEY = (
    "Traceback (most recent call last):\n"
    '  File "/srv/eval/restore.py", line 23, in <module>\n'
    "    detector.load_state_dict(weights)\n"
    "RuntimeError: Error(s) in loading state_dict for BoxHead:\n"
    '\tMissing key(s) in state_dict: "cls_score.bias".\n'
)
HEADLINE_ALONE = HEADLINE_OVER_MISSING_KEY.split("\t")[0]


def test_a_state_dict_headline_yields_to_the_copy_error_under_it() -> None:
    diagnosis = diagnose_text("serve/rank6.log", HEADLINE_OVER_PEER_QUERY_REFUSED)
    assert_reads(
        diagnosis,
        "driver_env",
        first_error="rtDeviceCanAccessPeer execute failed",
        beside=("weight_load",),
    )


def test_a_state_dict_headline_over_a_missing_key_stays_a_confident_weight_load() -> None:
    diagnosis = diagnose_text("eval/restore.log", HEADLINE_OVER_MISSING_KEY)
    assert diagnosis.category == "weight_load", diagnosis.root_cause
    assert diagnosis.confidence >= 0.8
    assert diagnosis.first_error is not None
    assert "Error(s) in loading state_dict for BoxHead" in diagnosis.first_error.text


def test_a_state_dict_headline_alone_is_still_the_loader() -> None:
    diagnosis = diagnose_text("eval/restore.log", HEADLINE_ALONE)
    assert diagnosis.category == "weight_load", diagnosis.root_cause


# One rank's dataset shard came out empty; the reshape with an inferred dimension cannot
# place zero elements.
EMPTY_BATCH_VIEW = """\
2026-12-04 20:16:34,841 [rank3] INFO dataset shard: 0 prompt(s) of 3
2026-12-04 20:16:34,841 [rank3] INFO prefill start: 0 tokens
[rank3]: Traceback (most recent call last):
[rank3]:   File "/work/job/infer.py", line 216, in run
[rank3]:     h = batch.view(len(shard), -1, HIDDEN)
[rank3]: RuntimeError: cannot reshape tensor of 0 elements into shape [0, -1, 32] because the unspecified dimension size -1 can be any value and is ambiguous
"""


def test_an_empty_tensor_reshaped_with_an_inferred_dimension_is_a_shape_mismatch() -> None:
    diagnosis = diagnose_text("job/log_3.log", EMPTY_BATCH_VIEW)
    assert_reads(diagnosis, "shape_mismatch", first_error="cannot reshape tensor of 0 elements")
    assert any(e.rule == "shape.invalid_view" for e in diagnosis.evidence)


def test_a_matrix_product_whose_reduction_dims_disagree_is_a_shape_mismatch() -> None:
    diagnosis = diagnose_text("rank4.log", REDUCTION_DIM)
    assert_reads(diagnosis, "shape_mismatch", first_error="must have same reduction dim")
    assert "shape.matmul_shapes" in rules_of(diagnosis)


# docs/labelling.md#shape-inference-that-finds-the-inputs-disagree: a framework's own check of
# an op's inputs, in Python, before anything runs on the device (MindSpore's validator wording)
FRAMEWORK_OP_DIMS = """\
epoch 1 step 1
Traceback (most recent call last):
  File "run_tagger.py", line 140, in <module>
    loss = train_step(ids, labels)
  File "/opt/ms/lib/python3.9/site-packages/mindspore/ops/primitive.py", line 702, in infer
    return self.infer_shape(*args)
ValueError: For 'MatMul' the input dimensions must be equal, but got 'x1_col': 512 and 'x2_row': 2048.
"""

FRAMEWORK_OP_DTYPE = """\
epoch 1 step 1
Traceback (most recent call last):
  File "run_tagger.py", line 140, in <module>
    loss = train_step(ids, labels)
TypeError: For 'Add', the dtype of 'x' and 'y' must be the same, but got Float32 and Float16.
"""


def test_a_framework_op_check_finding_input_dims_disagree_is_a_shape_mismatch() -> None:
    diagnosis = diagnose_text("train.log", FRAMEWORK_OP_DIMS)
    assert_reads(
        diagnosis,
        "shape_mismatch",
        first_error="the input dimensions must be equal",
        beside=("operator",),
    )


def test_a_framework_op_check_refusing_a_dtype_pair_is_no_shape_mismatch() -> None:
    diagnosis = diagnose_text("train.log", FRAMEWORK_OP_DTYPE)
    assert diagnosis.category != "shape_mismatch"


def test_a_key_naming_a_kv_cache_of_a_layer_is_the_runner_registry_too() -> None:
    """The runner registers its layers' KV caches beside the attention modules (a sparse
    indexer's `k_cache` among them); no checkpoint stores a cache, so such a key is the same
    registry lookup as an attention module's."""
    diagnosis = diagnose_text("engine.log", CACHE_REGISTRY_LOOKUP)
    assert_reads(diagnosis, "config", first_error="indexer.k_cache'")


# An IDE's debugger stops on the exception and prints its class on a header line, then the
# message alone on the next: the reshape refusal carries no error word of its own there.
DEBUGGER_RESHAPE = """\
Exception has occurred: RuntimeError       (note: full exception trace is shown but execution is paused at: <module>)
shape '[4]' is invalid for input of size 8
  File "/workspace/trainer/losses.py", line 52, in reduce_across_ranks
    stacked = torch.cat([value.detach().view(4) for value in values])
"""

DEBUGGER_VIEW = """\
Exception has occurred: RuntimeError
view size is not compatible with input tensor's size and stride (at least one dimension spans across two contiguous subspaces). Use .reshape(...) instead.
"""


def test_a_reshape_refusal_printed_under_a_debugger_header_is_the_error() -> None:
    diagnosis = diagnose_text("debug.log", DEBUGGER_RESHAPE)
    assert_reads(diagnosis, "shape_mismatch", first_error="is invalid for input of size 8")


def test_a_view_refusal_printed_under_a_debugger_header_is_the_error() -> None:
    diagnosis = diagnose_text("debug.log", DEBUGGER_VIEW)
    assert_reads(diagnosis, "shape_mismatch", first_error="view size is not compatible")
