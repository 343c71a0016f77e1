"""A hostile corpus, built in tmp dirs: each bundle is read within its budget and the report
says what was cut. Limits are lowered so the bombs stay small and the tests fast."""

from __future__ import annotations

import gzip
import json
import subprocess
import sys
import textwrap
from pathlib import Path

import jsonschema
import pytest

from analyzers import AnalyzeOptions, analyze
from analyzers.core.limits import Limits
from analyzers.ingest.budget import Prepaid, ReadBudget
from tests.analyzers import hostile

ROOT = Path(__file__).resolve().parents[3]
SCHEMA = json.loads((ROOT / "analyzers" / "schema" / "report.schema.json").read_text())
MiB = hostile.MiB
SMALL = Limits(ratio_grace=8 * MiB, members=2_000)

# (case id, builder of the bundle in a tmp dir, limits, the budget that must be reported,
#  words its message must hold)
CASES = [
    ("gzip bomb", lambda d: hostile.gzip_bomb(d / "b.tar.gz", 64 * MiB), SMALL, "ratio", "1,000:1"),
    (
        "bz2 bomb",
        lambda d: hostile.bz2_bomb(d / "b.tar.bz2", 64 * MiB),
        SMALL,
        "ratio",
        "limit 1,000:1",
    ),
    ("xz bomb", lambda d: hostile.xz_bomb(d / "b.tar.xz", 64 * MiB), SMALL, "ratio", "ratio"),
    ("zstd bomb", lambda d: hostile.zstd_bomb(d / "b.tar.zst", 64 * MiB), SMALL, "ratio", "ratio"),
    ("zip bomb", lambda d: hostile.zip_bomb(d / "b.zip", 64 * MiB), SMALL, "ratio", "ratio"),
    (
        "zip over the total",
        lambda d: hostile.zip_bomb(d / "big.zip", 16 * MiB),
        Limits(total_bytes=4 * MiB),
        "total_bytes",
        "read 4.0 MiB of an archive that claims 16.0 MiB",
    ),
    (
        "tar.gz over the total",
        lambda d: hostile.gzip_bomb(d / "big.tar.gz", 16 * MiB),
        Limits(total_bytes=4 * MiB),
        "total_bytes",
        "read 4.0 MiB of an archive",
    ),
    (
        "20 nested archives",
        lambda d: hostile.nested(d / "n.tar.gz", 20),
        SMALL,
        "depth",
        "nested more than 3 deep",
    ),
    (
        "20,000 members",
        lambda d: hostile.many_members(d / "m.tar.gz", 20_000),
        SMALL,
        "members",
        "read 2,000 of 20,000 files",
    ),
    (
        "huge pax header",
        lambda d: hostile.huge_pax_header(d / "p.tar", 3 * MiB),
        SMALL,
        "header_bytes",
        "3,145,7",
    ),
]


@pytest.mark.parametrize(
    ("build", "limits", "limit", "words"),
    [case[1:] for case in CASES],
    ids=[case[0] for case in CASES],
)
def test_hostile_bundle_is_cut_and_the_report_says_so(tmp_path, build, limits, limit, words):
    report = analyze(build(tmp_path), AnalyzeOptions(workers=1, limits=limits)).to_dict()

    hits = {hit["limit"]: hit for hit in report["bundle"]["limits"]}
    assert limit in hits
    assert words in hits[limit]["message"]
    assert f"RANKLENS_LIMIT_{limit.upper()}" in hits[limit]["message"]
    assert f"（RANKLENS_LIMIT_{limit.upper()}）" in hits[limit]["message_zh"]  # said in Chinese
    jsonschema.validate(report, SCHEMA)


def test_a_normal_bundle_hits_no_budget(crash_bundle):
    report = analyze(crash_bundle, AnalyzeOptions(workers=1))

    assert report.bundle.limits == []


