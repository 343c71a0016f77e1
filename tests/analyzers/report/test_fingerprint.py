"""Fingerprints group repeats of one failure and keep different failures apart."""

from __future__ import annotations

import pytest

from analyzers.report.fingerprint import fingerprint, template_of

WATCHDOG = (
    "[Rank {rank}] Watchdog caught collective operation timeout: WorkHCCL(SeqNum={seq}, "
    "OpType=ALLREDUCE, Timeout(ms)={limit}) ran for {ran} milliseconds before timing out."
)
DEVICE = (
    "EZ9999: [PID: {pid}] {stamp} The error from device(chipId:{chip}, dieId:0), serial number is "
    "{serial}, there is an exception of fftsplus aivector error, core id is {core}, error code = "
    "{code}, dump info: pc start: {pc}"
)


@pytest.mark.parametrize(
    ("message", "masked", "kept"),
    [
        (
            "EE1002: 2024-12-11-13:03:41.366.560 Stream synchronize timeout.",
            "<TIME>",
            "Stream synchronize timeout.",
        ),
        ("[rank3]: RuntimeError: bad value in rank3", "rank<NUM>", "RuntimeError: bad value"),
        ("open /usr/local/Ascend/driver/lib64/libdrv.so failed", "<PATH>", "open"),
        ("listen on ip[192.0.2.10] and port[56126] fail", "ip[<IP>]", "port[<NUM>] fail"),
        ("pc start: 0xca281b0a0844, current: 0xddf43f", "<HEX>", "pc start:"),
    ],
)
def test_template_masks_what_changes_between_runs(message: str, masked: str, kept: str) -> None:
    template = template_of(message)
    assert masked in template
    assert kept in template


def test_same_failure_with_other_numbers_groups_together() -> None:
    one = WATCHDOG.format(rank=1, seq=630, limit=7865663, ran=9228580)
    two = WATCHDOG.format(rank=5, seq=12, limit=1800000, ran=1800111)
    assert fingerprint("hccl", one, (), ["hccl.watchdog_timeout"]) == fingerprint(
        "hccl", two, (), ["hccl.watchdog_timeout"]
    )


def test_device_error_with_other_pids_times_and_addresses_groups_together() -> None:
    one = DEVICE.format(pid=8308179, stamp="2026-10-22-12:47:24.466.609", chip=7, serial=575,
                        core=32, code="0x10ac73", pc="0xca281b0a0844")  # fmt: skip
    two = DEVICE.format(pid=11, stamp="2027-01-02-03:04:05.006.007", chip=1, serial=3, core=5,
                        code="0x800", pc="0x1")  # fmt: skip
    assert fingerprint("aicore_timeout", one)[0] == fingerprint("aicore_timeout", two)[0]


def test_other_codes_category_or_signatures_give_other_fingerprints() -> None:
    line = "RuntimeError: npuSynchronizeDevice NPU function error, error code is 507014"
    base = fingerprint("aicore_timeout", line, codes=["507014"])[0]
    assert fingerprint("aicore_timeout", line, codes=["507015"])[0] != base
    assert fingerprint("stream_sync", line, codes=["507014"])[0] != base
    assert fingerprint("aicore_timeout", line, (), ["x.y"], ["507014"])[0] != base


def test_fingerprint_is_a_sha1_hex_digest() -> None:
    digest, template = fingerprint(
        "oom", "RuntimeError: NPU out of memory. Tried to allocate 2 GiB"
    )
    assert len(digest) == 40
    assert int(digest, 16) >= 0
    assert template == "RuntimeError: NPU out of memory. Tried to allocate <NUM> GiB"
