"""A collective library other than NCCL that reports its failures in its own names.

docs/labelling.md#a-collective-library-outside-nccl: FlagCX, the cross-vendor collective library
a torch backend plugs in beside NCCL, raises a failed call in NCCL's shape (`FLAGCX error in:
<file>:<line>,` then its result name, `flagcxInvalidArgument: ...`, and `Last error:` with its
own reason). A glibc assertion whose place is a collective library's own source (its
communicator not ready) stops the rank in the same layer. Both are the communication layer's
failure, `hccl`, and the first error. Fixtures follow the torch backend's traceback and glibc's
assertion format, with paths and numbers of our own.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_files, diagnose_text

FLAGCX_BACKEND_ERROR = """\
Traceback (most recent call last):
  File "/srv/bench/collectives.py", line 120, in run_gather
    dist.gather(t, gather_list, dst=0, group=ccl_group)
  File "/opt/env/lib/python3.10/site-packages/torch/distributed/distributed_c10d.py", line 3101, in gather
    work = group.gather(output_tensors, input_tensors, opts)
torch.distributed.DistBackendError: FLAGCX error in: /opt/flagcx/plugin/torch/src/backend_flagcx.cpp:811, 
flagcxInvalidArgument: Invalid value for an argument.
Last error:
Undefined: flagcxComm is not fully initialized.
"""

COMM_LIBRARY_ASSERT = """\
python3: flagcx/flagcx.cc:101: bool is_homo_comm(): Assertion `flagCXEnsureCommReady() == flagcxSuccess' failed.
"""

LAUNCHER_AFTER_ASSERT = """\
W1102 08:14:52.101000 140021 torch/distributed/elastic/multiprocessing/api.py:890] Sending process 4102 closing signal SIGTERM
"""

# Counterexample: an assertion in a program's own ring buffer says nothing about collectives.
OTHER_NATIVE_ASSERT = """\
python3: /build/app/src/ring_buffer.cpp:212: void RingBuffer::push(size_t): Assertion `used + n <= capacity' failed.
"""


def test_flagcxs_backend_error_is_the_communication_layer() -> None:
    diagnosis = diagnose_text("logs/rank0.log", FLAGCX_BACKEND_ERROR)
    assert_reads(diagnosis, "hccl", first_error="FLAGCX error in")
    assert diagnosis.confidence >= 0.5


def test_an_assertion_in_a_collective_librarys_source_is_the_communication_layer() -> None:
    diagnosis = diagnose_files(
        {"logs/error.txt": COMM_LIBRARY_ASSERT, "logs/launcher.log": LAUNCHER_AFTER_ASSERT}
    )
    assert_reads(diagnosis, "hccl", first_error="flagCXEnsureCommReady", beside=("device_fault",))


def test_an_assertion_in_other_native_code_keeps_the_generic_reading() -> None:
    diagnosis = diagnose_text("logs/error.txt", OTHER_NATIVE_ASSERT)
    assert diagnosis.category != "hccl", diagnosis.root_cause


# The backend's line with its place cut inside the path, as a paste ends: NCCL's own rule reads
# that form already, and FlagCX's line is the same report.
FLAGCX_PATH_CUT = """\
  File "/opt/env/lib/python3.10/site-packages/torch/distributed/distributed_c10d.py", line 1402, in init_process_group
    backend_class = creator_fn(backend_prefix_store, group_rank, group_size, timeout)
torch.distributed.DistBackendError: FLAGCX error in: /opt/fl
"""


def test_flagcxs_backend_error_with_its_place_cut_is_still_the_communication_layer() -> None:
    diagnosis = diagnose_text("logs/rank1.log", FLAGCX_PATH_CUT)
    assert_reads(diagnosis, "hccl", first_error="FLAGCX error in", rule="hccl.flagcx_call_failed")
    assert diagnosis.confidence >= 0.5
