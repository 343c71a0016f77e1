"""gloo devices that cannot be made, and a launcher library's check of consumer cards.

Three classes of start-up failure on desktop machines:

- a gloo process group whose platform transport is missing from the torch build
  (`makeDeviceForHostname(): unsupported gloo device`): the build lacks a part, read like the
  store's libuv refusal (docs/labelling.md#config-driver_env-or-weight_load);
- gloo finding no local interface or host name to bind, including its libuv device's report
  with both fields empty (docs/labelling.md#a-rendezvous-host-with-no-address);
- accelerate refusing GeForce cards without P2P until NCCL_P2P_DISABLE and NCCL_IB_DISABLE
  are set (docs/labelling.md#a-launcher-library-that-asks-consumer-cards-to-turn-p2p-off).

Fixtures follow the shapes of Windows tracebacks, torch's c10d warnings and torchrun's tail,
with paths, hosts, ports and pids of our own.
"""

from __future__ import annotations

from tests.analyzers.excerpts import alternative_labels, assert_reads, diagnose_text, rules_of

GLOO_TRANSPORT_MISSING = r"""Process Process-1:
Traceback (most recent call last):
  File "D:\voice\venv\lib\multiprocessing\process.py", line 314, in _bootstrap
    self.run()
  File "D:\voice\train\trainer.py", line 212, in run
    dist.init_process_group(
  File "D:\voice\venv\lib\site-packages\torch\distributed\distributed_c10d.py", line 1724, in init_process_group
    default_pg, _ = _new_process_group_helper(
  File "D:\voice\venv\lib\site-packages\torch\distributed\distributed_c10d.py", line 1949, in _new_process_group_helper
    backend_class = ProcessGroupGloo(
RuntimeError: makeDeviceForHostname(): unsupported gloo device
"""


def test_a_gloo_transport_missing_from_the_build_is_a_setting() -> None:
    diagnosis = diagnose_text("train.log", GLOO_TRANSPORT_MISSING)
    assert_reads(
        diagnosis,
        "config",
        first_error="unsupported gloo device",
        rule="cfg.gloo_transport_not_built",
    )
    assert "driver_env" in alternative_labels(diagnosis)


def test_a_named_interface_gives_the_same_refusal() -> None:
    text = "[rank1]: RuntimeError: makeDeviceForInterface(): unsupported gloo device\n"
    diagnosis = diagnose_text("rank1.log", text)
    assert diagnosis.category == "config", diagnosis.root_cause
    assert "cfg.gloo_transport_not_built" in rules_of(diagnosis)


NO_HOST_ADDRESS = r"""[W C:\build\torch\csrc\distributed\c10d\socket.cpp:601] [c10d] The client socket has failed to connect to []:40811 (system error: 10049).
Process Process-1:
Traceback (most recent call last):
  File "D:\voice\train\trainer.py", line 212, in run
    dist.init_process_group(
  File "D:\voice\venv\lib\site-packages\torch\distributed\distributed_c10d.py", line 994, in _new_process_group_helper
    backend_class = ProcessGroupGloo(backend_prefix_store, group_rank, group_size, timeout=timeout)
RuntimeError: GlooDeviceFactory::makeUVDevice(): interface or hostname can't be empty
"""


def test_a_gloo_device_with_no_interface_or_host_name_is_read_as_no_local_address() -> None:
    diagnosis = diagnose_text("train.log", NO_HOST_ADDRESS)
    assert_reads(
        diagnosis,
        "hccl",
        first_error="interface or hostname can't be empty",
        rule="hccl.comm_interface_not_found",
    )
    assert {"config", "driver_env"} & set(alternative_labels(diagnosis))


def test_the_libuv_transport_naming_an_interface_it_lacks_is_read_alike() -> None:
    text = (
        "RuntimeError: [enforce fail at C:\\build\\gloo\\transport\\uv\\device.cc:97] "
        "ifa != nullptr. Unable to find interface for: [10.20.0.7]\n"
    )
    diagnosis = diagnose_text("train.log", text)
    assert diagnosis.category == "hccl", diagnosis.root_cause
    assert "hccl.comm_interface_not_found" in rules_of(diagnosis)


def test_the_missing_transport_is_not_read_as_a_missing_address() -> None:
    diagnosis = diagnose_text("train.log", GLOO_TRANSPORT_MISSING)
    assert "hccl.comm_interface_not_found" not in rules_of(diagnosis)


CONSUMER_CARDS = """\
[rank1]:     raise NotImplementedError(
[rank1]: NotImplementedError: Using RTX 4000 series doesn't support faster communication broadband via P2P or IB. Please set `NCCL_P2P_DISABLE="1"` and `NCCL_IB_DISABLE="1"` first.
[rank0]: NotImplementedError: Using RTX 4000 series doesn't support faster communication broadband via P2P or IB. Please set `NCCL_P2P_DISABLE="1"` and `NCCL_IB_DISABLE="1"` first.
E0311 10:02:41.118000 140213 torch/distributed/elastic/multiprocessing/api.py:833] failed (exitcode: 1) local_rank: 0 (pid: 52117) of binary: /opt/venv/bin/python
Traceback (most recent call last):
  File "/opt/venv/bin/torchrun", line 8, in <module>
    sys.exit(main())
torch.distributed.elastic.multiprocessing.errors.ChildFailedError:
"""


def test_accelerates_consumer_card_check_asks_for_settings() -> None:
    diagnosis = diagnose_text("finetune.log", CONSUMER_CARDS)
    assert_reads(
        diagnosis,
        "config",
        first_error="doesn't support faster communication",
        rule="cfg.consumer_gpu_p2p_settings_required",
    )
    assert "driver_env" in alternative_labels(diagnosis)
    assert not diagnosis.culprit_ranks


def test_the_older_wording_that_names_the_3090_too() -> None:
    text = (
        "NotImplementedError: Using RTX 3090 or 4000 series doesn't support faster "
        "communication broadband via P2P or IB.\n"
        "ERROR:torch.distributed.elastic.multiprocessing.api:failed (exitcode: 1) "
        "local_rank: 0 (pid: 7311) of binary: /usr/bin/python3\n"
    )
    diagnosis = diagnose_text("finetune.log", text)
    assert diagnosis.category == "config", diagnosis.root_cause
    assert "cfg.consumer_gpu_p2p_settings_required" in rules_of(diagnosis)


def test_nccl_told_to_skip_p2p_is_no_failure() -> None:
    text = (
        "gpu-2:811:811 [0] NCCL INFO NCCL_P2P_DISABLE set by environment to 1\n"
        "gpu-2:811:811 [0] NCCL INFO Channel 00 : 0[0] -> 1[1] via SHM/direct/direct\n"
    )
    diagnosis = diagnose_text("finetune.log", text)
    assert "cfg.consumer_gpu_p2p_settings_required" not in rules_of(diagnosis)
