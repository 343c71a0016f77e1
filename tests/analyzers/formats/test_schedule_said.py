"""Pipeline schedules a log's head states, keyed by the words in front of them
(`formats.schedule_said`): the same statement on every rank has the same key, so the one rank
that states another schedule can be told apart (docs/labelling.md, "Pipeline stages that run
different schedules")."""

from __future__ import annotations

import pytest

from analyzers.formats.schedule_said import schedule_statements


@pytest.mark.parametrize(
    ("line", "said"),
    [
        (
            "2026-12-07 07:22:01,930 [rank2] INFO pipeline stage 2/4: hidden=16 microbatches=4 "
            "schedule=1f1b gpipe_warmup_steps=2",
            [["rank info pipeline stage hidden microbatches", "1f1b"]],
        ),
        ("[default1]:pp schedule: interleaved_1f1b", [["default pp", "interleaved_1f1b"]]),
    ],
)
def test_a_stated_schedule_is_kept_under_its_words(line, said):
    assert schedule_statements(line.lower().encode()) == said


@pytest.mark.parametrize(
    "line",
    [
        "lr schedule: cosine",
        "INFO scheduler=cosine warmup=100",
        "INFO learning rate schedule: linear",
        "schedule the next eval after 500 steps",
    ],
)
def test_a_learning_rate_schedule_or_prose_is_no_pipeline_schedule(line):
    assert schedule_statements(line.lower().encode()) == []
