"""Where the shared corpus of real logs is, for every test that reads it.

`../shared/corpus` beside the checkout, unless RANKLENS_CORPUS names another folder (a
clone made elsewhere: `.ci/run` sets it from the clone's origin).
"""

from __future__ import annotations

import os
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CORPUS = Path(os.environ.get("RANKLENS_CORPUS") or ROOT.parent / "shared" / "corpus")
