"""A launcher written in Python reports a rank a signal ended by a negative return code.

docs/labelling.md#a-rank-that-exits-without-a-word: `subprocess.Popen.returncode` is -N for a
child ended by signal N, so a per-node launcher that polls its ranks prints `rank 6 (pid P)
exited with code -9` where a shell script prints status 137. It is read as the shell's status:
-9 a rank killed from outside (`device_fault`, `oom` beside it), -11 the rank's own crash, -6
an abort, -15 a stop from outside; the rank it names is the culprit. The excerpts follow a real
gloo job (Python logging, `[rankN]:` tracebacks) with values of our own.
"""

from __future__ import annotations

import pytest

from tests.analyzers.excerpts import assert_reads, diagnose_files

# node 1 of a two-node job: rank 6 was killed mid-layer and printed nothing, rank 5 lost it
LAUNCH_LOG = """\
2026-12-07 01:38:18 node 1: started rank 4 pid 25682
2026-12-07 01:38:18 node 1: started rank 5 pid 25683
2026-12-07 01:38:18 node 1: started rank 6 pid 25687
2026-12-07 01:38:18 node 1: started rank 7 pid 25689
2026-12-07 01:39:17 node 1: rank 6 (pid 25687) exited with code {code}
"""
SILENT_RANK6 = """\
2026-12-07 01:39:17,620 [rank6] INFO   MoE passed
2026-12-07 01:39:17,620 [rank6] INFO layer 1 passed
2026-12-07 01:39:17,625 [rank6] INFO   norm passed
2026-12-07 01:39:17,658 [rank6] INFO   attention passed
"""
PEER_LOST_RANK5 = """\
2026-12-07 01:39:17,618 [rank5] INFO   MoE passed
2026-12-07 01:39:17,618 [rank5] INFO layer 1 passed
2026-12-07 01:39:17,618 [rank5] INFO   norm passed
2026-12-07 01:39:17,656 [rank5] INFO   attention passed
2026-12-07 01:39:17,785 [rank5] ERROR model run failed: [/__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp/pair.cc:553] Connection closed by peer [127.0.0.1]:40171. This is typically caused by a remote worker crashing. Check the logs of the remote worker before reporting an error. GLHF! 🏖️
Traceback (most recent call last):
[rank5]:     work.wait()
[rank5]: RuntimeError: [/__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp/pair.cc:553] Connection closed by peer [127.0.0.1]:40171. This is typically caused by a remote worker crashing. Check the logs of the remote worker before reporting an error. GLHF! 🏖️
"""


def _diagnose(code: str):
    return diagnose_files(
        {
            "job/node1/launch.log": LAUNCH_LOG.format(code=code),
            "job/node1/log_5.log": PEER_LOST_RANK5,
            "job/node1/log_6.log": SILENT_RANK6,
        }
    )


@pytest.mark.parametrize(
    ("code", "rule", "beside"),
    [("-9", "dev.script_rank_killed", ("oom",)), ("-11", "dev.script_rank_signal", ())],
)
def test_a_rank_a_signal_ended_is_named_by_its_negative_code(code, rule, beside) -> None:
    diagnosis = _diagnose(code)
    line = f"rank 6 (pid 25687) exited with code {code}"
    assert_reads(diagnosis, "device_fault", first_error=line, rule=rule, beside=beside)
    assert diagnosis.culprit_ranks == [6]


def test_a_rank_stopped_from_outside_keeps_that_reading() -> None:
    diagnosis = _diagnose("-15")
    assert_reads(diagnosis, "other", first_error="rank 6 (pid 25687) exited with code -15")
    assert diagnosis.culprit_ranks == [6]
