"""Command line: `python -m analyzers BUNDLE [--json] [--checkpoint REGEX ...]`."""

from __future__ import annotations

import argparse
import json
import sys

from analyzers import AnalyzeOptions, BundleError, Report, analyze
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
    try:
        options = AnalyzeOptions(checkpoint_patterns=tuple(args.checkpoint), workers=args.workers)
        text = _output(analyze(args.bundle, options), as_json=args.json)
    except (BundleError, ValueError) as exc:  # bad input or a refused pattern
        return _fail(str(exc), 2)
    except Exception as exc:  # a bug: still one line, so scripts can rely on the contract
        return _fail(f"internal error ({type(exc).__name__}: {exc})", 1)
    # Bytes, not the locale's encoding: a report in Chinese must not fail under LANG=C.
    sys.stdout.buffer.write(text.encode("utf-8"))
    sys.stdout.flush()
    return 0


def _output(report: Report, *, as_json: bool) -> str:
    """The whole output, built before anything is printed: either all of it or nothing."""
    if not as_json:
        return format_summary(report)
    # Indented for a person at a terminal; compact for a pipe. `dumps`, not `json.dump` to a
    # stream, which runs the pure-Python encoder, many times slower.
    indent = 2 if sys.stdout.isatty() else None
    return json.dumps(report.to_dict(), indent=indent, ensure_ascii=False) + "\n"


def _fail(message: str, code: int) -> int:
    print(f"error: {' '.join(message.split())}", file=sys.stderr)
    return code


if __name__ == "__main__":
    sys.exit(main())
