"""torchvision's import-time warning that its image extension did not load.

docs/labelling.md#an-image-extension-torchvision-could-not-load: torchvision tries its compiled image
codecs when it is imported and, when they were built for another torch or CUDA, warns with
the loader's reason (`UserWarning: Failed to load image Python extension: libc10_cuda.so:
cannot open shared object file`). Every process that imports it prints this, whether the job
decodes images or not, so it is no failure and no missing library of the job: the lines after
it decide. Values of our own in the real shapes.
"""

from __future__ import annotations

from pathlib import Path

from analyzers import AnalyzeOptions, analyze
from tests.analyzers.excerpts import diagnose_text, rules_of

WARNING_THEN_STALL = """\
/opt/venv/lib/python3.9/site-packages/torchvision/io/image.py:13: UserWarning: Failed to load image Python extension: libc10_cuda.so: cannot open shared object file: No such file or directory
  warn(f"Failed to load image Python extension: {e}")
rank 1 of 2 ready
2024-02-11 09:14:05,118 - torch.distributed.distributed_c10d - INFO - Rank 1: Completed store-based barrier for key:store_based_barrier_key:1 with 2 nodes.
"""

# the same warning in a log of plain prints, whose last lines are read when nothing else is
WARNING_IN_PLAIN_PRINTS = """\
/opt/venv/lib/python3.9/site-packages/torchvision/io/image.py:13: UserWarning: Failed to load image Python extension: libc10_cuda.so: cannot open shared object file: No such file or directory
  warn(f"Failed to load image Python extension: {e}")
rank 1 of 2 ready
wrapping the model for data parallel
"""

IMPORT_REFUSED = """\
Traceback (most recent call last):
  File "/work/train.py", line 3, in <module>
    import torch
ImportError: libc10_cuda.so: cannot open shared object file: No such file or directory
"""


def test_the_import_time_warning_is_no_missing_library() -> None:
    diagnosis = diagnose_text("node1.log", WARNING_THEN_STALL)
    assert "env.missing_shared_library" not in rules_of(diagnosis)
    assert diagnosis.category != "driver_env"
    line = diagnosis.first_error.text if diagnosis.first_error else ""
    assert "image Python extension" not in line


def test_the_warning_is_not_read_from_a_quiet_files_last_lines_either(tmp_path: Path) -> None:
    (tmp_path / "node1.log").write_text(WARNING_IN_PLAIN_PRINTS)
    diagnosis = analyze(tmp_path, AnalyzeOptions(workers=1)).diagnosis
    assert diagnosis.category == "hang", diagnosis.root_cause
    assert diagnosis.first_error is None, diagnosis.first_error


def test_a_library_an_import_could_not_load_stays_a_missing_library() -> None:
    diagnosis = diagnose_text("train.log", IMPORT_REFUSED)
    assert diagnosis.category == "driver_env"
    assert "env.missing_shared_library" in rules_of(diagnosis)
