"""Benchmark: full analysis vs `zcat | grep -E '<signature alternation>'` on one bundle.

    python bench/run.py                 # 64 ranks, ~700 MB uncompressed, then 4x that
    python bench/run.py --quick         # ~70 MB only (a smoke run)
    python bench/run.py --scale 2 --no-big
    python bench/run.py --with-store    # also: analysis + the log viewer's line store
    python bench/run.py --repeat 3      # three runs per bundle, the median one shown
    python bench/run.py --noisy         # 8 ranks x 50,000 lines of per-step warnings

Prints, per bundle size: the grep baseline time, the analysis time, their ratio and the
analysis's peak RSS (parent and worker processes summed, sampled from /proc every 20 ms).
Targets: ratio <= 2, peak RSS <= 300 MB, RSS flat as the bundle grows.
Bundles are cached in --dir (default $TMPDIR/ranklens-bench) so a rerun only times.
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from synth import write_bundle  # noqa: E402

GENERATOR_VERSION = 2  # bump when synth.py changes what it writes
ERE_SPECIAL = re.compile(r"([\\.\[\]()*+?{}|^$])")


@dataclass
class Timing:
    seconds: float
    cpu_seconds: float = 0.0  # user + sys of the command's processes: robust to a busy machine
    peak_rss_mb: float = 0.0
    output: str = ""


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def main(argv: list[str] | None = None) -> int:
    args = _parse(argv)
    scales = [args.scale] if args.no_big else [args.scale, args.scale * 4]
    if args.quick:
        scales = [0.1]
    _compile_bytecode()
    alternation = signature_alternation()
    print(f"grep alternation: {alternation.count('|') + 1} signature keywords", flush=True)
    rows = []
    if args.bisection:
        return _bisection_rows(args, alternation)
    if args.noisy:
        return _noisy_rows(args, alternation)
    for scale in scales:
        bundle = _bundle(Path(args.dir), args.ranks, scale)
        size = _uncompressed_size(bundle)
        pairs = [_timed_pair(bundle, alternation, args.workers) for _ in range(args.repeat)]
        grep, analysis = _median_pair(pairs)
        rows.append((scale, size, bundle.stat().st_size, grep, analysis))
        _print_row(*rows[-1])
        if len(pairs) > 1:
            ratios = sorted(a.seconds / g.seconds for g, a in pairs)
            print(f"  ratio over {len(pairs)} runs: {ratios[0]:.2f} - {ratios[-1]:.2f}")
        if args.with_store:
            stored = time_analysis(bundle, args.workers, with_store=True)
            _print_store_row(grep, stored)
    _print_summary(rows)
    return 0


# (ranks, checkpoints per rank): a long bisection run, and a big job with a short one
BISECTION_SIZES = ((8, 50_000), (1024, 2_000))


def _bisection_rows(args: argparse.Namespace, alternation: str) -> int:
    """Checkpoint-heavy jobs, two ways: the usual mix (training log with metrics, plog) and
    logs of checkpoint lines only (the worst case: no cheap lines to dilute them)."""
    for ranks, checkpoints in BISECTION_SIZES:
        for mix in ("job", "checkpoints-only"):
            bundle = _bisection_bundle(Path(args.dir), ranks, checkpoints, mix)
            size = _uncompressed_size(bundle)
            pairs = [_timed_pair(bundle, alternation, args.workers) for _ in range(args.repeat)]
            grep, analysis = _median_pair(pairs)
            print(f"{ranks} ranks x {checkpoints:,} checkpoints, {mix}:")
            # A log of checkpoint lines alone gives grep nothing to do (it prints no match),
            # so that ratio shows the per-line cost at its worst; the target is the job mix.
            target = "target <= 2" if mix == "job" else "worst case, no target"
            _print_row(1.0, size, bundle.stat().st_size, grep, analysis, target)
            if len(pairs) > 1:
                ratios = sorted(a.seconds / g.seconds for g, a in pairs)
                print(f"  ratio over {len(pairs)} runs: {ratios[0]:.2f} - {ratios[-1]:.2f}")
    return 0


NOISY_SIZE = (8, 50_000)  # ranks, lines per rank


def _noisy_rows(args: argparse.Namespace, alternation: str) -> int:
    """A job that prints warnings on every step and fails at the end, beside the job mix of
    the same size (8 ranks x 50,000 checkpoints): the noisy ratio should be no worse."""
    ranks, lines = NOISY_SIZE
    bundles = (
        (
            f"{ranks} ranks x {lines:,} lines of per-step warnings",
            _noisy_bundle(args, ranks, lines),
        ),
        (
            f"{ranks} ranks x {lines:,} checkpoints, job",
            _bisection_bundle(Path(args.dir), ranks, lines, "job"),
        ),
    )
    for title, bundle in bundles:
        size = _uncompressed_size(bundle)
        pairs = [_timed_pair(bundle, alternation, args.workers) for _ in range(args.repeat)]
        grep, analysis = _median_pair(pairs)
        print(f"{title}:")
        _print_row(1.0, size, bundle.stat().st_size, grep, analysis, "target <= the job's")
    return 0


def _noisy_bundle(args: argparse.Namespace, ranks: int, lines: int) -> Path:
    from noisy import write_noisy_bundle

    directory = Path(args.dir)
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / f"noisy-v{GENERATOR_VERSION}-r{ranks}-l{lines}.tar.gz"
    if not path.exists():
        partial = path.with_suffix(".part")
        write_noisy_bundle(partial, ranks=ranks, lines=lines)
        partial.rename(path)
    return path


def _bisection_bundle(directory: Path, ranks: int, checkpoints: int, mix: str) -> Path:
    from bisection import write_bisection_bundle

    directory.mkdir(parents=True, exist_ok=True)
    path = directory / f"bisection-v{GENERATOR_VERSION}-{mix}-r{ranks}-c{checkpoints}.tar.gz"
    if not path.exists():
        partial = path.with_suffix(".part")
        if mix == "job":
            write_bundle(partial, ranks=ranks, checkpoints=checkpoints)
        else:
            write_bisection_bundle(partial, ranks, checkpoints, layers=16, culprit=ranks // 2)
        partial.rename(path)
    return path


def _timed_pair(bundle: Path, alternation: str, workers: int) -> tuple[Timing, Timing]:
    """The baseline and the analysis back to back, so both see the same machine load."""
    return time_grep(bundle, alternation), time_analysis(bundle, workers)


def _median_pair(pairs: list[tuple[Timing, Timing]]) -> tuple[Timing, Timing]:
    """The run with the median ratio (a real run, not a mix of several)."""
    ranked = sorted(pairs, key=lambda pair: pair[1].seconds / pair[0].seconds)
    return ranked[len(ranked) // 2]


def _parse(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", type=float, default=1.0, help="1.0 = ~700 MB uncompressed")
    parser.add_argument("--ranks", type=int, default=64)
    parser.add_argument("--quick", action="store_true", help="one ~70 MB bundle only")
    parser.add_argument("--no-big", action="store_true", help="skip the 4x bundle")
    parser.add_argument("--workers", type=int, default=0, help="passed to the analyzer CLI")
    parser.add_argument(
        "--repeat", type=int, default=1, help="runs per bundle; the median-ratio run is shown"
    )
    parser.add_argument(
        "--with-store",
        action="store_true",
        help="also time the analysis plus the log viewer's line store (what the worker does)",
    )
    parser.add_argument(
        "--bisection",
        action="store_true",
        help="checkpoint-heavy jobs instead: 8 ranks x 50,000 and 1,024 ranks x 2,000",
    )
    parser.add_argument(
        "--noisy",
        action="store_true",
        help="a job printing warnings on every step (8 ranks x 50,000 lines) beside the job mix",
    )
    parser.add_argument(
        "--dir", default=os.path.join(tempfile.gettempdir(), "ranklens-bench"), help="cache"
    )
    return parser.parse_args(argv)


def signature_alternation() -> str:
    """The signatures' literal keywords as one ERE alternation (what an engineer would grep)."""
    try:
        from analyzers.classify.rules import load_knowledge

        words = sorted({word for sig in load_knowledge().signatures for word in sig.keywords})
    except Exception as error:  # the knowledge may be mid-edit by another change
        print(f"(signatures unavailable: {error}; using the scanner's prefilter words)")
        from analyzers.formats.severity import load_prefilter

        words = sorted(word.decode() for word in load_prefilter().keywords)
    return "|".join(ERE_SPECIAL.sub(r"\\\1", word) for word in words)


