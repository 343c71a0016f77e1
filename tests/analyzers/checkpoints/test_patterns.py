"""Checkpoint lines: the default patterns (with their own examples), user patterns, the raw
byte prefilter and the killed lines (a rank's log that ends on its death)."""

from __future__ import annotations

import re
import tarfile
from pathlib import Path

import pytest

from analyzers import AnalyzeOptions, analyze
from analyzers.checkpoints.checkpoint_rules import load_knowledge
from analyzers.checkpoints.patterns import CheckpointMatcher, is_killed_line, strip_prefixes
from analyzers.core.types import RankStatus
from analyzers.formats.blockfilter import FOLD
from tests.analyzers.job_bundles import CLOSED, analyze_job, pack, ranks

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "multirank"
KNOWLEDGE_DATA = load_knowledge()

RULE_EXAMPLES = [
    pytest.param(rule, line, expected, id=f"{rule.id}:{line[:40]}")
    for rule in KNOWLEDGE_DATA.rules
    for line, expected in rule.examples
]
RULE_COUNTEREXAMPLES = [
    pytest.param(line, id=f"{rule.id}:{line[:40]}")
    for rule in KNOWLEDGE_DATA.rules
    for line in rule.counterexamples
]


@pytest.mark.parametrize(("rule", "line", "expected"), RULE_EXAMPLES)
def test_every_knowledge_example_is_recognised_by_its_own_rule(rule, line, expected):
    hit = CheckpointMatcher().classify(line)
    assert hit is not None
    assert (hit.text, hit.role) == (expected, rule.role)
    assert CheckpointMatcher().match(line) == (expected if rule.counted else None)


@pytest.mark.parametrize("line", RULE_COUNTEREXAMPLES)
def test_knowledge_counterexamples_are_no_checkpoints(line):
    assert CheckpointMatcher().match(line) is None


def test_every_default_rule_has_examples():
    assert all(rule.examples for rule in KNOWLEDGE_DATA.rules)


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        # plain print() logs (torch corpus, crash_one_rank)
        (" norm passed", "norm passed"),
        ("layer 0 passed", "layer 0 passed"),
        ("load weights passed", "load weights passed"),
        # Python logging with the level padded by the format
        ("2026-11-29 07:24:22,190 [rank2] INFO  MoE passed", "MoE passed"),
        ("2026-11-29 07:24:22,190 [rank2] INFO     layer 0 passed", "layer 0 passed"),
        # torchrun launcher copies
        ("[default3]:2026-11-29 07:25:37,216 [rank3] INFO layer 1 passed", "layer 1 passed"),
        ("[default0]: attention passed", "attention passed"),
        # other launchers and loggers
        ("rank 5: decode step 12 passed", "decode step 12 passed"),
        ("3: layer 7 passed", "layer 7 passed"),
        ("[2026-11-29 07:24:22,190] [INFO] [infer.py:88:forward] layer 2 passed", "layer 2 passed"),
        ("I1129 07:25:37.499000 26576 infer.py:88] prefill passed", "prefill passed"),
        ("INFO:__main__:model run success", "model run success"),
        ("2026-11-29 07:23:55,099 | infer | INFO | model run success", "model run success"),
        # the Hugging Face example format (month first, level before the logger's name), as
        # accelerate-launched scripts log it, bare and behind torchrun's --tee prefix
        ("12/04/2026 18:58:49 - INFO - toymoe -   norm passed", "norm passed"),
        ("[default1]:12/04/2026 18:58:49 - INFO - __main__ - layer 2 passed", "layer 2 passed"),
        ("12/04/2026 18:58:49 - INFO - layer 2 passed", "layer 2 passed"),
        # a dash inside the message is no logger name
        ("12/04/2026 18:58:49 - INFO - toymoe - checks - all passed", None),
        # whitespace is collapsed, case of sub-module names kept
        ("INFO   post   attention  norm passed", "post attention norm passed"),
        # not checkpoints
        ("prefill start: 8 tokens", None),
        ("generated tokens: [87558, 87558, 87558, 87558]", None),
        ("2026-11-29 07:24:28,507 [rank2] ERROR model run failed: Connection closed", None),
        ("[rank3]:     x = x + self.attention(h, decode)", None),
        ("", None),
        ("   ", None),
    ],
)
def test_match_normalises_checkpoint_lines(line, expected):
    assert CheckpointMatcher().match(line) == expected


def test_strip_prefixes_leaves_the_message():
    line = "[default1]:2026-11-29 07:25:37,152 [rank1] INFO waiting for all ranks"
    assert strip_prefixes(line) == "waiting for all ranks"


@pytest.mark.parametrize(
    ("patterns", "line", "expected"),
    [
        (
            (r"step \d+ done",),
            "2026-11-29 07:24:22,190 [rank2] INFO step 12 done, loss 1.3",
            "step 12 done",
        ),
        ((r"(?P<checkpoint>stage \w+) ok\b",), "stage embed ok (3 ms)", "stage embed"),
        ((r"第\d+层通过",), "[rank0]: 第3层通过", "第3层通过"),
        # the user pattern is searched in the message and wins over the defaults
        ((r"layer \d+",), "layer 3 passed", "layer 3"),
        # defaults still apply next to user patterns
        ((r"step \d+ done",), "layer 3 passed", "layer 3 passed"),
    ],
)
def test_user_patterns(patterns, line, expected):
    assert CheckpointMatcher(patterns).match(line) == expected


@pytest.mark.parametrize(
    ("pattern", "complaint"),
    [("layer (\\d+ passed", "not a valid regex"), ("", "empty"), ("x*", "matches an empty line")],
)
def test_bad_user_pattern_is_a_clear_value_error(pattern, complaint):
    with pytest.raises(ValueError, match=complaint) as error:
        CheckpointMatcher(["step \\d+ done", pattern])
    assert repr(pattern) in str(error.value)


@pytest.mark.parametrize(
    ("pattern", "line"),
    [
        (r"^step \d+ done$", "2026-11-29 07:24:22,190 [rank2] INFO step 12 done"),
        (r"(?i)\bSTEP\s+\d+\s+DONE\b", "[default0]:step 7 done"),
        (r"第\d+层通过", "[rank0]: 第3层通过"),
        (r"第.层通过", "第三层通过"),
        (r"[^x]阶段 ok", "预填充阶段 ok"),
        (r"\w+ 完成", "解码 完成"),
        (r"[一-龥]+完成", "解码完成"),
        (r"\AStage \d{2} ok\Z", "INFO Stage 12 ok"),
    ],
)
def test_prefilter_finds_every_line_a_user_pattern_matches(pattern, line):
    matcher = CheckpointMatcher([pattern])
    assert matcher.match(line) is not None
    prefilter = re.compile(matcher.prefilter_bytes_pattern(), re.MULTILINE)
    block = b"unrelated line\n" + line.encode("utf-8") + b"\nanother one\n"
    assert prefilter.search(block)


