"""A ZeRO NVMe offload whose swapping fails before any swap file is compared.

DeepSpeed's async I/O layer can receive fewer completions than it waited for, the swappers can
run out of pinned buffers or be handed a tensor larger than one, and ZeRO-3 can reach a swap
through a swapper it never created. Each is the offload's settings against the model, the
prefetch or the file system (docs/labelling.md#offloaded-state-and-the-host-memory-behind-it).
The excerpts follow DeepSpeed's real messages with paths, sizes and ranks of our own.
"""

from __future__ import annotations

from tests.analyzers.excerpts import alternative_labels, assert_reads, diagnose_text, rules_of

AIO = "cfg.nvme_offload_aio_incomplete"
BUFFERS = "cfg.nvme_offload_swap_buffers_exhausted"
SWAPPER = "cfg.nvme_offload_swapper_missing"


AIO_INCOMPLETE = """\
[2026-02-03 10:14:07,551] [INFO] [utils.py:30:print_object]   aio_config ................... {'block_size': 1048576, 'queue_depth': 8, 'thread_count': 1, 'single_submit': False, 'overlap_events': True}
python: /opt/venv/lib/python3.11/site-packages/deepspeed/ops/csrc/aio/common/deepspeed_aio_common.cpp:125: int _do_io_complete(long long int, long long int, std::unique_ptr<aio_context>&, std::vector<std::chrono::duration<double> >&): Assertion `n_completes >= min_completes' failed.
[2026-02-03 10:19:44,902] [INFO] [launch.py:315:sigkill_handler] Killing subprocess 4410
[2026-02-03 10:19:44,903] [ERROR] [launch.py:321:sigkill_handler] ['/opt/venv/bin/python', '-u', 'finetune.py', '--local_rank=0'] exits with return code = -6
"""

BUFFERS_SPENT = """\
[rank1]:   File "/opt/venv/lib/python3.10/site-packages/deepspeed/runtime/swap_tensor/partitioned_param_swapper.py", line 301, in swap_in
[rank1]:     assert len(swap_in_paths) <= len(self.available_buffer_ids), f"Not enough buffers {len(self.available_buffer_ids)} for swapping {len(swap_in_paths)}"
[rank1]: AssertionError: Not enough buffers 0 for swapping 2
"""

# a log viewer's export: each line keeps its number and the lines arrive glued, last first
BUFFERS_GLUED = (
    "412AssertionError: Not enough buffers 1 for swapping 3411    assert len(swap_in_paths) <= "
    'len(410  File "/srv/env/lib/python3.9/site-packages/deepspeed/runtime/swap_tensor/'
    'partitioned_param_swapper.py", line 297, in swap_in\n'
)

ONE_BUFFER_TOO_SMALL = """\
  File "/opt/venv/lib/python3.10/site-packages/deepspeed/runtime/swap_tensor/partitioned_param_swapper.py", line 331, in _allocate_and_return_buffers_for_swap_in
    assert numel < self.elements_per_buffer, f"More elements {numel} than buffer size {self.elements_per_buffer:,}"
AssertionError: More elements 262144000 than buffer size 100,000,000
"""

NO_SWAPPER = """\
  File "/opt/venv/lib/python3.9/site-packages/deepspeed/runtime/zero/stage3.py", line 1528, in pre_sub_module_forward_function
    param_coordinator.fetch_sub_module(sub_module)
AttributeError: 'NoneType' object has no attribute 'available_swap_in_buffers'
"""


def test_an_aio_completion_shortfall_is_the_offload_set_up() -> None:
    diagnosis = diagnose_text("rank0.log", AIO_INCOMPLETE)
    assert_reads(diagnosis, "config", first_error="n_completes >= min_completes", rule=AIO)
    assert {"driver_env", "other"} <= set(alternative_labels(diagnosis))


def test_another_library_asserting_the_same_condition_is_not_the_aio_layer() -> None:
    text = "python3: /opt/src/native/io_ring.cpp:125: int wait_io(int): Assertion `n_completes >= min_completes' failed.\n"
    assert AIO not in rules_of(diagnose_text("rank0.log", text))


def test_a_swapper_out_of_buffers_is_the_buffer_settings() -> None:
    diagnosis = diagnose_text("rank1.log", BUFFERS_SPENT)
    assert_reads(
        diagnosis, "config", first_error="Not enough buffers 0 for swapping 2", rule=BUFFERS
    )
    assert "other" in alternative_labels(diagnosis)


def test_a_glued_viewer_export_reads_the_same() -> None:
    diagnosis = diagnose_text("job-output.log", BUFFERS_GLUED)
    assert_reads(
        diagnosis, "config", first_error="Not enough buffers 1 for swapping 3", rule=BUFFERS
    )


def test_a_tensor_larger_than_one_buffer_is_the_buffer_settings() -> None:
    diagnosis = diagnose_text("rank0.log", ONE_BUFFER_TOO_SMALL)
    assert_reads(diagnosis, "config", first_error="More elements 262144000", rule=BUFFERS)


def test_the_swap_configuration_print_is_no_failure() -> None:
    text = "  swap_config .................. device='nvme' nvme_path=PosixPath('/local_nvme') buffer_count=5 buffer_size=100,000,000 max_in_cpu=1,000,000,000 pin_memory=True\n"
    assert BUFFERS not in rules_of(diagnose_text("rank0.log", text))


def test_a_swap_through_no_swapper_is_the_offload_settings() -> None:
    diagnosis = diagnose_text("rank0.log", NO_SWAPPER)
    assert_reads(diagnosis, "config", first_error="available_swap_in_buffers", rule=SWAPPER)
    assert "other" in alternative_labels(diagnosis)


def test_another_attribute_of_none_keeps_the_plain_reading() -> None:
    text = "AttributeError: 'NoneType' object has no attribute 'item'\n"
    diagnosis = diagnose_text("rank0.log", text)
    assert SWAPPER not in rules_of(diagnosis)
    assert diagnosis.category == "other"
