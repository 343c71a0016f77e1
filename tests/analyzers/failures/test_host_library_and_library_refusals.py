"""Two setup failures of training hosts that read as something else by their words.

A shared library the dynamic loader refuses for want of static TLS room says `cannot allocate
memory`, yet nothing ran short: the load order on the host decides, so the label is the machine
(docs/labelling.md#config-driver_env-or-weight_load). A library that raises `NotImplementedError:
X does not support Y` refuses a use the caller's code expects of the installed release, a
package-set question (`config`). The excerpts follow the real shapes (a lazy-import headline with
the loader's message on the next line; one exception line) with values of our own.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

STATIC_TLS = """\
RuntimeError: Failed to import trl.trainer.grpo_trainer because of the following error (look up to see its traceback):
/opt/venv/lib/python3.11/site-packages/scipy.libs/libgomp-5e1f2a3b.so.1.0.0: cannot allocate memory in static TLS block
"""


def test_a_library_the_loader_has_no_tls_room_for_is_the_host_not_memory() -> None:
    diagnosis = diagnose_text("train.log", STATIC_TLS)
    assert diagnosis.category == "driver_env"
    assert "config" in {alt.category for alt in diagnosis.alternatives}


def test_a_process_that_cannot_allocate_memory_stays_oom() -> None:
    diagnosis = diagnose_text("train.log", "OSError: [Errno 12] Cannot allocate memory\n")
    assert diagnosis.category == "oom"


def test_a_library_refusing_a_use_of_its_api_is_config() -> None:
    text = "NotImplementedError: RecordTable does not support slicing with a step; call .take(indices) instead\n"
    diagnosis = diagnose_text("worker.log", text)
    assert diagnosis.category == "config"


def test_pythons_own_refusal_of_an_object_use_stays_unlabelled() -> None:
    diagnosis = diagnose_text(
        "worker.log", "TypeError: 'tuple' object does not support item assignment\n"
    )
    assert diagnosis.category == "other"


# A TorchScript function whose fused kernel NVRTC compiles at run time; NVRTC cannot open its
# builtins library because the toolkit's lib64 is not on the loader's path.
JIT_LIBRARY_UNOPENED = """\
RuntimeError: The following operation failed in the TorchScript interpreter.
Traceback of TorchScript (most recent call last):
RuntimeError: nvrtc: error: failed to open libnvrtc-builtins.so.12.4.
  Make sure that libnvrtc-builtins.so.12.4 is installed correctly.
"""

# The same interpreter headline over a failure of the function's own inputs.
JIT_SHAPES_REFUSED = """\
RuntimeError: The following operation failed in the TorchScript interpreter.
Traceback of TorchScript (most recent call last):
RuntimeError: The size of tensor a (64) must match the size of tensor b (48) at non-singleton dimension 2
"""


def test_a_jit_compiler_that_cannot_open_its_library_is_the_machine() -> None:
    """docs/labelling.md#config-driver_env-or-weight_load: the interpreter's headline only
    says a compiled function failed; NVRTC's own line names the library it could not open."""
    diagnosis = diagnose_text("console.txt", JIT_LIBRARY_UNOPENED)
    assert_reads(diagnosis, "driver_env", first_error="failed to open libnvrtc-builtins.so.12.4")


def test_the_interpreter_headline_over_a_shape_failure_is_not_the_machine() -> None:
    diagnosis = diagnose_text("console.txt", JIT_SHAPES_REFUSED)
    assert_reads(diagnosis, "shape_mismatch", first_error="must match the size of tensor b")
