"""NVLink links the NVIDIA driver could not bring up or keep.

The driver's NVLink object (`knvlink...` functions in the kernel log) discovers the links of a
board at load and after a reset, trains them and keeps their masks. When a step fails it says
so in the function's own words, with no Xid: the receive-detect mask could not be updated
(`knvlinkUpdatePostRxDetectLinkMask_IMPL: Failed to update Rx Detect Link mask!`), a peer's mask
could not be read (`knvlinkDiscoverPostRxDetLinks_GH100: Getting peer0/peer1's postRxDetLinkMask
failed!`), a link did not train. Collectives over those links then fail or stall. The board's
links are at fault: `device_fault`, with the driver (`driver_env`) beside it, and the first such
line is the first error. Health tools often hand these lines on counted (`uniq -c`), the count
before each line; that form is read the same way. The driver's notes that links came up say
nothing.

docs/labelling.md#nvlink-links-the-driver-could-not-bring-up
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

RX_DETECT_FAILED = """\
May 11 04:20:17 gb-node12 kernel: NVRM: knvlinkUpdatePostRxDetectLinkMask_IMPL: Failed to update Rx Detect Link mask!
May 11 04:20:17 gb-node12 kernel: NVRM: knvlinkDiscoverPostRxDetLinks_GH100: Getting peer0/peer1's postRxDetLinkMask failed!
"""

# The same lines as a health tool counts them, one count per distinct kernel line.
COUNTED = """\
   41  NVRM: knvlinkDiscoverPostRxDetLinks_GH100: Getting peer0/peer1's postRxDetLinkMask failed!
    3  NVRM: GPU2 knvlinkCoreTrainLinks_IMPL: link 7 training failed
"""

LINKS_FINE = """\
[   12.002301] NVRM: knvlinkCoreInitializeLinks_IMPL: NVLink links 0-17 are in ACTIVE state
[   12.002399] NVRM: knvlinkStatePostLoad_IMPL: post-load done
"""


def test_a_link_mask_the_driver_could_not_update_is_the_boards_fault() -> None:
    diagnosis = diagnose_text("kern.log", RX_DETECT_FAILED)
    assert_reads(
        diagnosis,
        "device_fault",
        first_error="Failed to update Rx Detect Link mask",
        rule="dev.nvidia_nvlink_driver_failure",
        beside=["driver_env"],
    )


def test_counted_driver_lines_are_read_like_the_lines_themselves() -> None:
    diagnosis = diagnose_text("nvrm_counts.txt", COUNTED)
    assert_reads(
        diagnosis,
        "device_fault",
        first_error="postRxDetLinkMask failed",
        rule="dev.nvidia_nvlink_driver_failure",
    )


def test_links_that_came_up_report_nothing() -> None:
    diagnosis = diagnose_text("kern.log", LINKS_FINE)
    assert "dev.nvidia_nvlink_driver_failure" not in rules_of(diagnosis)
    assert diagnosis.category != "device_fault"
