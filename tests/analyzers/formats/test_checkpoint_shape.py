"""Checkpoint lines parsed by shape give exactly what a full parse gives, only faster."""

import pytest

from analyzers.formats.checkpoint_shape import CheckpointShape
from analyzers.formats.lines import parse_line

FIELDS = ("message", "source", "level", "rank", "local_rank", "pid", "time", "stream_key")

LOGGING = [
    f"2026-11-29 07:24:{s:02d},{ms:03d} [rank2] INFO layer {layer} passed"
    for s, ms, layer in [(28, 507, 0), (28, 911, 1), (29, 14, 2), (31, 2, 3), (59, 999, 4)] * 4
]
GLOG = [
    f"[rank1]:[I1129 07:24:{s:02d}.{ns:09d} infer.py:88] layer {n} passed"
    for s, ns, n in [(27, 616993348, 0), (27, 700000001, 1), (28, 5, 2)] * 5
]
LAUNCHER = [f"[default{rank}]: layer {n} passed" for n in range(12) for rank in (0, 1)]
PLAIN = [" norm passed", " attention passed", "layer 0 passed", " MoE passed"] * 5


@pytest.mark.parametrize(
    "lines", [LOGGING, GLOG, LAUNCHER, PLAIN], ids=["logging", "glog", "launcher", "plain"]
)
def test_every_line_parses_as_a_full_parse_would(lines):
    shape = CheckpointShape()
    for text in lines:
        quick, full = shape.parse(text), parse_line(text)
        assert [getattr(quick, f) for f in FIELDS] == [getattr(full, f) for f in FIELDS], text


def test_ranks_in_interleaved_launcher_lines_are_never_borrowed():
    shape = CheckpointShape()
    ranks = [shape.parse(text).local_rank for text in LAUNCHER]
    assert ranks == [0, 1] * 12


def test_a_new_prefix_shape_is_learned_again():
    shape = CheckpointShape()
    lines = [*LOGGING[:10], *GLOG[:10], *LOGGING[:10]]
    assert [shape.parse(t).message for t in lines] == [parse_line(t).message for t in lines]
