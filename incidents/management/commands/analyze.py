"""`python manage.py analyze PATH [--json]`: the worker's analysis, in a terminal.

Uses the site's checkpoint patterns, so the output matches what the web app stores.
"""

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from analyzers import AnalyzeOptions, BundleError, analyze
from analyzers.report.summary import format_summary


class Command(BaseCommand):
    help = "Analyze a log bundle and print a summary, or the full report with --json."

    def add_arguments(self, parser) -> None:
        parser.add_argument("path", help=".tar/.tar.gz/.zip bundle or a single log file")
        parser.add_argument("--json", action="store_true", help="print the report as JSON")

    def handle(self, *args, path: str, **options) -> None:
        analyze_options = AnalyzeOptions(
            checkpoint_patterns=tuple(settings.RANKLENS_CHECKPOINT_PATTERNS),
            workers=settings.RANKLENS_ANALYZER_WORKERS,
        )
        try:
            report = analyze(path, analyze_options)
        except (BundleError, ValueError) as error:  # bad input, or a refused site pattern
            raise CommandError(" ".join(str(error).split())) from error
        if options["json"]:
            report.write_json(self.stdout, indent=2)
        else:
            self.stdout.write(format_summary(report), ending="")
