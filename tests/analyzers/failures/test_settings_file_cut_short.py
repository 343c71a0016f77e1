"""A settings file of the job's own that ends part way.

One rank writes the model config the others read beside the checkpoint, or a copy of it is
still arriving, and a rank that reads it too soon parses half a file: JSON's `Unterminated
string starting at: line 6 column 3 (char 88)` says the text stopped inside a string, which no
hand edit leaves (a missing quote runs into the next line's and fails there). Nothing in the
model, the devices or the collectives failed; the file, or the order in which the job writes
and reads it, has to change: `config`, with `other` beside it, the parser's line the first
error and its peers' lost connections the cascade
(docs/labelling.md#a-settings-file-cut-short). Counterexamples: the same words from a
DataLoader worker are a record of the data (test_data_record_unparsable.py), and a log line
that only names the exception is no failure. The excerpts follow a real torch 2.13 gloo run
restarted by torchrun, whose rank 1 read `config.json` while rank 0 was still writing it
(paths of our own).
"""

from __future__ import annotations

from pathlib import Path

from tests.analyzers.excerpts import assert_reads, diagnose_files, diagnose_text, rules_of
from tests.analyzers.job_bundles import CLOSED, analyze_job, ranks

RULE = "cfg.settings_file_cut_short"

CUT = "json.decoder.JSONDecodeError: Unterminated string starting at: line 6 column 3 (char 88)"

RANK_LOG = f"""\
2026-12-07 06:45:27,800 [rank1] INFO init process group: backend=gloo rank=1 world_size=4
2026-12-07 06:45:28,883 [rank1] ERROR model run failed
Traceback (most recent call last):
  File "/srv/infer/run.py", line 141, in load_config
    cfg = json.loads(cfg_path.read_text())
          ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
  File "/usr/lib/python3.11/json/decoder.py", line 353, in raw_decode
    obj, end = self.scan_once(s, idx)
               ^^^^^^^^^^^^^^^^^^^^^^
{CUT}
"""

TORCH_COPY = f"""\
[rank1]: Traceback (most recent call last):
[rank1]:   File "/srv/infer/run.py", line 141, in load_config
[rank1]:     cfg = json.loads(cfg_path.read_text())
[rank1]: {CUT}
"""

NAMED_ONLY = "2026-12-07 06:45:28,883 [rank1] INFO retry on JSONDecodeError: Unterminated string\n"


def test_a_config_read_while_it_was_written_is_config() -> None:
    assert_reads(
        diagnose_text("log_1.log", RANK_LOG),
        "config",
        first_error="Unterminated string starting at",
        rule=RULE,
    )


def test_torchs_rank_prefixed_copy_reads_the_same() -> None:
    assert_reads(
        diagnose_text("launcher.log", TORCH_COPY),
        "config",
        first_error="Unterminated string starting at",
        rule=RULE,
    )


def test_a_line_that_only_names_the_exception_is_no_failure() -> None:
    assert RULE not in rules_of(diagnose_text("log_1.log", NAMED_ONLY))


def test_the_rank_that_read_half_a_file_is_blamed_and_its_peers_are_cascade(
    tmp_path: Path,
) -> None:
    logs = ranks(4)
    for log in logs:
        if log.rank == 1:
            log.raw("[rank1]: Traceback (most recent call last):")
            log.raw(f"[rank1]: {CUT}")
        else:
            log.loaded().at(900).log("ERROR", f"model run failed: {CLOSED}")
            log.raw(f"[rank{log.rank}]: RuntimeError: {CLOSED}")
    diagnosis = analyze_job(tmp_path, logs).diagnosis
    assert diagnosis.category == "config"
    assert diagnosis.culprit_ranks == [1]
    assert diagnosis.first_error is not None
    assert "Unterminated string starting at" in diagnosis.first_error.text


MESH = (
    "RuntimeError: Gloo connectFullMesh failed with [/__w/pytorch/pytorch/third_party/gloo/gloo/"
    "transport/tcp/pair.cc:152] timed out connecting: SO_ERROR: Connection refused, "
    "remote=[127.0.0.1]:28072$1"
)


def test_a_restarted_group_that_cannot_connect_stays_behind_the_half_read_file() -> None:
    """torchrun restarts the group; its ranks dial the addresses the failed attempt left in the
    store and are refused. Each rank appends to its own log, so the refusal comes second."""
    second = (
        "2026-12-07 06:45:36,225 [rank1] INFO init process group: backend=gloo rank=1 "
        "world_size=4\n"
        "2026-12-07 06:45:36,279 [rank1] ERROR model run failed\n"
        "Traceback (most recent call last):\n"
        '  File "/srv/infer/run.py", line 124, in main\n'
        '    dist.init_process_group("gloo")\n'
        f"{MESH}\n"
    )
    report = (
        "E1207 06:45:30.648000 21014 torch/distributed/elastic/multiprocessing/api.py:1002] "
        "failed (exitcode: 1) local_rank: 1 (pid: 21121) of binary: /usr/bin/python3\n"
    )
    diagnosis = diagnose_files({"job/log_1.log": RANK_LOG + second, "job/launcher.log": report})
    assert_reads(diagnosis, "config", first_error="Unterminated string starting at", rule=RULE)
    assert diagnosis.culprit_ranks == [1]
