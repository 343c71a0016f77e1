"""The shell's report of a process a signal ended, written in the user's language.

Under a non-English locale bash prints the C library's name of the signal (`strsignal`) and its
own ` (core dumped)` and `line N:` in the locale's words: `段错误（核心已转储）` where an
English shell says `Segmentation fault (core dumped)`, `第 19 行：40213 已杀死  python
train.py` for `line 19: 40213 Killed  python train.py`. Each such report is read as its English
twin is (docs/labelling.md#native-only-crashes, #a-rank-killed-for-host-memory); the words inside
a sentence of the job's own log are no report. Lines are the shapes bash 5.2 and glibc 2.36
print under each locale (an older bash printed the Chinese suffix as ` (核心已转储)`).
"""

from __future__ import annotations

import pytest

from analyzers.core.report import Diagnosis
from tests.analyzers.excerpts import alternative_labels, diagnose_text, rules_of

COMMAND = "python train.py --config cfg/base.yaml\n"


def reading(line: str) -> tuple[str, bool, set[str], list[str]]:
    """What the analyzer makes of the line at the end of a rank's log: the label, whether the
    line itself is the first error, the rules that read and the labels offered beside."""
    diagnosis: Diagnosis = diagnose_text("train.log", COMMAND + line + "\n")
    cited = diagnosis.first_error is not None and diagnosis.first_error.text.strip() == line.strip()
    return diagnosis.category, cited, rules_of(diagnosis), alternative_labels(diagnosis)


