"""torch.distributed start-up and DDP step failures on GPU and CPU jobs.

Four classes: the launcher's rendezvous that cannot reach its store (the store's own socket
timeout, in seconds on older releases and as `connect() timed out` in the oldest, says why; the
rendezvous error only wraps it), a rendezvous another node's agent closed
(docs/labelling.md#a-rendezvous-closed-by-another-agent, also after the agent's own report of
its worker's plain exit), DDP's
gradient reducer refusing a step (docs/labelling.md#ddps-reducer-refuses-a-step), DDP's
constructor finding that the ranks built different models
(docs/labelling.md#ddp-finds-the-ranks-hold-different-models), and NCCL
refusing two ranks on one GPU (docs/labelling.md#a-ranks-device-placement). Also the store
itself: a build without the libuv store a release asks for by default, and the bare store waits
of the oldest releases, and a resumed optimizer state whose parameter groups do not fit.
The excerpts follow
the real shapes (torchrun's stderr, torch's `[rankN]:` prefixes, NCCL's `Last error:` block)
with values of our own.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_files, diagnose_text, rules_of

RENDEZVOUS_UNREACHABLE = """\
torchrun --nnodes=2 --nproc_per_node=8 --rdzv_backend=c10d --rdzv_endpoint=10.8.0.4:29400 pretrain.py
*****************************************
[E socket.cpp:812] [c10d] The client socket has timed out after 90s while trying to connect to (10.8.0.4, 29400).
torch.distributed.elastic.rendezvous.api.RendezvousConnectionError: The connection to the C10d store has failed. See inner exception for details.
"""


def test_the_store_socket_timeout_in_seconds_explains_the_rendezvous_error() -> None:
    diagnosis = diagnose_text("launcher.log", RENDEZVOUS_UNREACHABLE)
    assert_reads(diagnosis, "hccl", first_error="client socket has timed out after 90s")


def test_a_rendezvous_error_alone_is_still_the_first_error() -> None:
    text = RENDEZVOUS_UNREACHABLE.splitlines()[-1] + "\n"
    diagnosis = diagnose_text("launcher.log", text)
    assert_reads(
        diagnosis,
        "hccl",
        first_error="RendezvousConnectionError",
        rule="hccl.rendezvous_connection_failed",
    )


def test_a_socket_that_connected_late_is_not_a_timeout() -> None:
    text = (
        "[W socket.cpp:697] [c10d] The client socket has failed to connect to [node-2]:29400 "
        "(errno: 99 - Cannot assign requested address).\n"
    )
    diagnosis = diagnose_text("launcher.log", text)
    assert not {"hccl.store_timeout", "hccl.store_unreachable"} & rules_of(diagnosis)


# torch 1.10's agent reports its own failure as one JSON record, the whole call stack escaped
# on one line: the wrapper's message comes first, the store's connect timeout inside it.
RENDEZVOUS_REPORT = r"""$ python -m torch.distributed.run --rdzv_backend=c10d --rdzv_endpoint=10.9.2.7:29400 --nnodes=1:2 --nproc_per_node=4 fit.py
ERROR:torch.distributed.elastic.multiprocessing.errors.error_handler:{
  "message": {
    "message": "RendezvousConnectionError: The connection to the C10d store has failed. See inner exception for details.",
    "extraInfo": {
      "py_callstack": "Traceback (most recent call last):\n  File \"/opt/py38/lib/python3.8/site-packages/torch/distributed/elastic/rendezvous/c10d_rendezvous_backend.py\", line 155, in _create_tcp_store\n    store = TCPStore(\nRuntimeError: connect() timed out. Original timeout was 45000 ms.\n\nThe above exception was the direct cause of the following exception:\n\nTraceback (most recent call last):\n  File \"/opt/py38/lib/python3.8/site-packages/torch/distributed/run.py\", line 719, in main\n    run(args)\n",
      "timestamp": "1718092811"
    }
  }
}
"""


def test_the_store_connect_timeout_inside_the_agent_report_is_the_first_error() -> None:
    # docs/labelling.md#a-rendezvous-host-with-no-address: the oldest wording of the connect
    # timeout explains the rendezvous error that wraps it, even printed after it
    diagnosis = diagnose_text("launcher.log", RENDEZVOUS_REPORT)
    assert_reads(
        diagnosis,
        "hccl",
        first_error="connect() timed out. Original timeout was 45000 ms",
        rule="hccl.store_unreachable",
    )


def test_the_agent_report_without_its_inner_reason_keeps_the_wrapper() -> None:
    # a store that refused the connection says so in other words: no connect timeout is read
    text = RENDEZVOUS_REPORT.replace(
        "connect() timed out. Original timeout was 45000 ms.", "Connection refused"
    )
    diagnosis = diagnose_text("launcher.log", text)
    assert diagnosis.first_error is not None
    assert "RendezvousConnectionError" in diagnosis.first_error.text
    assert "hccl.store_timeout" not in rules_of(diagnosis)


# An agent whose rendezvous another node's agent closed: it only learns the job is over.
RENDEZVOUS_CLOSED = """\
I0611 08:14:02.118000 4127 torch/distributed/elastic/agent/server/api.py:677] [default] Rendezvous'ing worker group
Traceback (most recent call last):
  File "/opt/venv/bin/torchrun", line 8, in <module>
    sys.exit(main())
  File "/opt/venv/lib/python3.11/site-packages/torch/distributed/elastic/agent/server/api.py", line 538, in _rendezvous
    store, group_rank, group_world_size = spec.rdzv_handler.next_rendezvous()
  File "/opt/venv/lib/python3.11/site-packages/torch/distributed/elastic/rendezvous/dynamic_rendezvous.py", line 1024, in next_rendezvous
    self._op_executor.run(join_op, deadline)
  File "/opt/venv/lib/python3.11/site-packages/torch/distributed/elastic/rendezvous/dynamic_rendezvous.py", line 634, in run
    raise RendezvousClosedError()