def test_default_prefilter_skips_ordinary_lines():
    prefilter = re.compile(CheckpointMatcher().prefilter_bytes_pattern(), re.MULTILINE)
    assert not prefilter.search(b"prefill start: 8 tokens\nwaiting for all ranks\n")
    assert prefilter.search(b"x\n  MoE PASSED\n")


def _corpus_lines(corpus: Path):
    for bundle in sorted((corpus / "torch").glob("*.tar.gz")):
        with tarfile.open(bundle) as archive:
            for member in archive.getmembers():
                if member.isfile():
                    data = archive.extractfile(member).read()  # small corpus files
                    yield from data.splitlines()
    for path in sorted(FIXTURES.rglob("*.log")):
        yield from path.read_bytes().splitlines()


def test_prefilter_misses_no_checkpoint_of_the_real_logs(corpus):
    matcher = CheckpointMatcher([r"generated tokens: \[.*\]"])
    prefilter = re.compile(matcher.prefilter_bytes_pattern())
    found = 0
    for raw in _corpus_lines(corpus):
        if matcher.match(raw.decode("utf-8", "replace")) is not None:
            found += 1
            assert prefilter.search(raw), raw
    assert found > 500


@pytest.mark.parametrize(
    "line",
    [example for rule in KNOWLEDGE_DATA.killed_lines for example in rule.examples],
)
def test_killed_line_examples(line):
    assert is_killed_line(line)


@pytest.mark.parametrize(
    "line",
    [
        "Killed 3 stale workers before restart",
        "exitcode  : -15 (pid: 26690)  (SIGTERM)",
        "layer 3 passed",
    ],
)
def test_not_killed_lines(line):
    assert not is_killed_line(line)


# The shell's report of a death under another locale (knowledge/signal_names.yaml) marks the
# rank as the English report does: bash 5.2 with glibc 2.36's words, alone on the line or in a
# script's job line, as a rank's log ends with them.
KILLED_TWINS = [
    ("段错误", "Segmentation fault"),
    ("段错误（核心已转储）", "Segmentation fault (core dumped)"),
    ("段错误 (核心已转储)", "Segmentation fault (core dumped)"),
    ("[default2]:段错误（核心已转储）", "[default2]:Segmentation fault (core dumped)"),
    ("程式記憶體區段錯誤 (核心已傾印)", "Segmentation fault (core dumped)"),
    ("セグメンテーションフォルト (コアダンプ)", "Segmentation fault (core dumped)"),
    ("세그멘테이션 오류 (코어 덤프됨)", "Segmentation fault (core dumped)"),
    ("Speicherzugriffsfehler (Speicherabzug geschrieben)", "Segmentation fault (core dumped)"),
    ("Erreur de segmentation (core dumped)", "Segmentation fault (core dumped)"),
    ("Violación de segmento (`core' generado)", "Segmentation fault (core dumped)"),
    ("Ошибка сегментирования", "Segmentation fault"),
    ("Falha de segmentação (imagem do núcleo gravada)", "Segmentation fault (core dumped)"),
    ("已杀死", "Killed"),
    ("強制結束", "Killed"),
    ("죽었음", "Killed"),
    ("Getötet", "Killed"),
    ("Abgebrochen (Killed)", "Killed"),
    ("Terminado (killed)", "Killed"),
    ("Убито", "Killed"),
    ("Morto", "Killed"),
    (
        "/srv/jobs/start.sh: 第 19 行：40213 已杀死               python train.py",
        "/srv/jobs/start.sh: line 19: 40213 Killed                  python train.py",
    ),
    (
        "./run.sh: 3 行: 11261 強制終了            python train.py",
        "./run.sh: line 3: 11261 Killed                  python train.py",
    ),
    (
        "./run.sh: línea 3: 11456 Terminado (killed)      python train.py",
        "./run.sh: line 3: 11456 Killed                  python train.py",
    ),
    (
        "./run.sh, linha 3: 11513 Morto                   python train.py",
        "./run.sh: line 3: 11513 Killed                  python train.py",
    ),
]


@pytest.mark.parametrize(("translated", "english"), KILLED_TWINS)
def test_a_translated_death_is_a_killed_line_as_its_english_twin(translated, english):
    assert (is_killed_line(translated), is_killed_line(english)) == (True, True)


# Counterexamples: another signal's word that shares letters with a kill's (`Terminado` is
# SIGTERM where `Terminado (killed)` is SIGKILL, `Abgebrochen` SIGABRT), a report the English
# list does not mark either, and the words inside a sentence of the job's own log.
@pytest.mark.parametrize(
    ("translated", "english"),
    [
        ("Terminado", "Terminated"),
        ("Abgebrochen", "Aborted"),
        ("已放弃（核心已转储）", "Aborted (core dumped)"),
        ("cleanup: 已杀死 3 个残留进程，继续启动", "cleanup: Killed 3 stale workers, starting"),
        ("段错误是自定义算子越界写导致的，已修复", "Segmentation faults came from a custom op"),
        (
            "Hinweis: ein Speicherzugriffsfehler im Loader wurde behoben",
            "note: a Segmentation fault in the loader was fixed",
        ),
        ("Getötet wurden 3 alte Prozesse", "Killed were 3 old processes"),
    ],
)
def test_a_translated_word_is_no_killed_line_where_its_english_twin_is_none(translated, english):
    assert (is_killed_line(translated), is_killed_line(english)) == (False, False)


# bash pads a job's pid to five columns (`%5ld`), so a script's report of a short pid has two
# or more spaces after `line 19:`; an interactive shell reports the same death on its job line,
# `[1]+  Killed  <cmd>` (`+` the current job, `-` the previous one, a space any other).
SHELL_JOB_REPORTS = [
    "./run.sh: line 19:  9779 Killed                  python train.py --rank 3",
    "./run.sh: line 7:   412 Killed                  python train.py --rank 3",
    "./run.sh: línea 3:   456 Terminado (killed)      python train.py",
    "./run.sh: Zeile 19:  9779 Getötet                 python train.py",
    "[1]+  Killed                  python train.py",
    "[3]   Killed                  python train.py --rank 3",
    "[2]-  Segmentation fault (core dumped) python train.py",
    "[2]-  Segmentation fault      python train.py",
    "[1]+  已杀死               python train.py",
    "[2]-  段错误（核心已转储） python train.py",
    "[2]-  Speicherzugriffsfehler (Speicherabzug geschrieben) python train.py",
]


