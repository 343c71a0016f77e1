"""An error storm past the event caps is counted line for line, and what follows it is read."""

from __future__ import annotations

from collections import Counter

from analyzers.core.types import EventKind
from analyzers.scan import member as scan_module
from analyzers.scan import sink as scan_sink
from analyzers.scan.storm import StormCounter
from tests.analyzers.excerpts import scan_text

CAP = scan_module.MAX_EVENTS[EventKind.ERROR]


def watchdog(rank: int, seq: int) -> str:
    return (
        f"[rank{rank}]:[E1129 07:25:{seq % 60:02d}.{seq % 997:06d} ProcessGroupNCCL.cpp:1748] "
        f"[Rank {rank}] Watchdog caught collective operation timeout: WorkNCCL(SeqNum={seq}, "
        f"OpType=ALLREDUCE, NumelIn=4096) ran for {600000 + seq} milliseconds before timing out.\n"
    )


def test_every_storm_line_is_counted_once_the_caps_are_full(monkeypatch):
    parsed = []
    real = scan_module.parse_line
    monkeypatch.setattr(scan_module, "parse_line", lambda text: parsed.append(1) or real(text))
    storm = "".join(watchdog(3, seq) for seq in range(CAP + 3000))
    result = scan_text("job/rank_3/stdout.log", storm)
    assert len(result.events) == CAP
    assert result.facts["events_dropped"] == {"error": 3000}
    assert len(parsed) < CAP + 100  # the lines past the cap were counted, not parsed


def test_a_rank_that_only_shows_up_inside_the_storm_is_still_noticed():
    storm = "".join(watchdog(3, seq) for seq in range(CAP + 100))
    storm += "".join(watchdog(5, seq) for seq in range(50))
    result = scan_text("launcher/output.log", storm)  # no rank in the path
    assert result.facts["events_dropped"] == {"error": 150}
    assert "rank_hint" not in result.facts  # two ranks wrote here, not one


def test_the_launcher_summary_after_a_storm_is_still_read():
    storm = "".join(watchdog(1, seq) for seq in range(CAP + 500))
    summary = (
        "E1129 07:31:02.118000 4410 torch/distributed/elastic/multiprocessing/api.py:882] "
        "failed (exitcode: -6) local_rank: 1 (pid: 4412) of binary: /usr/bin/python3\n"
    )
    result = scan_text("job/launcher.log", storm + summary)
    failures = result.facts.get("elastic_failures") or []
    assert [(f["local_rank"], f["exitcode"]) for f in failures] == [(1, -6)]


def test_tracebacks_in_a_storm_are_still_parsed_as_blocks():
    block = (
        "Traceback (most recent call last):\n"
        '  File "/srv/app/step.py", line 88, in run\n'
        "    out = model(batch)\n"
        "RuntimeError: step {n} failed: NPU function error: aclnnMatmul, error code is 161002\n"
    )
    text = "".join(block.format(n=n) for n in range(CAP + 200))
    result = scan_text("job/rank_0/stdout.log", text)
    assert len(result.events) >= CAP
    assert result.facts["tracebacks"][0]["type"] == "RuntimeError"
    assert len(result.facts["tracebacks"]) == scan_sink.MAX_FACT_ITEMS


def test_only_a_line_that_added_one_capped_event_and_nothing_else_is_learned():
    storm = StormCounter({EventKind.ERROR: 2})
    kept = Counter({EventKind.ERROR: 2, EventKind.WARNING: 1})
    line = b"[rank1]: EI0006 socket timed out after 120 s\n"
    before = storm.before(kept, 2, {})
    kept[EventKind.ERROR] += 1
    kept[EventKind.WARNING] += 1  # two kinds grew: not a plain storm line
    storm.learn(line, before, kept, 2, {})
    assert storm.known(line) is None
    before = storm.before(kept, 2, {})
    kept[EventKind.ERROR] += 1
    storm.learn(line, before, kept, 2, {})
    assert storm.known(line.replace(b"120", b"300")) == EventKind.ERROR


def test_the_storm_stays_active_once_a_cap_is_full():
    storm = StormCounter({EventKind.ERROR: 2})
    kept: Counter[EventKind] = Counter({EventKind.ERROR: 1})
    assert not storm.active(kept)
    kept[EventKind.ERROR] += 1
    assert storm.active(kept)
