"""A ZeRO NVMe swap file shorter than the tensor read back from it.

DeepSpeed's async I/O handle compares the swap file's size with the pinned buffer it reads the
file into, prints the finding with no error word and asserts
(docs/labelling.md#offloaded-state-and-the-host-memory-behind-it). The excerpts follow the
handle's real shapes with paths and sizes of our own.
"""

from __future__ import annotations

from tests.analyzers.excerpts import alternative_labels, assert_reads, diagnose_text, rules_of

RULE = "cfg.nvme_offload_swap_size_mismatch"


SWAP_SHORT = """\
[2026-04-11 02:31:55,020] [INFO] [utils.py:30:print_object]   aio_config ................... {'block_size': 1048576, 'queue_depth': 8, 'thread_count': 1, 'single_submit': False, 'overlap_events': True}
[2026-04-11 02:40:12,774] [INFO] [logging.py:128:log_dist] [Rank 0] step=12, skipped=0, lr=[2e-05]
/mnt/nvme0/ds_swap/zero_stage_3/fp16params/rank1/42_param.tensor.swp: buffer nbytes != file bytes 50331648 != 25165824
python3: /opt/venv/lib/python3.10/site-packages/deepspeed/ops/csrc/aio/py_lib/deepspeed_py_aio_handle.cpp:223: int deepspeed_aio_handle_t::pread(const at::Tensor&, const char*, bool, bool): Assertion `static_cast<long long int>(buffer.nbytes()) == num_file_bytes' failed.
Fatal Python error: Aborted
"""

ASSERTION_ONLY = """\
python3: /opt/venv/lib/python3.10/site-packages/deepspeed/ops/csrc/aio/py_lib/deepspeed_py_aio_handle.cpp:223: int deepspeed_aio_handle_t::pread(const at::Tensor&, const char*, bool, bool): Assertion `static_cast<long long int>(buffer.nbytes()) == num_file_bytes' failed.
"""


def test_a_short_swap_file_is_the_offload_settings() -> None:
    diagnosis = diagnose_text("train_rank1.log", SWAP_SHORT)
    assert_reads(
        diagnosis,
        "config",
        first_error="buffer nbytes != file bytes 50331648 != 25165824",
        rule=RULE,
    )
    assert {"other", "driver_env"} <= set(alternative_labels(diagnosis))


def test_the_handle_assertion_alone_reads_the_same() -> None:
    diagnosis = diagnose_text("train_rank1.log", ASSERTION_ONLY)
    assert diagnosis.category == "config"
    assert RULE in rules_of(diagnosis)


def test_the_aio_configuration_print_is_no_failure() -> None:
    text = SWAP_SHORT.splitlines(keepends=True)[0]
    diagnosis = diagnose_text("train_rank1.log", text)
    assert RULE not in rules_of(diagnosis)
