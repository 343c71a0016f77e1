"""torch's rendezvous store (c10d TCPStore on MASTER_PORT) that cannot open its port.

The label stays `hccl` like HCCL's own listen failure, but the report names the store and
the advice names MASTER_PORT, not HCCL's ports. torch 1.x raised the store's bind failure as a
bare `RuntimeError: Address already in use` under `init_process_group`'s rendezvous frames,
ahead of `torch.distributed.launch`'s CalledProcessError; it is read the same way.
"""

from __future__ import annotations

from analyzers.classify.rules import load_knowledge
from analyzers.report.advise import Situation, next_actions
from tests.analyzers.excerpts import alternative_labels, assert_reads, diagnose_text, rules_of

BOOK = load_knowledge().actions

STORE_PORT_TAKEN = """\
[W socket.cpp:436] [c10d] The server socket has failed to bind to [::]:29611 (errno: 98 - Address already in use).
[E socket.cpp:472] [c10d] The server socket has failed to listen on any local network address.
Traceback (most recent call last):
  File "/opt/venv/bin/torchrun", line 8, in <module>
    sys.exit(main())
RuntimeError: The server socket has failed to listen on any local network address. The server socket has failed to bind to [::]:29611 (errno: 98 - Address already in use).
"""

OLDER_STORE_PORT_TAKEN = """\
Traceback (most recent call last):
  File "tools/train.py", line 96, in <module>
    main()
  File "tools/train.py", line 58, in main
    init_dist(args.launcher, **cfg.dist_params)
  File "/opt/conda/lib/python3.7/site-packages/torch/distributed/distributed_c10d.py", line 406, in init_process_group
    store, rank, world_size = next(rendezvous(url))
  File "/opt/conda/lib/python3.7/site-packages/torch/distributed/rendezvous.py", line 143, in _env_rendezvous_handler
    store = TCPStore(master_addr, master_port, world_size, start_daemon)
RuntimeError: Address already in use
Traceback (most recent call last):
  File "/opt/conda/lib/python3.7/site-packages/torch/distributed/launch.py", line 253, in main
    cmd=cmd)
subprocess.CalledProcessError: Command '['/opt/conda/bin/python', '-u', 'tools/train.py', '--local_rank=0', '--launcher', 'pytorch']' returned non-zero exit status 1.
"""

HCCL_LISTEN_FAILED = """\
[ERROR] HCCL(7001,python3):2026-03-12-07:49:36.326.808 [hccl_socket.cc:532] [7001][HcclSocket][Listen] socket type[1], listen on ip[192.0.2.40] and specific port[60010] fail.
"""


def test_store_port_taken_names_the_store() -> None:
    diagnosis = diagnose_text("launcher.log", STORE_PORT_TAKEN)
    assert diagnosis.category == "hccl"
    assert "hccl.rendezvous_store_port_taken" in rules_of(diagnosis)
    assert "MASTER_PORT" in diagnosis.root_cause


def test_older_torch_store_port_taken_names_the_store() -> None:
    diagnosis = diagnose_text("train.log", OLDER_STORE_PORT_TAKEN)
    assert diagnosis.category == "hccl"
    assert diagnosis.first_error is not None
    assert diagnosis.first_error.text.endswith("RuntimeError: Address already in use")
    assert "hccl.rendezvous_store_port_taken" in rules_of(diagnosis)
    assert "MASTER_PORT" in diagnosis.root_cause
    assert "MASTER_PORT" in diagnosis.next_actions[0]
    assert not any("The port HCCL wants" in text for text in diagnosis.next_actions)


def test_hccl_own_listen_failure_keeps_its_reading() -> None:
    diagnosis = diagnose_text("plog/plog-7001_20260312074936.log", HCCL_LISTEN_FAILED)
    assert diagnosis.category == "hccl"
    assert "hccl.rendezvous_store_port_taken" not in rules_of(diagnosis)
    assert "MASTER_PORT" not in diagnosis.root_cause