def _bundle(directory: Path, ranks: int, scale: float) -> Path:
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / f"bundle-v{GENERATOR_VERSION}-r{ranks}-s{scale:g}.tar.gz"
    if not path.exists():
        print(f"writing {path.name} ...", flush=True)
        started = time.perf_counter()
        partial = path.with_suffix(".part")
        write_bundle(partial, ranks=ranks, scale=scale)
        partial.rename(path)
        print(f"  written in {time.perf_counter() - started:.0f} s", flush=True)
    return path


def _uncompressed_size(bundle: Path) -> int:
    result = subprocess.run(
        f"zcat {bundle} | wc -c", shell=True, capture_output=True, text=True, check=True
    )
    return int(result.stdout.strip())


def time_grep(bundle: Path, alternation: str) -> Timing:
    command = ["sh", "-c", 'zcat "$0" | grep -E -c -e "$1"', str(bundle), alternation]
    env = {**os.environ, "LC_ALL": "C"}
    cpu, started = _children_cpu(), time.perf_counter()
    result = subprocess.run(command, capture_output=True, text=True, env=env, check=False)
    seconds = time.perf_counter() - started
    return Timing(seconds, _children_cpu() - cpu, output=result.stdout.strip())


def _compile_bytecode() -> None:
    """Write the analyzer's bytecode once, as an installed package or any second run has it.

    With PYTHONDONTWRITEBYTECODE set (as on some CI machines) every timed run would compile
    the whole package from source again: a start-up cost no user pays twice and grep
    never pays."""
    import compileall

    compileall.compile_dir(ROOT / "analyzers", quiet=1)


