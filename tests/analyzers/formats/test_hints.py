"""Hints come from a file's head: sizes and ranks stated there, nothing read past it."""

from __future__ import annotations

from collections import Counter

from analyzers.formats import hints as hints_module
from analyzers.formats.hints import HINT_BYTES, HeadHints
from tests.analyzers.excerpts import scan_text

INIT = (
    b"2026-11-29 07:25:36,861 [rank3] INFO init process group: backend=hccl rank=3 world_size=16\n"
)
CHATTER = b"2026-11-29 07:25:37,002 [rank3] INFO layer 0 passed\n"


def test_a_size_stated_in_the_first_lines_is_read():
    hints = HeadHints(year_from_name=None)
    hints.read_head(INIT + CHATTER * 10)
    assert hints.world_sizes == [16]
    assert hints.year == 2026


def test_the_head_window_spans_blocks_until_it_is_used_up():
    hints = HeadHints(year_from_name=None)
    first = CHATTER * (HINT_BYTES // len(CHATTER) // 2)
    hints.read_head(first)
    hints.read_head(INIT)  # still inside the first HINT_BYTES of the file
    assert hints.world_sizes == [16]


def test_nothing_past_the_head_window_is_read():
    hints = HeadHints(year_from_name=None)
    hints.read_head(CHATTER * (HINT_BYTES // len(CHATTER) + 10) + INIT)
    hints.read_head(INIT)
    assert hints.world_sizes == []


def test_a_line_across_the_window_edge_is_not_read_in_half():
    hints = HeadHints(year_from_name=None)
    padding = b"x" * (HINT_BYTES - len(INIT) // 2 - 1) + b"\n"
    hints.read_head(padding + INIT.replace(b"world_size=16", b"world_size=1600"))
    assert hints.world_sizes == []


def test_a_launchers_copied_start_lines_give_each_local_tag_its_rank():
    block = (
        b"[default0]:init process group: backend=gloo rank=2 world_size=4 master=localhost:43291\n"
        b"[default1]:2026-12-04 15:26:38,401 [rank3] INFO building toy decoder: layers=6\n"
        b"[default0]:[E1204 15:26:45.1 ProcessGroupGloo.cpp:67] failed to connect, rank=7\n"
        b"[default1]:local_rank=0 group_rank=1 rank=9\n"
    )
    hints = HeadHints(year_from_name=None)
    hints.read_head(block)
    facts: dict[str, object] = {}
    hints.store(facts, None, Counter())
    assert facts["local_named_ranks"] == {0: 2, 1: 3}


def test_a_rank_number_only_as_local_rank_names_no_rank_for_the_tag():
    hints = HeadHints(year_from_name=None)
    hints.read_head(b"[default0]:starting worker local_rank=0 group_rank=1\n")
    facts: dict[str, object] = {}
    hints.store(facts, None, Counter())
    assert "local_named_ranks" not in facts


class _Tally(bytes):
    """A folded block that adds up the bytes its line counts read."""

    read = 0

    def count(self, sub, start=0, end=None):  # type: ignore[override]
        stop = len(self) if end is None else end
        _Tally.read += max(0, stop - start)
        return super().count(sub, start, end)


def test_the_first_line_naming_the_rank_is_found_among_other_ranks_lines():
    head = CHATTER.replace(b"[rank3]", b"[rank5]") * 3 + CHATTER * 2 + INIT
    hints = HeadHints(year_from_name=None)
    hints.read_head(CHATTER.replace(b"[rank3]", b"[rank1]") * 4)
    hints.read_head(head)
    assert hints.first_named == {1: 1, 5: 5, 3: 8}


def test_a_head_that_tags_every_line_with_its_rank_is_counted_through_once():
    block = CHATTER * 1000
    _Tally.read = 0
    HeadHints(year_from_name=None).read(block, _Tally(block.lower()))
    assert _Tally.read <= 2 * len(block)


def test_a_launchers_rank_samples_once_used_up_cost_no_more_searches(monkeypatch):
    searches: list[int] = []
    real = hints_module._LOCAL_STATES_RANK

    class Counting:
        def finditer(self, data):
            searches.append(len(data))
            return real.finditer(data)

    monkeypatch.setattr(hints_module, "_LOCAL_STATES_RANK", Counting())
    copied = b"[default1]:2026-12-04 15:26:38,401 [rank3] INFO layer 0 passed\n"
    hints = HeadHints(year_from_name=None)
    hints.read(copied * 300, (copied * 300).lower())
    hints.read(copied, copied.lower())
    assert len(searches) == 1
    assert hints.local_named == {1: 3}


# A server's shared stdout: two worker processes behind their tags, one of which states its
# rank as it starts (docs/labelling.md#a-serving-launcher-that-takes-its-own-server-down, the
# paragraph before it). Pids, ports and hosts are our own.
SHARED_SERVER_HEAD = (
    b"DEBUG 03-02 10:41:07 [tokenizers/registry.py:73] Loading tokenizer for mode='hf'\n"
    b"(Worker pid=3301) INFO 03-02 10:41:08 [distributed/parallel_state.py:1607] world_size=2"
    b" rank=1 local_rank=1 distributed_init_method=tcp://127.0.0.1:50611 backend=nccl\n"
    b"(Worker pid=3301) DEBUG 03-02 10:41:08 [distributed/parallel_state.py:1689] Detected 1"
    b" nodes in the distributed environment\n"
    b"(Worker pid=3177) DEBUG 03-02 10:41:08 [distributed/parallel_state.py:1689] Detected 1"
    b" nodes in the distributed environment\n"
)


def _stored(block: bytes) -> dict[str, object]:
    hints = HeadHints(year_from_name=None)
    hints.read_head(block)
    facts: dict[str, object] = {}
    hints.store(facts, None, Counter())
    return facts


def test_a_rank_one_worker_states_in_a_shared_server_log_is_not_the_files():
    facts = _stored(SHARED_SERVER_HEAD)
    assert facts["world_size"] == 2
    assert "rank_hint" not in facts


def test_a_log_of_one_tagged_worker_that_states_its_rank_is_that_ranks():
    alone = b"".join(
        line + b"\n" for line in SHARED_SERVER_HEAD.splitlines() if b"pid=3177" not in line
    )
    assert _stored(alone)["rank_hint"] == 1


# Guide: "Ranks started with different world sizes". A script's plain start print gives its
# rank over the world size (`rank 1/4 pid 3536`, `[rank 3/8] starting`); the number after the
# slash is the world size the rank was started with. Only at a line's start (a torchrun copy's
# `[defaultN]:` aside): a count later in a sentence states nothing about the world.
def test_a_start_print_of_rank_over_world_states_the_world_size():
    assert scan_text("log_1.log", "rank 1/4 pid 3536 mode=train\n").facts.get("world_size") == 4
    assert scan_text("out.log", "[default3]:[rank 3/8] starting\n").facts.get("world_size") == 8
    assert scan_text("log_1.log", "scored rank 3/12 candidates\n").facts.get("world_size") is None
    assert scan_text("log_1.log", "rank 5/4 pid 1\n").facts.get("world_size") is None


def test_a_start_line_states_its_rank_even_in_a_file_whose_path_names_one():
    """A start line that gives the rank beside the world size (`rank=1 world_size=4`) is kept
    as `start_rank`, also for `log_2.log`, whose path already names a rank."""
    scan = scan_text("log_2.log", INIT.decode().replace("rank=3", "rank=1") + CHATTER.decode())
    assert scan.info.rank == 2
    assert scan.facts.get("start_rank") == 1


def test_a_file_whose_start_lines_state_two_ranks_gives_none():
    # a shared stdout with two ranks' start lines states no one rank
    two = INIT + INIT.replace(b"rank=3", b"rank=5")
    assert "start_rank" not in scan_text("stdout.log", two.decode()).facts


def test_a_rank_mentioned_without_a_size_is_no_start_line():
    line = "2026-11-29 07:25:37,002 [rank3] INFO waiting for rank=1 to send its shard\n"
    assert "start_rank" not in scan_text("log_3.log", line).facts


def test_one_ranks_tagged_lines_name_that_rank_as_the_files():
    """Which ranks a console the ranks share holds is read by `formats.rank_tags`."""
    hints = HeadHints(year_from_name=None)
    hints.read_head(b"[rank3]: Traceback (most recent call last):\n[rank3]: ValueError: bad\n")
    facts: dict[str, object] = {}
    hints.store(facts, None, Counter())
    assert facts["rank_hint"] == 3
