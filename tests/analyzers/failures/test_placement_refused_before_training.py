"""Multi-GPU jobs that a library refuses before training starts, for where the model or the
scene was placed.

docs/labelling.md#a-model-placed-by-a-device-map-handed-to-distributed-training: accelerate will
not wrap for data-parallel training a model that a device map already placed; the loading
options and the launch disagree, `config`, and the refusal is the first error.

docs/labelling.md#a-library-that-only-runs-on-the-first-gpu: a simulator's runtime that only
runs on the first GPU refuses the device of every other rank; the feature and the multi-GPU
launch do not combine, `config`, even when the log then ends with a rank waiting in its first
broadcast.

Fixtures are written in the shapes of a robot-learning trainer's traceback and of a simulator's
Kit log, with paths, times and numbers of our own.
"""

from __future__ import annotations

from tests.analyzers.excerpts import alternative_labels, assert_reads, diagnose_text

POLICY_TRAINER = """\
INFO 2026-02-11 10:02:17 ot_train.py:198 Creating dataset
INFO 2026-02-11 10:02:55 ot_train.py:207 Creating policy
[rank1]: Traceback (most recent call last):
[rank1]:   File "/srv/robot/src/trainer/train.py", line 310, in train
[rank1]:     policy, optimizer, loader = accelerator.prepare(policy, optimizer, loader)
[rank1]:   File "/srv/venv/lib/python3.12/site-packages/accelerate/accelerator.py", line 1490, in prepare
[rank1]:     raise ValueError(
[rank1]: ValueError: You can't train a model that has been loaded with `device_map='auto'` in any distributed mode. Please rerun your script specifying `--num_processes=1` or by launching with `python {{myscript.py}}`.
W0211 10:03:40.118000 7711 torch/distributed/elastic/multiprocessing/api.py:897] Sending process 7790 closing signal SIGTERM
"""


def test_a_device_mapped_model_refused_by_the_distributed_wrapper_is_config() -> None:
    diagnosis = diagnose_text("train/rank1.log", POLICY_TRAINER)
    assert_reads(
        diagnosis, "config", first_error="loaded with `device_map='auto'` in any distributed mode"
    )


def test_a_quantised_model_loaded_on_another_card_is_the_same_refusal() -> None:
    text = (
        "[rank0]: ValueError: You can't train a model that has been loaded in 8-bit or 4-bit"
        " precision on a different device than the one you're training on. Make sure you"
        " loaded the model on the correct device using for example"
        " `device_map={'':torch.cuda.current_device()}`\n"
    )
    diagnosis = diagnose_text("train/rank0.log", text)
    assert diagnosis.category == "config", diagnosis.root_cause


SIMULATOR_RANK = """\
[INFO][AppLauncher]: Using device: cuda:3
[INFO]: Completed setting up the environment...
2026-02-11T09:41:06Z [37,512ms] [Error] [usdrt.scenegraph.plugin] C++ UsdStage::SelectPrims: GPU 3 requested. GPUs other than cuda:0 are not currently supported
[skrl:INFO] Distributed (rank: 3, local rank: 3, world size: 4)
[skrl:INFO] Broadcasting models' parameters
"""


def test_a_simulator_that_refuses_every_gpu_but_the_first_is_config() -> None:
    diagnosis = diagnose_text("logs/rank3.log", SIMULATOR_RANK)
    assert_reads(
        diagnosis, "config", first_error="GPUs other than cuda:0 are not currently supported"
    )


def test_a_simulator_reporting_the_gpu_it_renders_on_is_no_failure() -> None:
    text = (
        "[INFO][AppLauncher]: Using device: cuda:0\n"
        "2026-02-11T09:41:06Z [2,114ms] [Info] [omni.hydra] using GPU 0 for rendering; other"
        " GPUs are used for simulation only\n"
        "Learning iteration 10/10 done\n"
    )
    diagnosis = diagnose_text("logs/rank0.log", text)
    assert diagnosis.first_error is None
    assert diagnosis.category != "config"


# An int8 model spread over two cards by `device_map="auto"`, then wrapped by the trainer on
# every rank of a two-process launch: DDP refuses a module whose parameters sit on several
# devices when it is given one device per rank.
DDP_SPREAD_MODULE = """\
[rank1]:   File "/srv/venv/lib/python3.10/site-packages/transformers/trainer.py", line 1402, in _wrap_model
[rank1]:     model = nn.parallel.DistributedDataParallel(
[rank1]: ValueError: DistributedDataParallel device_ids and output_device arguments only work with single-device/multiple-device GPU modules or CPU modules, but got device_ids [1], output_device 1, and module parameters {device(type='cuda', index=0), device(type='cuda', index=1)}.
[rank0]: ValueError: DistributedDataParallel device_ids and output_device arguments only work with single-device/multiple-device GPU modules or CPU modules, but got device_ids [0], output_device 0, and module parameters {device(type='cuda', index=0), device(type='cuda', index=1)}.
"""


def test_ddp_refusing_a_module_spread_over_devices_is_the_loading_option() -> None:
    diagnosis = diagnose_text("train.log", DDP_SPREAD_MODULE)
    assert_reads(
        diagnosis, "config", first_error="device_ids and output_device arguments only work"
    )
    assert "cfg.ddp_module_on_several_devices" in {e.rule for e in diagnosis.evidence}
    assert "other" in alternative_labels(diagnosis)
    assert diagnosis.confidence >= 0.5


def test_the_ddp_call_in_a_traceback_is_no_refusal() -> None:
    text = (
        '  File "/srv/train.py", line 88, in main\n'
        "    model = DistributedDataParallel(model, device_ids=[local_rank], output_device=local_rank)\n"
        "INFO wrapped the model in DistributedDataParallel on cuda:1\n"
    )
    diagnosis = diagnose_text("train.log", text)
    assert "cfg.ddp_module_on_several_devices" not in {e.rule for e in diagnosis.evidence}