TWINS = [
    # bare words, as bash prints a foreground command's death
    ("段错误", "Segmentation fault"),
    ("段错误（核心已转储）", "Segmentation fault (core dumped)"),
    ("段错误 (核心已转储)", "Segmentation fault (core dumped)"),
    ("程式記憶體區段錯誤 (核心已傾印)", "Segmentation fault (core dumped)"),
    ("세그멘테이션 오류 (코어 덤프됨)", "Segmentation fault (core dumped)"),
    ("Speicherzugriffsfehler (Speicherabzug geschrieben)", "Segmentation fault (core dumped)"),
    ("Erreur de segmentation", "Segmentation fault"),
    ("Violación de segmento (`core' generado)", "Segmentation fault (core dumped)"),
    ("Ошибка сегментирования", "Segmentation fault"),
    ("Falha de segmentação (imagem do núcleo gravada)", "Segmentation fault (core dumped)"),
    ("已放弃", "Aborted"),
    ("已放弃（核心已转储）", "Aborted (core dumped)"),
    ("已放弃 (核心已转储)", "Aborted (core dumped)"),
    ("Abgebrochen (Speicherabzug geschrieben)", "Aborted (core dumped)"),
    ("Аварийный останов (образ памяти сброшен на диск)", "Aborted (core dumped)"),
    ("总线错误", "Bus error"),
    ("总线错误（核心已转储）", "Bus error (core dumped)"),
    ("バスエラー (コアダンプ)", "Bus error (core dumped)"),
    ("Erreur du bus (core dumped)", "Bus error (core dumped)"),
    ("非法指令", "Illegal instruction"),
    ("非法指令（核心已转储）", "Illegal instruction (core dumped)"),
    ("無效指令 (核心已傾印)", "Illegal instruction (core dumped)"),
    ("Ungültiger Maschinenbefehl", "Illegal instruction"),
    ("Instrucción ilegal (`core' generado)", "Illegal instruction (core dumped)"),
    ("浮点数例外", "Floating point exception"),
    ("浮点数例外（核心已转储）", "Floating point exception (core dumped)"),
    ("浮動小数点例外 (コアダンプ)", "Floating point exception (core dumped)"),
    ("Gleitkomma-Ausnahme", "Floating point exception"),
    ("已终止", "Terminated"),
    ("終止", "Terminated"),
    ("Beendet", "Terminated"),
    ("Morto", "Killed"),
    # job lines, as a script's shell reports a background job it waited for
    (
        "/srv/jobs/start.sh: 第 19 行：40213 已杀死               python train.py",
        "/srv/jobs/start.sh: line 19: 40213 Killed                  python train.py",
    ),
    (
        "/srv/jobs/start.sh: 第 19 行： 9779 段错误               （核心已转储）python train.py",
        "/srv/jobs/start.sh: line 19:  9779 Segmentation fault      (core dumped) python train.py",
    ),
    (
        "/srv/jobs/start.sh: 第 19 行：40213 已放弃               （核心已转储）python train.py",
        "/srv/jobs/start.sh: line 19: 40213 Aborted                 (core dumped) python train.py",
    ),
    (
        "/srv/jobs/start.sh: 第 19 行：40213 总线错误            （核心已转储）python train.py",
        "/srv/jobs/start.sh: line 19: 40213 Bus error               (core dumped) python train.py",
    ),
    (
        "/srv/jobs/start.sh: 第 19 行：40213 非法指令            （核心已转储）python train.py",
        "/srv/jobs/start.sh: line 19: 40213 Illegal instruction     (core dumped) python train.py",
    ),
    (
        "/srv/jobs/start.sh: 第 19 行：40213 浮点数例外         （核心已转储）python train.py",
        "/srv/jobs/start.sh: line 19: 40213 Floating point exception(core dumped) python train.py",
    ),
    (
        "./run.sh: 第 3 列：11237 程式記憶體區段錯誤   (核心已傾印)python train.py",
        "./run.sh: line 3: 11237 Segmentation fault      (core dumped) python train.py",
    ),
    (
        "./run.sh: 3 行: 11261 強制終了            python train.py",
        "./run.sh: line 3: 11261 Killed                  python train.py",
    ),
    (
        "./run.sh: 줄 3: 11294 명령어가 잘못됨  (코어 덤프됨) python train.py",
        "./run.sh: line 3: 11294 Illegal instruction     (core dumped) python train.py",
    ),
    (
        "./run.sh: Zeile 3: 11340 Speicherzugriffsfehler  (Speicherabzug geschrieben) python train.py",
        "./run.sh: line 3: 11340 Segmentation fault      (core dumped) python train.py",
    ),
    (
        "./run.sh : ligne 3 : 11428 Erreur du bus           (core dumped)python train.py",
        "./run.sh: line 3: 11428 Bus error               (core dumped) python train.py",
    ),
    (
        "./run.sh: línea 3: 11456 Terminado (killed)      python train.py",
        "./run.sh: line 3: 11456 Killed                  python train.py",
    ),
    (
        "./run.sh: строка 3: 11486 Недопустимая инструкция    (образ памяти сброшен на диск) python train.py",
        "./run.sh: line 3: 11486 Illegal instruction     (core dumped) python train.py",
    ),
    (
        "./run.sh, linha 3: 11513 Morto                   python train.py",
        "./run.sh: line 3: 11513 Killed                  python train.py",
    ),
    ("[1]+  已杀死               python train.py", "[1]+  Killed                  python train.py"),
    ("[1]+  非法指令            python train.py", "[1]+  Illegal instruction     python train.py"),
    ("[2]-  总线错误            python train.py", "[2]-  Bus error               python train.py"),
    ("[1]+  已终止               python train.py", "[1]+  Terminated              python train.py"),
]


@pytest.mark.parametrize(("translated", "english"), TWINS)
def test_a_translated_report_reads_as_its_english_twin(translated: str, english: str) -> None:
    assert reading(translated) == reading(english)


# Counterexamples: the words inside a sentence of the job's own log are no shell report.
SENTENCES = [
    "排查发现段错误是自定义算子越界写导致的，已修复，继续训练",
    "如果出现总线错误，请先检查 /dev/shm 的大小",
    "文档: 非法指令通常意味着 CPU 不支持 AVX-512",
    "Hinweis: ein Speicherzugriffsfehler im Loader wurde behoben",
    "第 19 行：配置已放弃旧的学习率策略",
]


@pytest.mark.parametrize("sentence", SENTENCES)
def test_the_word_inside_a_sentence_is_no_signal_death(sentence: str) -> None:
    category, cited, rules, _ = reading(sentence)
    assert not cited
    assert category != "device_fault"
    assert not rules & {"dev.segfault", "dev.illegal_instruction", "tail.cpp_terminate"}