# The same reports for a process that crashed, as bash 5.2 prints them (`kill -SEGV` and the
# like of a child it ran, in a script and in an interactive shell): the signal's word padded
# to 24 bytes, glued to the command when it fills them (`Floating point exception`), then
# ` (core dumped)` in the shell's words when the process left a core.
SHELL_CRASH_REPORTS = [
    "./run_train.sh: line 19:  9779 Segmentation fault      (core dumped) python train.py --local_rank 3",
    "./run_train.sh: line 10: 19461 Bus error               (core dumped) python train.py --local_rank 1",
    "./run_train.sh: line 10: 19464 Illegal instruction     (core dumped) python train.py --local_rank 5",
    "./run_train.sh: line 10: 19463 Floating point exceptionpython train.py --local_rank 4",
    "[1]-  Bus error               python train.py --local_rank 1",
    "[2]+  Floating point exceptionpython train.py --rank 2",
    "./run_train.sh: 第 10 行：22323 段错误               （核心已转储）python train.py --local_rank 3",
    "./run_train.sh: 第 10 行：21679 总线错误            （核心已转储）python train.py --local_rank 1",
    "./run_train.sh: Zeile 10: 20909 Gleitkomma-Ausnahme     (Speicherabzug geschrieben) python train.py --local_rank 4",
    "./run_train.sh: Zeile 10: 20910 Ungültiger Maschinenbefehl   python train.py --local_rank 5",
]


@pytest.mark.parametrize("line", SHELL_CRASH_REPORTS)
def test_a_shell_job_report_of_a_crash_is_a_killed_line(line):
    assert is_killed_line(line)


@pytest.mark.parametrize("line", SHELL_JOB_REPORTS)
def test_a_shell_job_report_with_a_padded_pid_or_a_job_number_is_a_killed_line(line):
    assert is_killed_line(line)


# Counterexamples: the words mid-line, in the job's own sentences and counts, a job that ended
# well or was only stopped, and a bracketed number that is no job.
@pytest.mark.parametrize(
    "line",
    [
        "INFO: 3 workers killed",
        "INFO:  3 workers Killed by the watchdog were restarted",
        "the loader was Killed by the OOM killer last night, see the wiki",
        "[1]+  Done                    python train.py",
        "[1]+  Stopped                 python train.py",
        "[1]+  Terminated              python train.py",
        "[1] Killed is what the note says",
        "[2]-  Segmentation faults are what this op guards against",
        "[rank1]:  Killed 3 stale workers before restart",
        # SIGABRT is how a process ends itself on an uncaught native exception it reported
        "./run_train.sh: line 10: 19462 Aborted                 (core dumped) python train.py",
        "./run_train.sh: Zeile 10: 20908 Abgebrochen             python train.py",
        "[2]-  Bus errors are what this check guards against",
    ],
)
def test_killed_mid_line_or_another_job_status_is_no_killed_line(line):
    assert not is_killed_line(line)


@pytest.mark.parametrize(
    ("report", "unpadded"),
    [
        (
            "./run.sh: line 19:  9779 Killed                  python train.py --rank 2",
            "./run.sh: line 19: 19779 Killed                  python train.py --rank 2",
        ),
        (
            "[1]+  Killed                  python train.py --rank 2",
            "./run.sh: line 19: 19779 Killed                  python train.py --rank 2",
        ),
        (
            "[2]-  Segmentation fault (core dumped) python train.py --rank 2",
            "Segmentation fault (core dumped)",
        ),
        (
            "./run_train.sh: line 19:  9779 Segmentation fault      (core dumped) python train.py",
            "Segmentation fault (core dumped)",
        ),
        (
            "./run_train.sh: 第 10 行：21679 总线错误            （核心已转储）python train.py",
            "./run_train.sh: line 10: 21679 Killed                  python train.py",
        ),
    ],
)
def test_a_rank_whose_log_ends_on_a_shell_job_report_is_killed_in_the_rank_table(
    tmp_path, report, unpadded
):
    _assert_killed_like_twin(tmp_path, report, unpadded)


def _assert_killed_like_twin(tmp_path: Path, death: str, twin_death: str) -> None:
    """Rank 2 reads as killed and blamed, exactly as in the run ending on `twin_death`."""
    read, twin = _read_beside_twin(tmp_path, death, twin_death)
    assert {r.rank: r.status for r in read.ranks}[2] == RankStatus.KILLED
    assert {r.rank: r.status for r in read.ranks} == {r.rank: r.status for r in twin.ranks}
    assert read.diagnosis.culprit_ranks == twin.diagnosis.culprit_ranks == [2]


def _read_beside_twin(tmp_path: Path, death: str, twin: str):
    """The same run read twice, ending once on `death` and once on the form it must read as."""
    (tmp_path / "read").mkdir()
    (tmp_path / "twin").mkdir()
    return (
        _segfault_on_rank_2(tmp_path / "read", death),
        _segfault_on_rank_2(tmp_path / "twin", twin),
    )


def _segfault_on_rank_2(tmp_path: Path, death: str):
    """A 4-rank run whose rank 2 dies in layer 1 with the shell's report as its last line, the
    others losing it in the next exchange."""
    logs = ranks(4)
    for log in logs:
        log.loaded().layers(1)
    logs[2].raw(death)
    for log in (logs[0], logs[1], logs[3]):
        log.at(12_000).log("ERROR", f"model run failed: {CLOSED}")
    return analyze_job(tmp_path, logs)


@pytest.mark.parametrize(
    ("translated", "english"),
    [
        ("段错误（核心已转储）", "Segmentation fault (core dumped)"),
        ("已杀死", "Killed"),
        (
            "/srv/jobs/start.sh: 第 19 行：40213 已杀死               python train.py",
            "/srv/jobs/start.sh: line 19: 40213 Killed                  python train.py",
        ),
    ],
)
def test_a_rank_that_died_with_a_translated_report_is_killed_in_the_rank_table(
    tmp_path, translated, english
):
    _assert_killed_like_twin(tmp_path, translated, english)


@pytest.mark.parametrize(
    ("line", "text"),
    [
        ("[req 1] norm passed", "norm passed"),
        ("request 3 layer 2 passed", "layer 2 passed"),
        ("req-4: decode step 2 passed", "request 4 / decode step 2 passed"),
    ],
)
def test_a_request_tag_before_a_part_or_layer_is_read_past(line, text):
    hit = CheckpointMatcher().classify(line)
    assert hit is not None
    assert hit.text == text


def test_the_normalised_request_text_reads_back_with_its_request():
    hit = CheckpointMatcher().classify("request 3 / decode step 5 passed")
    assert hit is not None
    assert (hit.request, hit.step) == (3, 5)


def test_the_default_prefilter_keeps_chinese_checkpoint_lines():
    prefilter = re.compile(CheckpointMatcher().prefilter_bytes_pattern(), re.MULTILINE)
    assert prefilter.search("x\n2026-12-05 16:15:24,611 [rank3] INFO 第0层 注意力 通过\n".encode())
    assert prefilter.search("x\n第3层 完成\n".encode())


@pytest.mark.parametrize(
    "line",
    [
        "layer 1 attention passed",
        "Layer_1: attention passed",
        "[layer 1] attention passed",
        "[L1] attention passed",
        "L1/attention passed",
        "L1 | attention passed",
        "2026-12-05 16:40:02,118 [rank1] INFO [layer 1] attention passed shape=(8, 32) 0.4ms",
    ],
)
def test_every_spelling_of_a_layer_tag_has_one_text(line):
    hit = CheckpointMatcher().classify(line)
    assert hit is not None
    assert (hit.text, hit.role, hit.layer) == ("layer 1 / attention passed", "layer_part", 1)


