"""torch.compile failures of multi-rank jobs that come from the compiler's budget, its generated
kernels' input checks and its own internal checks.

A frame that recompiled past dynamo's limit is dropped to eager with a glog warning: the compile
settings do not fit the model, `config` with `other` beside it
(docs/labelling.md#a-compiler-that-gives-up-recompiling-a-frame). A generated kernel whose
input check finds another shape or layout is `shape_mismatch`
(docs/labelling.md#a-compiled-kernel-handed-an-input-of-another-shape). Dynamo's and inductor's
own internal failures are a compiler defect, `other` with `config` beside it
(docs/labelling.md#a-compiler-that-fails-its-own-checks). Excerpts in torchrun's and serving
engines' formats, with values of our own.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

RECOMPILE_LIMIT = """\
[2026-03-12 10:02:40 TP5] Capture cuda graph begin. This can take up to several minutes.
[rank5]:W0312 10:04:55.120000 8812 torch/_dynamo/convert_frame.py:964] [3/8] torch._dynamo hit config.recompile_limit (8)
[rank5]:W0312 10:04:55.120000 8812 torch/_dynamo/convert_frame.py:964] [3/8]    function: 'forward' (/srv/engine/models/decoder.py:311)
[rank5]:W0312 10:04:55.120000 8812 torch/_dynamo/convert_frame.py:964] [3/8]    last reason: 3/7: L['self'].block_index == 7
[2026-03-12 10:06:18 TP5] Capture cuda graph end. Time elapsed: 98.20 s
"""

RECOMPILE_LIMIT_THEN_OOM = """\
[rank1]:W0312 10:04:55.120000 8812 torch/_dynamo/convert_frame.py:964] [3/8] torch._dynamo hit config.recompile_limit (8)
[rank1]:W0312 10:04:55.120000 8812 torch/_dynamo/convert_frame.py:964] [3/8]    last reason: 3/7: L['x'].size()[0] == 4096
[rank1]: Traceback (most recent call last):
[rank1]:   File "/srv/train/loop.py", line 140, in step
[rank1]:     loss.backward()
[rank1]: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 3.50 GiB. GPU 1 has a total capacity of 79.10 GiB of which 1.21 GiB is free.
"""

RECOMPILE_LIMIT_RAISED = """\
[rank0]: Traceback (most recent call last):
[rank0]:   File "/srv/train/loop.py", line 98, in step
[rank0]:     out = model(batch)
[rank0]: torch._dynamo.exc.FailOnRecompileLimitHit: recompile_limit reached with fullgraph=True. Excessive recompilations can degrade performance due to the compilation overhead of each recompilation.
"""

RAISED_LIMIT_NOTE = """\
INFO 03-12 10:00:01 setting torch._dynamo.config.cache_size_limit = 64 for the warm-up buckets
[rank0]:I0312 10:04:11.003000 8812 torch/_dynamo/guards.py:2715] [3/1] Recompiling function forward: tensor L['x'] size mismatch at index 0
step 20 loss 1.93
"""

KERNEL_INPUT_CHECK = """\
[rank1]: Traceback (most recent call last):
[rank1]:   File "/tmp/torchinductor_svc/q7/cq7mz2kd4hxbwr5t2n3vyl6o3xgqzxnkqkzra4qf3yb2t7c4hdwz.py", line 52, in call
[rank1]:     assert_size_stride(primals_3, (4096, 1, 2048), (2048, 8388608, 1))
[rank1]: AssertionError: expected size 1024==4096, stride 2048==2048 at dim=0
E0312 11:20:08.551000 9120 torch/distributed/elastic/multiprocessing/api.py:869] failed (exitcode: 1) local_rank: 1 (pid: 9141) of binary: /opt/venv/bin/python
"""

OTHER_ASSERTION = """\
[rank0]: Traceback (most recent call last):
[rank0]:   File "/srv/train/data.py", line 77, in collate
[rank0]:     assert batch.device.type == "cuda", batch.device
[rank0]: AssertionError: expected a tensor on cuda:0
"""

INDUCTOR_PASS_ASSERTION = """\
(Worker_TP3 pid=7720) ERROR 03-12 12:01:40 [multiproc_executor.py:962] WorkerProc hit an exception.
(Worker_TP3 pid=7720) ERROR 03-12 12:01:40 [multiproc_executor.py:962] Traceback (most recent call last):
(Worker_TP3 pid=7720) ERROR 03-12 12:01:40 [multiproc_executor.py:962]   File "/opt/venv/lib/python3.12/site-packages/torch/_inductor/fx_passes/post_grad.py", line 362, in post_grad_passes
(Worker_TP3 pid=7720) ERROR 03-12 12:01:40 [multiproc_executor.py:962]     GraphTransformObserver(gm, "reinplace_inplaceable_ops").apply_graph_pass(
(Worker_TP3 pid=7720) ERROR 03-12 12:01:40 [multiproc_executor.py:962] torch._inductor.exc.InductorError: AssertionError: mutated input was not copied back
(EngineCore_DP0 pid=7601) ERROR 03-12 12:01:40 [core.py:1108] RuntimeError: Worker failed with error 'AssertionError: mutated input was not copied back', please check the stack trace above for the root cause
"""

GUARD_FAILURE = """\
[rank2]:E0312 12:30:02.417000 5521 torch/_guards.py:283] [7/1] Error while creating guard:
[rank2]:E0312 12:30:02.417000 5521 torch/_guards.py:283] [7/1] Name: "L['self'].router.top_k"
[rank2]:E0312 12:30:02.417000 5521 torch/_guards.py:283] [7/1]     Create Function: CONSTANT_MATCH
[rank2]: torch._dynamo.exc.InternalTorchDynamoError: NameError: name 'L' is not defined
"""

INDUCTOR_BUILD = """\
[rank0]: torch._inductor.exc.InductorError: CppCompileError: C++ compile error
[rank0]: /tmp/torchinductor_svc/ab/cab.cpp:4:10: fatal error: Python.h: No such file or directory
"""


def test_a_frame_past_its_recompile_limit_is_a_compile_setting() -> None:
    """The only notable line is dynamo's glog warning: before, no line was read at all and the
    log came out a silent hang."""
    diagnosis = diagnose_text("server.log", RECOMPILE_LIMIT)
    assert_reads(
        diagnosis,
        "config",
        first_error="hit config.recompile_limit (8)",
        rule="cfg.dynamo_recompile_limit",
        beside=("other",),
    )


def test_a_real_failure_after_the_limit_warning_keeps_its_own_reading() -> None:
    diagnosis = diagnose_text("rank1.log", RECOMPILE_LIMIT_THEN_OOM)
    assert_reads(diagnosis, "oom", first_error="out of memory")


def test_a_limit_the_mode_turns_into_an_exception_reads_the_same() -> None:
    diagnosis = diagnose_text("rank0.log", RECOMPILE_LIMIT_RAISED)
    assert_reads(
        diagnosis,
        "config",
        first_error="FailOnRecompileLimitHit",
        rule="cfg.dynamo_recompile_limit",
    )


def test_raising_the_limit_and_a_recompile_note_are_no_failure() -> None:
    diagnosis = diagnose_text("rank0.log", RAISED_LIMIT_NOTE)
    assert "cfg.dynamo_recompile_limit" not in rules_of(diagnosis)


def test_a_generated_kernel_handed_another_shape_is_a_shape_mismatch() -> None:
    diagnosis = diagnose_text("launcher.log", KERNEL_INPUT_CHECK)
    assert_reads(
        diagnosis,
        "shape_mismatch",
        first_error="expected size 1024==4096",
        rule="shape.compiled_kernel_input_check",
        beside=("other",),
    )


def test_the_older_dimension_count_wording_reads_the_same() -> None:
    text = KERNEL_INPUT_CHECK.replace(
        "expected size 1024==4096, stride 2048==2048 at dim=0", "wrong number of dimensions"
    )
    diagnosis = diagnose_text("launcher.log", text)
    assert_reads(diagnosis, "shape_mismatch", first_error="wrong number of dimensions")


def test_an_assertion_that_names_another_check_is_not_a_kernel_input_check() -> None:
    diagnosis = diagnose_text("rank0.log", OTHER_ASSERTION)
    assert "shape.compiled_kernel_input_check" not in rules_of(diagnosis)


def test_an_inductor_pass_assertion_is_a_compiler_defect() -> None:
    diagnosis = diagnose_text("serve.log", INDUCTOR_PASS_ASSERTION)
    assert_reads(
        diagnosis,
        "other",
        first_error="InductorError: AssertionError",
        rule="framework.compiler_internal_check",
        beside=("config",),
    )
    assert diagnosis.confidence >= 0.2


def test_a_guard_that_could_not_be_built_is_a_compiler_defect_from_its_first_record() -> None:
    diagnosis = diagnose_text("rank2.log", GUARD_FAILURE)
    assert_reads(
        diagnosis,
        "other",
        first_error="Error while creating guard",
        rule="framework.compiler_internal_check",
    )


def test_an_inductor_kernel_build_keeps_its_own_reading() -> None:
    diagnosis = diagnose_text("rank0.log", INDUCTOR_BUILD)
    assert "framework.compiler_internal_check" not in rules_of(diagnosis)
