"""A cloud network plugin that cannot open the fabric on its host, and NCCL's older completion.

docs/labelling.md#a-cloud-network-plugin-that-does-not-start: the step aws-ofi-nccl could not
take (an address vector, a provider, an endpoint) in NCCL's line format or the plugin's early
`WARN: Function:` form, libfabric finding no device for the provider, the EFA driver refusing a
command and NCCL not finding the network NCCL_NET names are the host's set-up, `driver_env`
with `hccl` and `config` beside it; the plugin's give-up line wraps the step before it.
docs/labelling.md#network-links-that-fail-under-a-collective: the completion error of older
NCCL releases, printed without the peer, is the link failing as the newer wording is.
Values of our own in the real shapes.
"""

from __future__ import annotations

from tests.analyzers.excerpts import alternative_labels, assert_reads, diagnose_text, rules_of

ADDRESS_VECTOR = """\
[1,9]<stdout>:ip-10-4-7-21:5120:5866 [1] NCCL INFO Ring 00 : 9[1] -> 10[2] via P2P/IPC
[1,15]<stdout>:ip-10-4-7-21:5126:5871 [7] NCCL INFO Ring 00 : 15 -> 16 [send] via NET/AWS Libfabric/0
[1,15]<stdout>:
[1,15]<stdout>:ip-10-4-7-21:5126:5871 [7] create_nccl_ofi_component:459 NCCL WARN NET/OFI Couldn't open AV. RC: -22, ERROR: Invalid argument
"""


def test_an_address_vector_the_plugin_cannot_open_is_the_host() -> None:
    diagnosis = diagnose_text("mpirun.log", ADDRESS_VECTOR)
    assert_reads(
        diagnosis,
        "driver_env",
        first_error="NET/OFI Couldn't open AV. RC: -22",
        rule="env.nccl_net_plugin_start_failed",
    )
    assert alternative_labels(diagnosis)[:2] == ["hccl", "config"]


OLD_FORMAT = """\
10.2.0.11: INFO: Function: ofi_init Line: 1102: NET/OFI Setting RDMAV_FORK_SAFE environment variable to 1.
10.2.0.11: WARN: Function: find_ofi_provider Line: 543: NET/OFI Couldn't find any optimal provider
10.2.0.11: WARN: Function: main Line: 66: NET/OFI OFI NCCL failure: 2
"""


def test_the_plugins_early_format_names_the_missing_provider_first() -> None:
    diagnosis = diagnose_text("launch.log", OLD_FORMAT)
    assert_reads(diagnosis, "driver_env", first_error="Couldn't find any optimal provider")


PROVIDER_THEN_GIVE_UP = """\
sm-host-1:402:402 [0] ofi_init:1288 NCCL WARN NET/OFI Only EFA provider is supported
sm-host-1:402:402 [0] ofi_init:1339 NCCL WARN NET/OFI aws-ofi-nccl initialization failed
"""


def test_the_give_up_line_yields_to_the_step_it_reports() -> None:
    diagnosis = diagnose_text("algo-1.log", PROVIDER_THEN_GIVE_UP)
    assert_reads(diagnosis, "driver_env", first_error="Only EFA provider is supported")


def test_the_give_up_line_alone_still_says_the_plugin_did_not_start() -> None:
    text = PROVIDER_THEN_GIVE_UP.splitlines()[1] + "\n"
    diagnosis = diagnose_text("algo-1.log", text)
    assert diagnosis.category == "driver_env"
    assert "env.nccl_net_plugin_gave_up" in rules_of(diagnosis)


def test_the_efa_drivers_refused_command_is_the_host() -> None:
    text = "[ 2210.118042] infiniband efa_2: Failed to process command CREATE_CQ (opcode 6) comp_status 1 err -12\n"
    diagnosis = diagnose_text("dmesg.log", text)
    assert diagnosis.category == "driver_env"
    assert "env.nccl_net_plugin_start_failed" in rules_of(diagnosis)