@pytest.mark.parametrize(
    "line",
    [
        "x\n2026-12-05 16:40:02,118 [rank1] INFO layer 2: norm ok\n",
        "x\n[L2] Norm OK\n",
        "x\n2026-12-05 16:40:02,301 [rank0] INFO 模型运行成功\n",
        "x\n模型 运行 成功\n",
    ],
)
def test_the_default_prefilter_keeps_ok_and_chinese_success_lines(line):
    """Their literals (` ok`, `成功`) are in the prefilter and their confirming patterns,
    run on the block as the block search folds it, find them."""
    matcher = CheckpointMatcher()
    prefilter = re.compile(matcher.prefilter_bytes_pattern(), re.MULTILINE | re.IGNORECASE)
    assert prefilter.search(line.encode())
    folded = line.encode().translate(FOLD)
    confirms = matcher.prefilter_confirmations()
    assert any(word in folded and confirm.search(folded) for word, confirm in confirms.items())


def test_status_lines_ending_in_ok_or_chinese_success_are_not_confirmed():
    """A status line's ` ok` or a Chinese `连接成功` (connected) holds the literal but no
    layer or model run before it: the block keeps its single literal."""
    folded = "health check ok\nhccl 连接成功\nlayer 0 passed\n".encode().translate(FOLD)
    confirms = CheckpointMatcher().prefilter_confirmations()
    assert not confirms[b" ok"].search(folded)
    assert not confirms["成功".encode()].search(folded)


def test_a_bare_l2_before_a_part_is_the_l2_norm_not_layer_2():
    hit = CheckpointMatcher().classify("L2 norm passed")
    assert (hit.text, hit.role) == ("L2 norm passed", "submodule")


@pytest.mark.parametrize(
    ("line", "text", "role", "layer"),
    [
        ("layer2.attention passed", "layer 2 / attention passed", "layer_part", 2),
        ("blocks.3.mlp passed", "layer 3 / mlp passed", "layer_part", 3),
        ("model.layers.3.self_attn passed", "layer 3 / self_attn passed", "layer_part", 3),
        ("transformer.h.3.mlp.c_fc passed 0.2ms", "layer 3 / mlp.c_fc passed", "layer_part", 3),
        # an index further in is an expert's, not the layer's
        ("model.layers.2.mlp.experts.5 passed", "layer 2 / mlp.experts.5 passed", "layer_part", 2),
        ("model.layers.3 passed", "layer 3 passed", "layer", 3),
        # counterexample: no layer container before the index, a plain sub-module line
        ("experts.5.w1 passed", "experts.5.w1 passed", "submodule", None),
    ],
)
def test_a_module_path_is_read_in_the_layer_its_index_names(line, text, role, layer):
    """`named_modules()` spellings (`blocks.3.mlp`) name the layer by the index after the layer
    container; they read as the other spellings of a part that names its layer."""
    hit = CheckpointMatcher().classify(f"2026-12-05 18:04:38,697 [rank3] INFO {line}")
    assert hit is not None
    assert (hit.text, hit.role, hit.layer) == (text, role, layer)


@pytest.mark.parametrize(
    ("line", "text"),
    [
        ("  ✅ norm passed", "norm passed"),
        ("✅ layer 0 passed", "layer 0 passed"),
        ("🚀 prefill start: 8 tokens", "prefill start"),
        ("🎉 model run success", "model run success"),
        ("[rank0]:   ✔️ attention passed", "attention passed"),
        ("2026-12-05 18:46:27,118 [rank0] INFO ✓ layer 2 passed", "layer 2 passed"),
        ("➡️ 第1层 注意力 通过", "第1层 注意力 通过"),
    ],
)
def test_a_status_marker_before_a_checkpoint_is_decoration(line, text):
    """The rank that prints for the user often marks its progress with a check mark or an
    emoji; the checkpoint is the text after it, the same the undecorated ranks print."""
    hit = CheckpointMatcher().classify(line)
    assert hit is not None
    assert hit.text == text


@pytest.mark.parametrize("line", ["❌ layer 2 failed", "⚠️ attention skipped", "✅"])
def test_a_status_marker_makes_no_checkpoint_of_its_own(line):
    assert CheckpointMatcher().classify(line) is None


def _plain_rank(rank: int, marked: bool, error: str) -> str:
    """One rank's prints (no logging) as the real run's ranks wrote them; rank 0 of that job
    marks its progress for the user."""

    def mark(symbol: str, line: str) -> str:
        if not marked:
            return line
        indent = line[: len(line) - len(line.lstrip())]
        return f"{indent}{symbol} {line.lstrip()}"

    lines = [f"init process group: backend=gloo rank={rank} world_size=4 master=127.0.0.1:34387"]
    lines += [mark("✅", "load weights passed"), mark("🚀", "prefill start: 8 tokens")]
    for line in ("  norm passed", "  attention passed", "  MoE passed", "layer 0 passed"):
        lines.append(mark("✅", line))
    lines.append(mark("✅", "  norm passed"))
    lines += [
        f"[rank{rank}]: Traceback (most recent call last):",
        f'[rank{rank}]:   File "/srv/llm/infer.py", line 176, in layer',
        f"[rank{rank}]: RuntimeError: {error}",
    ]
    return "\n".join(lines) + "\n"


def test_a_rank_that_marks_its_checkpoints_compares_with_the_others(tmp_path):
    """Rank 3 fails in layer 1's attention and the others lose it; rank 0, whose checkpoints
    carry emoji, stopped where the others did (real run: torchrun, 4 ranks, plain prints)."""
    closed = (
        "[/__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp/pair.cc:553] Connection "
        "closed by peer [127.0.0.1]:1946. This is typically caused by a remote worker crashing."
    )
    files = {f"log_{rank}.log": _plain_rank(rank, rank == 0, closed) for rank in (0, 1, 2)}
    files["log_3.log"] = _plain_rank(
        3, False, "mat1 and mat2 shapes cannot be multiplied (8x32 and 16x32)"
    )
    files["env.txt"] = "WORLD_SIZE=4\nMASTER_ADDR=127.0.0.1\nBACKEND=gloo\n"
    report = analyze(
        pack(tmp_path / "job.tar.gz", files, "job-3f81c0aa"), AnalyzeOptions(workers=1)
    )
    assert {r.rank: r.last_checkpoint_qualified for r in report.ranks} == dict.fromkeys(
        range(4), "layer 1 / norm passed"
    )
    assert report.correlation["last_common_checkpoint_qualified"] == "layer 1 / norm passed"
    assert report.diagnosis.culprit_ranks == [3]


