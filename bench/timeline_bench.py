"""Benchmark: the incident timeline from 8 ranks × 2,000 checkpoints to 1,024 × 2,000.

    python bench/timeline_bench.py              # server side only
    python bench/timeline_bench.py --browser    # + draw time in headless Chromium
    python bench/timeline_bench.py --sizes 8x50000 1024x2000

Server side, per job size: building the prepared timeline from the report (once per run,
at analysis time), loading it from its file (a cold web process), and one request's
work — the overview payload and a zoomed window, JSON-encoded, with the straggler
overlay on (every straggling point of the window is sent) — with the payload size raw and
gzipped (the endpoint gzips). In Chromium: the real `_timeline.html` partial and
`static/js/timeline.js` against those payloads; time from navigation to a drawn chart,
and Plotly's own draw time. Targets: a request's JSON in at most 300 ms, every size
(1,024 lanes included) drawn in at most 2 s.
"""

from __future__ import annotations

import argparse
import gzip
import http.server
import json
import os
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "bench")]
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django  # noqa: E402

django.setup()

from django.contrib.staticfiles import finders  # noqa: E402
from django.template.loader import render_to_string  # noqa: E402
from timeline_synthetic import synthetic_report  # noqa: E402

from incidents.evidence.links import file_urls  # noqa: E402
from incidents.runs import runstore  # noqa: E402
from incidents.timeline.charts import TimelineQuery, full_range, prepare_timeline, timeline_payload  # noqa: E402

SIZES = ((8, 2_000), (64, 2_000), (512, 2_000), (8, 50_000), (1_024, 2_000))
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
RENDER_TARGET_S = 2.0
REQUEST_TARGET_S = 0.3


@dataclass
class ServerResult:
    ranks: int
    checkpoints: int
    points: int
    stragglers: int
    prepare_s: float
    load_s: float
    overview_s: float
    zoom_s: float
    raw_bytes: int
    gzip_bytes: int
    shown: int
    body: bytes


def timed(fn: Callable[[], Any], repeat: int = 1) -> tuple[float, Any]:
    """Best of `repeat` runs: the machine is shared, the minimum is the honest figure."""
    best, result = float("inf"), None
    for _ in range(repeat):
        started = time.perf_counter()
        result = fn()
        best = min(best, time.perf_counter() - started)
    return best, result


def request_body(timeline: Any, query: TimelineQuery) -> bytes:
    """What the endpoint does per request: payload, viewer URLs, JSON."""
    payload = timeline_payload(timeline, query)
    payload["file_urls"] = file_urls(1, payload["files"])
    return json.dumps(payload, separators=(",", ":")).encode()


def bench_server(ranks: int, checkpoints: int, workdir: Path) -> ServerResult:
    path = workdir / f"timeline-{ranks}x{checkpoints}.bin"
    prepare_s = _prepare_to(path, ranks, checkpoints)
    load_s, timeline = timed(lambda: runstore.load_timeline(path), repeat=3)
    overview = TimelineQuery(stragglers=True)
    overview_s, body = timed(lambda: request_body(timeline, overview), repeat=3)
    low, high = full_range(timeline, "logical")
    window = (low + (high - low) * 0.45, low + (high - low) * 0.55)
    zoom = TimelineQuery(window=window, stragglers=True)
    zoom_s, _ = timed(lambda: request_body(timeline, zoom), repeat=3)
    return ServerResult(
        ranks=ranks,
        checkpoints=checkpoints,
        points=timeline.total_points,
        stragglers=sum(len(lane.slow) for lane in timeline.points.values()),
        prepare_s=prepare_s,
        load_s=load_s,
        overview_s=overview_s,
        zoom_s=zoom_s,
        raw_bytes=len(body),
        gzip_bytes=len(gzip.compress(body, 6)),
        shown=json.loads(body)["shown"],
        body=body,
    )


