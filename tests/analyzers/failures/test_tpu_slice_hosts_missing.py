"""A TPU slice configured for more hosts than the job started on.

docs/labelling.md#runtimes-of-other-accelerators: when XRT configures the distributed TPU
system of a pod slice, the slice's topology names how many hosts it spans, and a job started
on one VM of it (xmp.spawn without xla_dist, a launcher that reached one worker) is refused with
`Invalid system configuration: <AxB> host topology with <k> missing hosts, but <n> hosts in
total.` Nothing of the program ran: like a slice whose worker addresses do not match, the launch
does not fit the machine, `driver_env` with `config` beside it, that line the first error or the
`Check failed: session.Run` headline that carries it. A line that reports a topology it set up
is no failure. Values are our own.
"""

from __future__ import annotations

from tests.analyzers.excerpts import diagnose_text

SLICE_REFUSED = (
    "Exception in device=TPU:3: tensorflow/compiler/xla/xla_client/xrt_computation_client.cc:1240"
    " : Check failed: session.Run({tensorflow::Output(result, 0)}, &outputs) =="
    " ::tensorflow::Status::OK() (Internal: From /job:tpu_worker/replica:0/task:0:\n"
    "2 root error(s) found.\n"
    "  (0) Internal: Invalid system configuration: 4x4 host topology with 0 missing hosts,"
    " but 2 hosts in total.\n"
    "         [[{{node configure_distributed_tpu/_0}}]]\n"
)

SLICE_FINE = (
    "2024-02-01 10:00:01.000000: I tensorflow/core/tpu/tpu_system.cc:120] Configured TPU system:"
    " 2x2 host topology, 4 hosts in total\n"
)


def test_a_slice_that_found_fewer_hosts_than_its_topology_is_the_launch() -> None:
    diagnosis = diagnose_text("stderr.txt", SLICE_REFUSED)
    assert diagnosis.category == "driver_env"
    assert diagnosis.first_error is not None
    assert (
        "Invalid system configuration" in diagnosis.first_error.text
        or "Check failed: session.Run" in diagnosis.first_error.text
    )
    assert "config" in {alt.category for alt in diagnosis.alternatives}


def test_a_topology_that_was_set_up_is_no_failure() -> None:
    diagnosis = diagnose_text("stderr.txt", SLICE_FINE)
    assert diagnosis.category != "driver_env"