@pytest.mark.parametrize(
    ("line", "text"),
    [
        ("step 9 | layer 2 | norm passed", "layer 2 / norm passed"),
        ("step 8 | layer 1 passed", "layer 1 passed"),
        ("global_step=00005 layer=1 MoE passed", "layer 1 / MoE passed"),
        ("[step 12] L2/attention passed", "layer 2 / attention passed"),
        (
            "2026-12-05 19:05:29,767 trn-b11 [rank3] INFO step 10 | layer 2 | attention passed",
            "layer 2 / attention passed",
        ),
    ],
)
def test_a_print_counter_before_a_layer_line_is_a_prefix(line, text):
    """A running counter of the prints (`step 9 | ...`, `global_step=00005 ...`) in front of a
    line that names its layer numbers the prints: the checkpoint is the layer line, so ranks
    compare by layer and part."""
    assert CheckpointMatcher().match(line) == text


@pytest.mark.parametrize(
    ("line", "text"),
    [
        ("step 40 done", "step 40 done"),
        ("train step 3 passed", "train step 3 passed"),
        ("step 3 | norm passed", None),
        ("step 12: loss 0.31", None),
    ],
)
def test_a_step_line_of_its_own_is_no_print_counter(line, text):
    """Counterexample: a step that is the line's own subject (a training step done) keeps its
    reading, and a step before anything but a layer line is not cut off."""
    assert CheckpointMatcher().match(line) == text


def test_a_host_column_before_the_rank_tag_is_a_prefix():
    line = "2026-12-05 19:08:21,048 cn-0418 [rank5] INFO step 4 | layer 0 passed"
    assert strip_prefixes(line) == "layer 0 passed"
    assert strip_prefixes("2026-12-05 19:08:21,048 cn-0418 INFO layer 0 passed").startswith(
        "cn-0418"
    )


def _node_file(host: str, ranks: range, stop: dict[int, int], error: dict[int, str]) -> str:
    """One node's console as a per-node launcher collects it: every line with the host in
    front (pdsh style), the ranks' logging lines interleaved, each naming host and rank, each
    progress print numbered by a running counter."""
    lines = []
    for rank in ranks:
        lines.append(
            f"{host}: 2026-12-05 19:08:20,{100 + rank:03d} {host} [rank{rank}] INFO "
            f"init process group: backend=gloo rank={rank} world_size=6"
        )
    prints = [(layer, part) for layer in range(3) for part in ("norm", "attention", "MoE", None)]
    for n, (layer, part) in enumerate(prints, 1):
        for rank in ranks:
            if n > stop[rank]:
                continue
            what = f"layer {layer} | {part} passed" if part else f"layer {layer} passed"
            lines.append(
                f"{host}: 2026-12-05 19:08:21,{n * 10 + rank:03d} {host} [rank{rank}] INFO "
                f"step {n} | {what}"
            )
    for rank in ranks:
        if rank in error:
            lines.append(
                f"{host}: 2026-12-05 19:08:22,{500 + rank:03d} {host} [rank{rank}] ERROR "
                f"model run failed: {error[rank]}"
            )
    return "\n".join(lines) + "\n"


def test_ranks_sharing_a_node_file_keep_their_own_checkpoints(tmp_path):
    """Two nodes, three ranks each, one file per node with pdsh's host prefix and the host
    again in each logging line; rank 5 fails in layer 2 attention, the others lose it (real
    run: two launch groups on one machine). Before, no rank had a checkpoint."""
    lost = "[../gloo/transport/tcp/pair.cc:553] Connection closed by peer [10.0.3.7]:4411"
    stop = dict.fromkeys(range(6), 9)
    files = {
        "node0/pdsh-cn-0417.out": _node_file(
            "cn-0417", range(3), stop, dict.fromkeys(range(3), lost)
        ),
        "node1/pdsh-cn-0418.out": _node_file(
            "cn-0418",
            range(3, 6),
            stop,
            {3: lost, 4: lost, 5: "mat1 and mat2 shapes cannot be multiplied (8x32 and 16x32)"},
        ),
        "node0/env.txt": "NNODES=2\nNODE_RANK=0\nWORLD_SIZE=6\n",
    }
    report = analyze(
        pack(tmp_path / "job.tar.gz", files, "job-5c1d0e2a"), AnalyzeOptions(workers=1)
    )
    assert {r.rank: r.last_checkpoint_qualified for r in report.ranks} == dict.fromkeys(
        range(6), "layer 2 / norm passed"
    )
    assert report.correlation["last_common_checkpoint_qualified"] == "layer 2 / norm passed"
    assert report.diagnosis.culprit_ranks == [5]


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        # torch's debug record (`V`) and critical record (`C`) headers, behind its rank tags
        (
            "[rank2]:[rank2]:V0412 08:15:02.337000 90211 */train/loop.py:88] layer 3 passed",
            "layer 3 passed",
        ),
        ("C0412 08:20:11.004000 90211 train/loop.py:91] step 4 done", "step 4 done"),
    ],
)
def test_torchs_verbose_record_header_is_cut_before_the_checkpoint(line, expected):
    assert strip_prefixes(line) == expected
    assert CheckpointMatcher().match(strip_prefixes(line)) is not None


def test_a_word_with_the_letter_is_no_record_header():
    assert strip_prefixes("VIEW0412 layer 3 passed") == "VIEW0412 layer 3 passed"


@pytest.mark.parametrize(
    ("line", "text"),
    [
        ("rank0 | step 3 | layer 7 done", "layer 7 done"),
        ("[default2]:rank2 | step 0 | layer 5 done", "layer 5 done"),
        ("2026-12-05 20:46:41.029 [rank2] INFO layer 0 finished (3.1 ms)", "layer 0 finished"),
        ("layer 4 completed, loss=0.31", "layer 4 completed"),
        ("layer 2 done loading", None),
        ("waiting until layer 2 done", None),
    ],
)
def test_a_layer_done_line_closes_its_layer(line, text):
    """`layer N done` / `finished` / `completed` is progress like `layer N passed`, with its
    own verb kept; a sentence that goes on after the verb is none."""
    assert CheckpointMatcher().match(line) == text


def _pipe_rank(rank: int, stop: tuple[int, int], tail: list[str]) -> str:
    """A rank that prints `rankR | step S | layer L done` after every layer of every step
    (8 layers a step) up to `stop` (step, layer), then what it wrote at its end."""
    lines = []
    for step in range(stop[0] + 1):
        for layer in range(8):
            if (step, layer) > stop:
                break
            lines.append(f"rank{rank} | step {step} | layer {layer} done")
    return "\n".join(lines + tail) + "\n"


