"""torch_npu's stream set-up refused by the runtime.

On a chip without an INF/NaN mode torch_npu turns on the overflow switch of every stream it
creates and stops with its own check when the runtime refuses; the abort that follows is the
aftermath (docs/labelling.md#a-stream-switch-the-runtime-refuses).
"""

from __future__ import annotations

from tests.analyzers.excerpts import alternative_labels, assert_reads, diagnose_text

OVERFLOW_SWITCH_REFUSED = """\
RuntimeError: SET StreamOverflowSwitch Failed.
frame #14: PyEval_EvalCode + 0x98 (0xaaab3d21f0a8 in /opt/py39/bin/python3)
frame #15: Py_RunMain + 0xcc (0xaaab3d2a196c in /opt/py39/bin/python3)

[trainer-a910-2:01877] *** Process received signal ***
[trainer-a910-2:01877] Signal: Aborted (6)
[trainer-a910-2:01877] Signal code:  (-6)
[trainer-a910-2:01877] [ 0] linux-vdso.so.1(__kernel_rt_sigreturn+0x0)[0xffff9a0b07c0]
[trainer-a910-2:01877] [ 1] /lib64/libc.so.6(gsignal+0xb0)[0xffff99d9a140]
[trainer-a910-2:01877] [ 2] /lib64/libc.so.6(abort+0x154)[0xffff99d9b4ec]
"""

OVERFLOW_SWITCH_PROBE_ONLY = """\
[W AclInterface.cpp:172] Warning: 0Failed to find function aclrtSetStreamOverflowSwitch (function operator())
[trainer-a910-2:01877] *** Process received signal ***
[trainer-a910-2:01877] Signal: Aborted (6)
"""


def test_refused_overflow_switch_is_config_and_comes_before_the_abort():
    diagnosis = diagnose_text("worker-0.log", OVERFLOW_SWITCH_REFUSED)
    assert_reads(diagnosis, "config", first_error="SET StreamOverflowSwitch Failed")
    alternatives = alternative_labels(diagnosis)
    assert "driver_env" in alternatives


def test_a_probe_for_the_switch_function_is_not_the_refusal():
    diagnosis = diagnose_text("worker-0.log", OVERFLOW_SWITCH_PROBE_ONLY)
    assert diagnosis.category != "config"
    assert diagnosis.first_error is not None
    assert "StreamOverflowSwitch" not in diagnosis.first_error.text