def test_a_network_nccl_net_names_that_never_loaded_is_the_host() -> None:
    text = (
        "a3u-node-0:88:88 [1] net.cc:579 NCCL WARN Error: network gIB not found.\n"
        "a3u-node-0:88:88 [1] NCCL INFO init.cc:321 -> 5\n"
    )
    diagnosis = diagnose_text("serve.log", text)
    assert_reads(diagnosis, "driver_env", first_error="network gIB not found")


def test_the_plugins_start_up_lines_are_no_failure() -> None:
    text = (
        "ip-10-4-7-21:5120:5877 [3] NCCL INFO NET/Plugin: Failed to find ncclCollNetPlugin_v8 symbol.\n"
        "ip-10-4-7-21:5120:5877 [3] NCCL INFO NET/OFI Initializing aws-ofi-nccl 1.12.1-aws\n"
        "ip-10-4-7-21:5120:5877 [3] NCCL INFO NET/OFI Selected Provider is efa (found 4 nics)\n"
        "libfabric:5120:1747001122::efa:ep_ctrl:efa_rdm_ep_set_shared_memory_permitted():1410"
        "<warn> FI_OPT_SHARED_MEMORY_PERMITTED set to false\n"
        "ip-10-4-7-21:5120:5877 [3] NCCL INFO Using network AWS Libfabric\n"
    )
    diagnosis = diagnose_text("worker3.log", text)
    rules = rules_of(diagnosis)
    assert "env.nccl_net_plugin_start_failed" not in rules
    assert "env.nccl_net_plugin_gave_up" not in rules


OLD_COMPLETION = """\
vm-0:8231:8249 [0] transport/net_ib.cc:774 NCCL WARN NET/IB : Got completion with error 12, opcode 0, len 4096, vendor err 129
vm-0:8231:8249 [0] NCCL INFO include/net.h:28 -> 2
vm-0:8231:8249 [0] NCCL INFO transport/net.cc:377 -> 2
vm-0: Test NCCL failure common.cu:345 'unhandled system error'
"""


def test_a_completion_error_without_the_peer_is_the_link() -> None:
    diagnosis = diagnose_text("all_reduce_perf.log", OLD_COMPLETION)
    assert_reads(
        diagnosis,
        "hccl",
        first_error="Got completion with error 12",
        rule="hccl.nccl_net_completion_error",
        beside=("driver_env",),
    )


# docs/labelling.md#network-links-that-fail-under-a-collective: once the plugin has started, a
# request the fabric completed in error or a peer address the plugin could not add is the path
# between two hosts failing, read like an IB completion error (`hccl`, `driver_env` beside it);
# torch's exception quotes it under `Last error:` and yields to it.
FAILED_REQUEST = """\
[rank5]:   File "/opt/train/bench.py", line 88, in main
[rank5]:     dist.all_reduce(t)
[rank5]: torch.distributed.DistBackendError: NCCL error in: /opt/pytorch/torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:3690, remote process exited or there was a network error, NCCL version 2.27.3
[rank5]: ncclRemoteError: A call failed possibly due to a network error or a remote process exiting prematurely.
[rank5]: Last error:
[rank5]: NET/OFI Request 0x7f20c4a1b0d8 completed with error. RC: 113. Error: 2 (UNDELIVERABLE). Completed length: 0
"""

PEER_ADDRESS = """\
[rank0]: torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:1970, internal error - please report this issue to the NCCL developers, NCCL version 2.21.5
[rank0]: ncclInternalError: Internal check failed.
[rank0]: Last error:
[rank0]: NET/OFI Unable to insert remote address into address vector for device 3. RC: -22
"""


def test_a_request_the_fabric_completed_in_error_is_the_link() -> None:
    diagnosis = diagnose_text("rank5.log", FAILED_REQUEST)
    assert_reads(
        diagnosis,
        "hccl",
        first_error="NET/OFI Request 0x7f20c4a1b0d8 completed with error",
        rule="hccl.nccl_ofi_peer_link_failed",
        beside=("driver_env",),
    )


