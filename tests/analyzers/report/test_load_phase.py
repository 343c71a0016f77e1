"""Whether ranks were loading weights when the job stopped (`report.load_phase`)."""

from __future__ import annotations

import pytest

from analyzers.report.load_phase import LOAD_FRAME, loading_done, waiting_on_load
from tests.analyzers.excerpts import correlate_files
from tests.analyzers.job_bundles import ranks


def correlation_of(*lasts: str):
    logs = ranks(len(lasts))
    for log, last in zip(logs, lasts, strict=True):
        log.info(last)
    return correlate_files({f"log_{log.rank}.log": log.text() for log in logs})[1]


def test_ranks_whose_last_checkpoint_is_their_loading_wait_on_it() -> None:
    correlation = correlation_of(
        "loading weights 2/4 passed", "load weights passed", "layer 0 passed"
    )

    assert waiting_on_load(correlation, [0, 1])
    assert not waiting_on_load(correlation, [0, 1, 2])
    assert not waiting_on_load(correlation, [7])  # no such rank: nothing shows a wait


def test_loading_is_done_only_where_the_line_says_it_finished() -> None:
    correlation = correlation_of("load weights passed", "layer 0 passed")

    assert loading_done(correlation, [0])
    assert not loading_done(correlation, [0, 1])  # rank 1 has gone on past its loading


@pytest.mark.parametrize(
    ("frame", "loader"),
    [
        (
            '  File "/opt/vllm/model_executor/model_loader/loader.py", line 41, in load_weights',
            True,
        ),
        (
            '  File "/ws/Megatron-LM/tools/checkpoint/saver_mcore.py", line 212, in save_checkpoint',
            True,
        ),
        ('  File "/ws/scripts/hf2mcore_qwen2.py", line 88, in convert', True),
        ('  File "/home/user/llm-infer/infer.py", line 120, in forward', False),
    ],
)
def test_a_loader_or_converter_frame_is_told_from_the_models_own(frame: str, loader: bool) -> None:
    assert bool(LOAD_FRAME.search(frame)) is loader
