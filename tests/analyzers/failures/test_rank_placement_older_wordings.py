"""Ranks placed wrongly by the launch, in older and in NCCL's own words.

docs/labelling.md#a-ranks-device-placement: a rank that selects a GPU its process does not see
is `config` with `driver_env` beside it. torch releases before 1.5 say so through the THC
layer (`cuda runtime error (101) : invalid device ordinal at .../Module.cpp:59`, with a
`THCudaCheck FAIL ... : invalid device ordinal` line beside it) instead of today's `CUDA error:
invalid device ordinal`. NCCL's bootstrap root refusing a rank that already checked in, or a
rank count that disagrees with its own, means two processes were given one rank or the ranks
were told different world sizes: the launch numbered its processes wrongly, `config` with
`hccl` beside it. Values of our own in the real shapes.
"""

from __future__ import annotations

from tests.analyzers.excerpts import diagnose_text


def _rules(diagnosis) -> set[str]:
    return {e.rule for e in diagnosis.evidence if e.rule}


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
    assert diagnosis.category == "config"
    assert diagnosis.first_error is not None
    assert "invalid device ordinal" in diagnosis.first_error.text
    assert "cfg.rank_device_placement" in _rules(diagnosis)
    assert "driver_env" in {alt.category for alt in diagnosis.alternatives}


def test_another_thc_runtime_error_is_not_a_placement() -> None:
    text = (
        "THCudaCheck FAIL file=/pytorch/aten/src/THC/THCGeneral.cpp line=405 error=11 : invalid argument\n"
        "RuntimeError: cuda runtime error (11) : invalid argument at /pytorch/aten/src/THC/THCGeneral.cpp:405\n"
    )
    diagnosis = diagnose_text("worker_2.log", text)
    assert "cfg.rank_device_placement" not in _rules(diagnosis)


CHECKED_IN_TWICE = """\
gn-07:40211:40211 [2] NCCL INFO Bootstrap : Using ib0:10.12.4.7<0>
gn-07:40211:40211 [2] NCCL INFO NET/IB : Using [0]mlx5_0:1/IB ; OOB ib0:10.12.4.7<0>
gn-07:40211:40211 [2] NCCL INFO Using network IB

gn-06:38804:38950 [0] bootstrap.cc:131 NCCL WARN Bootstrap Root : rank 3 of 16 ranks has already checked in
"""


def test_a_rank_that_checked_in_twice_is_the_launchs_numbering() -> None:
    diagnosis = diagnose_text("slurm-7731.out", CHECKED_IN_TWICE)
    assert diagnosis.category == "config"
    assert diagnosis.first_error is not None
    assert "rank 3 of 16 ranks has already checked in" in diagnosis.first_error.text
    assert "cfg.nccl_bootstrap_rank_clash" in _rules(diagnosis)
    assert "hccl" in {alt.category for alt in diagnosis.alternatives}


def test_ranks_that_disagree_on_the_rank_count_are_the_launchs_numbering() -> None:
    text = "gn-06:38804:38950 [0] bootstrap.cc:127 NCCL WARN Bootstrap Root : mismatch in rank count from procs 16 : 8\n"
    diagnosis = diagnose_text("slurm-7731.out", text)
    assert diagnosis.category == "config"
    assert "cfg.nccl_bootstrap_rank_clash" in _rules(diagnosis)


def test_bootstrap_info_lines_alone_are_no_clash() -> None:
    text = (
        "gn-06:38804:38804 [0] NCCL INFO Bootstrap : Using ib0:10.12.4.6<0>\n"
        "gn-06:38804:38950 [0] NCCL INFO comm 0x55d1c0 rank 0 nranks 16 cudaDev 0 busId 1b000 - Init COMPLETE\n"
    )
    diagnosis = diagnose_text("slurm-7731.out", text)
    assert "cfg.nccl_bootstrap_rank_clash" not in _rules(diagnosis)
