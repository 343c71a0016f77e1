"""A launch command pasted with the shell's prompt and variable assignments in front of it.

docs/labelling.md#a-job-stopped-from-outside: the prompt a paste kept (`user@host:~/dir$ `,
`[root@host dir]# `, `(venv) ` before it) and the shell's `VAR=value` assignments before the
command or its wrappers are part of the command line, so `timeout 300s` there is how the job
was run, not an error. A prompted command that goes on with a failure in its own words, or a
program's message after the command's name, keeps its reading. Values are made up.
"""

from __future__ import annotations

import pytest

from analyzers.core.types import EventKind
from analyzers.formats.lines import parse_line
from analyzers.formats.severity import classify, load_prefilter

PREFILTER = load_prefilter()


@pytest.mark.parametrize(
    "line",
    [
        "alice@node7:~/runs/demo$ ASCEND_RT_VISIBLE_DEVICES=2,3 timeout 600s torchrun --nproc_per_node=2 train.py 2>&1 | tee run.log",
        "[root@c0a8f1 workspace]# HCCL_CONNECT_TIMEOUT=1200 python3 serve.py --request-timeout 30",
        "(venv) bob@gpu-3:/data/exp$ timeout -s TERM 45 torchrun --standalone --nproc-per-node=4 infer.py",
        "$ OMP_NUM_THREADS=1 MASTER_PORT=29500 torchrun --nproc-per-node=8 pretrain.py --abort-on-nan",
    ],
)
def test_a_prompted_command_line_is_no_event(line: str) -> None:
    assert classify(parse_line(line), PREFILTER) is None


@pytest.mark.parametrize(
    "line",
    [
        "alice@node7:~/runs$ RANK=1 torchrun train.py: error: unrecognized arguments: --foo",
        "alice@node7:~/runs/demo$ timeout 45 torchrun --nproc-per-node 4 infer.py failed with exit status 124",
    ],
)
def test_a_message_that_only_looks_prompted_keeps_its_reading(line: str) -> None:
    assert classify(parse_line(line), PREFILTER) == EventKind.ERROR
