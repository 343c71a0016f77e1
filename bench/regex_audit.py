"""Find the analyzer's regexes whose search time grows faster than the line they read.

    python bench/regex_audit.py                # every pattern, hostile lines up to 8,192 chars
    python bench/regex_audit.py --max 4096 --only signatures

A backtracking pattern such as `[\\w.+-]+\\.so` tries, at each start in a long run of the
characters it accepts, the whole rest of the run: the square of its length. A log line is
capped (`ingest/textio.MAX_LINE_CHARS`), but one hostile line of that size may still cost a
second per pattern. The audit compiles every pattern the analyzer uses (the module-level
`re.Pattern` objects of every `analyzers` module, also inside gated patterns, and the
signatures' regexes), times `.search` on hostile lines of growing length (runs of word
characters, dots, spaces, path and dash runs) and prints the patterns whose time, from the
shortest length to the longest, grew more than twice as fast as the length itself, with the
line that showed it. How the code really calls a pattern (match or search, on a capped or a
cut line) is for the reader to check: this lists the suspects.
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import re
import sys
import time
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

# one character (or unit) repeated: what a runaway line of a log may be made of
UNITS = ("a", "_", "0", " ", ".", "/", "-", "a.", "a-", "a/", "a ", "[a", "a:", "a=", "\t")
LENGTHS = (1024, 2048, 4096, 8192)
SLOW_AT_LONGEST = 0.01  # seconds: faster than that at the longest line is no concern
GROWTH_FACTOR = 2.0  # flagged when time grew this many times more than the length did


def hostile_lines(length: int) -> Iterator[tuple[str, str]]:
    """(name, line) pairs of `length` characters: runs, and runs behind a plausible head."""
    for unit in UNITS:
        run = (unit * (length // len(unit) + 1))[:length]
        yield f"{unit!r}*n", run
        yield f"'Error: '+{unit!r}*n", ("Error: " + run)[:length]


def analyzer_patterns() -> Iterator[tuple[str, re.Pattern[str] | re.Pattern[bytes]]]:
    """Every module-level pattern of the analyzer, and every signature's regex."""
    import analyzers

    for info in pkgutil.walk_packages(analyzers.__path__, "analyzers."):
        try:
            module = importlib.import_module(info.name)
        except Exception:  # a module that needs what the audit does not have: skipped
            continue
        for name, value in vars(module).items():
            if not isinstance(value, re.Pattern):
                value = getattr(value, "pattern", None)  # a gated pattern keeps its regex
            if isinstance(value, re.Pattern):
                yield f"{info.name}.{name}", value
    from analyzers.classify.rules import load_knowledge

    for signature in load_knowledge().signatures:
        yield f"signature {signature.id}", signature.regex


def seconds(pattern: re.Pattern[str] | re.Pattern[bytes], line: str, tries: int = 3) -> float:
    """The fastest of a few searches: one run may be slowed by another process's turn."""
    text: str | bytes = line.encode() if isinstance(pattern.pattern, bytes) else line
    best = float("inf")
    for _ in range(tries):
        started = time.perf_counter()
        pattern.search(text)  # type: ignore[arg-type]
        best = min(best, time.perf_counter() - started)
        if best > 0.5:
            break  # slow enough to be sure
    return best


def audit(pattern: re.Pattern[str] | re.Pattern[bytes], lengths: tuple[int, ...]) -> tuple:
    """The worst (growth, seconds at the longest, line name) over the hostile lines."""
    worst = (0.0, 0.0, "")
    lines = {length: dict(hostile_lines(length)) for length in lengths}
    for name in lines[lengths[0]]:
        times = {}
        for length in lengths:
            line = lines[length][name]
            times[length] = seconds(pattern, line)
            if times[length] > 5:  # already hopeless: no need to wait for the longer lines
                break
        longest = max(times)
        shortest_time = max(times[lengths[0]], 1e-6)
        growth = (times[longest] / shortest_time) / (longest / lengths[0])
        if times[longest] > worst[1]:
            worst = (growth, times[longest], name)
    return worst


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--max", type=int, default=LENGTHS[-1], help="longest line")
    parser.add_argument("--only", default="", help="audit names containing this text")
    args = parser.parse_args(argv)
    lengths = tuple(length for length in LENGTHS if length <= args.max)
    flagged = 0
    for name, pattern in analyzer_patterns():
        if args.only not in name:
            continue
        growth, longest, line = audit(pattern, lengths)
        if longest >= SLOW_AT_LONGEST and growth >= GROWTH_FACTOR:
            flagged += 1
            print(f"{longest:7.3f} s at {lengths[-1]:,} chars  x{growth:5.1f}  {name}  ({line})")
    print(f"{flagged} pattern(s) grow faster than their line", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
