"""Forms: the uploaded bundle (web page and API) and the options of a re-analysis."""

from __future__ import annotations

from pathlib import Path

from django import forms
from django.conf import settings
from django.template.defaultfilters import filesizeformat
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from analyzers import BundleError
from analyzers.checkpoints.patterns import CheckpointMatcher
from analyzers.core.limits import Limits
from analyzers.ingest.bundle import sniff_kind
from analyzers.ingest.zip_directory import check_zip_directory
from incidents.runs import wording

TOO_LARGE = "too_large"


def too_large_message(size: int | None = None) -> str:
    cap = filesizeformat(settings.RANKLENS_MAX_UPLOAD_BYTES)
    if size:
        return gettext("The bundle is too large (this one is %(size)s): the limit is %(cap)s.") % {
            "size": filesizeformat(size),
            "cap": cap,
        }
    return gettext("The bundle is too large: the limit is %(cap)s.") % {"cap": cap}


class BundleUploadForm(forms.Form):
    bundle = forms.FileField(
        label=_("Bundle"),
        help_text=_(
            "A .tar, .tar.gz/.tgz (or .tar.bz2, .tar.xz, .tar.zst) or .zip of the job's logs, "
            "or a single .log/.txt/.gz file."
        ),
    )
    title = forms.CharField(label=_("Title"), max_length=200, required=False)

    def clean_bundle(self):
        upload = self.cleaned_data["bundle"]
        if upload.size > settings.RANKLENS_MAX_UPLOAD_BYTES:
            raise forms.ValidationError(too_large_message(upload.size), code=TOO_LARGE)
        temporary = Path(upload.temporary_file_path())
        try:
            if sniff_kind(temporary) == "zip":
                # else a cut-short zip, or one listing more entries than an analysis
                # opens, fails only in analysis
                check_zip_directory(temporary, Limits.from_env())
        except BundleError as error:
            # The analyzer names the file it read; people know it by the name they sent.
            message = str(error).replace(temporary.name, Path(upload.name).name, 1)
            shown = wording.reason_text(message)  # in the page's language
            raise forms.ValidationError(shown, code="not_a_bundle") from error
        return upload

    def is_too_large(self) -> bool:
        return self.has_error("bundle", code=TOO_LARGE)

    def first_error(self) -> str:
        return next(iter(self.errors.values()))[0]


class ReanalyzeForm(forms.Form):
    """Extra checkpoint patterns for one re-analysis, one regular expression per line."""

    checkpoint_patterns = forms.CharField(
        label=_("Checkpoint patterns"),
        required=False,
        widget=forms.Textarea(
            attrs={"rows": 2, "placeholder": _(r"e.g. ^step (?P<checkpoint>\d+) ok$")}
        ),
        help_text=_("One regular expression per line; a named group 'checkpoint' picks the text."),
    )

    def clean_checkpoint_patterns(self) -> list[str]:
        lines = self.cleaned_data["checkpoint_patterns"].splitlines()
        patterns = [line.strip() for line in lines if line.strip()]
        try:
            CheckpointMatcher(patterns)  # the analyzer's own check: bad regexes named
        except ValueError as error:
            raise forms.ValidationError(str(error)) from error
        return patterns
