"""Logs that end inside a Python traceback, the exception line cut off by the paste.

docs/labelling.md#a-traceback-cut-before-its-exception and
docs/labelling.md#a-cuda-only-library-loaded-on-an-ascend-job.
"""

from __future__ import annotations

from tests.analyzers.excerpts import diagnose_text

# A Megatron job on NPU whose paste stops in Transformer Engine's import-time library loader.
LOADER_CUT = """\
[INFO:swift] Start time of running main: 2026-02-03 10:11:12
  File "/opt/envs/mg/lib/python3.11/site-packages/megatron/core/extensions/transformer_engine.py", line 21, in <module>
    import transformer_engine as te
  File "/opt/envs/mg/lib/python3.11/site-packages/transformer_engine/__init__.py", line 12, in <module>
    import transformer_engine.common
  File "/opt/envs/mg/lib/python3.11/site-packages/transformer_engine/common/__init__.py", line 311, in <module>
    _CUDNN_LIB_CTYPES = _load_cudnn()
  File "/opt/envs/mg/lib/python3.11/site-packages/transformer_engine/common/__init__.py", line 257, in _load_cudnn
    libs = subprocess.check_output(
  File "/opt/envs/mg/lib/python3.11/subprocess.py", line 466, in check_output
    return run(*popenargs, stdout=PIPE, timeout=timeout, check=True,
"""

# The same shape of paste in a package no signature knows: cut, not hung.
PLAIN_CUT = """\
Traceback (most recent call last):
  File "/srv/app/train.py", line 88, in <module>
    main()
  File "/srv/app/train.py", line 80, in main
    dataset = build_dataset(cfg.data)
  File "/srv/app/data/builder.py", line 41, in build_dataset
    records = json.load(handle)
  File "/usr/lib/python3.10/json/__init__.py", line 293, in load
    return loads(fp.read(),
"""

# A hang log that ends on the stack faulthandler printed on request: no traceback was cut.
HANG_DUMP = """\
[rank0] step 120 loss 1.93
Current thread 0x00007f3a2b1ff740 (most recent call first):
  File "/usr/lib/python3.10/threading.py", line 324 in wait
  File "/srv/app/train.py", line 140 in sync
  File "/srv/app/train.py", line 88 in <module>
"""


def test_a_paste_cut_in_transformer_engines_loader_is_a_config_problem() -> None:
    diagnosis = diagnose_text("megatron/console.log", LOADER_CUT)
    assert diagnosis.category == "config"
    assert diagnosis.first_error is not None
    assert "in _load_cudnn libs = subprocess.check_output(" in diagnosis.first_error.text
    assert "driver_env" in [alt.category for alt in diagnosis.alternatives]


def test_a_cut_traceback_cites_the_deepest_frame_outside_the_standard_library() -> None:
    diagnosis = diagnose_text("job/train.log", PLAIN_CUT)
    assert diagnosis.category == "other"
    assert diagnosis.confidence < 0.5
    assert diagnosis.first_error is not None
    assert "builder.py" in diagnosis.first_error.text
    assert "records = json.load(handle)" in diagnosis.first_error.text


def test_a_stack_dumped_while_hanging_is_not_a_cut_traceback() -> None:
    diagnosis = diagnose_text("job/train.log", HANG_DUMP)
    assert diagnosis.category == "hang"
    assert diagnosis.first_error is None


def test_an_exception_line_elsewhere_keeps_the_cut_tail_out() -> None:
    text = "ValueError: learning rate must be positive, got -0.1\n" + PLAIN_CUT
    diagnosis = diagnose_text("job/train.log", text)
    assert diagnosis.first_error is not None
    assert "learning rate must be positive" in diagnosis.first_error.text


def test_the_loader_frame_above_an_exception_line_leaves_the_exception_first() -> None:
    text = LOADER_CUT.replace(
        "    return run(*popenargs, stdout=PIPE, timeout=timeout, check=True,\n",
        "    return run(*popenargs, stdout=PIPE, timeout=timeout, check=True,\n"
        "subprocess.CalledProcessError: Command 'ldconfig -p' returned non-zero exit status 1.\n",
    )
    diagnosis = diagnose_text("megatron/console.log", text)
    assert diagnosis.first_error is not None
    assert "CalledProcessError" in diagnosis.first_error.text