def test_a_peer_address_the_plugin_could_not_add_is_the_link() -> None:
    diagnosis = diagnose_text("rank0.log", PEER_ADDRESS)
    assert_reads(
        diagnosis,
        "hccl",
        first_error="Unable to insert remote address into address vector",
        rule="hccl.nccl_ofi_peer_link_failed",
    )


def test_a_completed_request_is_no_failure() -> None:
    text = "p5-node-1:7120:7391 [4] NCCL INFO NET/OFI Request 0x7f20c4a1b0d8 completed (len 4096)\n"
    diagnosis = diagnose_text("rank5.log", text)
    assert "hccl.nccl_ofi_peer_link_failed" not in rules_of(diagnosis)


# docs/labelling.md#network-links-that-fail-under-a-collective: Google Cloud's TCPX/TCPXO plugins
# name what their datapath manager answered in capitals; a refused registration is the first
# error (`hccl`, `driver_env` beside it), the broken receive after it, which says `error`, its
# consequence.
TCPXO_REFUSED = """\
a3m-node-12:20514:21077 [3] NCCL INFO Channel 02/0 : 27[3] -> 35[3] [send] via NET/FasTrak/3
a3m-node-12:20514:21077 [3] NCCL WARN NET/FasTrak register_mr: INVALID_ARGUMENT: Buffer registration request does not have a valid fd set.
a3m-node-12:20514:21077 [3] NCCL INFO transport/net.cc:1003 -> 3
a3m-node-12:20514:21102 [3] NCCL WARN NET/FasTrak irecv: FAILED_PRECONDITION: receive() error: 32: Broken pipe
"""


def test_a_registration_the_tcpxo_plugin_refused_is_the_first_error() -> None:
    diagnosis = diagnose_text("rank27.log", TCPXO_REFUSED)
    assert_reads(
        diagnosis,
        "hccl",
        first_error="INVALID_ARGUMENT: Buffer registration request",
        rule="hccl.nccl_tcpx_plugin_refused",
        beside=("driver_env",),
    )


def test_the_tcpx_plugins_info_lines_are_no_failure() -> None:
    text = (
        "a3m-node-12:20514:20514 [3] NCCL INFO NET/FasTrak : Using 8 NICs, datapath manager ready\n"
        "a3m-node-12:20514:20514 [3] NCCL INFO NET/GPUDirectTCPX ver. 3.1.8 initialized\n"
    )
    diagnosis = diagnose_text("rank27.log", text)
    assert "hccl.nccl_tcpx_plugin_refused" not in rules_of(diagnosis)


# docs/labelling.md#config-driver_env-or-weight_load: the plugin's refusal to register a buffer
# with the fabric's NIC is the host's registration refusal, as NCCL's own `ibv_reg_mr` one is
# (`driver_env`, `hccl` and `config` beside it); the INFO note of a registration is none.
PLUGIN_REGISTRATION = """\
p4d-node-3:5120:5120 [3] NCCL INFO NET/OFI Selected Provider is efa (found 4 nics)
p4d-node-3:5120:5640 [3] NCCL INFO Channel 00/0 : 3[3] -> 11[3] [send] via NET/AWS Libfabric/1/GDRDMA
p4d-node-3:5120:5640 [3] register_rail_mr_buffer:602 NCCL WARN NET/OFI Unable to register memory (type = 2) for device 1. RC: -22, Error: Invalid argument
p4d-node-3:5120:5640 [3] NCCL INFO transport/net.cc:724 -> 2
"""


def test_a_buffer_the_plugin_could_not_register_is_the_host() -> None:
    diagnosis = diagnose_text("rank3.log", PLUGIN_REGISTRATION)
    assert_reads(
        diagnosis,
        "driver_env",
        first_error="NET/OFI Unable to register memory (type = 2)",
        rule="env.nccl_ofi_memory_registration",
    )
    assert alternative_labels(diagnosis)[:2] == ["hccl", "config"]


