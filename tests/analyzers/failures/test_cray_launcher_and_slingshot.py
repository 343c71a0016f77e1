"""Reports of HPE Cray systems' own layers: the PALS launcher that cannot reach a node, the
Slingshot NIC's libfabric provider whose event queue overflows, and Cray MPICH refusing its
set-up at start (a NIC policy the rank's binding does not allow, GPU support asked of a binary
built without the GPU transport layer).

docs/labelling.md#cray-launcher-and-slingshot-reports: a node the launcher cannot reach is the
node going away (`device_fault`, `hccl` and `driver_env` beside it); the NIC's overflow is the
network layer (`hccl`, `config` beside it); Cray MPICH's start-up refusals are the job's set-up
(`config`, `driver_env` beside it), read ahead of the init error stack that follows them. Values
are our own, in the tools' real wordings.
"""

from __future__ import annotations

from tests.analyzers.excerpts import alternative_labels, assert_reads, diagnose_text, rules_of

# mpiexec (PALS) on a PBS allocation: a compute node stops answering the launcher's RPCs.
PALS_PING = """\
step 2200 loss 1.874
ping failed on x3102c0s13b0n0: Couldn't forward RPC ping(7f1e2d3c-0a1b-4c5d-8e9f-00112233aabb) to child x3102c0s19b1n0.hostmgmt.cm.example: Resource temporarily unavailable
"""

PALS_PING_TIMEOUT = "ping RPC timeout from x3102c0s19b1n0.hostmgmt.cm.example after 120s\n"

PALS_NO_REPLY = (
    "ping failed on x1001c2s3b0n0: No reply from x1001c7s1b0n0.hostmgmt.cm.example after 93s\n"
)

PALS_LAUNCH = (
    "launch failed on x2005c0s1b0n0: Couldn't forward RPC launch(0c0ffee0-1234-4abc-9def-"
    "abcdefabcdef) to child x2005c0s7b1n0.hsn.cm.example: Resource temporarily unavailable\n"
)

# The same launcher refusing for another reason: a launch option, not a node.
PALS_NO_VNI = "start failed on x2005c0s1b0n0: No VNIs available in internal allocator\n"

# libfabric's CXI provider, warning level: the NIC's event queue filled faster than read.
CXI_OVERFLOW = """\
[2025-03-02 10:14:07] iteration 880 loss 3.12
libfabric:40211:1740910447::cxi:core:cxip_cq_eq_progress():531<warn> x1204c3s5b0n0: Cassini Event Queue overflow detected.
"""

CXI_SETTING = (
    "export FI_CXI_DEFAULT_CQ_SIZE=131072  # a bigger queue against event queue overflow\n"
)

# Cray MPICH at MPI_Init: the NIC policy needs each rank bound inside one NUMA node.
NIC_POLICY = """\
MPICH ERROR: Unable to use a NIC_POLICY of 'NUMA'. Rank 2 is not confined to a single NUMA node.  There are 8 numa_nodes detected (rc=0).
MPICH ERROR [Rank 0] [job id 771203.0] [Mon Mar  3 09:12:44 2025] [nid001122] - Abort(2665871) (rank 0 in comm 0): Fatal error in PMPI_Init_thread: Other MPI error, error stack:
MPIR_Init_thread(170).................:
MPID_Init(501)........................:
MPIDI_CRAY_ofi_get_nic_index(1801)....: OFI invalid value for environment variable
"""

NIC_POLICY_SETTING = "export MPICH_OFI_NIC_POLICY=NUMA\n"

# Cray MPICH asked for GPU buffers (MPICH_GPU_SUPPORT_ENABLED=1) by a binary without GTL.
GTL = """\
MPICH ERROR [Rank 3] [job id 90211.0] [Tue Apr  1 11:02:09 2025] [nid004410] - Abort(-1) (rank 3 in comm 0): MPIDI_CRAY_init: GPU_SUPPORT_ENABLED is requested, but GTL library is not linked
 (Other MPI error)
"""

GTL_NOTE = "GPU support enabled: GTL library is linked (libmpi_gtl_cuda)\n"


def test_a_node_the_launcher_cannot_ping_is_the_node_going_away() -> None:
    for text in (PALS_PING, PALS_PING_TIMEOUT, PALS_NO_REPLY):
        diagnosis = diagnose_text("job.out", text)
        assert diagnosis.category == "device_fault", text
        assert "dev.pals_node_unreachable" in rules_of(diagnosis)
        assert diagnosis.first_error is not None
        assert "ping" in diagnosis.first_error.text
        assert "hccl" in alternative_labels(diagnosis)


def test_a_launch_the_launcher_cannot_forward_reads_alike() -> None:
    diagnosis = diagnose_text("job.out", PALS_LAUNCH)
    assert_reads(diagnosis, "device_fault", first_error="Couldn't forward RPC launch")


def test_a_launch_refused_for_want_of_vnis_is_no_lost_node() -> None:
    diagnosis = diagnose_text("job.out", PALS_NO_VNI)
    assert "dev.pals_node_unreachable" not in rules_of(diagnosis)


def test_the_slingshot_nics_event_queue_overflow_is_the_network() -> None:
    diagnosis = diagnose_text("job.out", CXI_OVERFLOW)
    assert_reads(
        diagnosis,
        "hccl",
        first_error="Cassini Event Queue overflow detected",
        rule="hccl.cxi_event_queue_overflow",
        beside=("config",),
    )


def test_the_providers_setting_is_no_overflow() -> None:
    diagnosis = diagnose_text("job.sh", CXI_SETTING)
    assert "hccl.cxi_event_queue_overflow" not in rules_of(diagnosis)


def test_cray_mpichs_nic_policy_refusal_comes_before_its_init_stack() -> None:
    diagnosis = diagnose_text("job.out", NIC_POLICY)
    assert_reads(
        diagnosis,
        "config",
        first_error="Unable to use a NIC_POLICY",
        rule="cfg.cray_mpich_nic_policy",
        beside=("driver_env",),
    )


def test_the_nic_policy_setting_alone_is_no_refusal() -> None:
    diagnosis = diagnose_text("job.sh", NIC_POLICY_SETTING)
    assert "cfg.cray_mpich_nic_policy" not in rules_of(diagnosis)


def test_gpu_support_without_the_gtl_library_is_the_jobs_set_up() -> None:
    diagnosis = diagnose_text("job.out", GTL)
    assert_reads(
        diagnosis,
        "config",
        first_error="GTL library is not linked",
        rule="cfg.cray_mpich_gtl_not_linked",
        beside=("driver_env",),
    )


def test_a_note_that_gtl_is_linked_is_no_failure() -> None:
    diagnosis = diagnose_text("job.out", GTL_NOTE)
    assert "cfg.cray_mpich_gtl_not_linked" not in rules_of(diagnosis)
