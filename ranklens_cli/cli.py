"""`ranklens upload FILE`: the command line, and the wait for the verdict."""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from ranklens_cli.api import ApiError, Client
from ranklens_cli.verdict import verdict_lines

EXIT_DONE = 0
EXIT_ANALYSIS_FAILED = 1
EXIT_USAGE = 2  # argparse's own code for a bad command line
EXIT_HTTP_ERROR = 3
EXIT_TIMEOUT = 4

FINISHED = ("done", "failed")
POLL_INTERVAL_S = 2.0
MAX_POLL_INTERVAL_S = 15.0
UPLOAD_ATTEMPTS = 4  # an upload refused for its rate (429) is sent again, this many times in all
MAX_RETRY_AFTER_S = 300.0  # a longer Retry-After is not waited for

DESCRIPTION = """\
Upload a job's log bundle to Ranklens and print the incident URL. With --wait, wait for
the analysis and print its verdict: category, confidence, culprit ranks and first error.
"""

EPILOG = """\
exit status:
  0  uploaded (and, with --wait, the analysis is done)
  1  the analysis failed (its reason is printed)
  2  bad command line
  3  the server refused the request or could not be reached (its error is printed)
  4  --wait gave up after --timeout seconds

environment:
  RANKLENS_URL    default for --url
  RANKLENS_TOKEN  default for --token (create one on the server's API tokens page)

example:
  ranklens upload job-logs.tar.gz --title "nightly 8-rank run" --wait --timeout 1800
"""


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="ranklens",
        description=DESCRIPTION,
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    upload = commands.add_parser(
        "upload",
        help="upload a bundle (.tar, .tar.gz or .tar.zst, .zip or one log) and print its URL",
        description=DESCRIPTION,
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    upload.add_argument("file", type=Path, metavar="FILE", help="the bundle to upload")
    upload.add_argument(
        "--url",
        default=os.environ.get("RANKLENS_URL"),
        help="the server, e.g. https://ranklens.example.com (default: $RANKLENS_URL)",
    )
    upload.add_argument(
        "--token",
        default=os.environ.get("RANKLENS_TOKEN"),
        help="an API token (default: $RANKLENS_TOKEN)",
    )
    upload.add_argument("--title", default="", help="the incident's title (default: file name)")
    upload.add_argument(
        "--wait", action="store_true", help="wait for the analysis and print its verdict"
    )
    upload.add_argument(
        "--timeout",
        type=_positive_seconds,
        default=3600.0,
        metavar="SECONDS",
        help="with --wait, give up after this long (default: 3600)",
    )
    return parser


def _positive_seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: {text!r}") from None
    if not value > 0:
        raise argparse.ArgumentTypeError(f"must be more than 0 seconds, not {text}")
    return value


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not args.url:
        parser.error("no server: pass --url or set RANKLENS_URL")
    if not args.token:
        parser.error("no API token: pass --token or set RANKLENS_TOKEN")
    if not args.file.is_file():
        parser.error(f"FILE: {args.file} is not a readable file")
    return upload(Client(args.url, args.token), args.file, args)


def upload(
    client: Client,
    path: Path,
    args: argparse.Namespace,
    sleep: Callable[[float], None] = time.sleep,
) -> int:
    for attempt in range(1, UPLOAD_ATTEMPTS + 1):
        try:
            created = client.upload(path, title=args.title)
            break
        except ApiError as error:
            pause = _rate_pause(error)
            if pause is None or attempt == UPLOAD_ATTEMPTS:
                print(f"ranklens: upload failed: {error}", file=sys.stderr)
                return EXIT_HTTP_ERROR
            print(f"ranklens: {error}; sending again in {pause:g} s", file=sys.stderr)
            sleep(pause)
    print(created.get("url", ""), flush=True)
    if not args.wait:
        return EXIT_DONE
    if not created.get("status_url"):
        print("ranklens: the server's answer has no status_url to wait on", file=sys.stderr)
        return EXIT_HTTP_ERROR
    return wait_for_verdict(client, created, timeout_s=args.timeout)


def wait_for_verdict(
    client: Client,
    created: dict[str, Any],
    *,
    timeout_s: float,
    sleep: Callable[[float], None] = time.sleep,
    clock: Callable[[], float] = time.monotonic,
) -> int:
    """Poll the status URL until the run finishes, the deadline passes or the server errs.

    A gateway error or a dropped connection is asked again (the server may be restarting),
    and so is a 429, no sooner than its Retry-After; any other error ends the wait, since
    asking again would get the same answer.
    """
    deadline = clock() + timeout_s
    interval, last_shown = POLL_INTERVAL_S, ""
    while True:
        try:
            status = client.status(created["status_url"])
        except ApiError as error:
            if not error.transient:
                print(f"ranklens: status check failed: {error}", file=sys.stderr)
                return EXIT_HTTP_ERROR
            print(f"ranklens: {error}; asking again", file=sys.stderr)
            interval = max(interval, min(error.retry_after or 0.0, MAX_RETRY_AFTER_S))
        else:
            if status.get("status") in FINISHED:
                print("\n".join(verdict_lines({**created, **status})), flush=True)
                return EXIT_DONE if status["status"] == "done" else EXIT_ANALYSIS_FAILED
            last_shown = _show_progress(status, last_shown)
        remaining = deadline - clock()
        if remaining <= 0:
            print(
                f"ranklens: gave up after {timeout_s:g} s; the analysis goes on at "
                f"{created.get('url', '')}",
                file=sys.stderr,
            )
            return EXIT_TIMEOUT
        sleep(min(interval, remaining))
        interval = min(interval * 1.5, MAX_POLL_INTERVAL_S)


def _rate_pause(error: ApiError) -> float | None:
    """Seconds to wait before sending a refused upload again; None: don't send it again.

    Only a 429 is worth it: the server read nothing of the body and stored nothing. A 503
    may mean the upload was stored and only its queueing failed, so it is not repeated.
    """
    if error.status != 429:
        return None
    return min(error.retry_after if error.retry_after is not None else 5.0, MAX_RETRY_AFTER_S)


def _show_progress(status: dict[str, Any], last_shown: str) -> str:
    """One stderr line per change of state or step, so CI logs show it is alive."""
    line = f"{status.get('status', '?')} {status.get('progress', 0)}% {status.get('step') or ''}"
    if line.strip() != last_shown:
        print(f"ranklens: {line.strip()}", file=sys.stderr, flush=True)
    return line.strip()