torch.distributed.elastic.rendezvous.api.RendezvousClosedError
"""

# The node that closed it: its rank failed, the agent ran out of restarts and shut down.
PEER_NODE_FAILED = """\
[rank4]: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 3.20 GiB. GPU 0 has a total capacity of 79.25 GiB of which 1.02 GiB is free.
E0611 08:13:58.402000 9311 torch/distributed/elastic/multiprocessing/api.py:869] failed (exitcode: 1) local_rank: 0 (pid: 9340) of binary: /opt/venv/bin/python
I0611 08:13:58.403000 9311 torch/distributed/elastic/agent/server/api.py:889] [default] Worker group FAILED. 0/0 attempts left; will not restart worker group
"""


def test_a_closed_rendezvous_alone_is_read_as_the_launcher_wait() -> None:
    # docs/labelling.md#a-rendezvous-closed-by-another-agent
    diagnosis = diagnose_text("node1/agent.log", RENDEZVOUS_CLOSED)
    assert_reads(
        diagnosis,
        "hccl",
        first_error="RendezvousClosedError",
        rule="hccl.elastic_rendezvous_closed",
        beside=("other",),
    )


def test_the_failure_of_the_node_that_closed_the_rendezvous_comes_first() -> None:
    diagnosis = diagnose_files(
        {"node0/agent.log": PEER_NODE_FAILED, "node1/agent.log": RENDEZVOUS_CLOSED}
    )
    assert_reads(diagnosis, "oom", first_error="OutOfMemoryError")


# The surviving node's agent: its worker ended with a plain status when the other node's
# agent was stopped, the agent restarted the group and found the rendezvous closed. Only the
# agent's own lines were kept; the worker printed nothing into them.
WORKER_EXITED_THEN_CLOSED = """\
E0902 16:40:11.731000 2208 torch/distributed/elastic/multiprocessing/api.py:869] failed (exitcode: 1) local_rank: 0 (pid: 2251) of binary: /opt/venv/bin/python3.11
I0902 16:40:11.731000 2208 torch/distributed/elastic/agent/server/api.py:889] [default] Worker group FAILED. 2/2 attempts left; will restart worker group
I0902 16:40:11.732000 2208 torch/distributed/elastic/agent/server/api.py:699] [default] Stopping worker group
I0902 16:40:11.732000 2208 torch/distributed/elastic/agent/server/api.py:677] [default] Rendezvous'ing worker group
Traceback (most recent call last):
  File "/opt/venv/bin/torchrun", line 8, in <module>
    sys.exit(main())
