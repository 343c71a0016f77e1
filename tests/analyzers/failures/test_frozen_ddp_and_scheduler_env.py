"""Two start-up refusals of data-parallel training jobs that name no device and no link.

DDP's constructor refusing a module with no trainable parameter is read like the reducer's
refusals: how the model is prepared does not fit the wrapper, `config` with `other` beside it
(docs/labelling.md#ddps-reducer-refuses-a-step). A job's own error line that restates the
KeyError of an unset environment variable, only the quoted key left after its message, is read
as the KeyError itself: `config` with `driver_env` beside it
(docs/labelling.md#config-driver_env-or-weight_load).

The excerpts follow the shapes of a torchrun job's `[rankN]:` stderr and a trainer's Python
logging, with values of our own.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

FROZEN_WRAP = """\
2026-06-02 14:20:31.118 INFO: Training complete
2026-06-02 14:20:31.119 INFO: Evaluating the averaged model
[rank1]: Traceback (most recent call last):
[rank1]:   File "/opt/envs/pot/bin/fit_potential", line 8, in <module>
[rank1]:     sys.exit(main())
[rank1]:   File "/opt/envs/pot/lib/python3.11/site-packages/potfit/cli/fit.py", line 612, in run
[rank1]:     wrapped = DDP(model, device_ids=[local_rank])
[rank1]: RuntimeError: DistributedDataParallel is not needed when a module doesn't have any parameter that requires a gradient.
"""


def test_ddp_refusing_a_frozen_module_is_config() -> None:
    diagnosis = diagnose_text("rank1.err", FROZEN_WRAP)
    assert_reads(diagnosis, "config", first_error="is not needed when a module", beside=("other",))


def test_the_older_assertion_wording_reads_the_same() -> None:
    text = (
        "AssertionError: DistributedDataParallel is not needed when a module doesn't have any "
        "parameter that requires a gradient.\n"
    )
    assert diagnose_text("train.log", text).category == "config"


def test_a_frozen_module_wrapped_on_purpose_is_no_failure() -> None:
    text = "INFO: reference policy kept frozen; not wrapping it in DistributedDataParallel\n"
    assert diagnose_text("train.log", text).first_error is None


def test_a_scheduler_variable_restated_by_the_job_is_config() -> None:
    text = (
        "2026-06-02 09:01:12.004 INFO: MACE-like trainer starting, distributed=True\n"
        "ERROR:root:Failed to initialize distributed environment: 'SLURM_PROCID'\n"
    )
    diagnosis = diagnose_text("fit.out", text)
    assert_reads(diagnosis, "config", first_error="'SLURM_PROCID'", beside=("driver_env",))


def test_a_quoted_lower_case_value_is_not_an_unset_variable() -> None:
    text = "ERROR:root:Failed to initialize distributed environment: 'nccl'\n"
    diagnosis = diagnose_text("fit.out", text)
    assert not {e.rule for e in diagnosis.evidence} & {"cfg.env_var_unset_restated"}
