"""MindSpore's static graph compile refusing code its syntax support does not cover.

docs/labelling.md#a-graph-break-that-a-whole-graph-compile-refuses: GRAPH_MODE compiles a
cell's source as one graph and refuses, in its own words, a construct it cannot translate
(`Unsupported expression '...'`), branch results it cannot merge (`Type Join Failed`, `Shape
Join Failed`), a Python object left in the graph, a nested compiled call. The code and the
compile mode do not fit: `config`, with `other` beside it, and the refusal is the first error.
Values and paths are our own.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

UNSUPPORTED = """\
RuntimeError: Unsupported expression 'Await'.
More details please refer to syntax support at https://www.mindspore.cn

----------------------------------------------------
- The Traceback of Net Construct Code:
----------------------------------------------------
# 0 In file fetch_net.py:22
        batch = await self.loader.next()
                ^
"""

SHAPE_JOIN = """\
ValueError: Shape Join Failed: shape1 = (4, 16), shape2 = (4, 32).
For more details, please refer to https://www.mindspore.cn/search?inputValue=Shape%20Join%20Failed.
# 0 In file head.py(31)
        if flag:
        ^
"""


def test_a_construct_the_graph_mode_cannot_translate_is_the_code_and_mode() -> None:
    diagnosis = diagnose_text("train.log", UNSUPPORTED)
    assert_reads(
        diagnosis, "config", first_error="Unsupported expression 'Await'", beside=("other",)
    )
    assert diagnosis.confidence >= 0.4


def test_branches_that_cannot_be_joined_read_the_same() -> None:
    diagnosis = diagnose_text("train.log", SHAPE_JOIN)
    assert diagnosis.category == "config"
    assert diagnosis.confidence >= 0.4


def test_an_info_note_about_joined_types_is_no_refusal() -> None:
    text = (
        "[INFO] ANALYZER(5120,ffff8a2c1010,python):2026-03-04-05:06:07.080.901 "
        "[static_analysis.cc:120] Run] Type join of branch outputs: Float32\nstep 10 loss 0.41\n"
    )
    diagnosis = diagnose_text("train.log", text)
    assert diagnosis.category != "config"
