"""Logs pasted through a page or an editor that indented or double-spaced every line, or
copied out of a page's source with its HTML escaping, are read like the log the program
wrote."""

from __future__ import annotations

import html

import pytest

from analyzers.formats.paste import PLAIN, PasteLayout, learn_paste_layout
from tests.analyzers.excerpts import assert_reads, diagnose_text

TRACEBACK = """\
[rank3]: Traceback (most recent call last):
[rank3]:   File "/workspace/train.py", line 212, in <module>
[rank3]:     main()
[rank3]:   File "/workspace/train.py", line 180, in main
[rank3]:     loss = model(batch).loss
[rank3]: RuntimeError: NPU out of memory. Tried to allocate 3.50 GiB (NPU 3; 60.96 GiB total capacity; 57.10 GiB already allocated; 57.10 GiB current active; 1.02 GiB free; 58.30 GiB reserved in total by PyTorch)
"""

DEVICE_BLOCK = """\
RuntimeError: call aclnnGroupedMatmul failed, detail:EZ1001: [PID: 7311] 2026-05-02-10:41:07.118.204 AclNN_Parameter_Error(EZ1001): Tensor x not implemented for DT_INT8, should be in dtype support list [DT_FLOAT16, DT_BFLOAT16].
        TraceBack (most recent call last):
        Check param failed
        GroupedMatmul check dtype failed
"""

# A device block whose headline says only what failed; the reason sits on the lines below.
REASON_BELOW = """\
aclnnGroupedMatmulV4 failed, error code is 161002
AclNN_Parameter_Error(EZ1001):
Tensor weight not implemented for DT_INT8,
should be in dtype support list
[DT_FLOAT16, DT_BFLOAT16, DT_FLOAT].
"""

# A weight loader's missing key: the quotes around the name are part of what decides it.
MISSING_KEY = """\
[rank1]: Traceback (most recent call last):
[rank1]:   File "/workspace/serve/model_loader.py", line 214, in load_weights
[rank1]:     param = params_dict[name]
[rank1]: KeyError: 'model.layers.31.mlp.experts.w13_weight_scale'
"""


def indented(text: str, indent: str = "    ") -> str:
    return "".join(indent + line if line.strip() else line for line in text.splitlines(True))


def double_spaced(text: str) -> str:
    return "\n".join(text.splitlines()).replace("\n", "\n\n") + "\n"


def test_a_paste_indented_alike_is_read_for_its_indent() -> None:
    assert learn_paste_layout(indented(TRACEBACK).encode()).indent == b"    "
    assert learn_paste_layout(indented(TRACEBACK, "\t").encode()).indent == b"\t"


def test_a_traceback_at_the_margin_has_no_shared_indent() -> None:
    frames_only_indented = (
        'Traceback (most recent call last):\n  File "a.py", line 1\n    x()\nValueError: bad\n'
    )
    assert learn_paste_layout(frames_only_indented.encode()) == PLAIN


def test_a_log_with_its_own_empty_lines_is_not_double_spaced() -> None:
    log = "step 1 loss=2.1\n\nstep 2 loss=2.0\nstep 3 loss=1.9\n\n\nstep 4 loss=1.9\n"
    assert not learn_paste_layout(log.encode()).double_spaced
    assert learn_paste_layout(double_spaced(TRACEBACK).encode()).double_spaced


def test_two_lines_say_nothing_about_spacing() -> None:
    assert learn_paste_layout(b"one line\n\nanother\n") == PLAIN


def test_a_snippet_of_one_or_two_lines_indented_alike_is_read_at_the_margin() -> None:
    assert learn_paste_layout(b"    one line\n    another\n") == PasteLayout(indent=b"    ")
    snippet = (
        'pipe = pipeline("internlm2-chat", backend_config=PytorchEngineConfig(tp=1, '
        'device_type="ascend")) TypeError: PytorchEngineConfig.__init__() got an unexpected '
        "keyword argument 'device_type'\n"
    )
    diagnosis = diagnose_text("worker.log", indented(snippet))
    assert_reads(diagnosis, "config", first_error="unexpected keyword argument")


def test_a_head_of_two_long_lines_says_nothing_about_a_layout() -> None:
    long_line = b"    " + b"x" * (40 * 1024) + b"\n"
    assert learn_paste_layout(b"    short\n" + long_line) == PLAIN


def test_taking_the_indent_off_keeps_every_line_where_it_was() -> None:
    block = b"    first\n      second\nthird\n    fourth\n"
    dedented = PasteLayout(indent=b"    ").dedent(block)
    assert dedented == b"first\n  second\nthird\nfourth\n"
    assert dedented.count(b"\n") == block.count(b"\n")


def test_an_indented_traceback_is_cited_as_the_job_wrote_it() -> None:
    plain = diagnose_text("rank_3/train.log", TRACEBACK)
    pasted = diagnose_text("rank_3/train.log", indented(TRACEBACK))
    assert pasted.category == plain.category == "oom"
    assert pasted.first_error.line == plain.first_error.line
    assert pasted.first_error.text == plain.first_error.text


# A reply that quotes only the model converter's output of a longer paste: the quote mark and
# the indent the reporter gave it sit before the error-manager headline, while the command
# above it stays at the margin, so no indent is shared by the whole file.
QUOTED_CONVERTER_BLOCK = """\
atc --framework=5 --model=./encoder.onnx --output=./encoder --soc_version=Ascend310P3
then it stops with:
>    ATC start working now, please wait for a moment...
>     ATC run failed, Please check the detail log, Try 'atc --help' for more information
>     E19010: No parser is registered for Op [/enc/blocks.3/FusedGelu, optype [ai.onnx::13::FusedGelu]].
>           Solution: Check the version of the installation package and reinstall the package.
>           TraceBack (most recent call last):
>           No parser is registered for Op [/enc/blocks.5/FusedGelu, optype [ai.onnx::13::FusedGelu]].
"""