def _prepare_to(path: Path, ranks: int, checkpoints: int) -> float:
    """Time the worker's step; the report (gigabytes of dicts at 1,024 ranks) is freed
    on return, before the request timings start."""
    report = synthetic_report(ranks, checkpoints)
    prepare_s, timeline = timed(lambda: prepare_timeline(report))
    runstore.save_timeline(timeline, path)
    return prepare_s


# --- Chromium -------------------------------------------------------------------------------


class _Handler(http.server.BaseHTTPRequestHandler):
    """Serves the page, static files through Django's finders, and the current payload."""

    routes: dict[str, tuple[str, bytes]] = {}

    def do_GET(self) -> None:
        path = self.path.split("?", 1)[0]
        found = self.routes.get(path) or self._static(path)
        if found is None:
            self.send_error(404)
            return
        kind, body = found
        self.send_response(200)
        self.send_header("Content-Type", kind)
        if path.startswith("/static/"):  # as WhiteNoise answers for unversioned files
            self.send_header("Cache-Control", "max-age=60, public")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def _static(self, path: str) -> tuple[str, bytes] | None:
        if not path.startswith("/static/"):
            return None
        found = finders.find(path.removeprefix("/static/"))
        kinds = {".js": "text/javascript", ".css": "text/css"}
        return (
            (kinds.get(Path(found).suffix, "application/octet-stream"), Path(found).read_bytes())
            if found
            else None
        )

    def log_message(self, *args: Any) -> None:
        pass


def timeline_page() -> bytes:
    """The real partial in a bare page (the incident page minus its other sections)."""
    incident = type("Incident", (), {"pk": 1})()
    run = type("Run", (), {"pk": 1})()
    section = render_to_string("incidents/_timeline.html", {"incident": incident, "run": run})
    css = '<link rel="stylesheet" href="/static/css/base.css">'
    return f"<!doctype html><html><head>{css}</head><body><main>{section}</main></body></html>".encode()


@contextmanager
def serving() -> Iterator[str]:
    _Handler.routes = {"/": ("text/html; charset=utf-8", timeline_page())}
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}/"
    finally:
        server.shutdown()


@dataclass
class BrowserResult:
    cold_s: float  # navigation → chart drawn, first visit (plotly.js not cached)
    warm_s: float  # the same on a return visit (plotly.js from the HTTP and code caches)
    fetch_s: float  # data request
    build_s: float  # payload → Plotly traces
    draw_s: float  # Plotly draw

    @property
    def render_s(self) -> float:
        """The timeline's own work: request its data, build the traces, draw them."""
        return self.fetch_s + self.build_s + self.draw_s


def bench_browser(results: list[ServerResult]) -> dict[int, BrowserResult]:
    """Per size: best of two cold visits (fresh context) and of two warm ones."""
    from playwright.sync_api import sync_playwright

    timings: dict[tuple[int, int], BrowserResult] = {}
    with serving() as url, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        for result in results:
            _Handler.routes["/incidents/INC-1/timeline.json"] = ("application/json", result.body)
            cold, warm = [], []
            for _ in range(2):
                context = browser.new_context(viewport={"width": 1280, "height": 1000})
                cold.append(_visit(context, url))
                warm.append(_visit(context, url))
                context.close()
            best = min(cold + warm, key=_render_s)
            timings[(result.ranks, result.checkpoints)] = BrowserResult(
                cold_s=min(t["readyAt"] for t in cold),
                warm_s=min(t["readyAt"] for t in warm),
                fetch_s=best["fetchMs"],
                build_s=best["buildMs"],
                draw_s=best["renderMs"],
            )
        browser.close()
    return timings


def _render_s(timing: dict[str, float]) -> float:
    return timing["fetchMs"] + timing["buildMs"] + timing["renderMs"]


def _visit(context: Any, url: str) -> dict[str, float]:
    """Timings the page itself records (ms since navigation start), in seconds."""
    page = context.new_page()
    page.goto(url)
    plot = page.locator("#timeline-plot[data-ready='1']")
    plot.wait_for(timeout=60_000)
    names = ("readyAt", "fetchMs", "buildMs", "renderMs")
    found = {name: float(plot.get_attribute(f"data-{_dashed(name)}")) / 1000 for name in names}
    page.close()
    return found


