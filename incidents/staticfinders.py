"""Serve plotly.js from the installed `plotly` package as static `vendor/plotly.min.js`.

The machines that run Ranklens may have no internet, so no CDN; and a 4.8 MB copy in git
would drift from the package version. This finder exposes exactly that one file, to
`{% static %}`, WhiteNoise and `collectstatic` alike.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from django.contrib.staticfiles.finders import BaseFinder
from django.core.checks import Error
from django.core.files.storage import FileSystemStorage

PREFIX = "vendor"
NAME = "plotly.min.js"


def plotly_js_path() -> Path | None:
    """Where the installed plotly package keeps its bundled plotly.js (no import needed)."""
    spec = importlib.util.find_spec("plotly")
    if spec is None or not spec.submodule_search_locations:
        return None
    path = Path(next(iter(spec.submodule_search_locations))) / "package_data" / NAME
    return path if path.is_file() else None


class PlotlyFinder(BaseFinder):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.source = plotly_js_path()
        self.storage = FileSystemStorage(location=str(self.source.parent) if self.source else None)
        self.storage.prefix = PREFIX

    def check(self, **kwargs: Any) -> list[Error]:
        if self.source is None:
            return [Error(f"plotly's bundled {NAME} was not found: is `plotly` installed?")]
        return []

    def find(self, path: str, find_all: bool = False, **kwargs: Any) -> str | list[str] | None:
        match = self.source is not None and path == f"{PREFIX}/{NAME}"
        if find_all or kwargs.get("all"):
            return [str(self.source)] if match else []
        return str(self.source) if match else None

    def list(self, ignore_patterns: Any) -> Iterator[tuple[str, FileSystemStorage]]:
        if self.source is not None:
            yield NAME, self.storage