def test_an_error_manager_headline_indented_inside_a_quote_is_the_blocks_headline() -> None:
    """Counterexample: the same block at the margin reads the same headline first."""
    pasted = diagnose_text("issue.md", QUOTED_CONVERTER_BLOCK)
    plain = diagnose_text(
        "issue.md", "\n".join(line.lstrip("> ") for line in QUOTED_CONVERTER_BLOCK.splitlines())
    )
    for diagnosis in (pasted, plain):
        assert_reads(diagnosis, "operator", first_error="blocks.3/FusedGelu")


def test_an_indented_device_block_keeps_its_reason_lines() -> None:
    plain = diagnose_text("worker.log", DEVICE_BLOCK)
    pasted = diagnose_text("worker.log", indented(DEVICE_BLOCK))
    assert pasted.category == plain.category == "operator"
    assert pasted.first_error.text == plain.first_error.text


def test_reason_lines_under_a_bare_headline_stay_its_reason_when_indented() -> None:
    pasted = diagnose_text("worker.log", indented(REASON_BELOW))
    assert pasted.category == "operator"
    assert pasted.first_error.text == "Tensor weight not implemented for DT_INT8,"


def test_reason_lines_under_a_bare_headline_stay_its_reason_when_double_spaced() -> None:
    pasted = diagnose_text("worker.log", double_spaced(REASON_BELOW))
    assert pasted.category == "operator"
    assert pasted.first_error.text == "Tensor weight not implemented for DT_INT8,"
    assert pasted.first_error.line == 5


def test_a_double_spaced_traceback_keeps_its_frames_under_one_exception() -> None:
    plain = diagnose_text("rank_3/train.log", TRACEBACK)
    pasted = diagnose_text("rank_3/train.log", double_spaced(TRACEBACK))
    assert pasted.category == plain.category == "oom"
    assert pasted.first_error.text == plain.first_error.text
    assert pasted.first_error.line == 2 * plain.first_error.line - 1


def test_a_log_copied_out_of_a_page_source_reads_as_the_program_wrote_it() -> None:
    plain = diagnose_text("rank_1/worker.log", MISSING_KEY)
    pasted = diagnose_text("rank_1/worker.log", html.escape(MISSING_KEY))
    assert pasted.category == plain.category == "weight_load"
    assert pasted.first_error.text == plain.first_error.text
    assert "'model.layers.31.mlp.experts.w13_weight_scale'" in pasted.first_error.text


# An exception whose message goes on over the lines below, the whole excerpt indented alike.
BARE_HEADLINE = """\
    RuntimeError:
    The detected CUDA version (12.2) mismatches the version that was used to compile
    PyTorch (11.3). Please make sure to use the same CUDA versions.
"""

# How each kind of log collector writes a line it collected (line index, line).
COLLECTORS = [
    ("kubectl", lambda i, line: f"2026-12-05T06:00:{i:02d}.{i * 7919:06d}Z {line}"),
    ("github-actions", lambda i, line: f"2026-12-05T06:00:{i:02d}.1234567Z {line}"),
    ("docker-compose", lambda i, line: f"trainer-1  | {line}"),
    ("journald", lambda i, line: f"Dec 05 06:00:{i:02d} gpu-node-07 python3[4242]: {line}"),
    ("srun-label", lambda i, line: f"0: {line}"),
    ("pdsh", lambda i, line: f"gpu-node-07: {line}"),
    ("colour-on-first-line", lambda i, line: f"\x1b[36m{line}\x1b[0m" if i == 0 else line),
]


def collected(text: str, wrap) -> str:
    return "".join(f"{wrap(i, line)}\n" for i, line in enumerate(text.splitlines()))


@pytest.mark.parametrize(("collector", "wrap"), COLLECTORS, ids=[c[0] for c in COLLECTORS])
def test_an_indent_behind_a_collector_prefix_is_read_as_the_paste_indent(collector, wrap) -> None:
    layout = learn_paste_layout(collected(BARE_HEADLINE, wrap).encode())
    assert layout.message_indent == "    "


@pytest.mark.parametrize(("collector", "wrap"), COLLECTORS, ids=[c[0] for c in COLLECTORS])
def test_a_collector_prefix_does_not_change_what_is_read(collector, wrap) -> None:
    plain = diagnose_text("build.log", BARE_HEADLINE)
    prefixed = diagnose_text("build.log", collected(BARE_HEADLINE, wrap))
    assert prefixed.category == plain.category == "config"
    assert prefixed.first_error.line == plain.first_error.line == 1
    assert "RuntimeError: The detected CUDA version (12.2)" in prefixed.first_error.text


def test_a_collected_log_at_its_own_margin_keeps_every_message_as_written() -> None:
    log = collected(
        'Traceback (most recent call last):\n  File "a.py", line 1\n    x()\nValueError: bad\n',
        lambda i, line: f"trainer-1  | {line}",
    )
    assert learn_paste_layout(log.encode()) == PLAIN


def test_a_collector_line_written_empty_does_not_hide_the_shared_indent() -> None:
    log = "trainer-1  |     first\ntrainer-1  | \ntrainer-1  |     second\ntrainer-1  |     third\n"
    assert learn_paste_layout(log.encode()).message_indent == "    "


def test_an_indent_shared_by_the_first_lines_only_is_no_paste_indent() -> None:
    lines = [f"    step {n} loss=2.{n}" for n in range(5)] + ["  step 5 loss=1.9"]
    assert learn_paste_layout(("\n".join(lines) + "\n").encode()).indent == b"  "
    assert learn_paste_layout(("\n".join([*lines, "step 6"]) + "\n").encode()) == PLAIN