torch.distributed.elastic.rendezvous.api.RendezvousClosedError
"""


def test_a_worker_exit_the_agent_then_explains_with_a_closed_rendezvous_is_not_a_crash() -> None:
    # docs/labelling.md#a-rendezvous-closed-by-another-agent: the plain exit status says the
    # worker ended, the closed rendezvous found after it says the job had ended elsewhere
    diagnosis = diagnose_text("node1/agent.log", WORKER_EXITED_THEN_CLOSED)
    assert_reads(diagnosis, "hccl", first_error="RendezvousClosedError")


def test_a_worker_exit_alone_still_reads_as_the_rank_that_went_away() -> None:
    # docs/labelling.md#a-rank-that-exits-without-a-word
    head = WORKER_EXITED_THEN_CLOSED.split("Traceback")[0]
    diagnosis = diagnose_text("node1/agent.log", head)
    assert_reads(diagnosis, "device_fault", first_error="failed (exitcode: 1)")


def test_a_rendezvous_timeout_is_not_a_closed_rendezvous() -> None:
    text = RENDEZVOUS_CLOSED.replace("RendezvousClosedError()", "RendezvousTimeoutError()").replace(
        "api.RendezvousClosedError", "api.RendezvousTimeoutError"
    )
    diagnosis = diagnose_text("node1/agent.log", text)
    assert "hccl.elastic_rendezvous_closed" not in rules_of(diagnosis)
    assert "hccl.elastic_rendezvous_timeout" in rules_of(diagnosis)


REDUCER_REFUSED = """\
[rank3]:   File "/srv/det/train.py", line 204, in step
[rank3]:     logits = model(images)
[rank3]: RuntimeError: Expected to have finished reduction in the prior iteration before starting a new one. This error indicates that your module has parameters that were not used in producing loss. You can enable unused parameter detection by passing the keyword argument `find_unused_parameters=True` to `torch.nn.parallel.DistributedDataParallel`, and by
[rank3]: making sure all `forward` function outputs participate in calculating loss.
[rank3]: Parameters which did not receive grad for rank 3: heads.mask.conv2.bias, heads.mask.conv2.weight
"""


def test_a_reducer_refusal_is_the_ddp_setup_not_the_collective() -> None:
    # docs/labelling.md#ddps-reducer-refuses-a-step
    diagnosis = diagnose_text("rank3.log", REDUCER_REFUSED)
    assert_reads(
        diagnosis,
        "config",
        first_error="Expected to have finished reduction",
        rule="cfg.ddp_reducer_refused",
    )


LIGHTNING_UNUSED_PARAMETERS = """\
RuntimeError: It looks like your LightningModule has parameters that were not used in producing the loss returned by training_step. If this is intentional, you must enable the detection of unused parameters in DDP, either by setting the string value `strategy='ddp_find_unused_parameters_true'` or by setting the flag in the strategy with `strategy=DDPStrategy(find_unused_parameters=True)`.
[rank1]: Traceback (most recent call last):
[rank1]:   File "/srv/mol/fit.py", line 57, in <module>
[rank1]:     trainer.fit(model, train_loader, val_loader)
[rank1]:   File "/opt/venv/lib/python3.11/site-packages/lightning/pytorch/trainer/trainer.py", line 544, in fit
[rank1]:     call._call_and_handle_interrupt(
"""


def test_the_training_frameworks_wording_of_unused_parameters_is_the_same_refusal() -> None:
    # docs/labelling.md#ddps-reducer-refuses-a-step: Lightning checks before DDP's next step
    # and says it about the module and the loss its training_step returned.
    diagnosis = diagnose_text("train.log", LIGHTNING_UNUSED_PARAMETERS)
    assert_reads(
        diagnosis,
        "config",
        first_error="were not used in producing the loss",
        rule="cfg.ddp_reducer_refused",
    )


def test_the_unused_parameter_warning_is_not_a_refusal() -> None:
    # docs/labelling.md#ddps-reducer-refuses-a-step: the reducer's warning that the option
    # found nothing to do is advice, and the job's real failure decides.
    text = (
        "[W reducer.cpp:1346] Warning: find_unused_parameters=True was specified in DDP "
        "constructor, but did not find any unused parameters in the forward pass.\n"
        "[rank0]: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.50 GiB. GPU 0 "
        "has a total capacity of 39.38 GiB of which 611.00 MiB is free.\n"
    )
    diagnosis = diagnose_text("rank0.log", text)
    assert diagnosis.category == "oom"
    assert "cfg.ddp_reducer_refused" not in rules_of(diagnosis)


MODELS_DIFFER = """\
Using native Torch DistributedDataParallel.
Traceback (most recent call last):
  File "/work/cls/train.py", line 711, in <module>
    main()
  File "/work/cls/train.py", line 402, in main
    model = NativeDDP(model, device_ids=[device])
  File "/opt/venv/lib/python3.10/site-packages/torch/nn/parallel/distributed.py", line 795, in __init__
    _verify_param_shape_across_processes(self.process_group, parameters)
  File "/opt/venv/lib/python3.10/site-packages/torch/distributed/utils.py", line 265, in _verify_param_shape_across_processes
    return dist._verify_params_across_processes(process_group, tensors, logger)
RuntimeError: DDP expects same model across all ranks, but Rank 3 has 96 params, while rank 0 has inconsistent 0 params.
[ERROR] 2026-02-11-08:14:30 (PID:40112, Device:3, RankID:-1) ERR99999 UNKNOWN application exception
[2026-02-11 08:14:36,201] torch.distributed.elastic.multiprocessing.api: [WARNING] Sending process 40109 closing signal SIGTERM
"""


def test_ranks_that_built_different_models_are_a_setup_error() -> None:
    # docs/labelling.md#ddp-finds-the-ranks-hold-different-models: DDP's constructor compares
    # the ranks' parameters before any step; the ranks' models, not a collective, differ.
    diagnosis = diagnose_text("train.log", MODELS_DIFFER)
    assert_reads(
        diagnosis,
        "config",
        first_error="DDP expects same model across all ranks",
        rule="cfg.ddp_models_differ",
    )


def _count_check(rank: int, own: int, other: int, odd: int) -> str:
    """One rank's refusal in DDP's constructor, as torchrun's `[rankN]:` prefix prints it."""
    p = f"[rank{rank}]: "
    return (
        f"{p}Traceback (most recent call last):\n"
        f'{p}  File "/work/dp/train.py", line 170, in main\n'
        f"{p}    model = DDP(model)\n"
        f'{p}  File "/opt/venv/lib/python3.11/site-packages/torch/distributed/utils.py", line 286, '
        "in _verify_param_shape_across_processes\n"
        f"{p}    return dist._verify_params_across_processes(process_group, tensors, logger)\n"
        f"{p}RuntimeError: DDP expects same model across all ranks, but Rank {rank} has {own} "
        f"params, while rank {odd} has inconsistent {other} params.\n"
    )


def test_the_rank_the_peers_name_built_the_other_model() -> None:
    # docs/labelling.md#ddp-finds-the-ranks-hold-different-models: every rank prints the
    # refusal; the three that built 67 parameters name rank 2, rank 2 names rank 0.
    files = {
        f"log_{r}.log": _count_check(r, 83, 67, 0) if r == 2 else _count_check(r, 67, 83, 2)
        for r in range(4)
    }
    diagnosis = diagnose_files(files)
    assert diagnosis.category == "config", diagnosis.root_cause
    assert diagnosis.culprit_ranks == [2]


def test_a_checkpoint_that_does_not_fit_the_model_is_not_the_rank_check() -> None:
    # docs/labelling.md#ddp-finds-the-ranks-hold-different-models: the counterexample.
    text = (
        "[rank0]: RuntimeError: Error(s) in loading state_dict for Classifier:\n"
        "[rank0]: \tsize mismatch for head.weight: copying a param with shape "
        "torch.Size([10, 512]) from checkpoint, the shape in current model is "
        "torch.Size([100, 512]).\n"
    )
    diagnosis = diagnose_text("rank0.log", text)
    assert "cfg.ddp_models_differ" not in rules_of(diagnosis)


DUPLICATE_GPU = """\
  File "/opt/venv/lib/python3.10/site-packages/torch/distributed/utils.py", line 282, in _verify_param_shape_across_processes
    return dist._verify_params_across_processes(process_group, tensors, logger)
torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:1691, invalid usage (run with NCCL_DEBUG=WARN for details), NCCL version 2.19.3
ncclInvalidUsage: This usually reflects invalid usage of NCCL library.
Last error:
Duplicate GPU detected : rank 5 and rank 1 both on CUDA device 3000
"""


def test_two_ranks_on_one_gpu_is_the_launch_not_the_network() -> None:
    # docs/labelling.md#a-ranks-device-placement
    diagnosis = diagnose_text("worker.log", DUPLICATE_GPU)
    assert_reads(diagnosis, "config", first_error="Duplicate GPU detected", beside=("hccl",))


# Two processes of an accelerate launch both on one GPU; each rank's DistBackendError names the
# pair, and the launcher reports whichever process exited first.
DUPLICATE_GPU_PAIR = """\
torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:1333, invalid usage (run with NCCL_DEBUG=WARN for details), NCCL version 2.18.1
ncclInvalidUsage: This usually reflects invalid usage of NCCL library.
Last error:
Duplicate GPU detected : rank 2 and rank 3 both on CUDA device 41000
torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:1333, invalid usage (run with NCCL_DEBUG=WARN for details), NCCL version 2.18.1
ncclInvalidUsage: This usually reflects invalid usage of NCCL library.
Last error:
Duplicate GPU detected : rank 3 and rank 2 both on CUDA device 41000
[2025-03-02 08:14:51,402] torch.distributed.elastic.multiprocessing.api: [WARNING] Sending process 7710 closing signal SIGTERM
[2025-03-02 08:14:51,433] torch.distributed.elastic.multiprocessing.api: [WARNING] Sending process 7711 closing signal SIGTERM
[2025-03-02 08:14:51,460] torch.distributed.elastic.multiprocessing.api: [WARNING] Sending process 7712 closing signal SIGTERM
[2025-03-02 08:14:51,618] torch.distributed.elastic.multiprocessing.api: [ERROR] failed (exitcode: 1) local_rank: 3 (pid: 7713) of binary: /opt/venv/bin/python
"""


def test_the_ranks_sharing_a_gpu_are_the_culprits() -> None:
    # docs/labelling.md#a-ranks-device-placement: the pair NCCL names, not the first to exit.
    diagnosis = diagnose_text("train.log", DUPLICATE_GPU_PAIR)
    assert diagnosis.category == "config"
    assert diagnosis.culprit_ranks == [2, 3]
    assert diagnose_text("worker.log", DUPLICATE_GPU).culprit_ranks == [1, 5]


def test_another_invalid_usage_reason_stays_with_the_collective_layer() -> None:
    # docs/labelling.md#a-ranks-device-placement: only the placement reason reads as config.
    text = DUPLICATE_GPU.replace(
        "Duplicate GPU detected : rank 5 and rank 1 both on CUDA device 3000",
        "Invalid config blocking attribute value -2147483648",
    )
    diagnosis = diagnose_text("worker.log", text)
    assert diagnosis.category == "hccl"
    assert "cfg.nccl_duplicate_gpu" not in rules_of(diagnosis)


def test_a_rank_pointed_at_a_gpu_it_cannot_see_is_the_launch() -> None:
    # docs/labelling.md#a-ranks-device-placement
    text = (
        "[rank9]: Traceback (most recent call last):\n"
        '[rank9]:   File "/srv/lm/launch.py", line 31, in <module>\n'
        "[rank9]:     torch.cuda.set_device(local_rank)\n"
        "[rank9]: RuntimeError: CUDA error: invalid device ordinal\n"
    )
    diagnosis = diagnose_text("rank9.log", text)
    assert_reads(diagnosis, "config", first_error="invalid device ordinal", beside=("driver_env",))


def test_a_device_that_failed_under_the_job_is_not_a_placement() -> None:
    # docs/labelling.md#a-ranks-device-placement: only the ordinal check reads as placement.
    text = "[rank9]: RuntimeError: CUDA error: unspecified launch failure\n"
    diagnosis = diagnose_text("rank9.log", text)
    assert diagnosis.category == "device_fault"
    assert "cfg.rank_device_placement" not in rules_of(diagnosis)


def test_fsdp_given_another_device_id_than_its_module_is_the_launch() -> None:
    # docs/labelling.md#a-ranks-device-placement
    text = "[rank3]: ValueError: Inconsistent compute device and `device_id` on rank 3: cuda:0 vs cuda:3\n"
    diagnosis = diagnose_text("rank3.log", text)
    assert diagnosis.category == "config"
    assert "cfg.rank_device_placement" in rules_of(diagnosis)


SRUN_LABELLED = """\
 0: [rank0]:[E1105 11:32:44.992801223 ProcessGroupNCCL.cpp:616] [Rank 0] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=311, OpType=ALLREDUCE, NumelIn=1, NumelOut=1, Timeout(ms)=600000) ran for 600051 milliseconds before timing out.
 1: [rank1]:[E1105 11:32:44.992801223 ProcessGroupNCCL.cpp:616] [Rank 1] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=311, OpType=ALLREDUCE, NumelIn=1, NumelOut=1, Timeout(ms)=600000) ran for 600043 milliseconds before timing out.
 3: [rank3]: Traceback (most recent call last):
 3: [rank3]:   File "/srv/train.py", line 88, in <module>
 3: [rank3]:     loss = model(batch).loss
 3: [rank3]: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 3 has a total capacity of 39.38 GiB of which 1.10 GiB is free.
"""


def test_srun_task_labels_keep_the_torch_rank_of_each_line() -> None:
    # The rank that failed on its own explains the others' timeouts, as without the labels.
    diagnosis = diagnose_text("slurm-4411.out", SRUN_LABELLED)
    assert_reads(diagnosis, "oom", first_error="CUDA out of memory")
    assert 3 in diagnosis.culprit_ranks


# A Windows launch on a torch release that asks for the libuv TCP store by default while its
# build has none: torchrun's static rendezvous refuses to create the store
# (docs/labelling.md#config-driver_env-or-weight_load).
LIBUV_STORE_MISSING = r"""W0611 09:14:02.118000 4412 site-packages\torch\distributed\elastic\multiprocessing\redirects.py:29] NOTE: Redirects are currently not supported in Windows or MacOs.
Traceback (most recent call last):
  File "C:\Users\dev\miniconda3\envs\train\Lib\site-packages\torch\distributed\elastic\agent\server\api.py", line 500, in _rendezvous
    rdzv_info = spec.rdzv_handler.next_rendezvous()
                ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
  File "C:\Users\dev\miniconda3\envs\train\Lib\site-packages\torch\distributed\elastic\rendezvous\static_tcp_rendezvous.py", line 67, in next_rendezvous
    self._store = TCPStore(  # type: ignore[call-arg]
                  ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
RuntimeError: use_libuv was requested but PyTorch was build without libuv support
"""


def test_a_store_that_asks_for_libuv_the_build_lacks_is_a_setting() -> None:
    diagnosis = diagnose_text("launcher.log", LIBUV_STORE_MISSING)
    assert_reads(
        diagnosis,
        "config",
        first_error="use_libuv was requested",
        rule="cfg.store_libuv_not_built",
        beside=("driver_env",),
    )


def test_the_newer_store_error_class_words_the_libuv_refusal_the_same() -> None:
    text = (
        "torch.distributed.DistStoreError: use_libuv was requested but PyTorch was built "
        "without libuv support, run with USE_LIBUV=0 to disable it.\n"
    )
    diagnosis = diagnose_text("launcher.log", text)
    assert diagnosis.category == "config"
    assert "cfg.store_libuv_not_built" in rules_of(diagnosis)


# The Windows wheels of a torch release whose store creation fails on one machine with an
# error the platform could not name (docs/labelling.md#config-driver_env-or-weight_load).
STORE_UNNAMED_ERROR = r"""Traceback (most recent call last):
  File "D:\voice\runtime\lib\multiprocessing\process.py", line 314, in _bootstrap
    self.run()
  File "D:\voice\trainer\train.py", line 88, in run
    dist.init_process_group(
  File "D:\voice\runtime\lib\site-packages\torch\distributed\distributed_c10d.py", line 1177, in init_process_group
    store, rank, world_size = next(rendezvous_iterator)
  File "D:\voice\runtime\lib\site-packages\torch\distributed\rendezvous.py", line 246, in _env_rendezvous_handler
    store = _create_c10d_store(master_addr, master_port, rank, world_size, timeout, use_libuv)
  File "D:\voice\runtime\lib\site-packages\torch\distributed\rendezvous.py", line 174, in _create_c10d_store
    return TCPStore(
torch.distributed.DistNetworkError: Unknown error
"""


def test_a_store_error_the_platform_could_not_name_is_the_release() -> None:
    diagnosis = diagnose_text("train.log", STORE_UNNAMED_ERROR)
    assert_reads(
        diagnosis,
        "config",
        first_error="DistNetworkError: Unknown error",
        rule="cfg.store_unnamed_network_error",
    )
    assert {"driver_env", "hccl"} <= {alt.category for alt in diagnosis.alternatives}


def test_a_store_error_that_names_its_cause_is_not_the_unnamed_one() -> None:
    text = (
        "torch.distributed.DistNetworkError: The client socket has timed out after 600s "
        "while trying to connect to (10.1.2.3, 29500).\n"
    )
    diagnosis = diagnose_text("train.log", text)
    assert "cfg.store_unnamed_network_error" not in rules_of(diagnosis)
    assert diagnosis.category == "hccl"


# Releases before the store had an error class of its own raise its waits bare from the
# process group's constructor (docs/labelling.md#a-rank-that-never-reached-the-store).
OLD_STORE_WAIT = """\
Traceback (most recent call last):
  File "train_dist.py", line 41, in setup
    dist.init_process_group(backend="gloo", init_method=args.dist_url, world_size=args.world_size, rank=args.rank)
  File "/usr/lib/python3.8/site-packages/torch/distributed/distributed_c10d.py", line 455, in init_process_group
    _default_pg = _new_process_group_helper(
  File "/usr/lib/python3.8/site-packages/torch/distributed/distributed_c10d.py", line 525, in _new_process_group_helper
    pg = ProcessGroupGloo(prefix_store, rank, world_size, timeout=timeout)
RuntimeError: {message}
"""


def test_the_oldest_store_waits_read_as_the_store_timeout() -> None:
    for message in ("Socket Timeout", "Wait timeout"):
        diagnosis = diagnose_text("rank0.log", OLD_STORE_WAIT.format(message=message))
        assert diagnosis.category == "hccl", message
        assert diagnosis.first_error is not None
        assert diagnosis.first_error.text == f"RuntimeError: {message}"
        assert "hccl.store_timeout" in rules_of(diagnosis), message


def test_an_hccl_socket_wait_is_not_the_old_store_wording() -> None:
    text = "RuntimeError: Wait timeout for sockets recv, recvSize[0]\n"
    diagnosis = diagnose_text("rank0.log", text)
    assert "hccl.store_timeout" not in rules_of(diagnosis)


# Resume: the rank's saved optimizer state came from a run with other parameter groups
# (Python logging to the rank's own file, then torch's traceback on stderr).
OPTIMIZER_GROUPS = """\
2026-12-04 16:05:34,817 [rank3] INFO resuming optimizer state from /ckpt/step_4000/optim_rank3.pt
2026-12-04 16:05:34,861 [rank3] ERROR training failed: loaded state dict has a different number of parameter groups
Traceback (most recent call last):
  File "/work/dp/train.py", line 177, in main
    opt.load_state_dict(torch.load(path))
  File "/opt/venv/lib/python3.11/site-packages/torch/optim/optimizer.py", line 942, in load_state_dict
    raise ValueError(
ValueError: loaded state dict has a different number of parameter groups
"""


def test_a_saved_optimizer_state_with_other_groups_is_the_checkpoint() -> None:
    # docs/labelling.md#config-driver_env-or-weight_load: the optimizer refuses the state
    # before copying it; the loader failed, the job's grouping is the alternative.
    diagnosis = diagnose_text("log_3.log", OPTIMIZER_GROUPS)
    assert diagnosis.category == "weight_load", diagnosis.root_cause
    assert "wl.optimizer_state_groups" in rules_of(diagnosis)
    assert "config" in {alt.category for alt in diagnosis.alternatives}


MPS_NO_DEFAULT_BACKEND = """\
[rank1]: Traceback (most recent call last):
[rank1]:   File "/Users/dev/proj/train_mac.py", line 41, in <module>
[rank1]:     dist.init_process_group(rank=rank, world_size=2)
[rank1]: ValueError: We detected accelerator mps on your machine. But we don't know which communication backend to use for this accelerator. Please specify the `backend` argument in the `init_process_group` call.
"""


def test_an_accelerator_with_no_default_collective_backend_is_the_setting() -> None:
    diagnosis = diagnose_text("logs/rank1.log", MPS_NO_DEFAULT_BACKEND)
    assert_reads(diagnosis, "config", first_error="We detected accelerator mps")


def test_a_line_that_names_the_backend_chosen_for_the_accelerator_is_no_failure() -> None:
    text = "We detected accelerator mps on your machine; using backend gloo for it\n"
    diagnosis = diagnose_text("logs/rank1.log", text)
    assert diagnosis.category != "config", diagnosis.root_cause


STATIC_GRAPH_CHANGED = """\
[rank1]:   File "/srv/rec/train.py", line 318, in train_one_epoch
[rank1]:     scaler.scale(loss).backward()
[rank1]: RuntimeError: Your training graph has changed in this iteration, e.g., one parameter is used in first iteration, but then got unused in the second iteration. this is not compatible with static_graph set to True.
"""


def test_a_graph_that_changed_under_static_graph_is_the_ddp_setup() -> None:
    # docs/labelling.md#ddps-reducer-refuses-a-step: static-graph mode promised one set of
    # parameters per step and the model used another.
    diagnosis = diagnose_text("rank1.log", STATIC_GRAPH_CHANGED)
    assert_reads(
        diagnosis,
        "config",
        first_error="training graph has changed",
        rule="cfg.ddp_reducer_refused",
        beside=("other",),
    )


def test_a_recorded_static_graph_is_no_refusal() -> None:
    # docs/labelling.md#ddps-reducer-refuses-a-step
    text = "INFO ddp: static_graph=True, graph recorded after iteration 1 (88 parameters)\n"
    diagnosis = diagnose_text("rank0.log", text)
    assert "cfg.ddp_reducer_refused" not in rules_of(diagnosis)
