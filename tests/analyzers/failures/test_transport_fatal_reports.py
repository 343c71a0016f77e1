"""A transport library's own fatal report that a transfer to a peer failed or timed out.

docs/labelling.md#a-transport-librarys-own-report-of-a-failed-transfer: under MPI, NCCL-like
libraries and KV-transfer engines, the transport (UCX, libfabric's providers driven by MPICH,
a collective library's own verbs path) reports a work request that completed in error or a
peer endpoint that stopped answering in its own words, often as a fatal line without a level
and with a backtrace after it. The link to a peer failed under the communication: `hccl`, with
the host's fabric (`driver_env`) beside it, and that line is the first error ahead of the
backtrace and the MPI abort. Lines of our own in each library's format.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

UCX_MLX5_FATAL = """\
[gpu-n07:41102:0:41102] ib_mlx5_log.c:177  Transport retry count exceeded on mlx5_2:1/IB (synd 0x15 vend 0x81 hw_synd 0/0)
[gpu-n07:41102:0:41102] ib_mlx5_log.c:177  DCI QP 0x5a1 wqe[812]: SEND s-e [rqpn 0x3c2 rlid 88] [inl len 40]
==== backtrace (tid:  41102) ====
 0  /opt/ucx/lib/libucs.so.0(ucs_handle_error+0x2a4) [0x7f3d1c2a10a4]
 1  /opt/ucx/lib/libucs.so.0(ucs_fatal_error_message+0xb0) [0x7f3d1c29e070]
 2  /opt/ucx/lib/ucx/libuct_ib.so.0(uct_ib_mlx5_completion_with_err+0x24c) [0x7f3d1a11061c]
 3  /opt/ucx/lib/ucx/libuct_ib.so.0(uct_dc_mlx5_ep_handle_failure+0xc7) [0x7f3d1a140517]
"""

UCX_UD_TIMEOUT = """\
[cn0412:9917:0:9917]       ud_ep.c:270  Fatal: UD endpoint 0x1f2e3d0 to <no debug data>: unhandled timeout error
==== backtrace (tid:   9917) ====
 0 0x00000000000555ae uct_ud_ep_deferred_timeout_handler()  /src/ucx/src/uct/ib/ud/base/ud_ep.c:268
 1 0x0000000000130a38 PMPI_Alltoall()  ???:0
"""

UCX_IFACE_TIMEOUT = """\
[node-17:30211:0:30211]    ud_iface.c:737  UCX Fatal: transport error: Endpoint timeout
==== backtrace ====
    0  /usr/lib64/libucs.so.0(ucs_fatal_error+0xf7) [0x2b1c00329d87]
"""

UCX_TIMEOUT_NOT_HANDLED = (
    "Mon Mar  2 09:14:05 2026[1,3]<stdout>:[1772442845.112233] [node-21:4410 :0]"
    "     ucp_worker.c:373  UCX  ERROR Error Endpoint timeout was not handled for ep 0x9c1200\n"
)

MPICH_OFI_CQ_ERROR = """\
MPICH ERROR [Rank 37] [job id 51122.0] [Mon Mar  2 09:14:05 2026] [x1003c2s4b0n1] - Abort(405384335) (rank 37 in comm 0): Fatal error in PMPI_Waitall: Other MPI error, error stack:
PMPI_Waitall(352)..............: MPI_Waitall(count=4, req_array=0x6a2b30, status_array=0x6a2b70) failed
MPIR_Waitall(164)..............:
MPIDI_progress_test(97)........:
MPIDI_OFI_handle_cq_error(1075): OFI poll failed (ofi_events.c:1077:MPIDI_OFI_handle_cq_error:Input/output error - RC_ENTRY_NOT_FOUND)
"""

MSCCLPP_WORK_FAILED = """\
terminate called after throwing an instance of 'mscclpp::IbError'
  what():  a work item failed: status 12 (Ib failure: Cannot allocate memory)
