"""An allocation a GPU-sharing layer refused because the container's share of memory is used up.

docs/labelling.md#an-allocation-a-gpu-sharing-layer-refused: memory
is what ran out, whoever printed it. HAMi's core library sits between the container and the CUDA
driver, counts what each container holds against its share, and logs a refused allocation with
the driver's code (`cuMemoryAllocate failed res=2`, 2 being CUDA's out-of-memory). That is
`oom`, with `config` (the share the pod asked for) beside it. Excerpts are our own pods in the
library's real format.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

SHARE_USED_UP = """\
[HAMI-core Msg(41:140210558428992:libvgpu.c:836)]: Initializing.....
INFO 03-02 10:11:12 model_runner.py:1072] Loading model weights took 13.5 GiB
[HAMI-core ERROR (pid:41 thread=140209122887424 allocator.c:115)]: cuMemoryAllocate failed res=2
"""

# Counterexample: another code is no shortage.
OTHER_CODE = """\
[HAMI-core ERROR (pid:41 thread=140209122887424 allocator.c:115)]: cuMemoryAllocate failed res=1
"""


def test_a_refusal_with_the_out_of_memory_code_is_the_share_used_up() -> None:
    diagnosis = diagnose_text("pod.log", SHARE_USED_UP)
    assert_reads(
        diagnosis,
        "oom",
        first_error="cuMemoryAllocate failed res=2",
        rule="oom.gpu_share_allocation_refused",
        beside=("config",),
    )


def test_another_code_is_not_read_as_memory() -> None:
    diagnosis = diagnose_text("pod.log", OTHER_CODE)
    assert "oom.gpu_share_allocation_refused" not in rules_of(diagnosis)
