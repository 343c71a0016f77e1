"""llama.cpp's own logger and its model loader's checks of a GGUF file.

docs/labelling.md#config-driver_env-or-weight_load: llama.cpp (and llama-box, which a serving
platform runs for GGUF models) writes a level letter after the time since the process started
(`0.02.118.406 E srv load_model: ...`). An `E` line is the writer's error even when its words
hold no error word, so it is read like any levelled line. The loader's checks of a file's
tensors against the model it builds (a projector of another width, a tensor of another shape,
another count of tensors) are checks while weights are read: `weight_load`, with `config` (the
file set or release) beside it.

Fixtures are written in the logger's format; model names, sizes and times are our own.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

# A reranker deployed from a folder that also holds another model's projector file.
PROJECTOR_WIDTH = """\
0.00.001.204 I arguments  : llama-box --host 0.0.0.0 --rerank --port 40112 --model /srv/models/demo-reranker/demo-reranker-f16.gguf
0.00.001.206 I version    : v0.0.140 (a1b2c3d)
0.02.118.391 I srv                load_model: loading model '/srv/models/demo-reranker/demo-reranker-f16.gguf'
0.02.118.406 E srv                load_model: multimodal projector embedding length is not equal to the model, n_embd_clip = 2048, n_embd = 768
"""

# llama.cpp's own loader refusing a GGUF converted by a release that named the output head
# with another vocabulary size.
TENSOR_SHAPE = """\
llama_model_loader: loaded meta data with 27 key-value pairs and 291 tensors from /srv/models/demo-0.5b-q8_0.gguf (version GGUF V3 (latest))
llama_model_load: error loading model: check_tensor_dims: tensor 'output.weight' has wrong shape; expected   896, 151936, got   896, 151646,     1,     1
llama_load_model_from_file: failed to load model
"""

# The same logger's INFO and WARNING lines are not failures, whatever their words.
QUIET_SERVER = """\
[2025-06-02 10:14:07.120331] I srv                      main: loading model
[2025-06-02 10:14:09.802114] W srv                load_model: projector embedding length differs from the draft model, ignoring the draft
[2025-06-02 10:14:09.802560] I srv                      main: server is listening on 0.0.0.0:40112
"""


def test_a_projector_of_another_width_is_a_load_failure_read_from_the_e_level() -> None:
    diagnosis = diagnose_text("serve/llama-box.log", PROJECTOR_WIDTH)
    assert diagnosis.category == "weight_load"
    assert diagnosis.confidence >= 0.8
    assert diagnosis.first_error is not None
    assert "multimodal projector embedding length is not equal" in diagnosis.first_error.text
    assert "config" in {alt.category for alt in diagnosis.alternatives}


def test_a_tensor_of_another_shape_is_a_load_failure() -> None:
    diagnosis = diagnose_text("serve/llama-server.log", TENSOR_SHAPE)
    assert_reads(
        diagnosis,
        "weight_load",
        first_error="check_tensor_dims: tensor 'output.weight' has wrong shape",
    )


def test_the_loggers_info_and_warning_lines_are_no_failure() -> None:
    diagnosis = diagnose_text("serve/llama-box.log", QUIET_SERVER)
    assert diagnosis.first_error is None
    assert diagnosis.category != "weight_load"