def test_members_past_the_listing_cap_are_counted(tmp_path):
    bundle = hostile.many_members(tmp_path / "m.tar.gz", 300)
    limits = Limits(listed_files=100)

    report = analyze(bundle, AnalyzeOptions(workers=1, limits=limits))

    assert len(report.bundle.files) == 100
    assert report.bundle.files_not_listed == 200


def test_limits_come_from_the_environment_when_not_given(tmp_path, monkeypatch):
    monkeypatch.setenv("RANKLENS_LIMIT_MEMBERS", "10")
    bundle = hostile.many_members(tmp_path / "m.tar.gz", 50)

    report = analyze(bundle, AnalyzeOptions(workers=1))

    assert [hit.limit for hit in report.bundle.limits] == ["members"]
    assert len(report.bundle.files) == 10


def test_a_5000_digit_rank_number_is_read_as_text(tmp_path):
    digits = "9" * 5000
    log = f"[rank{digits}]: RuntimeError: boom\nWORLD_SIZE={digits}\n".encode()
    data = gzip.compress(hostile.tar_bytes([("rank0.log", log), (f"rank{digits}.log", log)]))
    bundle = hostile.write(tmp_path / "d.tar.gz", data)

    report = analyze(bundle, AnalyzeOptions(workers=1)).to_dict()

    jsonschema.validate(report, SCHEMA)
    assert report["world_size"] is None or report["world_size"] < 10**6


# The child's own high-water mark: getrusage's ru_maxrss would also count the RSS of the
# forking pytest process, which Linux carries across exec.
PEAK_RSS = textwrap.dedent(
    """
    import resource, sys
    from pathlib import Path
    from analyzers import AnalyzeOptions, analyze
    from analyzers.core.limits import Limits
    analyze(sys.argv[1], AnalyzeOptions(workers=1, limits=Limits(ratio_grace=64 * 2**20)))
    status = Path("/proc/self/status")
    if status.exists():
        print(next(l.split()[1] for l in status.read_text().splitlines() if l.startswith("VmHWM")))
    else:
        print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
    """
)


@pytest.mark.parametrize(
    "build",
    [
        lambda d: hostile.gzip_bomb(d / "bomb.tar.gz", 512 * MiB),
        lambda d: hostile.huge_pax_header(d / "pax.tar", 64 * MiB),
    ],
    ids=["gzip bomb of 512 MiB", "pax header of 64 MiB"],
)
def test_peak_memory_of_one_analysis_stays_bounded(tmp_path, build):
    bundle = build(tmp_path)

    done = subprocess.run(
        [sys.executable, "-c", PEAK_RSS, str(bundle)],
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
    )

    peak_kib = int(done.stdout.split()[-1])
    assert peak_kib < 512 * 1024, f"peak RSS {peak_kib // 1024} MiB"


def test_an_uncompressed_tar_counts_against_the_total_too(tmp_path):
    data = hostile.tar_bytes([(f"rank{i}.log", hostile.ERROR_LOG * 20_000) for i in range(4)])
    bundle = hostile.write(tmp_path / "plain.tar", data)

    report = analyze(bundle, AnalyzeOptions(workers=1, limits=Limits(total_bytes=2 * MiB)))

    assert [hit.limit for hit in report.bundle.limits] == ["total_bytes"]
    assert len(report.bundle.files) < 4


def test_a_zips_charged_copy_stands_for_its_content_until_the_content_outgrows_it():
    budget = ReadBudget(Limits(total_bytes=100))
    budget.take(60, 60, 60, None)  # the zip's own bytes, copied out of the bundle
    entries = Prepaid(budget, 60)

    assert entries.take(80, 80, 60, None) == 80  # 60 of it prepaid, 20 charged now
    assert (budget.inflated, budget.spent) == (80, False)
    assert entries.take(30, 110, 60, None) == 20  # the total still holds
    assert [hit.limit for hit in budget.finish()] == ["total_bytes"]
