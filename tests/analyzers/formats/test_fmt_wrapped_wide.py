"""Lines holding Chinese text that a terminal cut at its width: the width is counted in display
columns (a Chinese character is 3 bytes but 2 columns), so their pieces are joined as ASCII
ones are; Chinese lines that were never cut stay apart whatever their length.

The excerpt follows the shapes of a torch_npu fine-tuning run on Ascend whose trainer logs in
Chinese (its records, torch_npu's dtype warning, a traceback whose RuntimeError wraps the NPU's
out-of-memory text, the CANN error-manager record), with values and wording of our own.
`terminal` cuts it as a terminal does: at a column, a wide character that no longer fits in a
row's last column going to the next row.
"""

from __future__ import annotations

import unicodedata

import pytest

from analyzers.formats.columns import columns
from tests.analyzers.excerpts import diagnose_text
from tests.analyzers.formats.test_fmt_wrapped import joined

LOG = [
    "[2026-05-11 08:40:01,112] [INFO] [rank2] 开始加载数据集 /data/sft/train_zh.jsonl，共 182934"
    " 条样本，最大序列长度 4096，按长度分桶打包后共 22866 个批次，每张卡分到 2858 个批次，"
    "数据加载进程 8 个，预取因子 4",
    "[2026-05-11 08:40:03,530] [INFO] [rank2] 模型 Qwen2-7B 已加载到 npu:2，参数量 7.62B，"
    "精度 bf16，梯度检查点已关闭",
    "[W compiler_depend.ts:133] Warning: Warning: Device do not support double dtype now, dtype"
    " cast repalce with float. (function operator())",
    "[2026-05-11 08:41:12,006] [INFO] [rank2] 训练步 10/2000 完成，损失 2.3104，学习率 9.15e-06，"
    "吞吐 812.4 tokens/s/卡，本步耗时 1.92 秒，预计剩余 1 小时 3 分",
    "[2026-05-11 08:41:31,447] [INFO] [rank2] 训练步 20/2000 完成，损失 2.1877，学习率 9.15e-06，"
    "吞吐 809.1 tokens/s/卡，本步耗时 1.95 秒，预计剩余 1 小时 4 分",
    "[2026-05-11 08:41:40,118] [WARNING] [rank2] 第 23 步的批次含有超长样本（长度 8192），"
    "已按最大长度 4096 截断；如需保留完整样本，请调大 max_seq_len 并相应减小 micro_batch_size，"
    "否则长文本任务上的训练效果可能明显下降，详见 docs/数据处理.md 中的说明",
    "Traceback (most recent call last):",
    '  File "/home/work/sft/train.py", line 214, in <module>',
    "    loss = trainer.step(batch)",
    '  File "/home/work/sft/engine.py", line 93, in step',
    "    logits = self.model(**batch)",
    "RuntimeError: 第 24 步前向计算失败（rank 2，设备 npu:2）：NPU out of memory. Tried to allocate"
    " 386.00 MiB (NPU 2; 60.97 GiB total capacity; 58.12 GiB already allocated; 58.12 GiB current"
    " active; 1.02 GiB free; 59.80 GiB reserved in total by PyTorch)。请减小 micro_batch_size、"
    "开启重计算（--recompute）或增加张量并行切分后重试",
    "[ERROR] 2026-05-11-08:41:42 (PID:30412, Device:2, RankID:2) ERR99999 UNKNOWN applicaiton"
    " exception",
]


OOM = next(at for at, line in enumerate(LOG) if line.startswith("RuntimeError:"))


def cells(char: str) -> int:
    """Columns of one character on screen."""
    if unicodedata.combining(char):
        return 0
    return 2 if unicodedata.east_asian_width(char) in ("W", "F") else 1


def rows(line: str, width: int) -> list[str]:
    """The rows a terminal `width` columns wide shows `line` on."""
    out, row, used = [], "", 0
    for char in line:
        if used + cells(char) > width:
            out.append(row)
            row, used = "", 0
        row += char
        used += cells(char)
    return [*out, row]


def terminal(lines: list[str], width: int) -> str:
    """The lines as copied out of a terminal `width` columns wide."""
    return "".join(row + "\n" for line in lines for row in rows(line, width))


def first_rows(lines: list[str], width: int) -> list[int]:
    """The row where each line starts once the terminal cut them."""
    starts, number = [], 1
    for line in lines:
        starts.append(number)
        number += len(rows(line, width))
    return starts


def cut_lines(lines: list[str], width: int) -> list[tuple[int, int]]:
    """(first row, row count) of every line the terminal cut."""
    counts = [len(rows(line, width)) for line in lines]
    return [(first, n) for first, n in zip(first_rows(lines, width), counts, strict=True) if n > 1]


@pytest.mark.parametrize("width", [120, 200])
def test_a_chinese_torch_npu_log_cut_by_a_terminal_is_joined_where_it_was_cut(width):
    pieces = [row for line in LOG for row in rows(line, width)[:-1]]
    assert len(pieces) >= 3
    assert len({len(piece.encode()) for piece in pieces}) > 1  # no width in bytes tells them
    assert any(sum(map(cells, piece)) == width - 1 for piece in pieces)  # a wide one moved on
    assert joined(terminal(LOG, width)) == cut_lines(LOG, width)


@pytest.mark.parametrize("width", [120, 200])
def test_the_out_of_memory_error_cut_by_a_terminal_reads_as_the_uncut_one_at_its_first_row(
    width,
):
    whole = diagnose_text("train.log", terminal(LOG, 100_000))
    diagnosis = diagnose_text("train.log", terminal(LOG, width))
    assert whole.category == diagnosis.category == "oom"
    assert whole.first_error is not None
    assert diagnosis.first_error is not None
    assert diagnosis.first_error.text == whole.first_error.text
    assert "开启重计算（--recompute）" in diagnosis.first_error.text
    assert whole.first_error.line == OOM + 1
    assert diagnosis.first_error.line == first_rows(LOG, width)[OOM]


def test_chinese_lines_that_were_never_cut_stay_apart_whatever_their_length():
    records = [
        f"[2026-05-11 08:4{n // 6}:{n * 5:02d},112] [INFO] [rank2] 训练步 {n * 10}/2000 完成，"
        f"损失 {2.4 - n / 50:.4f}"
        + "，吞吐 812.4 tokens/s/卡" * (n % 4)
        + "，本步耗时 1.92 秒" * (n % 3)
        for n in range(12)
    ]
    prose = [
        "检查点已保存到 /ckpt/step_100，耗时 12.4 秒",
        "开始评估",
        "评估集上的损失为 2.0133，准确率 61.2%，与上一次评估相比提升了 0.8 个百分点，继续训练",
        "注意：当前学习率调度器为余弦退火，预热步数 200，最小学习率 1e-07",
    ]
    assert max(map(columns, (line.encode() for line in records))) > 120
    assert joined(terminal(records + prose + LOG, 100_000)) == []
    assert joined(terminal(prose * 8, 100_000)) == []


def test_a_line_a_column_short_of_the_window_joins_only_a_wide_character():
    """The column a terminal leaves empty is there only when a wide character did not fit: a
    line one column short before a narrow start is a line of its own."""
    text = terminal(LOG, 120)
    shown = text.splitlines()
    short = next(at for at, row in enumerate(shown) if sum(map(cells, row)) == 119)
    assert cells(shown[short + 1][0]) == 2
    assert (short + 1, 2) in joined(text)
    shown[short + 1] = "xx" + shown[short + 1][1:]  # as wide, but it would have fit
    assert (short + 1, 2) not in joined("\n".join(shown) + "\n")
