"""An adaptor's patch registry refuses a second replacement for a function.

docs/labelling.md#a-patch-registry-that-refuses-a-second-patch: the adaptor that retargets
Megatron to Ascend refuses to register another patch for a function it already replaced; its
feature list and the code importing it do not fit together, so the label is `config` with
`other` beside it, and the refusal (not the Ray headline above it) is the first error. Fixture
in the shape of a Ray task runner's traceback, with names of our own.
"""

from __future__ import annotations

from tests.analyzers.excerpts import alternative_labels, diagnose_text

SECOND_PATCH = """\
Traceback (most recent call last):
  File "/srv/rl/trainer/main.py", line 42, in main
    run(config)
ray.exceptions.RayTaskError(RuntimeError): ray::Runner.run() (pid=5120, ip=10.0.0.7, actor_id=9f8e7d6c, repr=<main.Runner object at 0x7f11cc22dd33>)
  File "/srv/rl/workers/megatron_worker.py", line 32, in <module>
    from adaptor.megatron_adaptor import repatch
  File "/srv/adaptor/adaptor/megatron_adaptor.py", line 66, in <module>
    patch_features()
  File "/srv/adaptor/adaptor/patch_utils.py", line 186, in register_patch
    Registry.patches_info.get(orig_func_name).set_patch_func(new_func, force_patch)
  File "/srv/adaptor/adaptor/patch_utils.py", line 76, in set_patch_func
    raise RuntimeError('the patch of {} exist !'.format(self.orig_func_name))
RuntimeError: the patch of forward exist !

Set the environment variable HYDRA_FULL_ERROR=1 for a complete stack trace.
"""

# The registry's source line alone and a start-up line about patches being applied.
NOT_A_FAILURE = """\
    raise RuntimeError('the patch of {} exist !'.format(self.orig_func_name))
INFO applying the patch of forward to the attention module
INFO iteration 1/ 100 | lm loss 9.1200
"""


def test_a_second_patch_for_one_function_is_config() -> None:
    diagnosis = diagnose_text("stdout.log", SECOND_PATCH)
    assert diagnosis.category == "config", diagnosis.root_cause
    assert diagnosis.first_error is not None
    assert diagnosis.first_error.text.endswith("RuntimeError: the patch of forward exist !")
    assert "other" in alternative_labels(diagnosis)


def test_the_registry_source_and_a_patching_message_are_not_failures() -> None:
    diagnosis = diagnose_text("stdout.log", NOT_A_FAILURE)
    assert diagnosis.category != "config"