def test_ranks_that_print_layer_done_lines_are_compared_by_them(tmp_path):
    """Real run, one process per rank with print(flush=False): rank 1 segfaults at step 50 and
    its log keeps only the first 8 KiB block (up to step 32 layer 7) and the faulthandler
    dump; the others lose it in step 50 after layer 3. Every rank's last checkpoint is a
    `layer N done` line and the last common one is rank 1's last visible line."""
    reset = (
        "[rank{r}]: RuntimeError: [/__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp/"
        "pair.cc:537] Read error [127.0.0.1]:37074: Connection reset by peer. This is typically "
        "caused by a remote worker hanging or bugs in the application."
    )
    files = {
        f"log_{r}.log": _pipe_rank(
            r,
            (50, 3),
            [
                f"[rank{r}]: Traceback (most recent call last):",
                f'[rank{r}]:   File "/srv/llm/infer.py", line 101, in main',
                reset.format(r=r),
            ],
        )
        for r in (0, 2, 3)
    }
    files["log_1.log"] = _pipe_rank(
        1,
        (32, 7),
        [
            "Fatal Python error: Segmentation fault",
            "",
            "Current thread 0x00007fe330497b80 (most recent call first):",
            '  File "/usr/lib/python3.11/ctypes/__init__.py", line 519 in string_at',
            '  File "/srv/llm/infer.py", line 70 in inject',
        ],
    )
    files["env.txt"] = "WORLD_SIZE=4\nMASTER_ADDR=127.0.0.1\nBACKEND=gloo\n"
    report = analyze(pack(tmp_path / "job.tar.gz", files, "job-e1b2"), AnalyzeOptions(workers=1))
    assert {r.rank: r.last_checkpoint_qualified for r in report.ranks} == {
        0: "layer 3 done",
        1: "layer 7 done",
        2: "layer 3 done",
        3: "layer 3 done",
    }
    assert report.correlation["last_common_checkpoint_qualified"] == "layer 7 done"
    assert report.diagnosis.culprit_ranks == [1]


# Guide: "Counters with their totals" (Training steps). A layer tag or a step counter that
# carries its total (`[layer 2/4] norm ok`, `Epoch [1/2] Step [4/4] done`) passes the byte
# prefilter and is read as the same checkpoint without the total; a metric line with the same
# counters and no verb stays out.
@pytest.mark.parametrize(
    "line",
    [
        "2026-12-06 06:40:04.098 | INFO     | __main__:run:131 - [layer 2/4] mlp done",
        "[06:36:17] INFO     Epoch [1/2] Step [4/4] done                    train.py:188",
        "Epoch [2/10], Step [150/500] done, loss: 0.41",
    ],
)
def test_default_prefilter_finds_counters_with_totals(line):
    prefilter = re.compile(CheckpointMatcher().prefilter_bytes_pattern(), re.MULTILINE)
    assert prefilter.search(b"x\n" + line.encode() + b"\n")


def test_counters_with_totals_place_the_ranks(tmp_path):
    def rank_log(r: int, steps: int, layers_in_last: int) -> str:
        out = []
        for step in range(1, steps + 1):
            top = layers_in_last if step == steps else 4
            for layer in range(1, top + 1):
                out.append(
                    f"2026-12-06 06:40:0{step}.10{r} | INFO     | __main__:fwd:131 - [layer {layer}/4] norm ok"
                )
                out.append(
                    f"2026-12-06 06:40:0{step}.20{r} | INFO     | __main__:fwd:140 - [layer {layer}/4] attention ok"
                )
            if step < steps:
                out.append(
                    f"[06:40:0{step}] INFO     Epoch [1/2] Step [{step}/4] done      train.py:188"
                )
        return "\n".join(out) + "\n"

    files = {f"log_{r}.log": rank_log(r, 3, 4 if r != 2 else 2) for r in range(4)}
    files["log_2.log"] += (
        "[rank2]: RuntimeError: mat1 and mat2 shapes cannot be multiplied (64x12 and 32x96)\n"
    )
    report = analyze(pack(tmp_path / "job.tar.gz", files, "job-tf01"), AnalyzeOptions(workers=1))
    last = {r.rank: r.last_checkpoint_qualified for r in report.ranks}
    assert last[2] == "step 3 / layer 2 / attention ok"
    assert last[0] == "step 3 / layer 4 / attention ok"
    # counterexample: the tutorial's metric line with the same counters and no verb
    assert CheckpointMatcher().match("Epoch [1/2], Step [4/4], Loss: 0.4123") is None


@pytest.mark.parametrize(
    ("word", "line"),
    [
        (b"step", "2026-12-05 16:40:02,118 [rank1] INFO step 12 done loss=2.31"),
        (b"step", "Epoch [1/2] Step [4/4] done"),
        (b"step", "train_step-3, start"),
        (b"iter", "iteration 4/10 begin"),
        (b"iter", "iter 7 ok"),
        (b"layer", "layer 7 finished"),
        (b"layer", "layer 1: attn complete"),
    ],
)
def test_each_confirmed_match_holds_one_of_the_words_its_literal_needs(word, line):
    """A block settled to lack all of a confirmed literal's `needs` is not searched with its
    pattern, so every match must hold one of them."""
    folded = line.encode().translate(FOLD)
    confirm = CheckpointMatcher().prefilter_confirmations()[word]
    found = confirm.search(folded)
    assert found is not None
    assert any(need in found.group() for need in confirm.needs)


# Guide: "A layer called a block" (Checkpoints). A job whose repeated unit is a block prints
# the block's number and a verb after its rank tag; the line closes that block as a layer
# line closes its layer, and passes the byte prefilter and its confirmation.
@pytest.mark.parametrize(
    ("line", "text"),
    [
        ("[rank3] block 12 ok", "block 12 ok"),
        ("2026-12-06 16:04:02,118 [rank1] INFO Block 3 passed (1.2 ms)", "block 3 passed"),
        ("[default5]:[rank5] block_4 done", "block 4 done"),
    ],
)
def test_a_block_line_closes_its_block_like_a_layer(line, text):
    hit = CheckpointMatcher().classify(line)
    assert hit is not None
    assert (hit.text, hit.role) == (text, "layer")
    assert CheckpointMatcher().match("[rank3] block 12 failed") is None
    assert CheckpointMatcher().match("[AIV Block 1/48] ok") is None


def test_block_lines_are_every_ranks_checkpoints(tmp_path):
    """Eight ranks print `[rankN] block K ok` at the end of each block; all stop in block 2,
    where one rank's collective is refused. Each rank's last checkpoint is `block 1 ok`."""
    files = {
        f"log_{r}.log": "".join(f"[rank{r}] block {k} ok\n" for k in range(2))
        + f"[rank{r}]: RuntimeError: Detected mismatch between collectives on ranks. Rank {r}"
        " is running collective: CollectiveFingerPrint(SequenceNumber=4, OpType=ALLREDUCE,"
        " TensorShape=[8, 32], TensorDtypes=Float), but Rank 5 is running collective:"
        " CollectiveFingerPrint(SequenceNumber=4, OpType=ALLREDUCE, TensorShape=[8, 33],"
        " TensorDtypes=Float).\n"
        for r in range(8)
    }
    files["env.txt"] = "WORLD_SIZE=8\nMASTER_ADDR=127.0.0.1\nBACKEND=gloo\n"
    report = analyze(pack(tmp_path / "job.tar.gz", files, "job-b10c"), AnalyzeOptions(workers=1))
    assert {r.rank: r.last_checkpoint_qualified for r in report.ranks} == dict.fromkeys(
        range(8), "block 1 ok"
    )
    assert report.correlation["last_common_checkpoint_qualified"] == "block 1 ok"


