"""A collector's prefix no list names is learned from the file's first lines and taken off
every line, so the log reads as the program wrote it; a program's own header never is."""

from __future__ import annotations

import re

import pytest

from analyzers.formats.learned_prefix import learn_prefix
from tests.analyzers.excerpts import diagnose_text

# Training lines, then a traceback: what a collector wrapped line by line.
LOG = (
    "\n".join(
        [f"step {n} loss 0.{n:03d}" for n in range(1, 11)]
        + [
            "Traceback (most recent call last):",
            '  File "/workspace/train.py", line 212, in <module>',
            "    main()",
            '  File "/workspace/train.py", line 180, in main',
            "    loss = model(batch).loss",
            "RuntimeError: NPU out of memory. Tried to allocate 3.50 GiB (NPU 3; 60.96 GiB "
            "total capacity; 57.10 GiB already allocated; 1.02 GiB free; 58.30 GiB reserved in "
            "total by PyTorch)",
        ]
    )
    + "\n"
)


def heroku(n: int) -> str:
    return f"2026-12-06T10:11:{n % 60:02d}.{n * 7919 % 1000000:06d}+00:00 app[worker.1]: "


def epoch(n: int) -> str:
    return f"17334753{10 + n}.{n * 37 % 1000:03d} "


def ts_delta(n: int) -> str:  # moreutils' `ts -i`
    return f"00:00:{n % 60:02d} "


def loki(n: int) -> str:
    return f'2026-12-06T10:11:{n % 60:02d}Z {{app="trainer", pod="trainer-3"}} '


def aws_logs(n: int) -> str:  # `aws logs tail`: the stream's name after the time
    return "2026-12-06T10:11:12.120000+00:00 trainer/pytorch/task-3 "


def gitlab(n: int) -> str:
    return f"2026-12-06T10:11:{n % 60:02d}.{n * 31 % 1000000:06d}Z 01E "


COLLECTOR_TIME = re.compile(r"^\S+(?:Z|\+00:00) ")
COLLECTORS = [heroku, epoch, ts_delta, loki, gitlab, aws_logs]


def collected(text: str, prefix) -> str:
    return "".join(prefix(n) + line for n, line in enumerate(text.splitlines(True)))


@pytest.mark.parametrize("prefix", COLLECTORS, ids=lambda prefix: prefix.__name__)
def test_a_collectors_prefix_is_learned_and_taken_off_every_line(prefix) -> None:
    block = collected(LOG, prefix).encode()
    learned = learn_prefix(block)
    assert learned is not None
    stripped = learned.strip(block).decode().splitlines()
    assert [COLLECTOR_TIME.sub("", line) for line in stripped] == LOG.splitlines()


def test_a_collectors_time_with_its_zone_is_kept_in_front_of_the_line() -> None:
    learned = learn_prefix(collected(LOG, heroku).encode())
    assert learned is not None
    assert learned.keeps_time
    first = learned.strip(collected(LOG, heroku).encode()).splitlines()[0]
    assert first == b"2026-12-06T10:11:00.000000+00:00 step 1 loss 0.001"


@pytest.mark.parametrize("prefix", COLLECTORS, ids=lambda prefix: prefix.__name__)
def test_behind_an_unknown_prefix_the_failure_reads_as_the_plain_log(prefix) -> None:
    plain = diagnose_text("rank_3/train.log", LOG)
    wrapped = diagnose_text("rank_3/train.log", collected(LOG, prefix))
    assert wrapped.category == plain.category == "oom"
    assert wrapped.first_error.rank == plain.first_error.rank == 3
    assert wrapped.first_error.line == plain.first_error.line
    # cited as the program wrote it, behind the collector's time where it was kept
    assert COLLECTOR_TIME.sub("", wrapped.first_error.text) == plain.first_error.text


