"""The rank table of a job torchrun restarted labels each first error with its attempt.

Where a rank stopped is read from the last attempt (from the latest that printed checkpoints
when the last printed none, and the note then names it), but its first error is its earliest in
any attempt: in the job below rank 1's is the failure that restarted the job (attempt 0) and
rank 0's came after the restart (attempt 1). Unlabelled, the column read as one run.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from analyzers.core.options import AnalyzeOptions
from analyzers.pipeline import analyze
from tests.incidents.library_helpers import make_incident

pytestmark = pytest.mark.django_db

TREE = "job-47d2/torchrun_logs/none_3z76/attempt_{number}/{rank}/{name}.log"
FIRST_RUN = ["load weights passed", " norm passed", " attention passed", "layer 0 passed"]
CORRUPT = "[rank1]: RuntimeError: corrupted batch header (magic 0x0000) in shard 5"
REFUSED = (
    "[rank0]: RuntimeError: Gloo connectFullMesh failed with [/__w/pytorch/pytorch/third_party/"
    "gloo/gloo/transport/tcp/pair.cc:144] no error"
)


def write_run(root: Path, number: int, logs: dict[tuple[int, str], list[str]]) -> None:
    for (rank, name), lines in logs.items():
        path = root / TREE.format(number=number, rank=rank, name=name)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")


def restarted_job(root: Path) -> dict:
    """Attempt 0: rank 1 fails on a corrupt batch. Attempt 1: rank 0 cannot connect."""
    write_run(
        root, 0, {(0, "stdout"): FIRST_RUN, (1, "stdout"): FIRST_RUN, (1, "stderr"): [CORRUPT]}
    )
    write_run(
        root,
        1,
        {
            (0, "stdout"): ["load weights passed"],
            (0, "stderr"): [REFUSED],
            (1, "stdout"): ["load weights passed"],
        },
    )
    return analyze(root, AnalyzeOptions(workers=1)).to_dict()


def rank_rows(html: str) -> dict[int, str]:
    table = html[html.index('id="ranks"') :]
    table = table[: table.index("</table>")]
    rows = re.findall(r"<tr>\s*<td>(\d+)</td>(.*?)</tr>", table, re.S)
    return {int(rank): " ".join(re.sub(r"<[^>]+>", " ", row).split()) for rank, row in rows}


def test_each_first_error_names_the_attempt_that_printed_it(alice_client, alice, tmp_path):
    incident = make_incident(restarted_job(tmp_path), alice)

    rows = rank_rows(alice_client.get(incident.get_absolute_url()).content.decode())

    assert "attempt 1" in rows[0]
    assert "Gloo connectFullMesh failed" in rows[0]
    assert "attempt 0" in rows[1]
    assert "corrupted batch header" in rows[1]


def test_the_table_says_the_job_was_restarted_and_which_attempt_placed_the_ranks(
    alice_client, alice, tmp_path
):
    incident = make_incident(restarted_job(tmp_path), alice)

    note = ranks_note(alice_client.get(incident.get_absolute_url()).content.decode())

    assert "torchrun restarted this job: attempts 0 to 1" in note
    assert "Last checkpoints are the last attempt's" in note


def ranks_note(html: str) -> str:
    start = html.index('id="ranks"')
    return " ".join(html[start : html.index("<table", start)].split())


def test_the_note_names_the_earlier_attempt_that_placed_the_ranks_when_the_last_printed_none(
    alice_client, alice, tmp_path
):
    """docs/labelling.md#a-job-its-launcher-restarted: attempt 1 died connecting before any
    rank printed a checkpoint, so the checkpoints shown are attempt 0's, and the note says so."""
    write_run(
        tmp_path, 0, {(0, "stdout"): FIRST_RUN, (1, "stdout"): FIRST_RUN, (1, "stderr"): [CORRUPT]}
    )
    write_run(tmp_path, 1, {(0, "stderr"): [REFUSED], (1, "stdout"): ["init process group"]})
    report = analyze(tmp_path, AnalyzeOptions(workers=1)).to_dict()
    incident = make_incident(report, alice)

    html = alice_client.get(incident.get_absolute_url()).content.decode()

    note = ranks_note(html)
    assert "torchrun restarted this job: attempts 0 to 1" in note
    assert "Last checkpoints are attempt 0's: no rank printed one in the attempts after it" in note
    assert "layer 0 passed" in rank_rows(html)[0]


def test_a_job_run_once_has_no_attempt_labels(alice_client, alice, tmp_path):
    write_run(tmp_path, 0, {(0, "stdout"): FIRST_RUN, (1, "stderr"): [CORRUPT]})
    incident = make_incident(analyze(tmp_path, AnalyzeOptions(workers=1)).to_dict(), alice)

    html = alice_client.get(incident.get_absolute_url()).content.decode()

    assert "corrupted batch header" in rank_rows(html)[1]
    table = html[html.index('id="ranks"') : html.index("</table>", html.index('id="ranks"'))]
    assert re.search(r"\battempt \d", table) is None  # its path's attempt_0/ folder aside


def test_a_node_restarted_only_by_the_rendezvous_labels_its_errors_with_the_last_attempt(
    alice_client, alice, tmp_path
):
    # node0's agent counted the restart (attempt_1/). node1's child did not fail: its agent
    # rejoined the rendezvous and kept writing attempt_0/, which now holds the last run.
    node0 = "job/node0/torchrun_logs/none_aa11/attempt_{number}/{rank}/{name}.log"
    node1 = "job/node1/torchrun_logs/none_bb22/attempt_0/{rank}/{name}.log"
    logs = {
        node0.format(number=0, rank=0, name="stdout"): ["[rank0]: load weights passed"],
        node0.format(number=0, rank=1, name="stderr"): [CORRUPT],
        node0.format(number=1, rank=0, name="stdout"): ["[rank0]: load weights passed"],
        node0.format(number=1, rank=1, name="stdout"): ["[rank1]: load weights passed"],
        node1.format(rank=0, name="stdout"): ["[rank2]: load weights passed"],
        node1.format(rank=0, name="stderr"): [REFUSED.replace("[rank0]", "[rank2]")],
        node1.format(rank=1, name="stdout"): ["[rank3]: load weights passed"],
    }
    for path, lines in logs.items():
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    incident = make_incident(analyze(tmp_path, AnalyzeOptions(workers=1)).to_dict(), alice)

    rows = rank_rows(alice_client.get(incident.get_absolute_url()).content.decode())

    assert "attempt 0" in rows[1]
    assert "corrupted batch header" in rows[1]
    assert "attempt 1" in rows[2]
    assert "Gloo connectFullMesh failed" in rows[2]