# Guide: "Full-width punctuation after the verb" (Checkpoints). A print typed with a Chinese
# input method puts a full-width comma between the checkpoint and what it measures; the line is
# read as it is with an ASCII comma, and a sentence that negates it stays out.
@pytest.mark.parametrize(
    ("line", "text"),
    [
        ("step 1 done，loss=1.0000", "step 1 done"),
        ("epoch 1 step 8 done，loss=0.44", "epoch 1 step 8 done"),
        ("layer 3 passed，耗时 1.2ms", "layer 3 passed"),
        ("decode step 2 passed（12 tokens）", "decode step 2 passed"),
        ("step 4 start：8 samples", "step 4 start"),
    ],
)
def test_full_width_punctuation_after_the_verb_keeps_the_checkpoint(line, text):
    hit = CheckpointMatcher().classify(line)
    assert hit is not None
    assert hit.text == text


def test_full_width_comma_steps_are_every_ranks_checkpoints(tmp_path):
    """Four ranks print `step N done，loss=...`; rank 3 dies after step 1, the others after
    step 2."""
    files = {
        f"log_{r}.log": "".join(
            f"step {s} done，loss=0.{s}000\n" for s in range(1, 3 if r != 3 else 2)
        )
        for r in range(4)
    }
    files["log_3.log"] += (
        "[rank3]: RuntimeError: DataLoader worker (pid 19000) is killed by signal: "
        "Segmentation fault. \n"
    )
    files["env.txt"] = "WORLD_SIZE=4\nMASTER_ADDR=127.0.0.1\nBACKEND=gloo\n"
    report = analyze(pack(tmp_path / "job.tar.gz", files, "logs"), AnalyzeOptions(workers=1))
    assert {r.rank: r.last_checkpoint_qualified for r in report.ranks} == {
        0: "step 2 done",
        1: "step 2 done",
        2: "step 2 done",
        3: "step 1 done",
    }
    assert report.correlation["last_common_checkpoint_qualified"] == "step 1 done"


@pytest.mark.parametrize(
    ("line", "text"),
    [
        # a tick mark for the verb, after a short rank tag
        ("[r2] fwd layer 7 ✓", "layer 7 passed"),
        ("[r2] fwd layer 7 attention ✓", "layer 7 / attention passed"),
        ("[default1]:[r1] layer 3 MoE ✔ (0.4 ms)", "layer 3 / MoE passed"),
        ("layer 12 ✅", "layer 12 passed"),
        # an epoch and its iteration, split by bars, closed by a verb
        ("Epoch 1 | iter 40/200 done | loss 0.0001", "epoch 1 iter 40 done"),
        ("epoch 2, iteration 300 finished, loss=0.31", "epoch 2 iter 300 finished"),
        # a Chinese training step closed with 完成 / 通过
        ("第2步完成，loss=23.3008", "第2步 完成"),
        ("[rank0] INFO 训练 第12步 通过", "第12步 通过"),
        # counterexamples: a cross, a bare loss print, a step not done, a decode step
        ("[r2] fwd layer 7 ✗", None),
        ("layer 7 ✓ skipped", None),
        ("Epoch 1 | iter 40/200 | loss 0.0001", None),
        ("第2步 未完成", None),
        ("第2步完成度 80%", None),
    ],
)
def test_tick_marks_epoch_iterations_and_chinese_steps_are_checkpoints(line, text):
    assert CheckpointMatcher().match(line) == text


def test_tick_mark_and_epoch_iteration_lines_reach_every_rank_in_a_bundle(tmp_path):
    """Tick-marked layer lines and bar-separated epoch/iteration lines are found in the raw
    file (the byte prefilter passes them) and read as each rank's last checkpoint."""
    files = {}
    for r in range(4):
        files[f"log_{r}.log"] = (
            f"[r{r}] fwd layer 0 norm ✓\n[r{r}] fwd layer 0 ✓\n[r{r}] fwd layer 1 attention ✓\n"
            f"Epoch 1 | iter 10/200 done | loss 0.1234\n"
            + ("" if r == 3 else f"[r{r}] fwd layer 0 norm ✓\n")
        )
    files["log_3.log"] += (
        "[rank3]: RuntimeError: mat1 and mat2 shapes cannot be multiplied (8x8 and 32x32)\n"
    )
    report = analyze(pack(tmp_path / "job.tar.gz", files, "logs"), AnalyzeOptions(workers=1))
    got = {r.rank: r.last_checkpoint_qualified for r in report.ranks}
    assert got[3] == "epoch 1 iter 10 done"
    assert got[0] == "step 11 / layer 0 / norm passed"
    assert report.correlation["last_common_checkpoint_qualified"] == "epoch 1 iter 10 done"


# docs/labelling.md#numbered-phases-and-identifier-named-events
# A set-up split into numbered phases closes each with its number and the count (`stage 2/5: all-to-all ok`);
# a structured logger names its event as an identifier with the layer in a field of its own
# (`event=norm_done layer=1`). Both pass the byte prefilter and its confirmation.
@pytest.mark.parametrize(
    "line",
    [
        "x\n[default5]:stage 2/5: all-to-all ok\n",
        "x\nphase 3/4 - load weights done (1.2 s)\n",
        "x\ntimestamp=2026-12-06T17:15:08.362Z level=info event=norm_done layer=1 rank=4\n",
        'x\n{"ts": "2026-12-06T17:15:08.362", "event": "attention_finished", "layer": 12}\n',
        "x\nlayer=3 event=layer_done rank=0\n",
    ],
)
def test_the_default_prefilter_keeps_numbered_phases_and_identifier_events(line):
    matcher = CheckpointMatcher()
    prefilter = re.compile(matcher.prefilter_bytes_pattern(), re.MULTILINE | re.IGNORECASE)
    assert prefilter.search(line.encode())
    folded = line.encode().translate(FOLD)
    confirms = matcher.prefilter_confirmations()
    assert any(word in folded and confirm.search(folded) for word, confirm in confirms.items())


def test_status_lines_and_identifiers_without_a_layer_are_not_confirmed():
    """A health check's ` ok` after a phase number with no count, and an identifier that
    ends in `_done` with no layer field (`event=download_done`), stay unconfirmed."""
    folded = b"stage 1: recv ok\nevent=download_done file=a.bin\n".translate(FOLD)
    confirms = CheckpointMatcher().prefilter_confirmations()
    assert not confirms[b" ok"].search(folded)
    assert not confirms[b"_done"].search(folded)


def test_numbered_phases_place_the_rank_that_stopped_before_the_next_one():
    """Every rank closes phases 1 and 2; one fails loading its weights and never closes
    phase 3: the others' last checkpoint is phase 3, the last common one phase 2."""
    from analyzers.timeline.correlate import correlate
    from tests.analyzers.excerpts import scan_text

    done = ["stage 1/5: process group ok", "stage 2/5: all-to-all ok", "stage 3/5: load weights ok"]
    matcher = CheckpointMatcher(())
    scans = [
        scan_text(
            f"run/attempt_0/{r}/stdout.log",
            "".join(x + "\n" for x in done[: 2 if r else 3]),
            matcher,
        )
        for r in (0, 1)
    ]
    correlation = correlate(scans, None)
    assert [r.last_checkpoint_qualified for r in correlation.ranks] == [
        "stage 3 load weights ok",
        "stage 2 all-to-all ok",
    ]
    assert correlation.last_common.qualified == "stage 2 all-to-all ok"


