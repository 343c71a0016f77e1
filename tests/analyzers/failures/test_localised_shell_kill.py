"""The shell's report of a SIGKILL written in the user's language.

docs/labelling.md#a-rank-killed-for-host-memory: a bare `Killed` from the shell is read as a
kill from outside, `device_fault` with `oom` beside it. Under a non-English locale the shell
prints the C library's translation of the signal's name instead (Chinese `已杀死`, Traditional
Chinese `強制結束`, German `Getötet`, ...), often glued to the last frame of a progress bar.
It is the same report. Excerpts are our own conversion runs in the shell's real shapes.
"""

from __future__ import annotations

import pytest

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

GLUED_TO_A_BAR = """\
Loading shards for tensor-parallel split ...
 25%|██▌       | 1/4 [00:41<02:03, 41.2s/it]已杀死
"""

ALONE = """\
python tools/split_ckpt.py --tp 8 --src /data/ckpt/base --dst /data/ckpt/tp8
{word}
"""

# Counterexample: the words inside a sentence of the job's own log are no shell report.
IN_A_SENTENCE = """\
cleanup: 已杀死 3 个残留进程，继续启动
Traceback (most recent call last):
  File "serve.py", line 40, in <module>
    main()
ValueError: --tp must divide the number of heads (40), got 6
"""


def test_a_chinese_shell_kill_after_a_progress_bar() -> None:
    diagnosis = diagnose_text("convert.log", GLUED_TO_A_BAR)
    assert_reads(
        diagnosis, "device_fault", first_error="已杀死", rule="dev.killed", beside=("oom",)
    )


@pytest.mark.parametrize("word", ["已杀死", "強制結束", "強制終了", "Getötet", "Убито"])
def test_the_translated_word_alone_on_its_line(word: str) -> None:
    diagnosis = diagnose_text("convert.log", ALONE.format(word=word))
    assert_reads(diagnosis, "device_fault", first_error=word, rule="dev.killed", beside=("oom",))


def test_the_word_inside_a_sentence_is_no_kill() -> None:
    diagnosis = diagnose_text("serve.log", IN_A_SENTENCE)
    assert "dev.killed" not in rules_of(diagnosis)
    assert diagnosis.category != "device_fault"


BACKTICKED = """\
loading with device_map on one card, the process is also killed
`Loading checkpoint shards:   0%|          | 0/2 [00:00<?, ?it/s] `
`Killed`
"""


def test_a_kill_pasted_as_inline_code_is_the_shells_report() -> None:
    diagnosis = diagnose_text("load.log", BACKTICKED)
    assert_reads(
        diagnosis, "device_fault", first_error="Killed", rule="dev.killed", beside=("oom",)
    )
