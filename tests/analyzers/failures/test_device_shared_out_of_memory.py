"""A device out-of-memory whose message lists other processes holding the same GPU.

torch's CUDA allocator asks NVML which processes hold the device when it cannot allocate and
lists them in its message: `Process N has X GiB memory in use` for each, and `this process has`
for its own share. Two listed processes, or one beside the process's own share, mean other
processes hold memory on this GPU: ranks that all made a context on one device, a second job,
a leftover run. Memory ran out (`oom`), and the job's placement is the neighbour a reader
checks (`config`) (docs/labelling.md#an-out-of-memory-that-lists-other-processes-on-the-device).
The excerpts are invented in the allocator's real shape.
"""

from __future__ import annotations

from tests.analyzers.excerpts import alternative_labels, assert_reads, diagnose_text

EIGHT_RANKS_ON_ONE_GPU = """\
step 0, loss 7.912, 2.310 sec/step
Traceback (most recent call last):
  File "/srv/asr/train.py", line 214, in <module>
    main()
torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 96.00 MiB. GPU 0 has a total capacity of 23.65 GiB of which 41.12 MiB is free. Process 52011 has 2.04 GiB memory in use. Process 52012 has 2.04 GiB memory in use. Process 52013 has 2.04 GiB memory in use. Including non-PyTorch memory, this process has 17.20 GiB memory in use. Of the allocated memory 15.90 GiB is allocated by PyTorch, and 410.22 MiB is reserved by PyTorch but unallocated.
"""

ONE_OTHER_BESIDE_ITS_OWN = """\
[rank1]: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.50 GiB. GPU 1 has a total capacity of 39.39 GiB of which 602.00 MiB is free. Process 77120 has 9.31 GiB memory in use. Including non-PyTorch memory, this process has 29.46 GiB memory in use. Of the allocated memory 27.01 GiB is allocated by PyTorch, and 1.20 GiB is reserved by PyTorch but unallocated.
"""

ONLY_ITS_OWN_SHARE_UNDER_A_HOST_PID = """\
torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 79.15 GiB of which 1.02 GiB is free. Process 3301 has 78.11 GiB memory in use. Of the allocated memory 75.40 GiB is allocated by PyTorch, and 1.90 GiB is reserved by PyTorch but unallocated.
"""


def test_an_oom_that_lists_several_processes_offers_the_placement() -> None:
    diagnosis = diagnose_text("train.log", EIGHT_RANKS_ON_ONE_GPU)
    assert_reads(diagnosis, "oom", first_error="Tried to allocate 96.00 MiB", beside=("config",))


def test_one_other_process_beside_its_own_share_counts_too() -> None:
    diagnosis = diagnose_text("rank1.log", ONE_OTHER_BESIDE_ITS_OWN)
    assert diagnosis.category == "oom"
    assert "config" in alternative_labels(diagnosis)


def test_a_single_listed_process_may_be_the_rank_itself() -> None:
    diagnosis = diagnose_text("train.log", ONLY_ITS_OWN_SHARE_UNDER_A_HOST_PID)
    assert diagnosis.category == "oom"
    assert "config" not in alternative_labels(diagnosis)
