"""A rich record whose message rich wrapped onto rows of their own is read as one message.

docs/labelling.md#checkpoints-a-rank-decorates-or-a-handler-sets-in-columns: rich's logging
handler wraps a long message at words onto rows whose time and level columns are blank, each
row padded to the console's width. The sentence of an error is then cut in the middle (`...
err ==` / `0. DefaultCPUAllocator: can't allocate memory: you tried to allocate` / `<n>
bytes. Error code 12 ...`), and a piece read on its own matches the wrong rule or none. The
record's message (and an exception row's, under the traceback it prints) is joined back and
cited at its first row; traceback frames, carets and quoted paths are never joined, and a log
that only happens to indent its lines is left alone. Fixtures are a rank's log as rich writes
it at 100 columns, with paths and values of our own.
"""

from __future__ import annotations

from tests.analyzers.excerpts import diagnose_text

WIDTH = 100


def _row(left: str, path: str = "") -> str:
    return left + " " * (WIDTH - len(left) - len(path)) + path


def _rich(rows: list[tuple[str, str]]) -> str:
    return "\n".join(_row(left, path) for left, path in rows) + "\n"


PAD = " " * 20
ALLOC = _rich(
    [
        ("[03:11:52] INFO     [rank4] layer 3 passed", "train.py:61"),
        (
            "           ERROR    [rank4] model run failed: [enforce fail at alloc_cpu.cpp:127] err ==",
            "train.py:70",
        ),
        (PAD + "0. DefaultCPUAllocator: can't allocate memory: you tried to allocate", ""),
        (PAD + "912345678901 bytes. Error code 12 (Cannot allocate memory)", ""),
        (PAD + "Traceback (most recent call last):", ""),
        (PAD + '  File "/srv/ml/train.py", line 140, in main', ""),
        (PAD + "    loss.backward()", ""),
        (PAD + '  File "/srv/ml/train.py", line 98, in hist_hook', ""),
        (PAD + "    buf = torch.empty(n_bins)", ""),
        (PAD + "RuntimeError: [enforce fail at alloc_cpu.cpp:127] err == 0.", ""),
        (PAD + "DefaultCPUAllocator: can't allocate memory: you tried to allocate", ""),
        (PAD + "912345678901 bytes. Error code 12 (Cannot allocate memory)", ""),
    ]
)

# the same words in a log whose lines are only indented: no rich record opens them
INDENTED = (
    "2026-12-06 03:11:52,004 ERROR hist_hook failed, the allocator said:\n"
    + PAD
    + "[enforce fail at alloc_cpu.cpp:127] err ==\n"
    + PAD
    + "0. DefaultCPUAllocator: can't allocate memory: you tried to allocate\n"
    + PAD
    + "912345678901 bytes. Error code 12 (Cannot allocate memory)\n"
)


def test_a_wrapped_rich_error_record_is_one_message() -> None:
    diagnosis = diagnose_text("log_4.log", ALLOC)
    assert diagnosis.category == "oom", diagnosis.root_cause
    first = diagnosis.first_error
    assert first is not None
    assert "DefaultCPUAllocator: can't allocate memory: you tried to allocate 912345678901" in (
        first.text
    )
    assert first.line == 2  # cited at the record's first row
    assert "train.py:70" not in first.text  # the path column is not part of the message


def test_indented_lines_without_a_rich_record_stay_apart() -> None:
    diagnosis = diagnose_text("job.log", INDENTED)
    first = diagnosis.first_error
    assert first is not None
    assert "912345678901 bytes" not in first.text or "you tried" not in first.text


GLOO_PATH = "[/opt/src/pytorch/third_party/gloo/gloo/transport/tcp/unbound_buffer.cc:81]"
# rich's console (`Console.log`): time (blank under a repeated second), message at column 11,
# the caller's source right-aligned on a record's first row, no level column
CONSOLE = _rich(
    [
        ("[09:14:02] rank 1 load weights passed", "serve.py:88"),
        ("           rank 1   norm passed", "serve.py:61"),
        ("[09:14:12] rank 1 model run failed:", "serve.py:140"),
        # a word longer than the column is folded at its right edge, the rest wrapped at words
        ("           " + GLOO_PATH[:62], ""),
        ("           " + GLOO_PATH[62:] + " Timed out waiting 15000ms for recv operation", ""),
        ("           to complete", ""),
        ("Traceback (most recent call last):", ""),
    ]
)


def test_a_wrapped_console_record_is_one_message_and_a_folded_word_stays_whole() -> None:
    diagnosis = diagnose_text("log_1.log", CONSOLE)
    first = diagnosis.first_error
    assert first is not None
    assert "unbound_buffer.cc:81] Timed out waiting 15000ms for recv operation to complete" in (
        first.text
    )
    assert first.line == 3  # cited at the record's first row
    assert "serve.py:140" not in first.text


# the same rows as handler records under a repeated second: each stays a record of its own
CONSOLE_RECORDS = _rich(
    [
        ("[09:14:12] rank 1 model run failed: see below", "serve.py:140"),
        (
            "           rank 1 Timed out waiting 15000ms for recv operation to complete",
            "serve.py:141",
        ),
        ("           rank 1 shutting down", "serve.py:150"),
    ]
)


def test_console_records_under_a_repeated_second_are_not_joined() -> None:
    diagnosis = diagnose_text("log_1.log", CONSOLE_RECORDS)
    first = diagnosis.first_error
    assert first is not None
    assert "shutting down" not in first.text
    assert "see below" not in first.text or "Timed out" not in first.text
