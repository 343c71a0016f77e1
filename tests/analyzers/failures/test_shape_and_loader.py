"""Shape errors as users paste them, and where they were raised.

A reshape error keeps its meaning when a chat tool or a bug form turned the quotes
typographic and the spaces into tabs. A size mismatch raised by a weight loader (a plugin's
or the model's own) is a checkpoint that does not fit its sharded parameter, not a forward
pass going wrong; the same mismatch in a forward stays a shape mismatch.
"""

from __future__ import annotations

from tests.analyzers.excerpts import diagnose_text

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

FORWARD_MISMATCH = """\
Traceback (most recent call last):
  File "/srv/app/model/attention.py", line 88, in forward
    scores = scores + bias
RuntimeError: The size of tensor a (1536) must match the size of tensor b (3072) at non-singleton dimension 0
"""


def test_typographic_quotes_and_tabs_still_read_as_a_reshape_error() -> None:
    diagnosis = diagnose_text("stress.log", TYPOGRAPHIC_VIEW)
    assert diagnosis.category == "shape_mismatch"
    assert diagnosis.first_error is not None
    assert "is invalid for input of size" in diagnosis.first_error.text


def test_size_mismatch_raised_in_a_weight_loader_is_weight_load() -> None:
    diagnosis = diagnose_text("serve.log", LOADER_COPY)
    assert diagnosis.category == "weight_load"
    assert diagnosis.first_error is not None
    assert "size of tensor a (1536)" in diagnosis.first_error.text


def test_same_mismatch_in_a_forward_stays_shape_mismatch() -> None:
    diagnosis = diagnose_text("train.log", FORWARD_MISMATCH)
    assert diagnosis.category == "shape_mismatch"
