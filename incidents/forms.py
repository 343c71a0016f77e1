"""Validation of an uploaded bundle, shared by the web page and the API."""

from __future__ import annotations

from pathlib import Path

from django import forms
from django.conf import settings
from django.template.defaultfilters import filesizeformat

from analyzers import BundleError
from analyzers.bundle import sniff_kind

TOO_LARGE = "too_large"


def too_large_message(size: int | None = None) -> str:
    cap = filesizeformat(settings.RANKLENS_MAX_UPLOAD_BYTES)
    got = f" (this one is {filesizeformat(size)})" if size else ""
    return f"The bundle is too large{got}: the limit is {cap}."


class BundleUploadForm(forms.Form):
    bundle = forms.FileField(
        help_text="A .tar, .tar.gz/.tgz or .zip of the job's logs, or a single .log/.txt/.gz file."
    )
    title = forms.CharField(max_length=200, required=False)

    def clean_bundle(self):
        upload = self.cleaned_data["bundle"]
        if upload.size > settings.RANKLENS_MAX_UPLOAD_BYTES:
            raise forms.ValidationError(too_large_message(upload.size), code=TOO_LARGE)
        temporary = Path(upload.temporary_file_path())
        try:
            sniff_kind(temporary)
        except BundleError as error:
            # The analyzer names the file it read; people know it by the name they sent.
            message = str(error).replace(temporary.name, Path(upload.name).name, 1)
            raise forms.ValidationError(message, code="not_a_bundle") from error
        return upload

    def is_too_large(self) -> bool:
        return self.has_error("bundle", code=TOO_LARGE)

    def first_error(self) -> str:
        return next(iter(self.errors.values()))[0]
