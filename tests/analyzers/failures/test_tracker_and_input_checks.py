"""An experiment tracker that cannot reach its service, and a script's own missing-file check.

docs/labelling.md#an-experiment-tracker-that-cannot-start-or-reach-its-service: when a
tracker's service or server does not answer inside its init call, the rank stops though
nothing in the model, the devices or the collectives failed; no class of the taxonomy is the
tracker, so it is `other` with `config` beside it, and the tracker's hint printed after the
refusal is not the first error. docs/labelling.md#config-driver_env-or-weight_load: a script
that checks its input paths itself and finds one missing is the job's setting, `config`. The
excerpts follow the real shapes with values and names of our own.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

TRACKER_REFUSED = """\
2026-05-02 17:39:02,410 (worker_0) : building model ...
2026-05-02 17:39:05,118 (worker_3) : wandb: - Waiting for wandb.init()...
2026-05-02 17:39:06,119 (worker_3) : wandb: \\ Waiting for wandb.init()...
2026-05-02 17:40:12,003 (worker_3) : wandb: ERROR Error communicating with wandb process
wandb: ERROR For more info see: https://docs.wandb.ai/guides/track/tracking-faq

2026-05-02 17:40:12,006 (worker_3) : Traceback (most recent call last):
2026-05-02 17:40:12,006 (worker_3) :   File "/srv/lm/launch.py", line 40, in run
2026-05-02 17:40:12,006 (worker_3) :     setup_tracking(args)
"""

TRACKER_TIMED_OUT = """\
[rank0]: Traceback (most recent call last):
[rank0]:   File "/srv/rl/train_ppo.py", line 88, in <module>
[rank0]:     run = wandb.init(project="ppo-sweep", group="node-2")
[rank0]: wandb.errors.errors.CommError: Run initialization has timed out after 120.0 sec. Please try increasing the timeout with the `init_timeout` setting.
"""


def test_a_tracker_service_that_does_not_answer_is_the_first_error() -> None:
    diagnosis = diagnose_text("worker.log", TRACKER_REFUSED)
    assert_reads(
        diagnosis,
        "other",
        first_error="Error communicating with wandb process",
        rule="other.tracker_service_unreachable",
        beside=("config",),
    )


def test_a_tracker_run_that_the_server_never_confirmed_reads_the_same() -> None:
    diagnosis = diagnose_text("rank0.log", TRACKER_TIMED_OUT)
    assert_reads(
        diagnosis,
        "other",
        first_error="Run initialization has timed out",
        rule="other.tracker_service_unreachable",
    )


def test_a_tracker_retry_notice_is_no_failure() -> None:
    text = "wandb: Network error (ReadTimeout), entering retry loop.\nstep 10 loss 2.31\n"
    diagnosis = diagnose_text("rank0.log", text)
    assert "other.tracker_service_unreachable" not in rules_of(diagnosis)


OWN_PATH_CHECK = """\
Traceback (most recent call last):
  File "detect_train.py", line 512, in <module>
    main(opt)
  File "detect_train.py", line 430, in main
    opt.data = check_file(opt.data)
  File "/srv/det/utils/paths.py", line 77, in check_file
    assert len(found), f'File not found: {name}'
AssertionError: File not found: data/coco_subset.yaml
ERROR:torch.distributed.elastic.multiprocessing.api:failed (exitcode: 1) local_rank: 0 (pid: 4410) of binary: /usr/bin/python3
"""


def test_a_scripts_own_missing_file_check_is_the_jobs_setting() -> None:
    diagnosis = diagnose_text("stdout.log", OWN_PATH_CHECK)
    assert_reads(
        diagnosis,
        "config",
        first_error="File not found: data/coco_subset.yaml",
        rule="cfg.missing_input_file_own_check",
    )


def test_a_cache_that_was_not_found_and_is_rebuilt_is_no_failure() -> None:
    text = "INFO: File not found: labels.cache, scanning images to build it\nepoch 1 done\n"
    diagnosis = diagnose_text("train.log", text)
    assert "cfg.missing_input_file_own_check" not in rules_of(diagnosis)