@pytest.mark.parametrize(
    "line",
    [
        "2026-12-06 10:11:{s:02d},118 - trainer - INFO - step {s} done",  # python logging
        "I1206 10:11:{s:02d}.118204 4121 trainer.cc:88] step {s} done",  # glog
        "[rank3]:[W1206 10:11:{s:02d}.118 ProcessGroupNCCL.cpp:1084] step {s}",  # torch's tag
        "(Worker pid=9{s}) INFO 12-06 10:11:{s:02d} [model_runner.py:1] step {s}",  # vLLM
        "[ERROR] RUNTIME(4121,python):2026-12-06-10:11:{s:02d}.118.204 [stream.cc:{s}] fail",
        "[2026-12-06 10:11:{s:02d},118] [INFO] [engine.py:88] step {s}",  # DeepSpeed
        "2026-12-06T10:11:{s:02d}.118Z [rank3]: step {s}",  # a known collector time
        "trainer-3  | [rank3]: step {s}",  # docker compose, known
        "E20260118 12:10:{s:02d}.473901  1219 decoder_layer_impl.cpp:832] node is null",  # glog
        '{{"ts": "2026-12-06T18:41:{s:02d}.118", "level": "INFO", "msg": "step {s}"}}',  # JSON
        "2023-05-25 20:34:{s:02d},121541,3865470566,1214,121541",  # a table's rows
        "  'key_{s}': {s},",  # a dict printed across lines
        "run_{s} {{'node0': 1, 'node1': -9}} 57.0 None",  # a dict printed on each line
        "Aug  1 08:38:{s:02d} localhost kernel: [ 1197.584409] [ascend] ok",  # the journal's
        "\r[R3] step {s}",  # a program's tag behind a carriage return
    ],
)
def test_a_known_header_or_prefix_is_not_learned(line: str) -> None:
    block = "".join(line.format(s=s) + "\n" for s in range(20)).encode()
    assert learn_prefix(block) is None


def test_behind_a_known_collector_time_the_programs_own_words_stay() -> None:
    paste = (
        "Getting socket times out. Reason: Remote Rank did not send the data in time\n"
        "Transport init error ... [Create][DestLink]Create Dest error! dst_rank[1]\n"
        "There appear to be 30 leaked semaphore objects\n"
    )
    stamped = "".join("2026-03-01T10:22:05.1203340Z " + line for line in paste.splitlines(True))
    assert learn_prefix(stamped.encode()) is None
    for prefix in (epoch, loki):
        learned = learn_prefix(collected(paste, prefix).encode())
        assert learned is not None
        stripped = learned.strip(collected(paste, prefix).encode()).decode()
        assert COLLECTOR_TIME.sub("", stripped.splitlines()[0]) == paste.splitlines()[0]


def test_a_known_prefix_behind_an_unknown_one_stays_for_its_reader() -> None:
    relayed = "".join(heroku(n) + f"gpu-q-13: step {n}\n" for n in range(8))
    learned = learn_prefix(relayed.encode())
    assert learned is not None
    assert learned.strip(relayed.encode()).splitlines()[1].endswith(b" gpu-q-13: step 1")


def test_lines_that_share_no_prefix_learn_nothing() -> None:
    mixed = "".join(
        (f"00:00:{n:02d} " if n % 3 else f"node{n} says ") + f"line {n}\n" for n in range(20)
    )
    assert learn_prefix(mixed.encode()) is None


def test_a_programs_own_repeated_words_are_not_a_prefix() -> None:
    progress = "".join(f"step {n} loss 0.{n:03d} lr 1e-4\n" for n in range(20))
    assert learn_prefix(progress.encode()) is None
    assert learn_prefix(LOG.encode()) is None


def test_a_short_paste_behind_a_prefix_still_names_its_rank() -> None:
    """Four lines all behind one prefix are enough to learn it: a rank's tag behind an
    unknown prefix is not read as the rank's."""
    paste = "".join(
        f"[rank1]:[E324 13:00:2{n}.428 compiler_depend.ts:660] step\n" for n in range(3)
    )
    paste += "[rank1]:[E324 13:00:25.428 compiler_depend.ts:660] [Rank 1] Watchdog caught "
    paste += "collective operation timeout: WorkHCCL(SeqNum=630, OpType=ALLREDUCE) ran for "
    paste += "9228580 milliseconds before timing out.\n"
    wrapped = diagnose_text("log.txt", collected(paste, heroku))
    assert diagnose_text("log.txt", paste).first_error.rank == 1
    assert wrapped.first_error.rank == 1


def test_a_few_lines_say_nothing_about_a_prefix() -> None:
    assert learn_prefix(collected(LOG, epoch).encode()[:60]) is None
