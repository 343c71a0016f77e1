"""IPython/Jupyter tracebacks print a frame's source with line numbers and an arrow.

docs/labelling.md#a-notebook-tracebacks-numbered-source: the numbered lines are source, the
exception line that ends the traceback is the error. Lines in the layout IPython prints,
paths and numbers of our own.
"""

import pytest

from analyzers.core.types import EventKind
from analyzers.formats.lines import parse_line
from analyzers.formats.severity import classify, load_prefilter
from tests.analyzers.excerpts import diagnose_text

PREFILTER = load_prefilter()

NOTEBOOK = """\
---------------------------------------------------------------------------
RuntimeError                              Traceback (most recent call last)
~/envs/seg/lib/python3.8/site-packages/torch/distributed/distributed_c10d.py in _get_default_group()
    410     \"\"\"
    411     if not is_initialized():
--> 412         raise RuntimeError("Default process group has not been initialized, "
    413                            "please make sure to call init_process_group.")
    414     return GroupMember.WORLD

RuntimeError: Default process group has not been initialized, please make sure to call init_process_group.
"""


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        (
            '--> 412         raise RuntimeError("Default process group has not been initialized, "',
            None,
        ),
        ("---> 87     out = self.all_reduce(grad)  # failed before", None),
        ("    411     if not is_initialized():", None),
        ("    40      raise ValueError('bad split')", None),
        # a numbered row whose text is no Python stays a line to read
        ("  3   worker-3   exited with error 1", EventKind.ERROR),
    ],
)
def test_numbered_notebook_source(line, expected):
    assert classify(parse_line(line), PREFILTER) == expected


def test_a_notebook_paste_names_the_exception_line_not_the_raise() -> None:
    diagnosis = diagnose_text("notebook.log", NOTEBOOK)
    assert diagnosis.first_error is not None
    assert diagnosis.first_error.text.startswith("RuntimeError: Default process group")
    assert diagnosis.category == "config"
