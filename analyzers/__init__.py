"""Ranklens analyzers: turn a bundle of multi-rank job logs into a diagnosis report.

Pure Python, no web framework. Public API::

    from analyzers import analyze, AnalyzeOptions, BundleError
    report = analyze("job.tar.gz")          # -> analyzers.core.report.Report
    report.to_dict()                        # JSON-ready, per analyzers/schema/report.schema.json
"""

from analyzers.core.errors import BundleError
from analyzers.core.options import AnalyzeOptions, ProgressCallback
from analyzers.core.report import Report
from analyzers.pipeline import VERSION as __version__
from analyzers.pipeline import analyze

__all__ = ["AnalyzeOptions", "BundleError", "ProgressCallback", "Report", "__version__", "analyze"]
