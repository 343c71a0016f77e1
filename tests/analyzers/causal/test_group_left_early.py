"""A rank that tore its process group down while its peers still ran collectives.

torch answers a collective called after `destroy_process_group()` with the words it uses for a
job that never created a group (`Default process group has not been initialized`), which the
global-state reading labels `config`. When the bundle shows peers losing their connection to
that rank, a group existed and the rank left it early: the ranks ran different numbers of
collectives, so `hccl` is offered beside `config`
(docs/labelling.md#a-rank-that-left-its-process-group-early).

Fixtures are written for these tests in the real shapes, with their own values.
"""

from __future__ import annotations

from tests.analyzers.excerpts import alternative_labels, assert_reads, diagnose_files, diagnose_text

LEFT_EARLY = """\
[rank2]: step 4 loss=3.9120 lr=2.0e-04
[rank2]: step 4 done
[rank0]: step 4 done
[rank2]: epoch finished after 4 steps, cleaning up
[rank2]: Traceback (most recent call last):
[rank2]:   File "/srv/job/pretrain.py", line 211, in report_metrics
[rank2]:     dist.all_reduce(total)
[rank2]:   File "/opt/py/site-packages/torch/distributed/distributed_c10d.py", line 1146, in _get_default_group
[rank2]:     raise ValueError(
[rank2]: ValueError: Default process group has not been initialized, please make sure to call init_process_group.
[rank0]: Traceback (most recent call last):
[rank0]:   File "/opt/py/site-packages/torch/nn/parallel/distributed.py", line 1699, in forward
[rank0]: RuntimeError: [/pytorch/third_party/gloo/gloo/transport/tcp/pair.cc:534] Connection closed by peer [10.0.3.7]:51200
[rank1]: RuntimeError: [/pytorch/third_party/gloo/gloo/transport/tcp/pair.cc:534] Connection closed by peer [10.0.3.7]:51200
"""

NEVER_STARTED = """\
Traceback (most recent call last):
  File "/srv/job/pretrain.py", line 88, in main
    world = dist.get_world_size()
  File "/opt/py/site-packages/torch/distributed/distributed_c10d.py", line 1146, in _get_default_group
    raise ValueError(
ValueError: Default process group has not been initialized, please make sure to call init_process_group.
"""


def test_group_left_early_offers_hccl_beside_config() -> None:
    diagnosis = diagnose_text("train.log", LEFT_EARLY)
    assert_reads(
        diagnosis,
        "config",
        first_error="Default process group has not been initialized",
        beside=("hccl",),
    )


def test_group_left_early_across_rank_files() -> None:
    rank2 = "\n".join(
        line.removeprefix("[rank2]: ") for line in LEFT_EARLY.splitlines() if "[rank2]" in line
    )
    rank0 = "\n".join(
        line.removeprefix("[rank0]: ") for line in LEFT_EARLY.splitlines() if "[rank0]" in line
    )
    diagnosis = diagnose_files({"log_2.log": rank2 + "\n", "log_0.log": rank0 + "\n"})
    assert "hccl" in alternative_labels(diagnosis)


def test_group_never_created_keeps_config_alone() -> None:
    diagnosis = diagnose_text("run.log", NEVER_STARTED)
    assert diagnosis.category == "config"
    assert "hccl" not in alternative_labels(diagnosis)
