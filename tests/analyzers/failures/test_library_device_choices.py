"""A model library that accepts only the CPU and CUDA devices it lists refuses an NPU job's
device before any model is built: `config` (the release lacks the feature), `other` beside it.

docs/labelling.md#config-driver_env-or-weight_load. The fixture is a RAG service's traceback on
an inference card, written in Python's traceback format; paths and names are our own.
"""

from __future__ import annotations

from tests.analyzers.excerpts import diagnose_text

DEVICE_REFUSED = """\
Traceback (most recent call last):
  File "/srv/kb/rag/embedder.py", line 91, in __init__
    self._client = EmbedModel(model_name_or_path="/srv/kb/res/demo-embed-base", use_fp16=True, device="npu:0")
  File "/opt/conda/envs/kb/lib/python3.10/site-packages/demo_embed/models/embedding.py", line 52, in __init__
    raise ValueError("Please input valid device: 'cpu', 'cuda', 'cuda:0', '0' !")
ValueError: Please input valid device: 'cpu', 'cuda', 'cuda:0', '0' !
"""

# A library that lists NPU among its devices, at start-up, then fails for another reason.
DEVICE_LISTED = """\
INFO supported devices: 'cpu', 'cuda', 'npu'
Traceback (most recent call last):
  File "/srv/kb/rag/embedder.py", line 40, in load
    dim = cfg["hidden_size"]
KeyError: 'hidden_size'
"""


def test_a_library_that_knows_only_cpu_and_cuda_refusing_the_device_is_config() -> None:
    diagnosis = diagnose_text("rag_server.log", DEVICE_REFUSED)
    assert diagnosis.category == "config"
    assert diagnosis.first_error is not None
    assert diagnosis.first_error.text.startswith("ValueError: Please input valid device")
    assert "other" in {alt.category for alt in diagnosis.alternatives}


def test_a_device_list_that_names_npu_is_no_refusal() -> None:
    diagnosis = diagnose_text("rag_server.log", DEVICE_LISTED)
    assert "cfg.library_device_choices_refused" not in {
        e.rule for e in diagnosis.evidence if e.rule
    }
    assert diagnosis.first_error is not None
    assert "KeyError: 'hidden_size'" in diagnosis.first_error.text
