"""Ranks placed wrongly by the launch, in older and in NCCL's own words.

docs/labelling.md#a-ranks-device-placement: a rank that selects a GPU its process does not see
is `config` with `driver_env` beside it. torch releases before 1.5 say so through the THC
layer (`cuda runtime error (101) : invalid device ordinal at .../Module.cpp:59`, with a
`THCudaCheck FAIL ... : invalid device ordinal` line beside it) instead of today's `CUDA error:
invalid device ordinal`. NCCL's bootstrap root refusing a rank that already checked in, or a
rank count that disagrees with its own, means two processes were given one rank or the ranks
were told different world sizes: the launch numbered its processes wrongly, `config` with
`hccl` beside it. A rank refused before the bootstrap because its number is at or past the
communicator's rank count (`Invalid rank requested : 9/8`) is the same numbering. Python
bindings of the CUDA runtime that raise its enum name with the text (CuPy's
`CUDARuntimeError: cudaErrorInvalidDevice: invalid device ordinal`) word the same refusal of an
index. Values of our own in the real shapes.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

THC_ORDINAL = """\
THCudaCheck FAIL file=/pytorch/torch/csrc/cuda/Module.cpp line=59 error=101 : invalid device ordinal
Traceback (most recent call last):
  File "train.py", line 61, in <module>
    torch.cuda.set_device(args.local_rank)
  File "/opt/conda/lib/python3.7/site-packages/torch/cuda/__init__.py", line 281, in set_device
    torch._C._cuda_setDevice(device)
RuntimeError: cuda runtime error (101) : invalid device ordinal at /pytorch/torch/csrc/cuda/Module.cpp:59
"""


def test_the_thc_wording_of_an_invalid_ordinal_is_the_launchs_placement() -> None:
    diagnosis = diagnose_text("worker_2.log", THC_ORDINAL)
    assert_reads(
        diagnosis,
        "config",
        first_error="invalid device ordinal",
        rule="cfg.rank_device_placement",
        beside=("driver_env",),
    )


def test_another_thc_runtime_error_is_not_a_placement() -> None:
    text = (
        "THCudaCheck FAIL file=/pytorch/aten/src/THC/THCGeneral.cpp line=405 error=11 : invalid argument\n"
        "RuntimeError: cuda runtime error (11) : invalid argument at /pytorch/aten/src/THC/THCGeneral.cpp:405\n"
    )
    diagnosis = diagnose_text("worker_2.log", text)
    assert "cfg.rank_device_placement" not in rules_of(diagnosis)


CHECKED_IN_TWICE = """\
gn-07:40211:40211 [2] NCCL INFO Bootstrap : Using ib0:10.12.4.7<0>
gn-07:40211:40211 [2] NCCL INFO NET/IB : Using [0]mlx5_0:1/IB ; OOB ib0:10.12.4.7<0>
gn-07:40211:40211 [2] NCCL INFO Using network IB

gn-06:38804:38950 [0] bootstrap.cc:131 NCCL WARN Bootstrap Root : rank 3 of 16 ranks has already checked in
"""


def test_a_rank_that_checked_in_twice_is_the_launchs_numbering() -> None:
    diagnosis = diagnose_text("slurm-7731.out", CHECKED_IN_TWICE)
    assert_reads(
        diagnosis,
        "config",
        first_error="rank 3 of 16 ranks has already checked in",
        rule="cfg.nccl_bootstrap_rank_clash",
        beside=("hccl",),
    )


def test_ranks_that_disagree_on_the_rank_count_are_the_launchs_numbering() -> None:
    text = "gn-06:38804:38950 [0] bootstrap.cc:127 NCCL WARN Bootstrap Root : mismatch in rank count from procs 16 : 8\n"
    diagnosis = diagnose_text("slurm-7731.out", text)
    assert diagnosis.category == "config"
    assert "cfg.nccl_bootstrap_rank_clash" in rules_of(diagnosis)


def test_bootstrap_info_lines_alone_are_no_clash() -> None:
    text = (
        "gn-06:38804:38804 [0] NCCL INFO Bootstrap : Using ib0:10.12.4.6<0>\n"
        "gn-06:38804:38950 [0] NCCL INFO comm 0x55d1c0 rank 0 nranks 16 cudaDev 0 busId 1b000 - Init COMPLETE\n"
    )
    diagnosis = diagnose_text("slurm-7731.out", text)
    assert "cfg.nccl_bootstrap_rank_clash" not in rules_of(diagnosis)


RANK_PAST_COUNT = """\
[2026-02-11 06:14:02,118] WORLD_SIZE=8 NODE_RANK=1 MASTER_ADDR=10.7.0.21 MASTER_PORT=29610
ws-12:20915:20915 [1] NCCL INFO Bootstrap : Using eth0:10.7.0.22<0>
ws-12:20915:20915 [1] NCCL INFO cudaDriverVersion 12040
ws-12:20915:20915 [1] init.cc:1711 NCCL WARN Invalid rank requested : 5/4
ws-12:20915:20915 [1] NCCL INFO init.cc:1854 -> 4
Traceback (most recent call last):
  File "/srv/jobs/embed/train.py", line 88, in <module>
    trainer.fit(model, datamodule=dm)
  File "/opt/venv/lib/python3.11/site-packages/torch/distributed/distributed_c10d.py", line 4159, in barrier
    work = group.barrier(opts=opts)
torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/NCCLUtils.hpp:275, invalid argument (run with NCCL_DEBUG=WARN for details), NCCL version 2.20.5
ncclInvalidArgument: Invalid value for an argument.
Last error:
Invalid rank requested : 5/4
"""


def test_a_rank_past_the_communicators_count_is_the_launchs_numbering() -> None:
    diagnosis = diagnose_text("node1.log", RANK_PAST_COUNT)
    assert_reads(
        diagnosis,
        "config",
        first_error="NCCL WARN Invalid rank requested : 5/4",
        rule="cfg.nccl_rank_beyond_count",
        beside=("hccl",),
    )


def test_init_lines_that_give_a_rank_and_a_count_are_no_refusal() -> None:
    text = (
        "ws-12:20915:21002 [1] NCCL INFO ncclCommInitRank comm 0x6a31f0 rank 5 nranks 8 cudaDev 1 "
        "nvmlDev 1 busId 3d000 commId 0x5e1d2c7a90b3f004 - Init START\n"
        "ws-12:20915:21002 [1] NCCL INFO comm 0x6a31f0 rank 5 nranks 8 cudaDev 1 busId 3d000 - Init COMPLETE\n"
    )
    diagnosis = diagnose_text("node1.log", text)
    assert "cfg.nccl_rank_beyond_count" not in rules_of(diagnosis)


def test_the_warning_leads_a_torch_headline_that_does_not_quote_it() -> None:
    text = (
        "ws-12:20915:20915 [1] init.cc:1711 NCCL WARN Invalid rank requested : 5/4\n"
        "ws-12:20915:20915 [1] NCCL INFO init.cc:1854 -> 4\n"
        "torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/NCCLUtils.hpp:275, "
        "invalid argument (run with NCCL_DEBUG=WARN for details), NCCL version 2.20.5\n"
    )
    diagnosis = diagnose_text("node1.log", text)
    assert diagnosis.category == "config"
    assert diagnosis.first_error is not None
    assert diagnosis.first_error.line == 1


def test_a_clash_leads_the_unhandled_system_error_of_the_ranks_left_waiting() -> None:
    text = CHECKED_IN_TWICE + (
        "torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/NCCLUtils.hpp:317, "
        "unhandled system error (run with NCCL_DEBUG=INFO for details), NCCL version 2.21.5\n"
    )
    diagnosis = diagnose_text("slurm-7731.out", text)
    assert_reads(diagnosis, "config", first_error="has already checked in")


INDEX_CHECK = """\
Traceback (most recent call last):
  File "/work/run/offline.py", line 12, in <module>
    llm = LLM(model="/models/demo-8b", tensor_parallel_size=1)
  File "/usr/local/lib/python3.11/site-packages/vllm/entrypoints/llm.py", line 242, in __init__
    self.llm_engine = LLMEngine.from_engine_args(engine_args)
AssertionError: Invalid device id
"""


def test_torchs_own_device_index_check_is_the_launchs_placement() -> None:
    diagnosis = diagnose_text("offline.log", INDEX_CHECK)
    assert_reads(
        diagnosis,
        "config",
        first_error="AssertionError: Invalid device id",
        rule="cfg.rank_device_placement",
        beside=("driver_env",),
    )


def test_the_pta_meaning_of_an_invalid_device_code_is_not_the_index_check() -> None:
    text = "[Error]: Invalid device ID.\n"
    diagnosis = diagnose_text("worker_0.log", text)
    assert "cfg.rank_device_placement" not in rules_of(diagnosis)


BINDING_ORDINAL = """\
Traceback (most recent call last):
  File "/srv/rec/train.py", line 212, in <module>
    main()
  File "/srv/rec/pipeline.py", line 48, in __init__
    cp.cuda.Device(self.rank).use()
  File "cupy/cuda/device.pyx", line 141, in cupy.cuda.device.Device.use
  File "cupy/cuda/runtime.pyx", line 145, in cupy.cuda.runtime.check_status
cupy.cuda.runtime.CUDARuntimeError: cudaErrorInvalidDevice: invalid device ordinal
"""


def test_a_runtime_bindings_enum_wording_of_the_ordinal_is_the_launchs_placement() -> None:
    diagnosis = diagnose_text("worker_9.log", BINDING_ORDINAL)
    assert_reads(
        diagnosis,
        "config",
        first_error="cudaErrorInvalidDevice: invalid device ordinal",
        rule="cfg.rank_device_placement",
        beside=("driver_env",),
    )


def test_another_enum_of_the_binding_is_not_a_placement() -> None:
    text = "cupy.cuda.runtime.CUDARuntimeError: cudaErrorMemoryAllocation: out of memory\n"
    diagnosis = diagnose_text("worker_9.log", text)
    assert "cfg.rank_device_placement" not in rules_of(diagnosis)
