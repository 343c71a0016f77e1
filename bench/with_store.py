"""What the Celery task runs: the analysis plus the log viewer's line store, timed by run.py.

    python bench/with_store.py BUNDLE [--workers N]

The CLI skips the line store; the product writes one (a compressed, seekable copy of every
member) during the same pass, so this is the figure an uploaded bundle really costs.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from analyzers import AnalyzeOptions, analyze


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("bundle")
    parser.add_argument("--workers", type=int, default=0)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="ranklens-store-") as store:
        report = analyze(args.bundle, AnalyzeOptions(workers=args.workers, store_dir=store))
        stored = sum(path.stat().st_size for path in Path(store).iterdir())
        json.dumps(report.to_dict(timeline=False))  # the task stores the report as JSON
        with Path(store, "timeline.json").open("w") as out:  # and streams the timeline
            report.timeline.write_json(out)
    print(f"line store {stored / 1e6:.0f} MB", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
