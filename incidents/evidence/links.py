"""Evidence links: stable URLs of one line of one bundle file, and where those lines come from.

A link names the incident, the file's path inside the bundle and the line:
`/incidents/INC-7/files/job/log_3.log?line=48#L48`. The bundle of an incident never
changes, so neither do its line numbers: a link pasted into a ticket keeps working
after the incident is analyzed again.
"""

from __future__ import annotations

from collections.abc import Iterable
from urllib.parse import quote

from django.urls import NoReverseMatch, reverse
from django.utils.http import RFC3986_SUBDELIMS

from analyzers.core.safetext import clean_name
from analyzers.scan.linestore import LineStoreReader
from incidents.evidence.logview import (
    BundleSource,
    FileNotInBundle,
    LineSource,
    StoreSource,
    marks_from_report,
)
from incidents.models import AnalysisRun, Incident, RunState
from incidents.runs.runstore import store_dir_for

RUNS_SEARCHED = 5  # newest finished runs whose line store may hold the file


def file_url(number: int, path: str, line: int | None = None) -> str:
    """The viewer URL of a bundle file (percent-encoded by `reverse`), at a line.

    Reports name files as the analyzer escaped them (no newline, see analyzers/core/safetext.py);
    a report written before that may not, and gets its name escaped the same way. A name no
    URL can carry gets no link rather than breaking the page."""
    try:
        url = reverse("incidents:file", kwargs={"number": number, "path": clean_name(path)})
    except NoReverseMatch:
        return ""
    if line:
        url += f"?line={int(line)}#L{int(line)}"
    return url


_PATH_SAFE = RFC3986_SUBDELIMS + "/~:@"  # what `reverse` leaves unquoted in a URL path


def file_urls(number: int, paths: Iterable[str]) -> list[str]:
    """`file_url` of many files: one `reverse`, then each path quoted as `reverse` would.

    A 1,024-rank timeline names 1,024 files, and a `reverse` per file cost ~0.1 s per
    request. A path `reverse` refuses (empty) gets the file list's URL instead of an error.
    """
    base = reverse("incidents:file", kwargs={"number": number, "path": "-"}).removesuffix("-")
    return [base + quote(clean_name(path), safe=_PATH_SAFE) for path in paths]


def open_log_source(incident: Incident, member: str) -> LineSource:
    """The fastest source of the member's lines: a run's line store, else the bundle."""
    runs = list(
        AnalysisRun.objects.filter(incident=incident, state=RunState.DONE)
        .order_by("-pk")
        .values_list("pk", flat=True)[:RUNS_SEARCHED]
    )
    if not runs:
        raise FileNotInBundle("this incident has no finished analysis yet")
    for run_id in runs:
        try:
            reader = LineStoreReader(store_dir_for(run_id), member)
        except (FileNotFoundError, ValueError, KeyError):
            continue
        if reader.path == member:
            return StoreSource(reader)
    return _bundle_source(incident, runs[0], member)


def _bundle_source(incident: Incident, run_id: int, member: str) -> BundleSource:
    report = AnalysisRun.objects.values_list("report", flat=True).get(pk=run_id) or {}
    bundle = report.get("bundle") or {}
    paths = {f.get("path") for f in bundle.get("files") or []}
    # Past the listing limit a file is read but not named: the bundle itself decides.
    if member not in paths and not bundle.get("files_not_listed"):
        raise FileNotInBundle(f"{member!r} is not a file of this bundle")
    return BundleSource(str(incident.bundle.path), member, marks_from_report(report, member))