"""


def _read(path: str, text: str):
    diagnosis = diagnose_text(path, text)
    assert diagnosis.category == "hccl", diagnosis.category
    assert diagnosis.first_error is not None
    assert "driver_env" in {alt.category for alt in diagnosis.alternatives}
    return diagnosis


def test_an_error_completion_ucx_logs_as_fatal_is_the_link() -> None:
    diagnosis = _read("mpi_stderr.log", UCX_MLX5_FATAL)
    assert "Transport retry count exceeded on mlx5_2:1/IB" in diagnosis.first_error.text


def test_a_ud_endpoint_that_timed_out_is_the_link() -> None:
    diagnosis = _read("run.log", UCX_UD_TIMEOUT)
    assert "unhandled timeout error" in diagnosis.first_error.text


def test_the_iface_form_of_the_endpoint_timeout_reads_the_same() -> None:
    diagnosis = _read("run.log", UCX_IFACE_TIMEOUT)
    assert "transport error: Endpoint timeout" in diagnosis.first_error.text


def test_an_endpoint_timeout_no_handler_took_reads_the_same() -> None:
    diagnosis = _read("mpirun.log", UCX_TIMEOUT_NOT_HANDLED)
    assert "Endpoint timeout was not handled" in diagnosis.first_error.text


def test_an_mpich_completion_queue_error_from_the_fabric_is_the_link() -> None:
    diagnosis = _read("rank37.log", MPICH_OFI_CQ_ERROR)
    assert "OFI poll failed" in diagnosis.first_error.text


def test_a_failed_work_item_of_a_collective_library_is_no_shortage() -> None:
    diagnosis = _read("mp_unit_tests.log", MSCCLPP_WORK_FAILED)
    assert "a work item failed: status 12" in diagnosis.first_error.text


def test_transport_notes_are_no_failure() -> None:
    text = (
        "[1772442845.112233] [node-21:4410 :0]        ud_ep.c:812  UCX  DEBUG ep 0x9c1200: "
        "UD endpoint timeout set to 30s\n"
        "MPIDI_OFI_init: OFI poll completed 128 events on cxi0\n"
        "[gpu-n07:41102:0:41102] ib_mlx5_log.c:177  DCI QP 0x5a1 wqe[812]: SEND s-e [rqpn 0x3c2]\n"
    )
    diagnosis = diagnose_text("run.log", text)
    assert diagnosis.first_error is None


GLOO_PAIR_CONNECT_TIMEOUT = """\
Traceback (most recent call last):
  File "train.py", line 88, in <module>
    dist.all_reduce(grad)
RuntimeError: [/opt/pytorch/third_party/gloo/gloo/transport/tcp/pair.cc:611] Connect timeout [10.20.4.17]:41233
"""

VERBS_ROUTE_NOT_RESOLVED = """\
libfabric:8812:verbs:ep_ctrl:vrb_create_ep():239<warn> rdma_resolve_addr failed: Cannot assign requested address (99)
libfabric:8812:verbs:ep_ctrl:vrb_create_ep():241<warn> src addr: fi_sockaddr_in://10.1.7.20:0
libfabric:8812:verbs:ep_ctrl:vrb_create_ep():243<warn> dst addr: fi_sockaddr_in://10.1.9.31:40111
"""


def test_a_gloo_pair_that_cannot_reach_its_peer_in_time_is_the_link() -> None:
    diagnosis = diagnose_text("rank1.log", GLOO_PAIR_CONNECT_TIMEOUT)
    assert_reads(diagnosis, "hccl", first_error="Connect timeout [10.20.4.17]:41233")
    assert {"config", "driver_env"} <= {alt.category for alt in diagnosis.alternatives}


def test_an_rdma_route_to_the_peer_that_does_not_resolve_is_the_link() -> None:
    diagnosis = diagnose_text("client.log", VERBS_ROUTE_NOT_RESOLVED)
    assert_reads(diagnosis, "hccl", first_error="rdma_resolve_addr failed")
    assert {"config", "driver_env"} <= {alt.category for alt in diagnosis.alternatives}


def test_connections_that_were_made_are_no_failure() -> None:
    text = (
        "libfabric:8812:verbs:ep_ctrl:vrb_create_ep():251<info> rdma_resolve_addr done for"
        " fi_sockaddr_in://10.1.9.31:40111\n"
        "I0302 09:14:05.112233 4410 pair.cc:690] connected, retry=0, remote=[10.20.4.17]:41233\n"
    )
    assert diagnose_text("client.log", text).first_error is None


# docs/labelling.md#a-gpu-direct-transport-that-does-not-start
# A collective library that drives the verbs itself registers each buffer with the NIC before
# any work is posted; the host refusing the registration ends the process with the verbs call
# and the errno in brackets.
LIBRARY_REGISTRATION_REFUSED = """\
[IbMr] registering 0x7f3a10000000 size 4194304 (device memory)
dmaBufSupported: 0, nv_peer_mem loaded: yes
terminate called after throwing an instance of 'mscclpp::IbError'
  what():  ibv_reg_mr failed (errno 14) (Ib failure: Bad address)
Aborted (core dumped)
"""

LIBRARY_REGISTRATION_DONE = """\
[IbMr] registering 0x7f3a10000000 size 4194304 (device memory)
[IbMr] ibv_reg_mr done: lkey 0x1f02 rkey 0x1f02
"""


def test_a_collective_librarys_refused_registration_is_the_hosts_setup() -> None:
    diagnosis = diagnose_text("rank0.log", LIBRARY_REGISTRATION_REFUSED)
    assert_reads(
        diagnosis,
        "driver_env",
        first_error="ibv_reg_mr failed (errno 14)",
        rule="env.collective_lib_ib_registration_refused",
        beside=["config", "hccl"],
    )


def test_a_registration_that_succeeded_is_no_failure() -> None:
    diagnosis = diagnose_text("rank0.log", LIBRARY_REGISTRATION_DONE)
    assert "env.collective_lib_ib_registration_refused" not in rules_of(diagnosis)
