"""A kernel stopped on the device beside its own process's failed link to a peer.

docs/labelling.md#an-operator-name-decides-nothing: an expert-parallel dispatch or MC2 op runs
its communication as a kernel on the device. When the link to the peer host was never set up,
the kernel waits for data that cannot come, and the runtime stops it (`Kernel task happen
error, retCode=0x25, [aicore timeout]`) just before the op's caller reports the socket that
timed out (EI0006). The link is what failed: `hccl` with `aicore_timeout` beside it, and the
socket timeout is the first error even though it is printed below the kernel line. A kernel
that stops with no such link failure in its block keeps the corpus rule's reading.

Lines of our own in the shapes the runtime and the op's wrapper print; values are made up.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

KERNEL_STOPPED = "EZ9999: Kernel task happen error, retCode=0x25, [aicore timeout]\n"

LINK_FAILED = (
    "[rank1] dispatch step 0 failed: aclnnMoeNotifyExchange failed,\n"
    "        EI0006 Communication_Error_Get_Socket: Getting socket times out.\n"
    "        srcRank[10.4.0.21/1] connect destRank[10.4.0.37/1] fail.\n"
)


def test_the_failed_link_explains_the_kernel_that_waited_on_it() -> None:
    text = "[rank1] communicator ready\n[rank1] warmup...\n" + KERNEL_STOPPED + LINK_FAILED
    diagnosis = diagnose_text("rank1_stdout.log", text)
    assert_reads(
        diagnosis, "hccl", first_error="Getting socket times out", beside=("aicore_timeout",)
    )


def test_a_kernel_that_stops_with_no_link_failure_keeps_the_device_reading() -> None:
    text = (
        "[rank1] warmup...\n"
        + KERNEL_STOPPED
        + "[rank1] step 0 failed: aclnnGroupedMatmul failed\n"
    )
    diagnosis = diagnose_text("rank1_stdout.log", text)
    assert_reads(diagnosis, "aicore_timeout", first_error="retCode=0x25")
