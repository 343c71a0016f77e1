"""Command line: `python -m analyzers BUNDLE [--json] [--checkpoint REGEX ...]`."""

from __future__ import annotations

import argparse
import sys

from analyzers import AnalyzeOptions, BundleError, analyze
from analyzers.summary import format_summary


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m analyzers",
        description="Diagnose a failed multi-rank job from its log bundle.",
    )
    parser.add_argument("bundle", help=".tar/.tar.gz/.zip bundle, a single log, or a directory")
    parser.add_argument("--json", action="store_true", help="print the full report as JSON")
    parser.add_argument(
        "--checkpoint",
        action="append",
        default=[],
        metavar="REGEX",
        help="extra checkpoint pattern (repeatable)",
    )
    parser.add_argument("--workers", type=int, default=0, help="scanner processes (0 = CPUs)")
    args = parser.parse_args(argv)
    options = AnalyzeOptions(checkpoint_patterns=tuple(args.checkpoint), workers=args.workers)
    try:
        report = analyze(args.bundle, options)
    except (BundleError, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if args.json:
        # Indented for a person at a terminal, compact for a pipe; the timeline's columns
        # are streamed rank by rank (`json.dump` to a stream would run the slow encoder).
        report.write_json(sys.stdout, indent=2 if sys.stdout.isatty() else None)
    else:
        sys.stdout.write(format_summary(report))
    return 0


if __name__ == "__main__":
    sys.exit(main())
