"""The rank table names the host each rank ran on when the report places ranks on hosts
(`environment.rank_hosts`, read from pdsh's host labels), and has no host column otherwise.

The job below is a two-host DeepSpeed launch whose console pdsh merged, each line behind its
host's name and each rank's logging tag on its own lines.
"""

from __future__ import annotations

import pytest

from analyzers.core.options import AnalyzeOptions
from analyzers.pipeline import analyze
from tests.analyzers.timeline.log_tree import write_lines
from tests.analyzers.timeline.test_rank_hosts import merged_console
from tests.incidents.evidence.test_attempts import rank_rows, restarted_job
from tests.incidents.library_helpers import make_incident

pytestmark = pytest.mark.django_db


def test_each_rank_row_names_the_host_its_lines_came_from(alice_client, alice, tmp_path):
    write_lines(
        tmp_path,
        "job-5c1d/launch.log",
        merged_console({"cn-0417": range(2), "cn-0418": range(2, 4)}, failing=3),
    )
    incident = make_incident(analyze(tmp_path, AnalyzeOptions(workers=1)).to_dict(), alice)

    html = alice_client.get(incident.get_absolute_url()).content.decode()

    first_cells = {rank: row.split()[0] for rank, row in rank_rows(html).items()}
    assert first_cells == {0: "cn-0417", 1: "cn-0417", 2: "cn-0418", 3: "cn-0418"}
    assert "<th>Host</th>" in html


def test_a_report_that_places_no_rank_on_a_host_has_no_host_column(alice_client, alice, tmp_path):
    incident = make_incident(restarted_job(tmp_path), alice)

    html = alice_client.get(incident.get_absolute_url()).content.decode()

    assert "<th>Host</th>" not in html
