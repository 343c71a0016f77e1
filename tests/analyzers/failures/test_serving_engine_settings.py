"""Serving engines refusing the settings a pod or a paste handed them.

docs/labelling.md#a-port-variable-the-orchestrator-filled-with-an-address: a Service whose name
shares vLLM's prefix makes Kubernetes inject `VLLM_PORT=tcp://<address>:<port>`, and vLLM refuses
the address before the engine starts: `config`.
docs/labelling.md#a-ray-cluster-with-fewer-gpus-than-the-job-asks-for: vLLM's own executor
checks the parallel size against the GPUs the node shows: `config`, `driver_env` beside.
Under pydantic's `validation error for <Config>` headline the headline may stay the first error;
the detail line decides the rule.
docs/labelling.md#a-context-length-over-the-models-own: the context-length refusal keeps its
reading when a paste breaks the sentence after `the derived`.

Fixtures follow the shapes of `kubectl logs --previous` output, hard-wrapped as a blog or a
terminal pastes it, with values of our own.
"""

from __future__ import annotations

from tests.analyzers.excerpts import alternative_labels, assert_reads, diagnose_text, rules_of

PORT_VARIABLE_HOLDS_ADDRESS = """\
(APIServer pid=1) WARNING 02-03 04:05:06 [envs.py:1744] Unknown vLLM environment
variable detected: VLLM_SERVICE_HOST
(EngineCore pid=57) ERROR 02-03 04:05:19 [core.py:1108] EngineCore failed to start.
(EngineCore pid=57) ValueError: VLLM_PORT 'tcp://10.96.14.2:8000' appears to be a URI.
This may be caused by a Kubernetes service discovery issue,
"""


def test_a_port_variable_holding_a_service_address_is_config() -> None:
    diagnosis = diagnose_text("vllm.log", PORT_VARIABLE_HOLDS_ADDRESS)
    assert_reads(
        diagnosis,
        "config",
        first_error="appears to be a URI",
        rule="cfg.port_env_holds_service_address",
    )


PORT_VARIABLE_PRINTED = """\
(APIServer pid=1) WARNING 02-03 04:05:06 [envs.py:1744] Unknown vLLM environment
variable detected: VLLM_PORT_8000_TCP_ADDR
(APIServer pid=1) INFO 02-03 04:05:07 [api_server.py:1900] vLLM API server version 0.11.0
"""


def test_the_unknown_variable_warnings_alone_are_no_port_refusal() -> None:
    diagnosis = diagnose_text("vllm.log", PORT_VARIABLE_PRINTED)
    assert "cfg.port_env_holds_service_address" not in rules_of(diagnosis)


WORLD_OVER_NODE_GPUS = """\
(APIServer pid=1) pydantic_core._pydantic_core.ValidationError:
  1 validation error for ParallelConfig
  Value error, World size (4) is larger than the number of available GPUs (2) in this
  node. If this is intentional and you are using:
"""


def test_a_parallel_size_over_the_nodes_gpus_is_config() -> None:
    diagnosis = diagnose_text("vllm.log", WORLD_OVER_NODE_GPUS)
    assert diagnosis.category == "config", diagnosis.root_cause
    assert diagnosis.first_error is not None
    assert "ParallelConfig" in diagnosis.first_error.text or "World size (4)" in (
        diagnosis.first_error.text
    )
    assert "cfg.engine_world_size_over_node_gpus" in rules_of(diagnosis)
    assert "driver_env" in alternative_labels(diagnosis)


TENSOR_PARALLEL_OVER_NODE_GPUS = """\
(EngineCore pid=7) pydantic_core._pydantic_core.ValidationError: 1 validation error for ParallelConfig
  Value error, Tensor parallel size (4) cannot be larger than the number of available GPUs (2). [type=value_error]
"""


def test_a_tensor_parallel_size_over_the_nodes_gpus_is_the_same_refusal() -> None:
    # Newer releases check the tensor-parallel size alone and word the refusal their own way.
    diagnosis = diagnose_text("engine.log", TENSOR_PARALLEL_OVER_NODE_GPUS)
    assert diagnosis.category == "config", diagnosis.root_cause
    assert diagnosis.first_error is not None
    assert "ParallelConfig" in diagnosis.first_error.text or "Tensor parallel size (4)" in (
        diagnosis.first_error.text
    )
    assert "cfg.engine_world_size_over_node_gpus" in rules_of(diagnosis)
    assert "driver_env" in alternative_labels(diagnosis)


TENSOR_PARALLEL_SENTENCE_ALONE = """\
ValueError: Tensor parallel size (8) cannot be larger than the number of available GPUs (4).
"""


def test_the_tensor_parallel_refusal_alone_is_the_first_error() -> None:
    assert_reads(
        diagnose_text("engine.log", TENSOR_PARALLEL_SENTENCE_ALONE),
        "config",
        first_error="Tensor parallel size (8)",
        rule="cfg.engine_world_size_over_node_gpus",
        beside=["driver_env"],
    )


TENSOR_PARALLEL_AT_NODE_GPUS = """\
(EngineCore pid=7) Value error, Tensor parallel size (2) cannot be larger than the number of available GPUs (2).
"""


def test_a_tensor_parallel_size_equal_to_the_gpus_is_no_refusal() -> None:
    diagnosis = diagnose_text("engine.log", TENSOR_PARALLEL_AT_NODE_GPUS)
    assert "cfg.engine_world_size_over_node_gpus" not in rules_of(diagnosis)


WORLD_FITS_NODE = """\
INFO 02-03 04:05:06 [parallel.py:400] World size (2) fits the 8 GPUs available in this node
"""


def test_a_world_size_that_fits_is_no_refusal() -> None:
    diagnosis = diagnose_text("vllm.log", WORLD_FITS_NODE)
    assert "cfg.engine_world_size_over_node_gpus" not in rules_of(diagnosis)


CONTEXT_LENGTH_WRAPPED = """\
(APIServer pid=1) pydantic_core._pydantic_core.ValidationError:
  1 validation error for ModelConfig
  Value error, User-specified max_model_len (65536) is greater than the derived
  max_model_len (max_position_embeddings=8192 or model_max_length=None in model's
  config.json). To allow overriding this maximum, set the env var
"""


def test_a_wrapped_context_length_refusal_keeps_its_reading() -> None:
    diagnosis = diagnose_text("vllm.log", CONTEXT_LENGTH_WRAPPED)
    assert diagnosis.category == "config", diagnosis.root_cause
    assert diagnosis.first_error is not None
    assert "ModelConfig" in diagnosis.first_error.text or "max_model_len (65536)" in (
        diagnosis.first_error.text
    )
    assert "cfg.max_model_len_over_model" in rules_of(diagnosis)
