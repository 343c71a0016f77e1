"""A settings file of the job's own that its parser refuses.

A rank reads a JSON, YAML or TOML file the job was given (a placement, a parallel layout, a
launcher's options) and the parser stops on the file's syntax: a trailing comma, a missing
quote or colon, a tab in YAML's indentation. The file has to change, so the label is `config`
and the parser's line is the first error; the peers that then lose the rank are its cascade
(docs/labelling.md#a-settings-file-that-does-not-parse). Counterexample: `Expecting value:
line 1 column 1 (char 0)`, an empty answer or a half-written cache entry, says nothing of a
hand-written file. Excerpts in a plain traceback's, torch's `[rankN]:` and a logging prefix's
formats, with paths and values of our own.
"""

from __future__ import annotations

from pathlib import Path

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of
from tests.analyzers.job_bundles import CLOSED, analyze_job, ranks

TRAILING_COMMA = """\
reading expert placement from /srv/moe/configs/placement_rank5.json
[rank5]: Traceback (most recent call last):
[rank5]:   File "/srv/moe/serve.py", line 71, in <module>
[rank5]:     placement = json.load(fh)
[rank5]:   File "/usr/lib/python3.11/json/decoder.py", line 353, in raw_decode
[rank5]:     obj, end = self.scan_once(s, idx)
[rank5]: json.decoder.JSONDecodeError: Expecting property name enclosed in double quotes: line 7 column 1 (char 131)
"""

MISSING_COMMA = """\
2026-03-14 08:02:11,417 [rank2] INFO loading parallel layout from conf/layout.json
Traceback (most recent call last):
  File "/opt/train/launch.py", line 40, in read_layout
    return json.loads(text)
json.decoder.JSONDecodeError: Expecting ',' delimiter: line 4 column 5 (char 58)
"""

YAML_INDENT = """\
Traceback (most recent call last):
  File "/opt/train/main.py", line 22, in <module>
    cfg = yaml.safe_load(open(args.config))
yaml.scanner.ScannerError: mapping values are not allowed here
  in "conf/run_8x.yaml", line 12, column 14
"""

TOML_KEY = """\
[rank0]: Traceback (most recent call last):
[rank0]:   File "/opt/train/main.py", line 18, in <module>
[rank0]:     opts = tomllib.load(fh)
[rank0]: tomllib.TOMLDecodeError: Expected '=' after a key in a key/value pair (at line 9, column 11)
"""

EMPTY_ANSWER = """\
Traceback (most recent call last):
  File "/srv/bench/client.py", line 61, in fetch
    body = resp.json()
json.decoder.JSONDecodeError: Expecting value: line 1 column 1 (char 0)
"""


def test_a_trailing_comma_in_a_ranks_settings_file_is_config() -> None:
    assert_reads(
        diagnose_text("log_5.log", TRAILING_COMMA),
        "config",
        first_error="Expecting property name enclosed in double quotes",
        rule="cfg.settings_file_syntax",
    )


def test_a_missing_comma_is_the_same_reading() -> None:
    assert_reads(
        diagnose_text("rank2.log", MISSING_COMMA),
        "config",
        first_error="Expecting ',' delimiter",
        rule="cfg.settings_file_syntax",
    )


def test_yaml_and_toml_parsers_refusing_a_file_read_the_same() -> None:
    assert_reads(
        diagnose_text("train.log", YAML_INDENT),
        "config",
        first_error="mapping values are not allowed here",
        rule="cfg.settings_file_syntax",
    )
    assert_reads(
        diagnose_text("rank0.err", TOML_KEY),
        "config",
        first_error="Expected '=' after a key",
        rule="cfg.settings_file_syntax",
    )


def test_an_empty_answer_is_no_settings_file() -> None:
    assert "cfg.settings_file_syntax" not in rules_of(diagnose_text("client.log", EMPTY_ANSWER))


def test_the_rank_whose_file_did_not_parse_is_blamed_and_its_peers_are_cascade(
    tmp_path: Path,
) -> None:
    logs = ranks(4)
    for log in logs:
        if log.rank == 1:
            log.raw("[rank1]: Traceback (most recent call last):")
            log.raw(
                "[rank1]: json.decoder.JSONDecodeError: Expecting property name enclosed in "
                "double quotes: line 5 column 1 (char 70)"
            )
        else:
            log.loaded().at(900).log("ERROR", f"model run failed: {CLOSED}")
            log.raw(f"[rank{log.rank}]: RuntimeError: {CLOSED}")
    diagnosis = analyze_job(tmp_path, logs).diagnosis
    assert diagnosis.category == "config"
    assert diagnosis.culprit_ranks == [1]
    assert diagnosis.confidence >= 0.5
    assert diagnosis.first_error is not None
    assert "Expecting property name" in diagnosis.first_error.text
