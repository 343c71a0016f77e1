"""Open MPI's UCX layer that cannot get or reach a peer rank's worker address.

docs/labelling.md#an-mpi-start-up-whose-ranks-cannot-exchange-ucx-addresses: when an MPI job
starts, Open MPI's UCX messaging layer hands every rank the others' UCX worker addresses; a
rank that cannot receive one (`Failed to receive UCX worker address: Not found (-13)`) or
cannot turn it into an endpoint (`Failed to resolve UCX endpoint for rank 5`) cannot talk to
that peer over the host network, most often because the hosts' interfaces differ and the
transport picked networks that do not reach each other. It is the communication layer failing,
`hccl`, with the interface choice (`config`) and the machines' network (`driver_env`) beside
it, and the first of those lines is the first error. Lines of our own in the layer's format.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

NO_ADDRESS = """\
[node-b:04410] pml_ucx.c:176 Error: Failed to receive UCX worker address: Not found (-13)
[node-b:04410] pml_ucx.c:453 Error: Failed to resolve UCX endpoint for rank 5
[node-b:04410] *** An error occurred in MPI_Allgather
[node-b:04410] *** MPI_ERRORS_ARE_FATAL (processes in this communicator will now abort,
"""


def test_a_peer_address_the_ucx_layer_cannot_get_is_the_host_network() -> None:
    diagnosis = diagnose_text("mpirun.log", NO_ADDRESS)
    assert_reads(diagnosis, "hccl", first_error="Failed to receive UCX worker address")
    assert {"config", "driver_env"} <= {alt.category for alt in diagnosis.alternatives}


def test_an_endpoint_that_does_not_resolve_alone_reads_the_same() -> None:
    text = "[node-b:04410] pml_ucx.c:453 Error: Failed to resolve UCX endpoint for rank 2\n"
    diagnosis = diagnose_text("mpirun.log", text)
    assert diagnosis.category == "hccl"


def test_a_layer_that_found_its_peers_is_no_failure() -> None:
    text = "[node-b:04410] pml_ucx.c:296 UCX worker address received from 8 ranks\n"
    diagnosis = diagnose_text("mpirun.log", text)
    assert diagnosis.first_error is None
