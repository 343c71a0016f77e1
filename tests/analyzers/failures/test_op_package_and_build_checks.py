"""An add-on's custom operator package that its loader cannot find is the installation, not
the op.

docs/labelling.md#operator-installation-or-platform-limit
"""

from __future__ import annotations

from tests.analyzers.excerpts import diagnose_text

# The add-on's loader looks for its package before the first op runs and does not find it;
# torch_npu's summary after it only restates the failure.
CUSTOM_OPP_NOT_FOUND = """\
Traceback (most recent call last):
  File "/srv/train/run_pretrain.py", line 12, in <module>
    import rms_ext
  File "/opt/venv/lib/python3.10/site-packages/rms_ext/__init__.py", line 9, in <module>
    _opp.ensure_loaded()
  File "/opt/venv/lib/python3.10/site-packages/rms_ext/_opp.py", line 41, in ensure_loaded
    raise FileNotFoundError(
FileNotFoundError: Unable to find RMS custom OPP. Expected /opt/venv/lib/python3.10/site-packages/rms_ext/opp/vendors/rms_ext. If it was installed on its own, source its set_env.bash or set RMS_OPP_PATH.
[ERROR] 2026-10-02-08:11:12 (PID:5120, Device:-1, RankID:-1) ERR9999 UNKNOWN applicaiton exception
"""

# Counterexample: the loader found the package; the op that then runs rejects its input and
# keeps the op's own reading.
CUSTOM_OPP_FOUND_THEN_OP_FAILS = """\
INFO 10-02 08:11:10 [loader.py:30] Found custom OPP at /opt/venv/lib/python3.10/site-packages/rms_ext/opp/vendors/rms_ext
RuntimeError: call aclnnRmsNormExt failed, detail:EZ1001: [PID: 5120] 2026-10-02-08:11:12.101.112 The dim of gamma should be 1, but got 2.
"""


def test_a_custom_operator_package_its_loader_cannot_find_is_the_installation() -> None:
    diagnosis = diagnose_text("job/train.log", CUSTOM_OPP_NOT_FOUND)
    assert diagnosis.category == "driver_env"
    assert diagnosis.first_error is not None
    assert "Unable to find RMS custom OPP" in diagnosis.first_error.text
    assert "config" in {alt.category for alt in diagnosis.alternatives}


def test_a_custom_operator_package_that_was_found_leaves_the_op_failure_alone() -> None:
    diagnosis = diagnose_text("job/train.log", CUSTOM_OPP_FOUND_THEN_OP_FAILS)
    assert diagnosis.category == "operator"
    assert diagnosis.first_error is not None
    assert "aclnnRmsNormExt" in diagnosis.first_error.text
