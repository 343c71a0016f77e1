"""The allocator tuning takes effect on glibc and is harmless to call again."""

import platform

import pytest

from analyzers.scan.memtune import reuse_freed_buffers


@pytest.mark.skipif(platform.libc_ver()[0] != "glibc", reason="mallopt is glibc's")
def test_glibc_accepts_the_thresholds():
    assert reuse_freed_buffers() is True
    assert reuse_freed_buffers() is True  # cached: tuned once per process
