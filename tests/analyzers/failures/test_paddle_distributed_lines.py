"""PaddlePaddle's distributed stack in its own words: the old trainer's socket to a parameter
server, a hybrid-parallel layout the framework does not offer, and the data loader's shared
memory that cannot be mapped.

docs/labelling.md#a-parameter-server-the-trainer-cannot-reach: the trainer's glog check of its
connect to a parameter server (`ERROR connecting to <ip>: Connection refused [111]`) and its
own sentence after the retries (`connection refused by pserver, maybe pserver failed!`) are a
peer that is not listening: `hccl`, with the servers' set-up (`config`) beside it; its retry
warnings are no failure.
docs/labelling.md#a-hybrid-parallel-layout-the-framework-does-not-offer: a framework's check
that the job's parallel degrees form a layout it supports is `config`.
docs/labelling.md#a-data-loaders-shared-memory-that-cannot-be-mapped: Paddle's mmap allocator
refusing the shared memory a loader worker handed over is host memory the job ran out of
(`oom`, the container's /dev/shm beside it), and it is read before the loader's headline.
Values of our own in the shapes the logs print.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

TRAINER_CHECK = """\
Tue Mar  3 08:12:40 2026[1,7]<stderr>:I0303 08:12:40.100200 31002 ParameterClient2.cpp:114] pserver 3 10.2.0.41:7164
Tue Mar  3 08:12:41 2026[1,7]<stderr>:F0303 08:12:41.220100 31002 LightNetwork.cpp:397] Check failed: error >= 0 ERROR connecting to 10.2.0.41: Connection refused [111]
Tue Mar  3 08:12:41 2026[1,7]<stderr>:*** Check failure stack trace: ***
Tue Mar  3 08:12:41 2026[1,7]<stderr>:    @           0x8a01c2  google::LogMessage::Fail()
"""

TRAINER_GAVE_UP = """\
W0303 08:12:40.100300 31002 LightNetwork.cpp:397] connection refused by pserver, try again!
W0303 08:12:41.100400 31002 LightNetwork.cpp:397] connection refused by pserver, try again!
F0303 08:12:42.100500 31002 LightNetwork.cpp:399] connection refused by pserver, maybe pserver failed!
*** Check failure stack trace: ***
    @     0x7f10aa21c27d  google::LogMessage::Fail()
    @     0x7f10aa0753c1  paddle::SocketClient::TcpClient()
"""

TRAINER_RETRYING = """\
I0303 08:12:40.100200 31002 ParameterClient2.cpp:114] pserver 0 127.0.0.1:20134
W0303 08:12:40.100300 31002 LightNetwork.cpp:397] connection refused by pserver, try again!
W0303 08:12:41.100400 31002 LightNetwork.cpp:397] connection refused by pserver, try again!
"""

LAYOUT_ASSERT = """\
Traceback (most recent call last):
  File "run_pretrain_static.py", line 512, in <module>
    do_train(args)
  File "/opt/py/site-packages/paddle/distributed/fleet/meta_optimizers/sharding_optimizer.py", line 402, in _init_comm
    assert self.sharding_degree > 1, "by now we only support five kind of hybrid dp: sharding_hybrid_dp, mp_sharding_hybrid_dp, pp_hybrid_dp, mp_sharding_pp_hybrid_dp, sharding_pp_hybrid_dp."
AssertionError: by now we only support five kind of hybrid dp: sharding_hybrid_dp, mp_sharding_hybrid_dp, pp_hybrid_dp, mp_sharding_pp_hybrid_dp, sharding_pp_hybrid_dp.
"""

LAYOUT_REFUSED = """\
Traceback (most recent call last):
  File "train.py", line 88, in <module>
    main()
NotImplementedError: sequence parallel is only supported together with tensor parallel (tensor_parallel_degree > 1), got tensor_parallel_degree=1
"""

LAYOUT_STATED = """\
[2026-03-03 08:12:40,100] [    INFO] - hybrid parallel layout: dp_degree=2, mp_degree=2, pp_degree=1, sharding_degree=1
[2026-03-03 08:12:40,101] [    INFO] - sequence parallel is supported with tensor parallel on this model
"""

SHM_MAP = """\
ERROR:root:DataLoader reader thread raised an exception!
ERROR:root:DataLoader reader thread failed((Unavailable) Memory map failed when rebuild shared memory.
  [Hint: Expected ptr != ((void *) -1), but received ptr:0xffffffffffffffff == ((void *) -1):0xffffffffffffffff.] (at /paddle/paddle/fluid/memory/allocation/mmap_allocator.cc:97)
) to read data from workers' result queue.
Exception in thread Thread-12:
Traceback (most recent call last):
  File "/opt/py/lib/python3.8/threading.py", line 932, in _bootstrap_inner
    self.run()
