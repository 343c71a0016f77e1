"""Command line: `python -m analyzers BUNDLE [--json] [--checkpoint REGEX ...]`."""

from __future__ import annotations

import argparse
import io
import sys
from typing import TextIO

from analyzers import AnalyzeOptions, BundleError, Report, analyze
from analyzers.report.summary import format_summary


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
    parser.add_argument(
        "--workers", type=int, default=0, help="processes to use (0 = CPUs; 1 = this one only)"
    )
    args = parser.parse_args(argv)
    try:
        options = AnalyzeOptions(checkpoint_patterns=tuple(args.checkpoint), workers=args.workers)
        report = analyze(args.bundle, options)
    except (BundleError, ValueError) as exc:  # bad input or a refused pattern
        return _fail(str(exc), 2)
    except Exception as exc:  # a bug: still one line, so scripts can rely on the contract
        return _fail(f"internal error ({type(exc).__name__}: {exc})", 1)
    try:
        _print(report, as_json=args.json, parallel=args.workers != 1)
    except Exception as exc:
        return _fail(f"could not print the report ({type(exc).__name__}: {exc})", 1)
    return 0


def _print(report: Report, *, as_json: bool, parallel: bool = True) -> None:
    """UTF-8 whatever the locale: a report in Chinese must not fail under LANG=C."""
    if not hasattr(sys.stdout, "buffer"):  # a text-only stream (tests, redirect_stdout)
        _write(report, sys.stdout, as_json=as_json, parallel=parallel)
        return
    sys.stdout.flush()
    out = io.TextIOWrapper(sys.stdout.buffer, encoding="utf-8")
    try:
        _write(report, out, as_json=as_json, parallel=parallel)
        out.flush()
    finally:
        out.detach()  # sys.stdout still owns the buffer


def _write(report: Report, out: TextIO, *, as_json: bool, parallel: bool = True) -> None:
    if as_json:
        # Indented for a person at a terminal, compact for a pipe; the timeline's columns
        # are streamed rank by rank (`json.dump` to a stream would run the slow encoder).
        indent = 2 if sys.stdout.isatty() else None
        report.write_json(out, indent, parallel=parallel)
    else:
        out.write(format_summary(report))


def _fail(message: str, code: int) -> int:
    print(f"error: {' '.join(message.split())}", file=sys.stderr)
    return code


if __name__ == "__main__":
    sys.exit(main())
