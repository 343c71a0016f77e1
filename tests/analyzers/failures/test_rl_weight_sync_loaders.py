"""Engine-side weight loaders that fail when an RL trainer pushes new weights.

Two loader checks (docs/labelling.md#config-driver_env-or-weight_load): torch's narrow() refusing
a start offset past the axis the loader slices (the sibling of its start + length bound), and a
mixture-of-experts loader refusing a parameter whose dimensions belong to a kernel layout rather
than the checkpoint layout it expects. The excerpts follow the engines' real shapes (worker
prefixes, the loader frames above the exception) with values of our own.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

NARROW_DURING_UPDATE = """\
(RolloutServer pid=5120) (Worker_TP1 pid=5207) ERROR 07-02 10:11:12 [multiproc_executor.py:700]   File "/opt/venv/lib/python3.11/site-packages/vllm/model_executor/layers/fused_moe/layer.py", line 980, in _load_w13
(RolloutServer pid=5120) (Worker_TP1 pid=5207) ERROR 07-02 10:11:12 [multiproc_executor.py:700]     loaded_weight = loaded_weight.narrow(
(RolloutServer pid=5120) (Worker_TP1 pid=5207) ERROR 07-02 10:11:12 [multiproc_executor.py:700] IndexError: start out of range (expected to be in range of [-512, 512], but got 2048)
(RolloutServer pid=5120) (Worker_TP2 pid=5210) ERROR 07-02 10:11:12 [multiproc_executor.py:700] WorkerProc hit an exception.
"""


def test_a_slice_start_past_its_axis_is_the_loader_that_failed() -> None:
    diagnosis = diagnose_text("rollout.log", NARROW_DURING_UPDATE)
    assert_reads(
        diagnosis,
        "weight_load",
        first_error="start out of range",
        rule="wl.narrow_start_out_of_range",
        beside=("shape_mismatch",),
    )
    assert diagnosis.confidence < 0.8


def test_a_dimension_index_out_of_range_keeps_its_shape_reading() -> None:
    text = "IndexError: Dimension out of range (expected to be in range of [-1, 0], but got 1)\n"
    diagnosis = diagnose_text("train.log", text)
    assert "wl.narrow_start_out_of_range" not in rules_of(diagnosis)
    assert diagnosis.category == "shape_mismatch"


# A paste that wraps torch's message puts the range on the line below the headline, and a
# quote may stop at the headline: the headline alone still names the check.
WRAPPED_NARROW = """\
[2026-05-06 07:08:09 TP7] Scheduler hit an exception: Traceback (most recent call last):
  File "/opt/sglang/python/sglang/srt/layers/moe/fused_moe_triton/layer.py", line 640, in _load_w2
    loaded_weight = loaded_weight.narrow(shard_dim, shard_size * tp_rank, shard_size)
IndexError: start out of range
(expected to be in range of [-48, 48], but got 56)
[2026-05-06 07:08:10] Received sigquit from a child process. It usually means the child failed.
"""


def test_a_slice_start_headline_with_its_range_wrapped_below_is_the_loader() -> None:
    diagnosis = diagnose_text("server.log", WRAPPED_NARROW)
    assert_reads(
        diagnosis,
        "weight_load",
        first_error="IndexError: start out of range",
        rule="wl.narrow_start_out_of_range",
        beside=("shape_mismatch",),
    )


def test_a_quoted_slice_start_headline_alone_is_the_loader() -> None:
    text = "[2026-05-06 07:08:09 TP3] IndexError: start out of range\n"
    diagnosis = diagnose_text("server.log", text)
    assert diagnosis.category == "weight_load"
    assert "wl.narrow_start_out_of_range" in rules_of(diagnosis)


def test_a_sentence_that_goes_on_after_the_same_words_is_not_the_check() -> None:
    text = "WARNING sampler: window start out of range, clamping to 0\n"
    diagnosis = diagnose_text("train.log", text)
    assert "wl.narrow_start_out_of_range" not in rules_of(diagnosis)


EXPERT_LAYOUT = """\
(Worker_TP0 pid=8812) ERROR 09-01 12:00:01 [multiproc_executor.py:900]   File "/opt/venv/lib/python3.12/site-packages/vllm/model_executor/layers/fused_moe/layer.py", line 1120, in _load_w13
(Worker_TP0 pid=8812) ERROR 09-01 12:00:01 [multiproc_executor.py:900]     shard_dim = self._get_hidden_dim(shard_dim, expert_data.ndim)
(Worker_TP0 pid=8812) ERROR 09-01 12:00:01 [multiproc_executor.py:900] ValueError: shard_dim=0 is not a valid data dimension for a 3D tensor (expected 1 or 2)
"""


def test_an_expert_loader_refusing_a_kernel_layout_is_a_loader_failure_with_config_beside() -> None:
    diagnosis = diagnose_text("rollout.log", EXPERT_LAYOUT)
    assert_reads(
        diagnosis,
        "weight_load",
        first_error="is not a valid data dimension",
        rule="wl.expert_loader_layout_refused",
        beside=("config",),
    )
    assert diagnosis.confidence < 0.8


def test_a_line_that_only_names_the_shard_axis_is_no_failure() -> None:
    text = "INFO loading expert weights with shard_dim=0 into a 3D tensor\n"
    diagnosis = diagnose_text("rollout.log", text)
    assert "wl.expert_loader_layout_refused" not in rules_of(diagnosis)


# SGLang's model runner logs whatever an online weight update raised on one line, after a
# headline of its own. The inner text is read by its own rule when one knows it; a line whose
# inner text no rule knows (or was cut) still says the pushed weights did not go in.
ONLINE_UPDATE_CUT = """\
(SGLangEngine pid=4410) [2026-02-03 04:05:05] INFO:     10.0.0.5:40312 - "POST /update_weights_from_distributed HTTP/1.1" 200 OK
(TrainActor pid=4602) 
[trainer-pp_0] Update weights: 4it [00:00,  6.10it/s]
(SGLangEngine pid=4410) [2026-02-03 04:05:06 DP3 TP3] Failed to update parameter online: start out of range (expected to be in
"""


def test_an_online_update_headline_alone_is_the_weights_that_did_not_go_in() -> None:
    diagnosis = diagnose_text("rollout.log", ONLINE_UPDATE_CUT)
    assert_reads(
        diagnosis,
        "weight_load",
        first_error="Failed to update parameter online",
        rule="wl.online_weight_update_failed",
        beside=("shape_mismatch",),
    )
    assert diagnosis.confidence < 0.8


def test_an_online_update_headline_names_a_missing_parameter() -> None:
    text = (
        "(SGLangEngine pid=7311) [2026-02-03 04:05:06 DP2 TP2] Failed to update parameter online: "
        "'model.layers.3.mlp.experts.w2_weight'. The full weights of the ModelRunner are partially "
        "updated. Please discard the whole weights.\n"
    )
    diagnosis = diagnose_text("rollout.log", text)
    assert diagnosis.category == "weight_load"
    assert "wl.online_weight_update_failed" in rules_of(diagnosis)


def test_an_online_update_headline_yields_to_the_inner_loader_check() -> None:
    text = (
        "[2026-02-03 04:05:06 TP1] Failed to update parameter online: start out of range "
        "(expected to be in range of [-96, 96], but got 384). The full weights of the ModelRunner "
        "are partially updated. Please discard the whole weights.\n"
    )
    diagnosis = diagnose_text("rollout.log", text)
    assert diagnosis.category == "weight_load"
    assert "wl.narrow_start_out_of_range" in rules_of(diagnosis)
    assert diagnosis.evidence[0].rule == "wl.narrow_start_out_of_range"


def test_a_successful_online_update_is_no_failure() -> None:
    text = "[2026-02-03 04:05:06 TP0] Succeeded to update parameter online.\n"
    diagnosis = diagnose_text("rollout.log", text)
    assert "wl.online_weight_update_failed" not in rules_of(diagnosis)


# Engines attach a weight_loader to each parameter their layers create; a parameter re-made
# after the first load has none when weights arrive again.
RELOAD_WITHOUT_LOADER = """\
(Sampler pid=3310) (Worker_TP0 pid=3402) ERROR 04-05 06:07:08 [multiproc_executor.py:720]   File "/opt/venv/lib/python3.11/site-packages/vllm/model_executor/models/qwen3_moe.py", line 610, in load_weights
(Sampler pid=3310) (Worker_TP0 pid=3402) ERROR 04-05 06:07:08 [multiproc_executor.py:720]     weight_loader = param.weight_loader
(Sampler pid=3310) (Worker_TP0 pid=3402) ERROR 04-05 06:07:08 [multiproc_executor.py:720] AttributeError: 'Parameter' object has no attribute 'weight_loader'
"""


def test_a_parameter_without_its_weight_loader_is_the_loader_that_failed() -> None:
    diagnosis = diagnose_text("sampler.log", RELOAD_WITHOUT_LOADER)
    assert_reads(
        diagnosis,
        "weight_load",
        first_error="has no attribute 'weight_loader'",
        rule="wl.parameter_without_weight_loader",
        beside=("config",),
    )
    assert diagnosis.confidence < 0.8


def test_a_config_object_lacking_the_attribute_keeps_its_config_reading() -> None:
    text = "AttributeError: 'DemoConfig' object has no attribute 'weight_loader'\n"
    diagnosis = diagnose_text("train.log", text)
    assert "wl.parameter_without_weight_loader" not in rules_of(diagnosis)
    assert diagnosis.category == "config"
