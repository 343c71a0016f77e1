"""Failures seen on inference cards (310P/310B) outside the serving frameworks: a kernel build
that the toolkit refuses for the detected chip, and an asynchronous copy handed host memory the
device cannot reach. docs/labelling.md#operator-installation-or-platform-limit and
docs/labelling.md#config-driver_env-or-weight_load.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

KERNEL_BUILD_REFUSED = """\
-- CANN: updated CANN_INSTALL_DIR from ASCEND_TOOLKIT_HOME=/opt/ascend/toolkit/latest
-- CANN: SOC_VERSION auto-detected is:Ascend310B4
CMake Error at /opt/ascend/toolkit/latest/compiler/tikcpp/ascendc_kernel_cmake/host_config.cmake:20 (message):
  SOC_VERSION ascend310b4 does not support, the support list is
  ascend910b1;ascend910b2;ascend310p1;ascend310p3
Call Stack (most recent call first):
  /opt/ascend/toolkit/latest/compiler/tikcpp/ascendc_kernel_cmake/ascendc.cmake:3 (include)
  src/backend/kernels/CMakeLists.txt:14 (include)
"""

BUILD_STATUS_ONLY = """\
-- CANN: updated CANN_INSTALL_DIR from ASCEND_TOOLKIT_HOME=/opt/ascend/toolkit/latest
-- CANN: SOC_VERSION auto-detected is:Ascend310P3
-- Configuring done
-- Generating done
"""

UNMAPPED_HOST_COPY = """\
/srv/infer/src/backend/npu.cpp:71: CANN error
CANN error: EL0003: [PID: 3310] 2026-05-04-06:07:08.091.222 The argument is invalid.
        Solution: Try again with a valid argument.
        TraceBack (most recent call last):
        Convert memory address from virtual to dma physical failed, retCode=0x7020011.[FUNC:MemcpyAsyncTaskInitV3][FILE:memory_task.cc][LINE:701]
        rtMemcpyAsync execute failed, reason=[driver error:invalid handle][FUNC:FuncErrorReason][FILE:error_message_manage.cc][LINE:53]
        [Call][Rts]call rts api [rtMemcpyAsync] failed, retCode is 107017[FUNC:ReportCallError][FILE:log_inner.cpp][LINE:161]

  current device: 1, in function backend_async_copy at /srv/infer/src/backend/ops.h:402
"""

MEMCPY_REFUSED_ALONE = """\
CANN error: EL0003: [PID: 3310] 2026-05-04-06:07:08.091.222 The argument is invalid.
        TraceBack (most recent call last):
        rtMemcpyAsync execute failed, reason=[driver error:invalid handle][FUNC:FuncErrorReason][FILE:error_message_manage.cc][LINE:53]
"""


def test_a_kernel_build_the_toolkit_refuses_for_the_chip_is_a_platform_limit() -> None:
    diagnosis = diagnose_text("build/cmake.log", KERNEL_BUILD_REFUSED)
    assert diagnosis.category == "config"
    assert diagnosis.first_error is not None
    assert diagnosis.first_error.text.startswith("CMake Error at")
    assert "driver_env" in {alt.category for alt in diagnosis.alternatives}


def test_the_build_announcing_the_detected_chip_is_no_error() -> None:
    diagnosis = diagnose_text("build/cmake.log", BUILD_STATUS_ONLY)
    assert diagnosis.category != "config"
    assert diagnosis.first_error is None


def test_an_async_copy_of_unmappable_host_memory_is_the_ops_copy_path() -> None:
    diagnosis = diagnose_text("server.log", UNMAPPED_HOST_COPY)
    assert_reads(diagnosis, "operator", first_error="virtual to dma physical failed")
    assert {"config", "driver_env"} <= {alt.category for alt in diagnosis.alternatives}
    assert diagnosis.confidence < 0.8


def test_a_refused_async_copy_that_names_no_address_is_not_read_as_the_copy_path() -> None:
    diagnosis = diagnose_text("server.log", MEMCPY_REFUSED_ALONE)
    assert diagnosis.category != "operator"
