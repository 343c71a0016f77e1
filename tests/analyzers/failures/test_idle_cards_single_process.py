"""Idle cards in npu-smi beside a job that ran one process.

docs/labelling.md#idle-cards-beside-a-single-process-job: npu-smi lists every card of the
machine; one process on one card and nothing on the others says nothing about ranks that died
when the job ran one process, so a log that stops at its first checkpoint shard with no error
is a `hang`. Processes on more than one card still say that the ranks of the empty cards died.
The log's last line, a progress bar still under way, is read at the tail as no failure: the
step it counted had begun when the log stopped. Values are made up.
"""

from __future__ import annotations

from pathlib import Path

from analyzers import AnalyzeOptions, analyze
from tests.analyzers.excerpts import diagnose_files

LOAD_LOG = """\
[2026-03-02 10:14:07,120] [INFO] [real_accelerator.py:239:get_accelerator] Setting ds_accelerator to npu (auto detect)
Loading checkpoint shards:   0%|          | 0/6 [00:00<?, ?it/s]
"""

HEADER = """\
+------------------------------------------------------------------------------------------------+
| npu-smi 24.1.rc2                 Version: 24.1.rc2                                             |
+---------------------------+---------------+----------------------------------------------------+
| NPU   Name                | Health        | Power(W)    Temp(C)           Hugepages-Usage(page)|
| Chip                      | Bus-Id        | AICore(%)   Memory-Usage(MB)  HBM-Usage(MB)        |
+===========================+===============+====================================================+
| 0     910B2               | OK            | 95.1        48                0    / 0             |
| 0                         | 0000:C1:00.0  | 0           0    / 0          21004/ 65536         |
+===========================+===============+====================================================+
| 1     910B2               | OK            | 92.4        47                0    / 0             |
| 0                         | 0000:C2:00.0  | 0           0    / 0          {hbm1} / 65536         |
+===========================+===============+====================================================+
| 2     910B2               | OK            | 90.0        45                0    / 0             |
| 0                         | 0000:81:00.0  | 0           0    / 0          3340 / 65536         |
+===========================+===============+====================================================+
| 3     910B2               | OK            | 91.3        46                0    / 0             |
| 0                         | 0000:82:00.0  | 0           0    / 0          3338 / 65536         |
+===========================+===============+====================================================+
+---------------------------+---------------+----------------------------------------------------+
| NPU     Chip              | Process id    | Process name             | Process memory(MB)      |
+===========================+===============+====================================================+
| 0       0                 | 40211         | python3                  | 17660                   |
+===========================+===============+====================================================+
{second}| No running processes found in NPU 2                                                            |
+===========================+===============+====================================================+
| No running processes found in NPU 3                                                            |
+===========================+===============+====================================================+
"""

ONE_BUSY = HEADER.format(
    hbm1="3341",
    second="| No running processes found in NPU 1                                                            |\n"
    "+===========================+===============+====================================================+\n",
)
TWO_BUSY = HEADER.format(
    hbm1="21010",
    second="| 1       0                 | 40212         | python3                  | 17664                   |\n"
    "+===========================+===============+====================================================+\n",
)


def test_one_busy_card_beside_a_single_process_log_is_a_hang() -> None:
    diagnosis = diagnose_files({"load.log": LOAD_LOG, "npu-smi.txt": ONE_BUSY})
    assert diagnosis.category == "hang"
    assert diagnosis.first_error is None
    assert diagnosis.culprit_ranks == []


def test_two_busy_cards_still_say_the_empty_cards_ranks_died() -> None:
    diagnosis = diagnose_files({"load.log": LOAD_LOG, "npu-smi.txt": TWO_BUSY})
    assert diagnosis.category == "weight_load"
    assert diagnosis.culprit_ranks == [2, 3]


def test_a_bar_still_under_way_is_no_failure_at_the_tail(tmp_path: Path) -> None:
    (tmp_path / "load.log").write_text(LOAD_LOG)
    (tmp_path / "npu-smi.txt").write_text(ONE_BUSY)
    diagnosis = analyze(tmp_path, AnalyzeOptions(workers=1)).diagnosis
    assert diagnosis.category == "hang"
    assert diagnosis.first_error is None
