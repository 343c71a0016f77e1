"""A regex pass is skipped only when its required literal is absent, so results never change."""

from __future__ import annotations

import re

import pytest

from analyzers.formats.hints import HeadHints
from analyzers.formats.literal_gate import (
    LiteralSet,
    after_line_end,
    gated,
    holds,
    required_literal,
)


@pytest.mark.parametrize(
    ("source", "literal"),
    [
        (rb"world_size[\"']?\s*[:=]\s*(\d{1,6})\b", b"world_size"),
        (rb"tensor(?<![\w-]tensor)[_-]parallel[_-]size", b"parallel"),
        (rb"--tp(?<=\s--tp)(?:-size)?[= ](\d+)\b", b"--tp"),
        (rb"\[rank(\d{1,6})\]", b"[rank"),
        # nothing mandatory of 3 bytes: alternatives, optional groups, short runs
        (rb"(?:passed|success)", None),
        (rb"(?:world_size=)?\d+ ok", b" ok"),  # an optional group is no gate
        (rb"\[\d{4}-\d\d-\d\d ((?: [A-Z]+\d+)+)\] ", None),
    ],
)
def test_the_gate_is_the_longest_literal_every_match_holds(source, literal):
    assert required_literal(re.compile(source)) == literal


def test_a_case_blind_pattern_has_no_gate():
    assert required_literal(re.compile(rb"world_size=(\d+)", re.IGNORECASE)) is None


SAMPLES = [
    b"",
    b"2026-11-29 07:25:36,861 [rank3] info init process group: rank=3 world_size=4\n",
    b"torchrun --nnodes 2 --nproc_per_node 8 train.py\n",
    b"world_size is not set; nproc_per_node: 8\n",
    b"[default0]: [rank0] info layer 3 passed\n" * 50,
    b"no hints in this line at all\n",
]


@pytest.mark.parametrize(
    "source",
    [rb"world_size[\"']?\s*[:=]\s*(\d{1,6})\b", rb"nproc[-_]per[-_]node[\"']?\s*[:= ]\s*(\d+)"],
)
@pytest.mark.parametrize("data", SAMPLES)
def test_gated_scans_find_exactly_what_the_regex_finds(source, data):
    pattern = gated(source)
    plain = re.compile(source)
    assert pattern.findall(data) == plain.findall(data)
    assert [m.span() for m in pattern.finditer(data)] == [m.span() for m in plain.finditer(data)]
    assert bool(pattern.search(data)) == bool(plain.search(data))


def test_head_hints_still_read_world_size_and_rank():
    hints = HeadHints(year_from_name=None)
    block = SAMPLES[1] + SAMPLES[2]
    hints.read(block, block.lower())
    assert hints.world_sizes == [4]
    assert hints.per_node == [8]
    assert hints.nodes == [2]
    assert hints.ranks[3] >= 1


def test_patterns_sharing_a_gate_search_a_block_for_it_once():
    searched: list[bytes] = []

    class Counting(bytes):
        def __contains__(self, needle):  # the gate's `in` test
            searched.append(needle)
            return super().__contains__(needle)

    block = Counting(b"engine args: tensor_parallel_size=4 data_parallel_size=2\n")
    tensor = gated(rb"tensor[_-]parallel[_-]size=(\d+)")
    data = gated(rb"data[_-]parallel[_-]size=(\d+)")
    assert tensor.findall(block) == [b"4"]
    assert data.findall(block) == [b"2"]
    assert searched == [b"parallel"]
    assert tensor.findall(b"no sizes here\n") == []  # another block is searched anew


LINE_STARTS = [
    b"",
    b"[default0]:init process group: rank=2\n[default1]: layer 0 passed rank=3\n",
    b"launcher: echo [default0]:rank=1\n[default1]:rank=4",  # mid-line: no line of its own
    b"\n\n[default2]:rank=5\n\n",
    b"[default0]:no rank here\n[default3]:[rank7] info start\n",
]


@pytest.mark.parametrize("data", LINE_STARTS)
def test_a_pattern_led_by_a_line_end_finds_the_lines_a_line_start_anchor_finds(data):
    body = rb"\[default(\d)\]:[^\n]*?(?:\[rank(\d)\]|rank=(\d))"
    anchored = re.compile(rb"(?m)^" + body)
    led = re.compile(rb"\n" + body)
    expected = [found.groups() for found in anchored.finditer(data)]
    assert [found.groups() for found in led.finditer(after_line_end(data))] == expected


HEAD = b"[default0]:2026-11-29 07:24:00,023 [rank0] info world_size=8 dtype=bf16\n" * 20


@pytest.mark.parametrize("data", [*SAMPLES, HEAD, b"[ | ( ) \\ . * + ? \x00\xff bf16"])
def test_a_literal_set_finds_the_literals_in_finds(data):
    literals = [b"[rank", b"world_size", b"bf16", b"float", b"\\ .", b"\x00\xff", b"absent"]
    assert LiteralSet(literals).found_in(data) == {literal: literal in data for literal in literals}


def test_gates_of_a_block_a_literal_set_learned_from_take_its_answers():
    searched: list[bytes] = []

    class Counting(bytes):
        def __contains__(self, needle):  # a gate's own `in` test
            searched.append(needle)
            return super().__contains__(needle)

    block = Counting(b"engine args: tensor_parallel_size=4 world_size=8\n")
    LiteralSet([b"parallel", b"world_size", b"nnodes="]).learn_from(block)
    assert gated(rb"tensor[_-]parallel[_-]size=(\d+)").findall(block) == [b"4"]
    assert gated(rb"nnodes=(\d+)").findall(block) == []
    assert holds(block, b"world_size")
    assert searched == []
    assert holds(block, b"engine")  # a literal the set was not given is looked for as before
    assert searched == [b"engine"]