def time_analysis(bundle: Path, workers: int, *, with_store: bool = False) -> Timing:
    command = [sys.executable, "-m", "analyzers", str(bundle), "--json"]
    if with_store:
        command = [sys.executable, str(ROOT / "bench" / "with_store.py"), str(bundle)]
    if workers:
        command += ["--workers", str(workers)]
    cpu, started = _children_cpu(), time.perf_counter()
    process = subprocess.Popen(
        command, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True
    )
    sampler = _RssSampler(process.pid)
    sampler.start()
    _, stderr = process.communicate()
    seconds = time.perf_counter() - started
    sampler.stop()
    if process.returncode:
        raise SystemExit(f"analysis failed ({process.returncode}): {stderr[-2000:]}")
    return Timing(seconds, _children_cpu() - cpu, sampler.peak_mb)


class _RssSampler(threading.Thread):
    """Peak of the summed RSS of a process and all its descendants, from /proc.

    The process tree is found by a walk over all of /proc only every `WALK_EVERY` samples
    (a new scanner or JSON child is seen within ~0.2 s); in between only the known members'
    `statm` is read. A full walk per 20 ms sample cost a sixth of a core on a busy machine:
    CPU taken from the analysis it measures, on a 2-core machine, and never from grep."""

    WALK_EVERY = 10

    def __init__(self, pid: int) -> None:
        super().__init__(daemon=True)
        self.pid = pid
        self.peak_mb = 0.0
        self._done = threading.Event()

    def run(self) -> None:
        tree: set[int] = {self.pid}
        samples = 0
        while not self._done.wait(0.02):
            if samples % self.WALK_EVERY == 0:
                tree = _tree(self.pid)
            samples += 1
            self.peak_mb = max(self.peak_mb, sum(map(_rss_kb, tree)) / 1024)

    def stop(self) -> None:
        self._done.set()
        self.join()


_PAGE_KB = os.sysconf("SC_PAGE_SIZE") // 1024


def _rss_kb(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/statm", "rb") as statm:
            return int(statm.read().split()[1]) * _PAGE_KB
    except (OSError, IndexError, ValueError):
        return 0  # the process has ended


def _tree(root: int) -> set[int]:
    """`root` and its descendants (parents read from each process's `stat`)."""
    parents: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as stat:
                fields = stat.read().rsplit(b")", 1)[1].split()
        except (OSError, IndexError):
            continue
        parents[int(entry)] = int(fields[1])
    tree, frontier = {root}, [root]
    while frontier:
        parent = frontier.pop()
        children = [pid for pid, ppid in parents.items() if ppid == parent]
        tree.update(children)
        frontier += children
    return tree


def _print_row(
    scale: float,
    size: int,
    packed: int,
    grep: Timing,
    analysis: Timing,
    target: str = "target <= 2",
) -> None:
    ratio = analysis.seconds / grep.seconds if grep.seconds else float("inf")
    print(
        f"scale {scale:g}: {size / 1e6:.0f} MB uncompressed ({packed / 1e6:.0f} MB .tar.gz), "
        f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs\n"
        f"  zcat | grep -E  {grep.seconds:7.2f} s wall {grep.cpu_seconds:7.2f} s CPU"
        f"   ({grep.output} matching lines)\n"
        f"  analysis        {analysis.seconds:7.2f} s wall {analysis.cpu_seconds:7.2f} s CPU"
        f"   ratio {ratio:.2f} ({target})\n"
        f"  peak RSS        {analysis.peak_rss_mb:7.0f} MB (target <= 300)",
        flush=True,
    )


def _print_store_row(grep: Timing, stored: Timing) -> None:
    ratio = stored.seconds / grep.seconds if grep.seconds else float("inf")
    print(
        f"  + line store    {stored.seconds:7.2f} s wall {stored.cpu_seconds:7.2f} s CPU"
        f"   ratio {ratio:.2f} (the worker's job; no target)  peak RSS {stored.peak_rss_mb:.0f} MB",
        flush=True,
    )


def _print_summary(rows: list[tuple[float, int, int, Timing, Timing]]) -> None:
    if len(rows) < 2:
        return
    first, last = rows[0][4], rows[-1][4]
    growth = last.peak_rss_mb / first.peak_rss_mb if first.peak_rss_mb else float("nan")
    print(f"RSS growth {rows[0][0]:g}x -> {rows[-1][0]:g}x bundle: {growth:.2f}x (flat is ~1)")


if __name__ == "__main__":
    sys.exit(main())
