"""The report as JSON values: what the web app stores."""

from __future__ import annotations

import io
import json

from analyzers.core.checkpoint_timeline import Checkpoint, Timeline
from analyzers.core.report import BundleInfo, Diagnosis, Report
from analyzers.core.types import RankStatus, RankSummary


def report() -> Report:
    step = Checkpoint(text="step 1", index=0, file="rank0.log", line=3)
    return Report(
        bundle=BundleInfo(name="job.tar.gz", sha256="0" * 64, size_bytes=10),
        world_size=1,
        ranks=[RankSummary(0, RankStatus.HUNG, "step 1", None)],
        diagnosis=Diagnosis(category="hang", root_cause="rank 0 stopped\x00 after step 1"),
        timeline=Timeline.of({0: [step]}),
    )


def test_the_report_is_plain_json_with_no_nul_and_enums_as_their_values():
    data = report().to_dict()

    assert data["ranks"][0]["status"] == "hung"
    assert "\x00" not in data["diagnosis"]["root_cause"]
    assert data["timeline"]["texts"] == ["step 1"]
    assert "timeline" not in report().to_dict(timeline=False)


def test_the_streamed_json_is_the_same_report():
    out = io.StringIO()

    report().write_json(out, parallel=False)

    assert json.loads(out.getvalue()) == report().to_dict()
