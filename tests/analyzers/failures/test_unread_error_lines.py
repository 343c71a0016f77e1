"""An error line no rule reads is cited, at low confidence, when the job shows nothing better.

A framework's own refusal in words no signature knows (`paddle flags error: ...` before the
launcher's exit, a job script's `stage 'prepare' failed`) is still the job's report of what
failed: the report cites it instead of saying there is no error line, and the fallback's hints
label it from its block. It never displaces a line a rule reads, a healthy run or a rank
pattern, and a line logged as an error that only says the job goes on (a retry, a deprecation,
a zero error count, a corrected PCIe error, a feature switched off) is never cited.
"""

from __future__ import annotations

import pytest

from tests.analyzers.excerpts import assert_reads, diagnose_files

PADDLE_FLAGS = """\
LAUNCH INFO 2026-03-02 10:14:05,112 -----------  Configuration  ----------------------
LAUNCH INFO 2026-03-02 10:14:05,113 devices: 0,1,2,3
paddle flags error: unknown command line flag 'FLAGS_npu_storage_format_x'
LAUNCH INFO 2026-03-02 10:14:07,501 Exit code 1
"""

JOB_SCRIPT = """\
[2026-03-02 10:14:05] preparing the dataset index
[2026-03-02 10:14:06] stage 'prepare' failed: step returned 2
"""

SYNC_STAGE = """\
[2026-03-02 10:14:05] stage 'sync weights' started
[2026-03-02 10:14:06] stage 'sync weights' failed: broadcast of the embedding returned 3
[2026-03-02 10:14:06] barrier on node 3 failed after the previous step
"""

CHATTER_ONLY = """\
ERROR: 'fork' start method is deprecated, use 'spawn'
Epoch 3 step 100 loss=2.31 error: 0
total error count: 0
upload of the checkpoint failed; retrying in 5 s
"""

CORRECTED_AER = """\
[  +0.000211] pcieport 0000:80:02.0: AER: Corrected error received: 0000:80:02.0
[  +0.000007] pcieport 0000:80:02.0: PCIe Bus Error: severity=Corrected, type=Data Link Layer, (Transmitter ID)
[  +0.000004] pcieport 0000:80:02.0:   device [8086:2032] error status/mask=00001000/00002000
[  +0.000003] pcieport 0000:80:02.0:    [12] Timeout
"""

OOM_AFTER_UNREAD = """\
[2026-03-02 10:14:06] stage 'prepare' failed: step returned 2
RuntimeError: NPU out of memory. Tried to allocate 2.00 GiB (NPU 0; 60.96 GiB total capacity; 58.03 GiB already allocated)
"""

HEALTHY_RANKS = {
    "train/rank0.log": "prefill passed\nstage 'prepare' failed: step returned 2\n"
    "decode step 1 passed\nmodel run success\n",
    "train/rank1.log": "prefill passed\ndecode step 1 passed\nmodel run success\n",
}

STALLED_RANKS = {
    "train/rank0.log": "layer 1 passed\nlayer 2 passed\nstage 'prepare' failed: step returned 2\n"
    "layer 3 passed\n",
    "train/rank1.log": "layer 1 passed\n",
}


@pytest.mark.parametrize(
    ("files", "category", "cited"),
    [
        ({"train/workerlog.0": PADDLE_FLAGS}, "other", "paddle flags error: unknown command"),
        ({"job/run.log": JOB_SCRIPT}, "other", "stage 'prepare' failed"),
        # the hints of its block label it: two collectives named around the failed stage
        ({"job/run.log": SYNC_STAGE}, "hccl", "broadcast of the embedding returned 3"),
        # a deprecation the job logged as an error comes first and is passed over
        ({"job/run.log": CHATTER_ONLY + JOB_SCRIPT}, "other", "stage 'prepare' failed"),
    ],
)
def test_an_unread_error_line_is_cited_when_nothing_better_is(
    files: dict[str, str], category: str, cited: str
) -> None:
    diagnosis = diagnose_files(files)
    assert diagnosis.first_error is not None, diagnosis.root_cause
    assert_reads(diagnosis, category, first_error=cited)
    assert diagnosis.confidence < 0.3


@pytest.mark.parametrize(
    ("files", "category", "cited"),
    [
        ({"job/run.log": CHATTER_ONLY}, "other", None),
        ({"dmesg.txt": CORRECTED_AER}, "other", None),
        ({"job/run.log": OOM_AFTER_UNREAD}, "oom", "NPU out of memory"),
        (HEALTHY_RANKS, "healthy", None),
        (STALLED_RANKS, "hang", None),
    ],
)
def test_chatter_and_better_readings_keep_their_answer(
    files: dict[str, str], category: str, cited: str | None
) -> None:
    diagnosis = diagnose_files(files)
    assert diagnosis.category == category
    if cited is None:
        assert diagnosis.first_error is None, diagnosis.first_error
    else:
        assert diagnosis.first_error is not None
        assert cited in diagnosis.first_error.text
