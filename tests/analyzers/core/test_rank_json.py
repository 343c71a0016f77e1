"""A big timeline's ranks are encoded on two cores; the text never differs from one core's."""

from __future__ import annotations

import io
import json
import os
import time
from array import array

import pytest

from analyzers.core import rank_json
from analyzers.core.checkpoint_timeline import RankSequence, Timeline
from analyzers.core.rank_json import rank_chunks


def _encode(key: str) -> str:
    return f"<{key}:{os.getpid() > 0}>"


def test_chunks_come_back_in_order_whoever_encoded_them(monkeypatch):
    monkeypatch.setattr(rank_json, "PARALLEL_MIN", 10)
    keys = [str(n) for n in range(7)]
    text = "".join(rank_chunks(keys, [5, 1, 1, 1, 1, 1, 30], _encode))
    assert text == "".join(map(_encode, keys))


def test_the_work_is_split_by_checkpoints_not_by_ranks():
    assert rank_json._split([10] * 4 + [10**6]) == 4  # one heavy rank goes to the child
    assert rank_json._split([300_000, 300_000]) == 1
    assert rank_json._split([100, 100]) is None  # too small to be worth a process
    assert rank_json._split([10**6]) is None  # one rank: nothing to share
    assert rank_json._split([2 * 10**6] * 2) is None  # the child's view would pass the budget


def test_a_child_that_fails_is_replaced_by_encoding_its_half_here(monkeypatch):
    monkeypatch.setattr(rank_json, "PARALLEL_MIN", 1)
    parent = os.getpid()

    def fails_in_the_child(key: str) -> str:
        if os.getpid() != parent:
            raise RuntimeError("disk full")
        return key + ";"

    assert "".join(rank_chunks(["a", "b", "c"], [1, 1, 1], fails_in_the_child)) == "a;b;c;"


def test_a_reader_that_stops_early_leaves_no_child_behind(monkeypatch):
    monkeypatch.setattr(rank_json, "PARALLEL_MIN", 1)
    started = []
    fork = rank_json._fork_encoder
    monkeypatch.setattr(
        rank_json, "_fork_encoder", lambda *a: started.append(fork(*a)) or started[0]
    )
    chunks = rank_chunks(["a", "b"], [1, 1], _encode)
    assert next(chunks) == _encode("a")
    chunks.close()
    with pytest.raises(ChildProcessError):  # already reaped
        os.waitpid(started[0], os.WNOHANG)


def test_timeline_json_is_the_same_on_one_core_or_two(monkeypatch, tmp_path):
    monkeypatch.setattr(rank_json, "PARALLEL_MIN", 1)
    ranks = {
        rank: RankSequence(
            text=array("I", [0, 1] * 50),
            label=array("I", range(100)),
            file=array("I", [rank] * 100),
            line=array("Q", range(1, 101)),
            time=array("d", [1_764_400_000.0 + rank + n / 10 for n in range(100)]),
        )
        for rank in range(5)
    }
    timeline = Timeline(texts=["a", "b"], labels=[str(n) for n in range(100)], ranks=ranks)
    timeline.files = [f"log_{rank}.log" for rank in range(5)]
    two, one = tmp_path / "two.json", tmp_path / "one.json"
    with two.open("w") as out:
        timeline.write_json(out)
    with one.open("w") as out:
        timeline.write_json(out, parallel=False)
    assert two.read_text() == one.read_text()
    assert '"4": {"text":[0,1,' in two.read_text()


def test_a_child_that_never_finishes_is_stopped_and_its_half_encoded_here(monkeypatch):
    monkeypatch.setattr(rank_json, "PARALLEL_MIN", 1)
    monkeypatch.setattr(rank_json, "WAIT_FLOOR_S", 0.2)
    parent = os.getpid()

    def stuck_in_the_child(key: str) -> str:
        while os.getpid() != parent:  # a lock nobody will release
            time.sleep(1)
        return key + ";"

    assert "".join(rank_chunks(["a", "b"], [1, 1], stuck_in_the_child)) == "a;b;"


@pytest.mark.parametrize(
    "columns",
    [
        {"text": [0, 1, 2, 1, 0], "label": [3, 3, 4], "file": [[0, 5]], "line": [1, 9]},
        {"text": [], "label": [], "file": [], "line": [], "time_us": []},
        {"text": [7, 12], "label": [0]},  # past the id texts: the encoder writes them
        {"text": [-1, 2], "label": [1.5, 2.0]},  # not ids: the encoder's text as well
        {"line": [10**12, 3], "time_us": [None, -5, 0]},
    ],
)
def test_id_columns_encode_as_the_json_encoder_writes_them(columns):
    ids = rank_json.id_strings(10)
    assert rank_json.encode_columns(columns, ids) == json.dumps(columns, separators=(",", ":"))


def test_a_timeline_written_with_id_texts_reads_back_as_its_columns():
    timeline = Timeline(texts=["a", "b"], labels=["x"], files=["log_0.log"])
    timeline.ranks[0] = RankSequence(
        text=array("I", [0, 1, 1]),
        file=array("I", [0, 0, 0]),
        line=array("Q", [1, 2, 3]),
        time=array("d", [1.0, 2.0, 3.0]),
        label=array("I", [0, 0, 0]),
    )
    out = io.StringIO()
    timeline.write_json(out, parallel=False)
    assert json.loads(out.getvalue()) == json.loads(json.dumps(timeline.to_json()))
    assert '"text":[0,1,1],"label":[0,0,0]' in out.getvalue()