def test_a_registration_the_plugin_reports_as_done_is_no_failure() -> None:
    text = (
        "p4d-node-3:5120:5640 [3] NCCL INFO NET/OFI Registered memory (type = 2) for device 1\n"
        "[rank3]: RuntimeError: CUDA out of memory. Tried to allocate 2.00 GiB (GPU 3; 79.15 GiB "
        "total capacity; 76.02 GiB already allocated)\n"
    )
    diagnosis = diagnose_text("rank3.log", text)
    assert diagnosis.category == "oom"
    assert "env.nccl_ofi_memory_registration" not in rules_of(diagnosis)


# docs/labelling.md#network-links-that-fail-under-a-collective: a paste that keeps NCCL's
# completion sentence and its numbers but neither the `NET/IB :` tag nor NCCL's header (an
# issue's title, a copy from the source position on) is the same failed completion.
UNTAGGED_COMPLETION = """\
gpu-21:7310:7402 [2] NCCL INFO Channel 01/0 : 3[c7000] -> 2[c7000] [receive] via NET/IB/2/GDRDMA
gpu-21:7310:7402 [2] NCCL INFO Channel 01/0 : 2[c7000] -> 0[87000] [send] via NET/IB/2/GDRDMA
transport/net_ib.cc:1026 Got completion with error 4, opcode 1, len 32768, vendor err 81
"""


def test_a_completion_without_the_transports_tag_is_still_the_link() -> None:
    diagnosis = diagnose_text("all_reduce_perf.log", UNTAGGED_COMPLETION)
    assert_reads(
        diagnosis,
        "hccl",
        first_error="Got completion with error 4, opcode 1",
        rule="hccl.nccl_net_completion_error",
        beside=("driver_env",),
    )


def test_a_completion_tuple_with_status_zero_is_no_failure() -> None:
    text = UNTAGGED_COMPLETION.replace("with error 4,", "with error 0,").replace(
        "vendor err 81", "vendor err 0"
    )
    diagnosis = diagnose_text("all_reduce_perf.log", text)
    assert "hccl.nccl_net_completion_error" not in rules_of(diagnosis)


NETWORK_NAME_WITH_A_SPACE = """\
nid001207:5120:5170 [1] net.cc:626 NCCL WARN Error: network AWS Libfabric not found.
"""


def test_a_network_whose_name_has_a_space_is_read_as_the_plugin_not_loaded() -> None:
    diagnosis = diagnose_text("stdout.txt", NETWORK_NAME_WITH_A_SPACE)
    assert_reads(
        diagnosis,
        "driver_env",
        first_error="network AWS Libfabric not found",
        rule="env.nccl_net_plugin_start_failed",
    )


# docs/labelling.md#a-cloud-network-plugin-that-does-not-start: the plugin's own report that
# libfabric offered it no provider at all (the RDMA protocol's start asking `fi_getinfo` and
# getting nothing back, as in a container the EFA devices were not passed into) and the
# Slingshot provider finding no network service for the process (no VNI or resource group the
# launcher would have granted) are the fabric not set up on this host.
NO_PROVIDER_FROM_GETINFO = """\
[2026-03-02 08:41:17] trn-a-0:3120:3131 [0] NCCL INFO NET/OFI Initializing aws-ofi-nccl 1.14.0
[2026-03-02 08:41:17] trn-a-0:3120:3131 [0] nccl_net_ofi_rdma_init:7978 NCCL WARN NET/OFI OFI fi_getinfo() call failed: No data available
"""


def test_a_plugin_that_libfabric_offered_no_provider_is_the_host() -> None:
    diagnosis = diagnose_text("nccl-out.txt", NO_PROVIDER_FROM_GETINFO)
    assert_reads(
        diagnosis,
        "driver_env",
        first_error="OFI fi_getinfo() call failed",
        rule="env.nccl_net_plugin_start_failed",
        beside=("hccl",),
    )


