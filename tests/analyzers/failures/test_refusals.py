"""Two set-up failures that a pasted excerpt shows in an awkward shape.

A launcher's argparse refusal (`<prog>: error: argument ...: invalid choice`) is a config
failure before any device work; and a traceback whose header lost its indent in the paste
(header at column 0, frames at 3, exception at 1) must still end at its exception line
instead of swallowing it as source code.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of, scan_text

CLI_REFUSAL = """\
usage: vllm serve [model_tag] [options]
vllm serve: error: argument --quantization/-q: invalid choice: 'npu_w4' (choose from 'awq', 'gptq', 'fp8', 'bitsandbytes', None)
"""

SHIFTED_TRACEBACK = """\
Traceback (most recent call last):
   File "/opt/py/lib/python3.11/site-packages/torch_npu/op_plugin/atb/_atb_ops.py", line 61, in <module>
     torch.ops.load_library(lib_path)
   File "/opt/py/lib/python3.11/ctypes/__init__.py", line 379, in __init__
     self._handle = _dlopen(self._name, mode)
                    ^^^^^^^^^^^^^^^^^^^^^^^^^
 OSError: /opt/Ascend/nnal/atb/latest/atb/cxx_abi_1/lib/libatb_adapter.so: undefined symbol: _ZN4Demo3RunEv
 
 The above exception was the direct cause of the following exception:
 
 Traceback (most recent call last):
   File "/opt/py/lib/python3.11/site-packages/vllm/worker/worker_base.py", line 240, in init_worker
     self.worker = worker_class(**kwargs)
                   ^^^^^^^^^^^^^^^^^^^^^^
"""


def test_argparse_refusal_is_a_config_failure():
    diagnosis = diagnose_text("serve.log", CLI_REFUSAL)
    assert_reads(diagnosis, "config", first_error="invalid choice: 'npu_w4'")


def test_shifted_traceback_ends_at_its_exception_line():
    events = scan_text("worker.log", SHIFTED_TRACEBACK).events
    errors = [e for e in events if e.kind.value == "error"]
    assert [e.line for e in errors] == [7]
    assert errors[0].message.startswith("OSError: ")


def test_shifted_traceback_reads_as_a_version_mismatch():
    diagnosis = diagnose_text("worker.log", SHIFTED_TRACEBACK)
    assert_reads(diagnosis, "config", first_error="undefined symbol")


def test_deeper_source_lines_under_a_frame_stay_source():
    text = (
        "Traceback (most recent call last):\n"
        '  File "/w/run.py", line 9, in main\n'
        "    raise_if_bad(ValueError)\n"
        "ValueError: demo value rejected\n"
    )
    errors = [e for e in scan_text("run.log", text).events if e.kind.value == "error"]
    assert [e.line for e in errors] == [4]


# A framework's own check of a configured value against the list it knows.
# docs/labelling.md#an-option-value-outside-the-list-a-framework-accepts
OPTION_VALUE_NOT_LISTED = """\
  File "/opt/venv/lib/python3.11/site-packages/serve_engine/config/cache.py", line 74, in _verify_cache_dtype
    raise AssertionError(msg)
AssertionError: Invalid cache_dtype: half. Valid values are: ('auto', 'fp8', 'int8')
"""

# Counterexample: a batch check that lists the values it would take is the batch's own rule.
BATCH_CHECK_LISTING_VALUES = """\
ValueError: The global train batch size (4 x 2) must be evenly divisible by the number of generations per prompt (6). Given the current train batch size, the valid values for the number of generations are: [2, 4, 8].
"""


def test_an_option_value_outside_the_listed_ones_is_config() -> None:
    diagnosis = diagnose_text("serve.log", OPTION_VALUE_NOT_LISTED)
    assert_reads(
        diagnosis,
        "config",
        first_error="Invalid cache_dtype: half",
        rule="cfg.option_value_not_listed",
    )
    assert diagnosis.confidence >= 0.5


def test_a_batch_check_listing_valid_values_is_not_an_option_refusal() -> None:
    diagnosis = diagnose_text("train.log", BATCH_CHECK_LISTING_VALUES)
    assert "cfg.option_value_not_listed" not in rules_of(diagnosis)


# A compiled server's own option parser refuses a flag it does not know, before it loads any
# backend's work: a controller that starts a helper binary of another release passes an option
# the binary never had. The refusal is the run's failure and `config`.
NATIVE_UNKNOWN_FLAG = """\
[2026-02-03 09:10:11.000101] I load_backend: loaded CANN backend from /opt/box/lib/libggml-cann.so
[2026-02-03 09:10:11.000102] I load_backend: loaded CPU backend from /opt/box/lib/libggml-cpu.so
Unknown argument: --rpc-server-cache-dir
[2026-02-03 09:10:11.000104] I
"""

GETOPT_UNKNOWN_FLAG = """\
starting inference server on 0.0.0.0:8080
./server: unrecognized option '--npu-graph-mode'
Try './server --help' for more information.
"""

LLAMA_INVALID_FLAG = """\
build: 5120 (aa11bb22) with cc 12.3.1 for aarch64-linux-gnu
error: invalid argument: --n-npu-layers
"""

NATIVE_FLAG_IGNORED = """\
warning: unknown option --legacy-cache, ignoring
server listening on 0.0.0.0:8080
all slots are idle
"""

NATIVE_ERROR_WORD_ONLY = """\
decode: failed to launch kernel: invalid argument
Unknown argument type in tensor 3
"""


def test_a_native_parsers_unknown_flag_is_config() -> None:
    for text, phrase in (
        (NATIVE_UNKNOWN_FLAG, "Unknown argument: --rpc-server-cache-dir"),
        (GETOPT_UNKNOWN_FLAG, "unrecognized option '--npu-graph-mode'"),
        (LLAMA_INVALID_FLAG, "invalid argument: --n-npu-layers"),
    ):
        diagnosis = diagnose_text("server.log", text)
        assert_reads(diagnosis, "config", first_error=phrase, rule="cfg.native_cli_option_unknown")


def test_an_ignored_flag_or_a_bare_invalid_argument_is_no_option_refusal() -> None:
    for text in (NATIVE_FLAG_IGNORED, NATIVE_ERROR_WORD_ONLY):
        diagnosis = diagnose_text("server.log", text)
        assert "cfg.native_cli_option_unknown" not in rules_of(diagnosis)