@pytest.mark.parametrize(
    ("line", "text", "layer"),
    [
        ("2026-12-06 18:40:07,791 | INFO     | rank 0 | finished layer 3", "finished layer 3", 3),
        ("[default2]:completed layer 2 (1.1 ms)", "completed layer 2", 2),
    ],
)
def test_a_layer_closed_with_the_verb_first_closes_that_layer(line, text, layer):
    """`finished layer 3` says what `layer 3 finished` says: layer 3 is done."""
    hit = CheckpointMatcher().classify(line)
    assert hit is not None
    assert (hit.text, hit.role, hit.layer) == (text, "layer", layer)


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("[R3] blk 2 ✓", "blk 2 ✓"),
        ("[default1]:[R1] blk 0 done", "blk 0 done"),
        ("rank=3 microbatch 5/8 complete", "microbatch 5/8 complete"),
        ("rank=0 | micro-batch 2 done", "microbatch 2 done"),
        (
            "[R1] step 1:  12%|█         | 1/8 [00:00<00:00, 9.1it/s]rank=1 microbatch 1/8 complete",
            "microbatch 1/8 complete",
        ),
    ],
    ids=["blk-tick", "blk-done", "microbatch-of-total", "micro-batch-done", "behind-a-bar"],
)
def test_short_block_and_microbatch_progress_prints(line, expected):
    """`[R3] blk 2 ✓` closes a block as `block 2 ok` does, and a loop's `rank=3 microbatch 5/8
    complete` closes a microbatch; a `rank=N` tag in front is the rank's, not the message."""
    matcher = CheckpointMatcher()
    assert matcher.match(line) == expected
    prefilter = re.compile(matcher.prefilter_bytes_pattern(), re.MULTILINE)
    assert prefilter.search(line.encode())


@pytest.mark.parametrize(
    "line", ["blk 2 ✗", "rank=3 microbatch 5/8 failed", "freed blk 3 ok", "rank=3 microbatch 5/8"]
)
def test_short_block_and_microbatch_lines_that_close_nothing(line):
    assert CheckpointMatcher().match(line) is None


# Guide: "Checkpoints" (patterns). A loop that reports each layer with the verb first and the
# layer's count after it (`passed layer 3/12`) closes that layer as `finished layer 3` does;
# a print that names its layer in a bracketed field after the verb (`fwd done [layer=5]`) is
# a part of that layer, read like `layer 5 fwd done`.
@pytest.mark.parametrize(
    ("line", "text", "role"),
    [
        ("[rank 2] passed layer 3/12", "passed layer 3", "layer"),
        ("[default1]:[rank 1] passed layer 5/6", "passed layer 5", "layer"),
        ("fwd done [layer=5]", "layer 5 / fwd done", "layer_part"),
        ("[rank3] attention finished (layer: 2)", "layer 2 / attention finished", "layer_part"),
        ("2026-12-06 19:45:01,112 INFO mlp passed [layer=7]", "layer 7 / mlp passed", "layer_part"),
    ],
)
def test_a_layer_named_after_the_verb_is_read_as_its_layer(line, text, role):
    hit = CheckpointMatcher().classify(line)
    assert hit is not None
    assert (hit.text, hit.role) == (text, role)
    assert CheckpointMatcher().match("fwd failed [layer=5]") is None
    assert CheckpointMatcher().match("passed layer 3 to the cache") is None
    assert CheckpointMatcher().match("not done [layer=5]") is None


def test_bracketed_layer_fields_are_every_ranks_checkpoints(tmp_path):
    """Four ranks print `fwd done [layer=K]` after each layer; rank 3 stops in a strict
    state-dict load. Every rank's last checkpoint is the last layer's."""
    files = {
        f"log_{r}.log": "".join(f"fwd done [layer={k}]\n" for k in range(3))
        + (
            f"[rank{r}]: RuntimeError: Error(s) in loading state_dict for Net:\n"
            if r == 3
            else f"[rank{r}]: RuntimeError: [../gloo/transport/tcp/pair.cc:553] Connection"
            " closed by peer [127.0.0.1]:4512\n"
        )
        for r in range(4)
    }
    report = analyze(pack(tmp_path / "job.tar.gz", files, "job-fd01"), AnalyzeOptions(workers=1))
    assert {r.rank: r.last_checkpoint_qualified for r in report.ranks} == dict.fromkeys(
        range(4), "layer 2 / fwd done"
    )


def test_a_rank_field_with_the_world_size_is_a_prefix():
    line = "2026-12-07 18:41:12,949 | rank 0/6 | INFO | epoch 1 step 1 finished, loss=4.3260"
    assert strip_prefixes(line) == "epoch 1 step 1 finished, loss=4.3260"
    assert CheckpointMatcher().match(strip_prefixes(line)) == "epoch 1 step 1 finished"


def test_a_rank_count_in_a_sentence_is_no_prefix():
    line = "rank 3/8 joined the group"
    assert strip_prefixes(line) == line


@pytest.mark.parametrize(
    ("line", "text", "layer"),
    [
        ("2026-12-07 23:32:08,114 [rank1] INFO layer 02 norm ok", "layer 2 / norm ok", 2),
        ("rank 3 layer 00 ok", "layer 0 ok", 0),
        ("2026-12-07 23:32:08,114 [rank1] INFO layer 007 passed", "layer 7 passed", 7),
        ("第03层 注意力 通过", "第3层 注意力 通过", 3),
    ],
)
def test_a_number_padded_to_a_width_reads_as_its_value(line, text, layer):
    """A job that pads its counters (`layer 02`) names the same layer as one that does not, so
    its ranks' checkpoints compare with every other spelling of that layer."""
    hit = CheckpointMatcher().classify(line)
    assert hit is not None
    assert (hit.text, hit.layer) == (text, layer)


def test_a_number_without_padding_and_a_part_with_digits_keep_their_text():
    """Counterexample: only a number alone is read by value; a part's name keeps its digits."""
    hit = CheckpointMatcher().classify("layer 10 / fc2 passed")
    assert hit is not None
    assert hit.text == "layer 10 / fc2 passed"
    assert CheckpointMatcher().classify("layer 0 passed").text == "layer 0 passed"


def test_a_path_column_is_cut_after_any_run_of_blanks_and_a_line_of_blanks_is_kept() -> None:
    from analyzers.checkpoints.patterns import _PATH_COLUMN

    assert _PATH_COLUMN.sub("", "a" + "\t" * 8192) == "a" + "\t" * 8192
    assert _PATH_COLUMN.sub("", "load weights passed" + " " * 8000 + "infer.py:197  ") == (
        "load weights passed"
    )