SLINGSHOT_WITHOUT_A_SERVICE = """\
libfabric:8812:1770012211::cxi:fabric:cxip_nic_get_rgroup_vni():253<warn> : Failed to find valid default rgroup and vni for cxi2
gh-node-7:8812:8812 [0] NCCL INFO NET/OFI Selected Provider is cxi (found 4 nics)
gh-node-7:8812:8812 [0] NCCL INFO Using network AWS Libfabric
"""


def test_a_slingshot_nic_with_no_network_service_for_the_process_is_the_host() -> None:
    diagnosis = diagnose_text("rank0.log", SLINGSHOT_WITHOUT_A_SERVICE)
    assert_reads(
        diagnosis,
        "driver_env",
        first_error="Failed to find valid default rgroup and vni",
        rule="env.nccl_net_plugin_start_failed",
    )


def test_the_slingshot_providers_service_notes_are_no_failure() -> None:
    text = (
        "libfabric:8812:1770012211::cxi:core:cxip_gen_auth_key():402<info> Using default VNI 1024 for cxi2\n"
        "gh-node-7:8812:8812 [0] NCCL INFO NET/OFI Selected Provider is cxi (found 4 nics)\n"
    )
    diagnosis = diagnose_text("rank0.log", text)
    assert "env.nccl_net_plugin_start_failed" not in rules_of(diagnosis)


# docs/labelling.md#config-driver_env-or-weight_load: libfabric's EFA provider says in its own
# `<warn>` lines that it could not register a CUDA buffer (the CUDA attribute it sets first
# refused, then the registration itself), which is the plugin's registration refusal in the
# words of the layer under it: `driver_env`, with `config` (the installer, libfabric and NCCL
# releases an image pairs) and `hccl` beside it, the earliest of the lines first.
LIBFABRIC_REGISTRATION = """\
libfabric:40711:1760001234::core:core:cuda_set_sync_memops():207<warn> Failed to perform cuPointerSetAttribute: CUDA_ERROR_NOT_SUPPORTED:operation not supported
libfabric:40711:1760001234::efa:mr:efa_mr_hmem_setup():254<warn> unable to set memops for cuda ptr
libfabric:40711:1760001234::efa:mr:efa_mr_regattr():1014<warn> Unable to register MR: Invalid argument
"""


def test_a_cuda_buffer_libfabric_could_not_register_is_the_host() -> None:
    diagnosis = diagnose_text("rank5.err", LIBFABRIC_REGISTRATION)
    assert_reads(
        diagnosis,
        "driver_env",
        first_error="Failed to perform cuPointerSetAttribute",
        rule="env.nccl_ofi_memory_registration",
        beside=("config",),
    )


def test_the_registration_refusal_alone_is_read_the_same_way() -> None:
    text = LIBFABRIC_REGISTRATION.splitlines()[2] + "\n"
    diagnosis = diagnose_text("rank5.err", text)
    assert_reads(diagnosis, "driver_env", first_error="Unable to register MR")


def test_libfabrics_note_of_a_registered_region_is_no_failure() -> None:
    text = (
        "libfabric:40711:1760001234::efa:mr:efa_mr_reg_impl():712<info> Registered memory at 0x7f10 len 4096 for iface CUDA\n"
        "[rank5]: RuntimeError: CUDA out of memory. Tried to allocate 1.50 GiB (GPU 5; 79.15 GiB "
        "total capacity; 77.02 GiB already allocated)\n"
    )
    diagnosis = diagnose_text("rank5.err", text)
    assert diagnosis.category == "oom"
    assert "env.nccl_ofi_memory_registration" not in rules_of(diagnosis)


