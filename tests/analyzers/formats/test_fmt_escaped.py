"""Error blocks folded into one line with escaped newlines come apart into their lines."""

import pytest

from analyzers.formats.escaped import inherit_writer, split_escaped
from analyzers.formats.lines import parse_line

CASES = [
    ("plain-line", b"RuntimeError: NPU out of memory.", [b"RuntimeError: NPU out of memory."]),
    (
        "json-body",
        b'{"message":"call aclnnAdd failed, error code is 161002\\n[ERROR] 2026-05-02-10:11:12 '
        b'(PID:91, Device:0, RankID:-1) ERR00100 PTA call acl api failed.\\n","code":500}',
        [
            b'{"message":"call aclnnAdd failed, error code is 161002',
            b"[ERROR] 2026-05-02-10:11:12 (PID:91, Device:0, RankID:-1) ERR00100 PTA call acl api failed.",
        ],
    ),
    (
        "python-repr",
        b"ERROR 04-10 11:26:01 engine.py:140] RuntimeError('The Inner error is reported as above."
        b"\\nSince the operator is called asynchronously, the stacktrace may be inaccurate.\\n')",
        [
            b"ERROR 04-10 11:26:01 engine.py:140] RuntimeError('The Inner error is reported as above.",
            b"Since the operator is called asynchronously, the stacktrace may be inaccurate.",
        ],
    ),
    (
        "escaped-twice",
        b'{"label":"RAY_NODE_REMOVED","message":"node gone (1) raylet crashed \\\\n\\t(2) slow '
        b'network","severity":"ERROR"}',
        [
            b'{"label":"RAY_NODE_REMOVED","message":"node gone (1) raylet crashed ',
            b'    (2) slow network","severity":"ERROR"}',
        ],
    ),
    (
        "escaped-backslash-then-newline",
        b"path C:\\\\\\ndone",
        [b"path C:\\\\", b"done"],
    ),
    (
        # a compiler error's repr carrying a kernel's source: the newlines are the source's
        "kernel-source-repr",
        b"UnsupportedLanguageConstruct('@triton.jit\\ndef scale(x):\\n    a, b = b, a\\n', "
        b"<ast.Tuple object at 0x7f00aa11bb50>, 'simultaneous multiple assignment is not supported.')",
        [
            b"UnsupportedLanguageConstruct('@triton.jit\\ndef scale(x):\\n    a, b = b, a\\n', "
            b"<ast.Tuple object at 0x7f00aa11bb50>, 'simultaneous multiple assignment is not supported.')"
        ],
    ),
    (
        # a message that only quotes code is still split
        "message-quoting-code",
        b"ERROR engine.py:140] ValueError('bad kernel:\\ndef scale(x): pass\\n')",
        [b"ERROR engine.py:140] ValueError('bad kernel:", b"def scale(x): pass"],
    ),
    (
        "quotes-and-tabs",
        b'detail:\\n\\tFile \\"/opt/app/main.py\\", line 3\\n',
        [b"detail:", b'    File "/opt/app/main.py", line 3'],
    ),
]


@pytest.mark.parametrize(("name", "raw", "expected"), CASES, ids=[c[0] for c in CASES])
def test_split_escaped(name, raw, expected):
    assert split_escaped(raw) == expected


def test_a_huge_body_is_cut_to_a_bounded_number_of_lines():
    pieces = split_escaped(b"head" + b"\\nline" * 5000)
    assert len(pieces) < 500


def test_an_escaped_line_keeps_the_writer_of_its_carrier():
    outer = parse_line("[default3]:(Worker_TP3 pid=5120) ERROR 01-02 03:04:05 [core.py:9] boom")
    piece = inherit_writer(parse_line("EZ9999: Inner Error!"), outer)
    assert (piece.local_rank, piece.pid, piece.tags["process"]) == (3, 5120, "Worker_TP3")
    assert piece.stream_key == outer.stream_key


def test_a_traceback_escaped_into_a_record_takes_the_records_time():
    """A structured logger writes the exception into the record's own field (`"exc":
    "Traceback ...\\nRuntimeError: ..."`) in the same write: the pieces take its time."""
    outer = parse_line(
        '{"ts": "2026-03-09T09:14:21.140Z", "level": "ERROR", "rank": 2, "msg": "step 3 failed"}'
    )
    piece = inherit_writer(parse_line("RuntimeError: Timed out waiting 8000ms"), outer, True)
    assert (piece.rank, piece.time) == (2, outer.time)
    assert piece.time is not None


def test_a_piece_with_a_time_of_its_own_or_of_another_carrier_keeps_it():
    """Counterexamples: a quoted line that carries its own stamp keeps it, and a carrier that
    is no record of its own (`written_with` false: a repr relayed by an engine) gives none."""
    outer = parse_line("ERROR 04-10 11:26:01 engine.py:140] RuntimeError('boom")
    own = parse_line("[ERROR] 2026-05-02-10:11:12 (PID:91, Device:0, RankID:-1) ERR00100 failed")
    stamped = own.time
    assert inherit_writer(own, outer, True).time == stamped
    assert inherit_writer(parse_line("Since the operator is called"), outer).time is None
