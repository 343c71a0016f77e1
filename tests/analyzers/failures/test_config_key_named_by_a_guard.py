"""A framework check that names the configuration key to set is the job's configuration.

DeepSpeed refuses some set-ups at initialisation and says which key of its JSON config lifts
the refusal: an optimizer its ZeRO stages were not tested with (`Please add
<"zero_allow_untested_optimizer": true> in the configuration file`), a client optimizer under
ZeRO-Offload (`... set <"zero_force_ds_cpu_optimizer": false> in your configuration file`).
The run's config has to change: `config`, the assertion is the first error, `other` beside it.
docs/labelling.md#a-required-setting-the-job-left-out. Values of our own in the real shapes.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_files, diagnose_text, rules_of

RULE = "cfg.config_key_named_by_guard"


UNTESTED = """\
Traceback (most recent call last):
  File "/srv/cifar/train_ds.py", line 210, in <module>
    engine, opt, loader, _ = deepspeed.initialize(args=args, model=net, model_parameters=params)
  File "/opt/py39/lib/python3.9/site-packages/deepspeed/runtime/engine.py", line 1150, in _do_optimizer_sanity_check
    assert (
AssertionError: You are using an untested ZeRO Optimizer. Please add <"zero_allow_untested_optimizer": true> in the configuration file to use it.
"""


def test_an_untested_optimizer_names_the_key_that_allows_it() -> None:
    diagnosis = diagnose_files({"rank0.log": UNTESTED})
    assert_reads(diagnosis, "config", first_error="untested ZeRO Optimizer", rule=RULE)


def test_a_client_optimizer_under_offload_names_its_key_too() -> None:
    diagnosis = diagnose_text(
        "rank1.log",
        "deepspeed.runtime.zero.utils.ZeRORuntimeException: You are using ZeRO-Offload with a "
        "client provided optimizer (<class 'torch.optim.sgd.SGD'>) which is slow here. To keep "
        'it you can also set <"zero_force_ds_cpu_optimizer": false> in your configuration '
        "file.\n",
    )
    assert diagnosis.category == "config"
    assert RULE in rules_of(diagnosis)


def test_the_printed_config_is_no_refusal() -> None:
    diagnosis = diagnose_text(
        "rank0.log",
        "[2026-03-02 10:11:12,345] [INFO] [config.py:1001:print]   "
        "zero_allow_untested_optimizer  True\n"
        '    "zero_allow_untested_optimizer": true,\n',
    )
    assert RULE not in rules_of(diagnosis)
