"""Parallel sizes stated in configuration and command lines, read from file heads."""

import pytest

from analyzers.formats import worker_tags
from analyzers.formats.worker_tags import TagHints


@pytest.mark.parametrize(
    ("line", "tp", "dp"),
    [
        (
            "INFO 03-02 17:40:51 [arg_utils.py:1203] tensor_parallel_size=8, data_parallel_size=2",
            {8},
            {2},
        ),
        ('engine config: {"tensor_parallel_size": 4}', {4}, set()),
        ("vllm serve /models/q3 --tp 16 --dp-size 2", {16}, {2}),
        ("server_args: tp_size=4, dp_size=1, enable_dp_attention=False", {4}, {1}),
        # a prefix that is part of another name is no size of ours
        ("moe_ep_tp_size=3 attn_dp_size=5 mytensor_parallel_size=7", set(), set()),
        ("cmd--tp 8", set(), set()),  # no space before the flag: not a flag
    ],
)
def test_sizes_read_from_a_head(line, tp, dp):
    hints = TagHints()
    text = ("2026-11-29 07:24:00 INFO noise line\n" * 3 + line + "\n").encode()
    hints.read(text, text.lower())
    assert hints.sizes.get("tp", set()) == tp
    assert hints.sizes.get("dp", set()) == dp


def test_a_size_pattern_must_start_with_a_literal(monkeypatch, tmp_path):
    rules = tmp_path / "worker_tags.yaml"
    text = worker_tags.RULES_FILE.read_text(encoding="utf-8")
    rules.write_text(text.replace("- 'tp(?<!", "- '(?<![\\\\w-])tp(?<!", 1), encoding="utf-8")
    monkeypatch.setattr(worker_tags, "RULES_FILE", rules)
    worker_tags.load_rules.cache_clear()
    try:
        with pytest.raises(ValueError, match="must start with a literal"):
            worker_tags.load_rules()
    finally:
        worker_tags.load_rules.cache_clear()


def test_a_process_tagged_by_its_pid_field_states_its_rank() -> None:
    hints = TagHints()
    block = (
        b"2026-12-05 02:58:23,880 pid=17352 INFO infer: init process group: backend=gloo "
        b"rank=3 world_size=4\n"
        b"2026-12-05 02:58:23,882 pid=17351 INFO infer: prefill start\n"
        b"2026-12-05 02:58:23,885 pid=17350 INFO infer: init process group: backend=gloo "
        b"rank=1 world_size=4\n"
        b"2026-12-05 02:58:23,886 pid=17350 INFO infer: rank=2 is my peer\n"
        # a pid named inside a message is no process's tag
        b"2026-12-05 02:58:23,890 INFO launcher: spawned pid=17353 rank=2\n"
    )
    hints.read(block, block.lower())
    assert hints.stated == {
        "process:pid=17352": {3},
        "process:pid=17350": {1},
    }


def test_a_process_tagged_by_its_bare_pid_column_states_its_rank():
    """logging's `%(process)d` with no `pid=` before it, before the level."""
    hints = TagHints()
    block = (
        b"2026-12-05 07:08:03,182 10682 INFO init process group: backend=gloo rank=0 "
        b"world_size=4 master=127.0.0.1:44073 timeout=6s\n"
        b"2026-12-05 07:08:03,187 10685 INFO init process group: backend=gloo rank=3 "
        b"world_size=4\n"
        b"2026-12-05 07:08:03,332 10682 INFO load weights passed\n"
        # a thread id is no pid; a number not followed by a level is no pid column
        b"2026-12-05 07:08:03,340 140651418909568 INFO worker rank=2 ready\n"
        b"2026-12-05 07:08:03,341 4242 apples for rank=1\n"
    )
    hints.read(block, block.lower())
    assert hints.stated == {"process:pid=10682": {0}, "process:pid=10685": {3}}


def test_ranks_stated_by_one_of_several_tagged_processes_are_theirs_not_the_files():
    block = (
        b"(Worker pid=501) INFO 03-02 10:41:08 [parallel_state.py:1607] world_size=2 rank=1\n"
        b"(Worker pid=377) DEBUG 03-02 10:41:08 [parallel_state.py:1689] Detected 1 nodes\n"
    )
    hints = TagHints()
    hints.read(block, block.lower())
    assert hints.named_by_one_of_several({1})
    assert not hints.named_by_one_of_several({0})  # a rank no tagged process stated
    alone = TagHints()
    first = block.splitlines()[0] + b"\n"
    alone.read(first, first.lower())
    assert not alone.named_by_one_of_several({1})  # one process: its log may be the rank's


def test_srun_tasks_state_their_ranks_from_the_heads_first_line_on():
    hints = TagHints()
    block = (
        b"0: init process group: backend=hccl rank=0 world_size=2\n"
        b"1: init process group: backend=hccl rank=1 world_size=2\n"
        b"0: step 1 loss=2.31\n"
    )
    hints.read(block, block.lower())
    assert hints.stated == {"srun:task=0": {0}, "srun:task=1": {1}}
