"""torch.compile runs that keep going after a part of the graph could not be compiled, and a
serving engine's fallback from a failed piecewise graph capture.

Dynamo's `Backend compiler exception` warning says the backend could not describe an op (a
data-dependent scalar read, a data-dependent output shape) and that the part runs eagerly: the
compile settings or the code's call do not fit, `config` with `other` beside it
(docs/labelling.md#a-compiler-backend-that-gives-up-on-part-of-a-graph). A graph-capture
fallback that quotes a caught AttributeError's message after `failed with error:` is the
missing-attribute reading, and the advice printed with it names no failure
(docs/labelling.md#device-error-advice-is-not-an-error). Excerpts in torchrun's and a serving
engine's formats, with values of our own.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

BACKEND_FALLBACK = """\
08:15:02    INFO Starting training loop (max_steps=20)
[rank1]:W0610 08:15:06.412000 90417 torch/_dynamo/exc.py:525] [3/0_1] Backend compiler exception
[rank1]:W0610 08:15:06.412000 90417 torch/_dynamo/exc.py:525] [3/0_1]   Explanation: Backend compiler `inductor` failed with aten._local_scalar_dense.default
[rank1]:W0610 08:15:06.412000 90417 torch/_dynamo/exc.py:525] [3/0_1]   Hint: Report an issue to the backend compiler repo.
[rank1]:W0610 08:15:06.412000 90417 torch/_dynamo/exc.py:525] [3/0_1]     While executing %item : [num_users=1] = call_method[target=item](args = (%select,), kwargs = {})
"""

FALLBACK_THEN_OOM = """\
[rank0]:W0610 08:15:06.412000 90416 torch/_dynamo/exc.py:525] [3/0_1] Backend compiler exception
[rank0]:W0610 08:15:06.412000 90416 torch/_dynamo/exc.py:525] [3/0_1]   Explanation: Backend compiler `inductor` failed with aten.nonzero.default
[rank0]: Traceback (most recent call last):
[rank0]:   File "/srv/train/loop.py", line 212, in step
[rank0]:     loss.backward()
[rank0]: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 6.00 GiB. GPU 0 has a total capacity of 79.10 GiB of which 2.02 GiB is free.
"""

HINT_ONLY = """\
[rank0]:W0610 08:15:06.412000 90416 torch/_dynamo/exc.py:525] [3/0_1]   Hint: Report an issue to the backend compiler repo.
[rank0]:I0610 08:15:07.001000 90416 torch/_dynamo/symbolic_convert.py:402] [3/0_1] Graph break in user code at /srv/train/experts.py:61
step 1 loss 2.41
"""

PIECEWISE_FALLBACK = """\
Piecewise graph capture is an experimental feature.
To work around this error, add --disable-piecewise-graph to the launch command.
[2026-05-02 10:20:41 TP3] Piecewise CUDA Graph failed with error: 'DemoForwardContext' object has no attribute 'token_count'
To work around this error, add --disable-piecewise-graph to the launch command.
[2026-05-02 10:20:41 TP1] Scheduler hit an exception: Traceback (most recent call last):
  File "/srv/engine/managers/scheduler.py", line 311, in init_worker
    self.worker = ModelWorker(**kwargs)
"""

PIECEWISE_UNSET = PIECEWISE_FALLBACK.replace("'DemoForwardContext'", "'NoneType'")


def test_a_backend_that_gives_up_on_part_of_the_graph_is_a_compile_setting() -> None:
    """Dynamo's warning is the only notable line: before, no rule read it and the log came out
    a silent hang."""
    diagnosis = diagnose_text("train.log", BACKEND_FALLBACK)
    assert_reads(
        diagnosis,
        "config",
        first_error="Backend compiler exception",
        rule="cfg.dynamo_backend_compiler_fallback",
        beside=("other",),
    )


def test_a_real_failure_after_the_fallback_warning_keeps_its_own_reading() -> None:
    diagnosis = diagnose_text("rank0.log", FALLBACK_THEN_OOM)
    assert_reads(diagnosis, "oom", first_error="out of memory")


def test_the_hint_and_a_graph_break_note_are_no_failure() -> None:
    diagnosis = diagnose_text("rank0.log", HINT_ONLY)
    assert "cfg.dynamo_backend_compiler_fallback" not in rules_of(diagnosis)


def test_a_capture_fallback_quoting_a_missing_attribute_is_that_attribute() -> None:
    """The engine's fallback line carries the caught message without its exception class; the
    advice printed around it names no failure and is not the first error."""
    diagnosis = diagnose_text("server.log", PIECEWISE_FALLBACK)
    assert_reads(
        diagnosis,
        "config",
        first_error="has no attribute 'token_count'",
        rule="cfg.missing_attribute",
    )


def test_a_capture_fallback_on_an_unset_value_is_not_a_missing_attribute() -> None:
    diagnosis = diagnose_text("server.log", PIECEWISE_UNSET)
    assert "cfg.missing_attribute" not in rules_of(diagnosis)
    assert diagnosis.first_error is not None
    assert "work around" not in diagnosis.first_error.text