"""

SHM_CREATE = """\
Process Process-3:
Traceback (most recent call last):
  File "/opt/py/site-packages/paddle/fluid/dataloader/worker.py", line 345, in _worker_loop
    for b in batch
RuntimeError: (Unavailable) Memory map failed when create shared memory.
  [Hint: Expected ptr != ((void *) -1), but received ptr:0xffffffffffffffff == ((void *) -1):0xffffffffffffffff.] (at /paddle/paddle/fluid/memory/allocation/mmap_allocator.cc:81)
"""

SHM_FINE = """\
I0303 08:12:40.100200 31002 mmap_allocator.cc:120] Memory map of shared memory /paddle_3102_1 done, 4194304 bytes
[2026-03-03 08:12:40] ppdet.engine INFO: use_shared_memory: True, /dev/shm has 16.0 GB free
"""


def test_the_trainers_refused_connect_to_a_pserver_is_the_first_error() -> None:
    diagnosis = diagnose_text("mpi/trainer.7.log", TRAINER_CHECK)
    assert_reads(
        diagnosis,
        "hccl",
        first_error="ERROR connecting to 10.2.0.41: Connection refused [111]",
        rule="hccl.paddle_pserver_connect_refused",
        beside=("config",),
    )


def test_the_trainer_giving_up_on_its_pserver_is_read_past_its_retries() -> None:
    diagnosis = diagnose_text("log/trainer.log", TRAINER_GAVE_UP)
    assert_reads(
        diagnosis,
        "hccl",
        first_error="maybe pserver failed",
        rule="hccl.paddle_pserver_connect_refused",
    )


def test_the_trainers_retry_warnings_are_no_failure_of_their_own() -> None:
    diagnosis = diagnose_text("log/trainer.log", TRAINER_RETRYING)
    assert "hccl.paddle_pserver_connect_refused" not in rules_of(diagnosis)


def test_an_assert_listing_the_hybrid_layouts_offered_is_config() -> None:
    diagnosis = diagnose_text("log/workerlog.0", LAYOUT_ASSERT)
    assert diagnosis.category == "config"
    assert diagnosis.first_error is not None
    assert diagnosis.first_error.text.startswith("AssertionError: by now we only support")
    assert "cfg.parallel_layout_not_supported" in rules_of(diagnosis)


def test_a_parallel_mode_refused_without_its_partner_is_config() -> None:
    diagnosis = diagnose_text("log/workerlog.0", LAYOUT_REFUSED)
    assert diagnosis.category == "config"
    assert "cfg.parallel_layout_not_supported" in rules_of(diagnosis)


def test_a_log_that_states_the_layout_refuses_nothing() -> None:
    diagnosis = diagnose_text("log/workerlog.0", LAYOUT_STATED)
    assert "cfg.parallel_layout_not_supported" not in rules_of(diagnosis)


def test_shared_memory_the_loader_cannot_map_is_host_memory_read_before_the_headline() -> None:
    diagnosis = diagnose_text("log/workerlog.2", SHM_MAP)
    assert_reads(
        diagnosis,
        "oom",
        first_error="Memory map failed when rebuild shared memory",
        rule="oom.paddle_shared_memory_map_failed",
        beside=("driver_env",),
    )


def test_a_worker_that_cannot_create_its_shared_memory_is_the_same_reading() -> None:
    diagnosis = diagnose_text("log/workerlog.0", SHM_CREATE)
    assert diagnosis.category == "oom"
    assert "oom.paddle_shared_memory_map_failed" in rules_of(diagnosis)


def test_a_mapped_segment_and_the_free_space_note_are_no_failure() -> None:
    diagnosis = diagnose_text("log/workerlog.0", SHM_FINE)
    assert "oom.paddle_shared_memory_map_failed" not in rules_of(diagnosis)
