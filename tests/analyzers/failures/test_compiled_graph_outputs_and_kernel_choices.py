"""Compiled multi-rank jobs that stop on a CUDA-graph output read too late, on an autotuner
with no kernel to pick, on a Triton launch handed memory its device cannot reach, and on a
Triton-Ascend pass that failed on the kernel.

- A CUDA-graph output of torch.compile read after a later replay reused its memory is the
  compile mode not fitting the loop's steps, `config` with `other` beside it
  (docs/labelling.md#a-cuda-graph-output-that-a-later-replay-overwrote).
- inductor's `NoValidChoicesError` is the kernel generation for one op failing, `operator`
  with `other` and `config` beside it (docs/labelling.md#operator-installation-or-platform-limit).
- Triton's `Pointer argument (at N) cannot be accessed from Triton` is the tensor's placement,
  `config` with `operator` beside it (docs/labelling.md#a-ranks-device-placement).
- Triton-Ascend's stage headline carrying `PassManager::run failed` on its own line is the
  pass's report, the kernel's failure (docs/labelling.md#wrappers).

Excerpts in torchrun's and serving engines' formats, with values of our own.
"""

from __future__ import annotations

from tests.analyzers.excerpts import alternative_labels, assert_reads, diagnose_text, rules_of

OVERWRITTEN_OUTPUT = """\
[rank1]V0611 08:10:02.114000 140233 torch/_inductor/cudagraph_trees.py:2229] [__cudagraphs] dealloc_current_path_weakrefs
[rank1]V0611 08:10:02.115000 140233 torch/_inductor/cudagraph_trees.py:1850] [__cudagraphs] CUDAGraphTreeManager end run mode=CompilationMode.BACKWARD path_state=ExecutionState.WARMUP
[rank1] Traceback (most recent call last):
[rank1]   File "/srv/train/run.py", line 212, in <module>
[rank1]     loop.step(batch)
[rank1]   File "/srv/train/schedule.py", line 97, in backward_step
[rank1]     torch.autograd.backward(outputs, grads)
[rank1] RuntimeError: Error: accessing tensor output of CUDAGraphs that has been overwritten by a subsequent run. Stack trace: File "/srv/train/blocks.py", line 51, in forward. To prevent overwriting, clone the tensor outside of torch.compile() or call torch.compiler.cudagraph_mark_step_begin() before each model invocation.
E0611 08:10:05.330000 140100 torch/distributed/elastic/multiprocessing/api.py:869] failed (exitcode: 1) local_rank: 1 (pid: 140233) of binary: /opt/venv/bin/python
"""

MARKED_STEPS = """\
[rank1]V0611 08:10:02.114000 140233 torch/_inductor/cudagraph_trees.py:2229] [__cudagraphs] dealloc_current_path_weakrefs
INFO: calling torch.compiler.cudagraph_mark_step_begin() so outputs are not overwritten by a subsequent run
step 40 loss 2.07
"""

NO_KERNEL_CHOICE = """\
(job, pid=7710) [rank3]:   File "/opt/venv/lib/python3.11/site-packages/torch/_inductor/select_algorithm.py", line 1357, in __call__
(job, pid=7710) [rank3]:     raise NoValidChoicesError(
(job, pid=7710) [rank3]: torch._inductor.exc.LoweringException: NoValidChoicesError: No choices to select, please consider adding ATEN into max_autotune_gemm_backends config (defined in torch/_inductor/config.py) to allow at least one choice.
(job, pid=7710) [rank3]:   target: flex_attention_backward
"""

AUTOTUNE_TABLE = """\
AUTOTUNE mm(4096x1024, 1024x4096)
  triton_mm_12 0.2113 ms 100.0%
  mm 0.2350 ms 89.9%
SingleProcess AUTOTUNE takes 9.1127 seconds
step 1 loss 3.41
"""

POINTER_REFUSED = """\
(Worker rank=1 pid=5521) ERROR 06-11 09:20:44 executor.py:301]   File "/opt/venv/lib/python3.12/site-packages/triton/backends/nvidia/driver.py", line 529, in __call__
(Worker rank=1 pid=5521) ERROR 06-11 09:20:44 executor.py:301]     self.launch(gridX, gridY, gridZ, stream, function, *args)
(Worker rank=1 pid=5521) ERROR 06-11 09:20:44 executor.py:301] ValueError: Pointer argument (at 2) cannot be accessed from Triton (cpu tensor?)
"""

POINTER_NOTE = """\
DEBUG triton launcher: pointer argument 0 is on cuda:1, current device cuda:1
step 3 loss 1.88
"""

PASS_REPORT_ON_HEADLINE = """\
[2026-06-11 09:40:12 TP1] Scheduler hit an exception: Traceback (most recent call last):
  File "/opt/venv/lib/python3.11/site-packages/triton/compiler/compiler.py", line 297, in compile
    raise MLIRCompilationError(stage_name, error_detail)
triton.compiler.errors.MLIRCompilationError:
[ConvertTritonIRToLinalgIR] encounters error: PassManager::run failed
"""


def test_a_cuda_graph_output_read_after_a_later_replay_is_the_compile_mode() -> None:
    """Before, the refusal matched no rule and the log came out `other` at the floor."""
    diagnosis = diagnose_text("rank1.log", OVERWRITTEN_OUTPUT)
    assert_reads(
        diagnosis,
        "config",
        first_error="overwritten by a subsequent run",
        rule="cfg.cudagraph_output_overwritten",
    )
    assert "other" in alternative_labels(diagnosis)


def test_a_note_about_marking_steps_is_no_failure() -> None:
    diagnosis = diagnose_text("rank1.log", MARKED_STEPS)
    assert "cfg.cudagraph_output_overwritten" not in rules_of(diagnosis)


def test_an_autotuner_without_a_kernel_to_pick_is_the_op() -> None:
    """Before, the LoweringException matched no rule and came out at the fallback's floor."""
    diagnosis = diagnose_text("train.log", NO_KERNEL_CHOICE)
    assert_reads(
        diagnosis,
        "operator",
        first_error="NoValidChoicesError: No choices to select",
        rule="op.inductor_no_valid_choices",
    )
    assert {"other", "config"} <= set(alternative_labels(diagnosis))


def test_the_autotuner_timing_table_is_no_failure() -> None:
    diagnosis = diagnose_text("train.log", AUTOTUNE_TABLE)
    assert "op.inductor_no_valid_choices" not in rules_of(diagnosis)


def test_a_triton_launch_refusing_a_pointer_is_the_placement() -> None:
    """Before, the ValueError matched no rule and came out `other`."""
    diagnosis = diagnose_text("worker.log", POINTER_REFUSED)
    assert_reads(
        diagnosis,
        "config",
        first_error="cannot be accessed from Triton",
        rule="cfg.triton_pointer_unreachable",
    )
    assert "operator" in alternative_labels(diagnosis)


def test_a_launcher_note_naming_the_devices_is_no_failure() -> None:
    diagnosis = diagnose_text("worker.log", POINTER_NOTE)
    assert "cfg.triton_pointer_unreachable" not in rules_of(diagnosis)


def test_a_pass_report_on_the_stage_headline_line_is_the_kernels_failure() -> None:
    """Before, the joined line was read only as the compile block's headline (a wrapper),
    below the band a reason earns."""
    diagnosis = diagnose_text("server.log", PASS_REPORT_ON_HEADLINE)
    assert_reads(
        diagnosis,
        "operator",
        first_error="PassManager::run failed",
        rule="op.kernel_pass_pipeline_failed",
    )
