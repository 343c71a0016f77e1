"""oneCCL refusing a reduction that the path it chose does not implement.

docs/labelling.md#operator-installation-or-platform-limit: oneCCL validates a collective's
parameters before it schedules it, and an operation it does not offer on that path (FSDP2's
AVG reduce-scatter on the scheduler path) is refused with the library's exception. That is the
backend lacking the reduction the job asked for, `config` with the collective layer beside it,
not the library failing; other oneCCL exceptions keep the collective reading. Fixtures follow
oneCCL's and torch's formats with paths, ranks and line numbers of our own.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

AVERAGE_REFUSED_UNDER_FSDP2 = """\
[rank1]:   File "/srv/ft/.venv/lib/python3.11/site-packages/torch/distributed/fsdp/_fully_shard/_fsdp_collectives.py", line 412, in foreach_reduce
[rank1]:     dist.reduce_scatter_tensor(
[rank1]:   File "/srv/ft/.venv/lib/python3.11/site-packages/torch/distributed/distributed_c10d.py", line 4390, in reduce_scatter_tensor
[rank1]:     work = group._reduce_scatter_base(output, input, opts)
[rank1]: RuntimeError: oneCCL: coll_param.cpp:448 validate: EXCEPTION: average operation is not supported for the scheduler path
W0602 09:14:52.118000 2190 torch/distributed/elastic/multiprocessing/api.py:900] Sending process 2208 closing signal SIGTERM
E0602 09:14:52.402000 2190 torch/distributed/elastic/multiprocessing/api.py:874] failed (exitcode: 1) local_rank: 1 (pid: 2207) of binary: /srv/ft/.venv/bin/python
"""

# Counterexample: an exception that names a Level Zero call between cards is the library (or
# the host under it) failing, as before.
IPC_HANDLE_REFUSED = """\
[rank1]:     work = group._reduce_scatter_base(output, input, opts)
[rank1]: RuntimeError: oneCCL: ze_call.cpp:31 do_call: EXCEPTION: ze error at zeMemOpenIpcHandle, code: ZE_RESULT_ERROR_INVALID_ARGUMENT
"""

# Counterexample: a datatype the path does not take is the call's own argument, not a missing
# reduction.
DATATYPE_REFUSED = """\
[rank0]: RuntimeError: oneCCL: coll_param.cpp:455 validate: EXCEPTION: datatype float64 is not supported
"""


def test_an_average_the_path_does_not_offer_is_the_backend_limit() -> None:
    diagnosis = diagnose_text("logs/fsdp2_xpu.log", AVERAGE_REFUSED_UNDER_FSDP2)
    assert_reads(
        diagnosis, "config", first_error="average operation is not supported", beside=("hccl",)
    )


def test_an_exception_naming_a_level_zero_call_stays_the_collective_library() -> None:
    diagnosis = diagnose_text("logs/fsdp2_xpu.log", IPC_HANDLE_REFUSED)
    assert_reads(diagnosis, "hccl", first_error="zeMemOpenIpcHandle")


def test_a_refused_datatype_is_not_read_as_a_missing_reduction() -> None:
    diagnosis = diagnose_text("logs/fsdp2_xpu.log", DATATYPE_REFUSED)
    assert diagnosis.category != "config", diagnosis.root_cause
