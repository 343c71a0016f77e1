"""Writes: create incidents from uploads, queue analysis runs (tokens: token_services)."""

from __future__ import annotations

import logging
from pathlib import PurePath

from django.contrib.auth.models import AbstractBaseUser
from django.core.files.uploadedfile import UploadedFile
from django.db import DatabaseError, transaction
from django.utils import timezone
from kombu.exceptions import OperationalError

from analyzers.ingest.bundle_tar import ARCHIVE_ENDINGS
from incidents.accounts.activity import activity_record
from incidents.accounts.models import Verb
from incidents.accounts.token_services import api_token_issue
from incidents.models import AnalysisRun, Bundle, Incident, RunState
from incidents.runs import blobstore, webhook, wording
from incidents.runs.tasks import analyze_bundle

__all__ = ["api_token_issue", "incident_create", "incident_reanalyze", "run_queue"]

log = logging.getLogger(__name__)


# Longest first: `.tar.gz` is cut whole, not as `.gz`.
_TITLE_SUFFIXES = sorted((*ARCHIVE_ENDINGS, ".gz", ".log", ".txt"), key=len, reverse=True)


def default_title(file_name: str) -> str:
    """`job-42.tar.gz` -> `job-42`: the bundle name is the best title we have."""
    name = PurePath(file_name).name
    for suffix in _TITLE_SUFFIXES:
        if name.lower().endswith(suffix):
            return name[: -len(suffix)] or name
    return name or "Untitled bundle"


def incident_create(
    *, upload: UploadedFile, title: str = "", created_by: AbstractBaseUser | None
) -> Incident:
    """Store the bundle, record the incident and queue its first analysis.

    If the rows cannot be committed (the database went away), the bundle this call
    stored is removed again: no blob is left without a row, and no row without a blob.
    """
    blob = blobstore.store_upload(upload)
    name = PurePath(upload.name or blob.sha256).name
    try:
        with transaction.atomic():
            incident = Incident.objects.create(
                title=(title.strip() or default_title(name))[:200], created_by=created_by
            )
            Bundle.objects.create(
                incident=incident,
                sha256=blob.sha256,
                original_name=name,
                size_bytes=blob.size_bytes,
            )
            run_queue(incident=incident)
            activity_record(
                actor=created_by,
                verb=Verb.CREATED,
                target=incident.short_id,
                incident=incident,
                field="title",
                new=incident.title,
            )
    except DatabaseError:
        blobstore.discard(blob)
        raise
    return incident


def incident_reanalyze(
    *, incident: Incident, checkpoint_patterns: list[str], actor: AbstractBaseUser | None
) -> AnalysisRun:
    """Queue another run, and log who asked for it with which checkpoint patterns."""
    previous = incident.latest_run()
    with transaction.atomic():
        run = run_queue(incident=incident, checkpoint_patterns=checkpoint_patterns)
        activity_record(
            actor=actor,
            verb=Verb.REANALYZED,
            target=incident.short_id,
            incident=incident,
            field="checkpoint_patterns",
            old="\n".join(previous.checkpoint_patterns) if previous else "",
            new="\n".join(checkpoint_patterns),
        )
    return run


def run_queue(*, incident: Incident, checkpoint_patterns: list[str] | None = None) -> AnalysisRun:
    """Add a queued run; the task is sent only once the rows are committed."""
    with transaction.atomic():
        run = AnalysisRun.objects.create(
            incident=incident, checkpoint_patterns=list(checkpoint_patterns or [])
        )
        run.show_on_incident(RunState.QUEUED)
        transaction.on_commit(lambda: _enqueue(run))
    return run


def _enqueue(run: AnalysisRun) -> None:
    """Send the task; if the broker is down, say so on the run instead of a 500."""
    try:
        analyze_bundle.delay(run.pk)
    except OperationalError as error:
        log.error("could not queue run %s: %s", run.pk, error)
        failed = AnalysisRun.objects.filter(pk=run.pk, state=RunState.QUEUED).update(
            state=RunState.FAILED,
            error=wording.english(wording.QUEUE_UNREACHABLE),
            step="",
            finished_at=timezone.now(),
        )
        if failed:
            run.show_on_incident(RunState.FAILED)
            webhook.queue_run_notice(run.pk)