# libfabric's EFA provider, when the NIC will not register a region for lack of locked memory,
# goes on to fail what it builds from registered memory: the receive packet pool it grows, then
# the error it tries to post to its event queue. Those lines say "Cannot allocate memory" and
# carry the word "error", but they follow the refused registration printed above them.
EFA_POOL_AFTER_REFUSED_REGISTRATION = """\
libfabric:51230:1712000000::efa:mr:efa_mr_regattr():632<warn> Unable to register MR: Cannot allocate memory
libfabric:51230:1712000000::efa:cq:rxr_ep_grow_rx_pkt_pools():1585<warn> cannot allocate memory for EFA's RX packet pool. error: Cannot allocate memory
libfabric:51230:1712000000::efa:eq:efa_eq_write_error():662<warn> Writing error Cannot allocate memory to EQ.
libfabric:51230:1712000000::efa:eq:efa_eq_write_error():676<warn> Unable to write to EQ: Missing or unavailable event queue. err: Cannot allocate memory (-12) prov_errno: Cannot allocate memory (-12)
Unable to write to EQ: Missing or unavailable event queue. err: Cannot allocate memory (-12) prov_errno: Cannot allocate memory (-12) ./prov/efa/src/rxr/rxr.h:683
"""


def test_the_packet_pool_after_a_refused_registration_restates_it() -> None:
    """docs/labelling.md#config-driver_env-or-weight_load"""
    diagnosis = diagnose_text("rank3.err", EFA_POOL_AFTER_REFUSED_REGISTRATION)
    assert_reads(
        diagnosis,
        "driver_env",
        first_error="Unable to register MR: Cannot allocate memory",
        rule="env.nccl_ofi_memory_registration",
        beside=("oom",),
    )


def test_the_packet_pool_alone_is_the_hosts_registered_memory() -> None:
    text = EFA_POOL_AFTER_REFUSED_REGISTRATION.splitlines()[1] + "\n"
    diagnosis = diagnose_text("rank3.err", text)
    assert_reads(diagnosis, "driver_env", first_error="RX packet pool", beside=("oom",))


def test_a_host_allocation_that_names_no_efa_pool_stays_memory() -> None:
    text = "OSError: [Errno 12] Cannot allocate memory\n"
    diagnosis = diagnose_text("rank3.err", text)
    assert diagnosis.category == "oom"
    assert "env.efa_provider_pool_after_registration" not in rules_of(diagnosis)


# NCCL 2.28 when no plugin answers to the name NCCL_NET holds; the launch script's `git pull`
# printed git's own loader failure first, under the library path the job exported.
NO_NET_PLUGIN_AFTER_GIT = """\
/usr/libexec/git-core/git-remote-https: symbol lookup error: /lib64/libldap.so.2: undefined symbol: EVP_md2, version OPENSSL_3.0.0
NCCL version 2.28.9+cuda12.9

[2026-03-04 11:20:05] gpu12:48812:48812 [0] plugin/net.cc:379 NCCL WARN Failed to initialize any NET plugin
torch.distributed.DistBackendError: NCCL error in: /pytorch/torch/csrc/distributed/c10d/NCCLUtils.cpp:93, invalid usage (run with NCCL_DEBUG=WARN for details), NCCL version 2.28.9
ncclInvalidUsage: This usually reflects invalid usage of NCCL library.
Last error:
Failed to initialize any NET plugin
"""


def test_no_plugin_for_the_network_nccl_net_names_is_the_host() -> None:
    """docs/labelling.md#a-cloud-network-plugin-that-does-not-start"""
    diagnosis = diagnose_text("console.log", NO_NET_PLUGIN_AFTER_GIT)
    assert_reads(
        diagnosis,
        "driver_env",
        first_error="NCCL WARN Failed to initialize any NET plugin",
        rule="env.nccl_net_plugin_start_failed",
        beside=("config", "hccl"),
    )


def test_gits_own_loader_failure_is_no_extension_of_the_job() -> None:
    """docs/labelling.md#config-driver_env-or-weight_load"""
    diagnosis = diagnose_text("console.log", NO_NET_PLUGIN_AFTER_GIT)
    assert "cfg.extension_symbol_mismatch" not in rules_of(diagnosis)
    text = "ImportError: /srv/venv/lib/python3.11/site-packages/fastops/_C.so: undefined symbol: _ZN3c104cuda9SetDeviceEi\n"
    assert "cfg.extension_symbol_mismatch" in rules_of(diagnose_text("job.log", text))
