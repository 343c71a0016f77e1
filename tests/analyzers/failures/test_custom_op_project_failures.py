"""Failures of Ascend C custom-operator work: building, packaging, installing and debugging.

docs/labelling.md#custom-operator-projects-that-fail-to-build-install-or-debug: an MLIR
pipeline headline of any name steps aside for the located diagnostic under it; the Ascend C
framework's queue-buffer check in CPU debugging is a documented API limit; the kernel compiler's
short-jump range is the kernel's own failure; tar refusing a generated file name, the package
installer unable to create its vendor folder, and a packed record shorter than its reader are
read as configuration, machine set-up and release mismatch.

Fixtures are written in the formats these tools print; names, paths and numbers are made up.
"""

from __future__ import annotations

from analyzers.classify.rules import KNOWLEDGE_DIR
from analyzers.classify.signature_file import load_signatures
from tests.analyzers.excerpts import assert_reads, diagnose_text

SIMD_PIPELINE = """\
[ConvertLinalgRToBinary] encounters error:
loc("/srv/kernels/chunk_bwd.py":12:0): error: Failed to run BiShengSIMD pipeline

loc(fused["/srv/kernels/chunk_bwd.py":40:9, "/srv/kernels/chunk_bwd.py":44:3]): error: failed to legalize operation 'vector.transfer_read' that was explicitly marked illegal
loc("/srv/kernels/chunk_bwd.py":12:0): error: Failed to run buildFinalHIVMPipelines pipeline
"""


def test_a_named_pipeline_headline_steps_aside_for_the_located_reason() -> None:
    diagnosis = diagnose_text("run/compile.log", SIMD_PIPELINE)
    assert_reads(
        diagnosis, "operator", first_error="failed to legalize operation 'vector.transfer_read'"
    )


QUEUE_BUFFER_LIMIT = """\
[ERROR][Core_3][/opt/cann/x86_64-linux/tikcpp/tikcfw/interface/kernel_tpipe.h:702]
[AllocEventID][55120] current size is 8, max buffer number in same queue position is 8
[ERROR][CORE_3][pid 55117] error happened! =========
SIGABRT Signal (Abort Signal from abort) catched, backtrace info:
[#0] 0x000000000001a010: handler(int) at /opt/cann/tools/tikicpulib/lib/include/kern_fwk.h:105
"""


def test_too_many_queue_buffers_on_one_position_is_a_documented_limit() -> None:
    diagnosis = diagnose_text("run/cpu_debug.log", QUEUE_BUFFER_LIMIT)
    assert_reads(
        diagnosis,
        "op_constraint",
        first_error="max buffer number in same queue position",
        beside=("operator",),
    )


def test_a_kernel_too_large_for_short_jumps_is_the_kernels_build_failure() -> None:
    text = "[ERROR] [ascend910b] ScatterAddCustom_0f1e2d3c error: out of jump/jumpc imm range\n"
    diagnosis = diagnose_text("build/build.log", text)
    assert_reads(diagnosis, "operator", first_error="out of jump/jumpc imm range")


LONG_NAME_PACKAGE = """\
file name is too long (max 256); not dumped
ERROR: failed to create temporary archive: /tmp/mkself40211.tar
CMake Error at /work/ops/cmake/makeself.cmake:12 (message):
CPack Command error: 1
"""


def test_tar_refusing_a_generated_file_name_is_the_first_error() -> None:
    diagnosis = diagnose_text("build/build.log", LONG_NAME_PACKAGE)
    assert_reads(diagnosis, "config", first_error="file name is too long (max 256); not dumped")


INSTALL_NO_WRITE = """\
[WARNING] The directory /opt/cann/latest/opp does not have sufficient permissions. Please check and modify the folder permissions (e.g., using chmod), or use the --install-path option to specify an installation path and change the environment variable ASCEND_CUSTOM_OPP_PATH to the specified path.
...
[ERROR] create /opt/cann/latest/opp/vendors/acme/op_impl failed
"""


def test_an_op_package_installer_that_cannot_create_its_folder_is_set_up() -> None:
    diagnosis = diagnose_text("install/install.log", INSTALL_NO_WRITE)
    assert_reads(
        diagnosis,
        "driver_env",
        first_error="create /opt/cann/latest/opp/vendors/acme/op_impl failed",
    )


SHORT_PACKED_RECORD = """\
    res = struct.unpack_from(fmt_str, tiling_data, offset + unpack_size)
struct.error: unpack_from requires a buffer of at least 40 bytes for unpacking 8 bytes at offset 32 (actual buffer size is 32)
"""


def test_a_packed_record_shorter_than_its_reader_is_a_release_mismatch() -> None:
    diagnosis = diagnose_text("run/graph.log", SHORT_PACKED_RECORD)
    assert_reads(diagnosis, "config", first_error="struct.error: unpack_from requires a buffer")


def test_the_new_rules_leave_their_counterexample_lines_alone() -> None:
    signatures = load_signatures(KNOWLEDGE_DIR / "signatures.yaml")
    by_id = {signature.id: signature for signature in signatures}
    quiet = {
        "op.ascendc_queue_buffer_limit": "each TPosition takes at most 8 queue buffers on A2",
        "op.kernel_jump_out_of_range": "add -mllvm -cce-aicore-jump-expand=true if jumps are out of range",
        "cfg.tar_file_name_too_long": "tar: Removing leading `/' from member names",
        "env.op_package_create_failed": "[INFO] create /opt/cann/latest/opp/vendors/acme/op_impl success",
        "cfg.packed_record_too_short": "    res = struct.unpack_from(fmt_str, tiling_data, offset)",
    }
    for rule_id, line in quiet.items():
        assert rule_id in by_id
        assert by_id[rule_id].search(line) is None, rule_id