def _dashed(name: str) -> str:
    return "".join(f"-{c.lower()}" if c.isupper() else c for c in name)


# --- report ---------------------------------------------------------------------------------


def print_server(results: list[ServerResult]) -> bool:
    print("Timeline server side (best of 3 where repeated; the straggler overlay on)")
    print(
        f"{'size':>12} {'points':>10} {'prepare':>9} {'load':>7} {'request':>9} "
        f"{'zoom req':>9} {'target':>7} {'shown':>7} {'slow pts':>9} {'payload':>9} {'gzipped':>9}"
    )
    ok = True
    for r in results:
        worst = max(r.overview_s, r.zoom_s)
        verdict = "ok" if worst <= REQUEST_TARGET_S else "MISS"
        ok &= worst <= REQUEST_TARGET_S
        print(
            f"{_size(r.ranks, r.checkpoints):>12} {r.points:>10,} {r.prepare_s:>8.2f}s "
            f"{r.load_s:>6.3f}s {r.overview_s * 1000:>7.0f}ms {r.zoom_s * 1000:>7.0f}ms "
            f"{verdict:>7} {r.shown:>7,} {r.stragglers:>9,} "
            f"{r.raw_bytes / 1024:>7.0f}KB {r.gzip_bytes / 1024:>7.0f}KB"
        )
    print("  size: ranks x checkpoints per rank; prepare: report → prepared timeline, once per")
    print("  run (at analysis time); load: prepared file → memory, once per web process;")
    print(f"  request/zoom req: per request, target ≤ {REQUEST_TARGET_S * 1000:.0f} ms each")
    return ok


def _size(ranks: int, checkpoints: int) -> str:
    return f"{ranks}x{checkpoints:,}"


def print_browser(timings: dict[tuple[int, int], BrowserResult]) -> bool:
    print("\nChromium (headless, software WebGL), best of 2 visits each")
    print(
        f"{'size':>12} {'render':>7} {'(data':>7} {'traces':>7} {'draw)':>7} {'target':>7} "
        f"{'page, 1st visit':>16} {'page, return':>13}"
    )
    ok = True
    for (ranks, checkpoints), t in timings.items():
        verdict = "ok" if t.render_s <= RENDER_TARGET_S else "MISS"
        print(
            f"{_size(ranks, checkpoints):>12} {t.render_s:>6.2f}s {t.fetch_s:>6.2f}s "
            f"{t.build_s:>6.2f}s {t.draw_s:>6.2f}s {verdict:>7} {t.cold_s:>15.2f}s "
            f"{t.warm_s:>12.2f}s"
        )
        ok &= t.render_s <= RENDER_TARGET_S
    print("  render: the timeline's data request + building its traces + Plotly's draw,")
    print(f"  target ≤ {RENDER_TARGET_S:.0f} s; page: navigation start → chart drawn; it also")
    print("  counts evaluating plotly.js (4.8 MB, the same for every job size), partly")
    print("  overlapped with the data request")
    return ok


def parse_size(text: str) -> tuple[int, int]:
    """`1024x2000` → (1024, 2000)."""
    ranks, _, checkpoints = text.lower().partition("x")
    try:
        return int(ranks), int(checkpoints)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not RANKSxCHECKPOINTS") from None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--browser", action="store_true", help="also time drawing in Chromium")
    parser.add_argument("--sizes", type=parse_size, nargs="+", default=list(SIZES))
    args = parser.parse_args()
    load = ", ".join(f"{value:.1f}" for value in os.getloadavg())
    print(f"{os.cpu_count()} CPUs, load average {load} (timings grow with the load)\n")
    with tempfile.TemporaryDirectory(prefix="ranklens-timeline-bench-") as workdir:
        results = [bench_server(ranks, cps, Path(workdir)) for ranks, cps in args.sizes]
    ok = print_server(results)
    if args.browser:
        ok &= print_browser(bench_browser(results))
    print(f"\n{'meets' if ok else 'MISSES'} the targets")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