def test_store_advice_replaces_the_hccl_port_advice() -> None:
    line = "[E socket.cpp:472] [c10d] The server socket has failed to listen on any local network address."
    advised = next_actions(
        BOOK,
        Situation(
            category="hccl",
            signature_ids=["hccl.rendezvous_store_port_taken", "hccl.listen_failed"],
            first_error_text=line,
        ),
    )
    assert "MASTER_PORT" in advised[0]
    assert not any("The port HCCL wants" in text for text in advised)
    hccl_line = HCCL_LISTEN_FAILED.strip()
    hccl_advice = next_actions(
        BOOK,
        Situation(
            category="hccl", signature_ids=["hccl.listen_failed"], first_error_text=hccl_line
        ),
    )
    assert "The port HCCL wants" in hccl_advice[0]


# The store warns once per local address it cannot take, with the errno, and only then logs
# the error that gives no reason (docs/labelling.md#a-store-port-warned-about-before-the-store-gave-up).
OLDER_SOCKET_WORDING = """\
[W socket.cpp:401] [c10d] The server socket has failed to listen on [::]:41207 (errno: 98 - Address already in use).
[W socket.cpp:401] [c10d] The server socket has failed to bind to 0.0.0.0:41207 (errno: 98 - Address already in use).
[E socket.cpp:435] [c10d] The server socket has failed to listen on any local network address.
Traceback (most recent call last):
  File "train.py", line 47, in train
    dist.init_process_group(
RuntimeError: The server socket has failed to listen on any local network address. The server socket has failed to listen on [::]:41207 (errno: 98 - Address already in use). The server socket has failed to bind to 0.0.0.0:41207 (errno: 98 - Address already in use).
"""

NO_IPV6_THEN_LISTENING = """\
[W socket.cpp:401] [c10d] The server socket has failed to listen on [::]:41207 (errno: 97 - Address family not supported by protocol).
[I socket.cpp:810] [c10d] The server socket has started to listen on 0.0.0.0:41207.
step 10 loss 2.31
"""


def test_the_warning_with_the_errno_is_the_first_error() -> None:
    diagnosis = diagnose_text("launcher.log", STORE_PORT_TAKEN)
    assert_reads(diagnosis, "hccl", first_error="failed to bind to [::]:29611 (errno: 98")


def test_the_older_listen_wording_is_the_store_and_comes_first() -> None:
    diagnosis = diagnose_text("output.log", OLDER_SOCKET_WORDING)
    assert diagnosis.category == "hccl"
    assert "hccl.rendezvous_store_port_taken" in rules_of(diagnosis)
    assert diagnosis.first_error is not None
    assert diagnosis.first_error.text.startswith("[W socket.cpp:401]")
    assert "failed to listen on [::]:41207 (errno: 98" in diagnosis.first_error.text
    assert "MASTER_PORT" in diagnosis.root_cause


def test_a_warning_of_another_errno_is_no_port_failure() -> None:
    diagnosis = diagnose_text("output.log", NO_IPV6_THEN_LISTENING)
    assert "hccl.rendezvous_store_port_taken" not in rules_of(diagnosis)


# A store whose port another job holds, as `init_process_group` raises it under a job agent,
# with no socket.cpp warnings pasted before it.
STORE_PORT_TAKEN_UNDER_AGENT = """\
Traceback (most recent call last):
  File "jobs/resnet_ddp.py", line 140, in <module>
    run(cfg)
  File "jobs/resnet_ddp.py", line 61, in run
    dist.init_process_group("nccl")
  File "/usr/local/lib/python3.9/site-packages/torch/distributed/rendezvous.py", line 180, in _create_c10d_store
    return TCPStore(
RuntimeError: The server socket has failed to listen on any local network address. The server socket has failed to bind to [::]:37211 (errno: 98 - Address already in use). The server socket has failed to bind to 0.0.0.0:37211 (errno: 98 - Address already in use).
"""


def test_a_store_port_taken_offers_the_launch_setting_beside_it() -> None:
    # The guide reads a taken store port as the store's failure with the port setting beside it.
    for text in (STORE_PORT_TAKEN, OLDER_STORE_PORT_TAKEN, STORE_PORT_TAKEN_UNDER_AGENT):
        diagnosis = diagnose_text("worker.log", text)
        assert diagnosis.category == "hccl"
        assert "config" in alternative_labels(diagnosis)


def test_hccl_own_listen_failure_offers_no_launch_setting() -> None:
    # HCCL's listen failure on its own ports is not the launch's MASTER_PORT.
    diagnosis = diagnose_text("plog-7001.log", HCCL_LISTEN_FAILED)
    assert diagnosis.category == "hccl"
    assert "config" not in alternative_labels(diagnosis)
