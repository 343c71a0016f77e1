"""Jobs that cannot reach their peers at start: the store's host name that does not resolve,
a store connect that times out and is retried, and a fused operator whose HCCL resources time
out because the links to the peers never came up.

The first two are read by docs/labelling.md#a-rendezvous-host-with-no-address, the third by
docs/labelling.md#an-operator-name-decides-nothing. The excerpts follow the real shapes (an old
torch traceback from a worker pod, torch's `[W... socket.cpp]` warnings behind a Ray worker tag,
an HCCL plog) with values of our own.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_files, diagnose_text, rules_of

MASTER_NAME_NOT_IN_DNS = """\
Traceback (most recent call last):
  File "/app/pretrain.py", line 88, in <module>
    dist.init_process_group(backend="nccl")
  File "/usr/lib/python3.8/site-packages/torch/distributed/distributed_c10d.py", line 500, in init_process_group
    store, rank, world_size = next(rendezvous_iterator)
  File "/usr/lib/python3.8/site-packages/torch/distributed/rendezvous.py", line 160, in _env_rendezvous_handler
    store = TCPStore(master_addr, master_port, world_size, start_daemon, timeout)
ValueError: host not found: Name or service not known
"""


def test_a_store_host_without_address_is_the_network_not_an_unknown_exception() -> None:
    diagnosis = diagnose_text("worker-1.log", MASTER_NAME_NOT_IN_DNS)
    assert_reads(
        diagnosis,
        "hccl",
        first_error="host not found: Name or service not known",
        rule="hccl.store_host_unresolved",
    )
    assert {"config", "driver_env"} <= {a.category for a in diagnosis.alternatives}


def test_another_tools_resolver_failure_is_not_the_store() -> None:
    text = "ssh: Could not resolve hostname trainer-0: Name or service not known\n"
    diagnosis = diagnose_text("launcher.log", text)
    assert "hccl.store_host_unresolved" not in rules_of(diagnosis)


def test_the_masters_own_failure_explains_a_worker_that_cannot_find_it() -> None:
    master = (
        "[rank0]: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 4.00 GiB. "
        "GPU 0 has a total capacity of 79.10 GiB of which 1.20 GiB is free.\n"
    )
    diagnosis = diagnose_files({"log_0.log": master, "log_1.log": MASTER_NAME_NOT_IN_DNS})
    assert_reads(diagnosis, "oom", first_error="CUDA out of memory")


STORE_CONNECT_RETRIED = """\
(EngineCore_DP0 pid=310) (RayWorkerWrapper pid=77, ip=10.8.1.2) [W305 11:02:40.118000000 socket.cpp:929] [c10d] The server socket on [::ffff:10.8.1.1]:40123 has timed out, will retry.
(EngineCore_DP0 pid=310) (RayWorkerWrapper pid=77, ip=10.8.1.2) [W305 11:04:51.190000000 socket.cpp:929] [c10d] The server socket on [::ffff:10.8.1.1]:40123 has timed out, will retry. [repeated 4x across cluster]
"""


def test_a_store_connect_that_keeps_timing_out_is_a_store_wait() -> None:
    diagnosis = diagnose_text("engine.log", STORE_CONNECT_RETRIED)
    assert_reads(
        diagnosis, "hccl", first_error="has timed out, will retry", rule="hccl.store_unreachable"
    )


def test_a_store_not_yet_listening_is_the_normal_start_up_race() -> None:
    text = (
        "[T305 11:02:40.118000000 socket.cpp:922] [c10d] The server socket on "
        "[::ffff:10.8.1.1]:40123 is not yet listening (errno: 111 - Connection refused), "
        "will retry.\n"
    )
    diagnosis = diagnose_text("engine.log", text)
    assert not {"hccl.store_timeout", "hccl.store_unreachable"} & rules_of(diagnosis)


LINKS_TIMED_OUT_THEN_MC2_RESOURCES = """\
[ERROR] HCCL(5120,):2026-03-10-08:00:10.100.100 [hccl_socket_manager.cc:796] [5200][Wait][LinkEstablish]wait socket establish timeout, role[1] rank[3] timeout[120 s]
[ERROR] HCCL(5120,):2026-03-10-08:00:10.100.150 [hccl_socket_manager.cc:860] [5200][Wait][LinksEstablishCompleted] is failed. ret[9].
[ERROR] HCCL(5120,):2026-03-10-08:01:20.300.100 [hccl_communicator_host.cc:6296] [5130][AllocComResource]call trace: hcclRet -> 9
[ERROR] OP(5120,):2026-03-10-08:01:20.300.200 [indv_lib_wrapper.h:168][NNOP][HcclAllocComResourceByTiling][5130] errno[561000] OpName:[MoeDistributeCombineV2_0] Nnopbase fails to invoke the HcclAllocComResourceByTiling function of the hccl module. ret = 9, comm = 0xfffe10002000.
"""


def test_a_resource_timeout_yields_to_the_link_timeout_before_it() -> None:
    diagnosis = diagnose_text("plog-5120_20260310080010.log", LINKS_TIMED_OUT_THEN_MC2_RESOURCES)
    assert_reads(diagnosis, "hccl", first_error="wait socket establish timeout")


def test_alone_the_resource_timeout_is_still_the_first_error() -> None:
    text = LINKS_TIMED_OUT_THEN_MC2_RESOURCES.splitlines()[-1] + "\n"
    diagnosis = diagnose_text("plog-5120_20260310080010.log", text)
    assert_reads(diagnosis, "hccl", first_error="HcclAllocComResourceByTiling")


def test_hccls_own_resource_failure_stays_the_cause() -> None:
    # HCCL_E_MEMORY is HCCL's own failure, not a wait: it stays before the link timeout.
    lines = LINKS_TIMED_OUT_THEN_MC2_RESOURCES.splitlines()
    text = "\n".join([*lines[:2], lines[3].replace("ret = 9", "ret = 3")]) + "\n"
    diagnosis = diagnose_text("plog-5120_20260310080010.log", text)
    assert_reads(diagnosis, "hccl", first_error="ret = 3")
