"""An NCCL release whose kernels ask for more shared memory than the GPU allows per function.

docs/labelling.md#operator-installation-or-platform-limit: NCCL checks the dynamic shared
memory its collective kernels need against the card's per-function limit; a release older
than the GPU fails that check (`ncclMaxSharedMem N exceeds device/fn maxSharedMem M`). The
NCCL release does not fit the card: `config`, with `driver_env` beside it, and the check's
line is the first error ahead of the CUDA failure and torch's wrapper. The same words at NCCL's
INFO level are no cause. Values of our own in the real shapes.
"""

from __future__ import annotations

from tests.analyzers.excerpts import alternative_labels, assert_reads, diagnose_text, rules_of

RULE = "cfg.nccl_kernel_shared_memory_over_device"

# A newer NCCL refuses at communicator set-up with its own warning, then torch wraps it.
WARNED_AT_SETUP = """\
ws-07:18204:18260 [0] NCCL INFO NCCL version 2.27.3+cuda12.9
ws-07:18204:18260 [0] enqueue.cc:131 NCCL WARN cudaArch 1200 ncclMaxSharedMem 91200 exceeds device/fn maxSharedMem 88880
ws-07:18204:18260 [0] NCCL INFO init.cc:1570 -> 2
[rank0]: torch.distributed.DistBackendError: NCCL error in: /pytorch/torch/csrc/distributed/c10d/NCCLUtils.cpp:77, unhandled system error (run with NCCL_DEBUG=INFO for details), NCCL version 2.27.3
[rank0]: ncclSystemError: System call (e.g. socket, malloc) or external library call failed or device error.
"""

# A note that kept the two lines without NCCL's header, as an engineer quotes them.
QUOTED_WITHOUT_HEADER = """\
ncclMaxSharedMem 91200 exceeds device/fn maxSharedMem 88880
NCCL WARN Cuda failure 1 'invalid argument'
"""

# An older release states the excess at INFO level and goes on; the launch then fails.
STATED_AT_INFO = """\
ws-07:18204:18260 [0] NCCL INFO ncclMaxSharedMem 91200 exceeds device/fn maxSharedMem 88880
ws-07:18204:18261 [1] NCCL INFO Channel 00/02 : 0 1
ws-07:18204:18260 [0] enqueue.cc:1466 NCCL WARN Cuda failure 1 'invalid argument'
"""


def test_the_check_warned_at_setup_is_the_release_and_the_first_error() -> None:
    diagnosis = diagnose_text("rank0.log", WARNED_AT_SETUP)
    assert_reads(
        diagnosis,
        "config",
        first_error="ncclMaxSharedMem 91200 exceeds device/fn maxSharedMem 88880",
        rule=RULE,
        beside=["driver_env"],
    )


def test_the_check_quoted_without_its_header_leads_the_cuda_failure() -> None:
    diagnosis = diagnose_text("nccl.log", QUOTED_WITHOUT_HEADER)
    assert_reads(
        diagnosis,
        "config",
        first_error="ncclMaxSharedMem 91200 exceeds device/fn maxSharedMem 88880",
        rule=RULE,
    )


def test_the_same_words_at_info_level_are_no_cause() -> None:
    diagnosis = diagnose_text("rank0.log", STATED_AT_INFO)
    assert RULE not in rules_of(diagnosis)
    assert diagnosis.first_error is not None
    assert "NCCL WARN Cuda failure 1 'invalid argument'" in diagnosis.first_error.text
    assert "config" in [diagnosis.category, *alternative_labels(diagnosis)]
