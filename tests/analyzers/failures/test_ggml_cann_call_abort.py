"""A ggml CANN backend that stops because a runtime call it checked failed.

docs/labelling.md#a-native-assertion-no-rule-knows. ggml's CANN backend checks every ACL call
with one macro; a call that fails makes it print the error manager's text (`CANN error: <code>:
...`), the device and the function, and then abort in the backend's own source file with the
bare words `CANN error`. The detail line says why and is the first error wherever the paste puts
it; the abort line alone only says that a runtime call of the backend failed, at start-up in
practice (counting, opening or querying the devices), which is the machine's set-up:
`driver_env`, with `config` and `operator` beside it and the answer below the confident band.
Excerpts are ours, in the backend's format.
"""

from __future__ import annotations

from tests.analyzers.excerpts import alternative_labels, assert_reads, diagnose_text, rules_of

ABORT_ALONE = """\
main: loading model
/opt/build/llama.cpp/ggml/src/ggml-cann/ggml-cann.cpp:71: CANN error
"""

ABORT_WITH_DETAIL = """\
/srv/llama.cpp/ggml/src/ggml-cann/ggml-cann.cpp:67: CANN error
CANN error: EZ9903: [PID: 4410] 2026-02-03-04:05:06.111.222 support for Ascend910 is not implemented
  current device: 0, in function ggml_backend_cann_buffer_type_get_alignment at /srv/llama.cpp/ggml/src/ggml-cann/ggml-cann.cpp:1288
"""

# Counterexample: the backend's start-up notes carry the words CANN but report no failure.
CANN_NOTES = """\
ggml_cann_init: found 8 CANN devices
load_tensors: offloaded 33/33 layers to CANN0
"""


def test_a_bare_cann_abort_is_the_machines_set_up() -> None:
    diagnosis = diagnose_text("llama-box.log", ABORT_ALONE)
    assert_reads(
        diagnosis,
        "driver_env",
        first_error="ggml-cann.cpp:71: CANN error",
        rule="env.ggml_cann_call_failed",
        beside=("config",),
    )
    assert diagnosis.confidence < 0.8


def test_the_abort_yields_to_the_detail_printed_beside_it() -> None:
    diagnosis = diagnose_text("llama-server.log", ABORT_WITH_DETAIL)
    assert diagnosis.first_error is not None
    assert "support for Ascend910 is not implemented" in diagnosis.first_error.text
    assert diagnosis.category == "config"


def test_cann_start_up_notes_are_no_failure() -> None:
    diagnosis = diagnose_text("llama-server.log", CANN_NOTES)
    assert "env.ggml_cann_call_failed" not in rules_of(diagnosis)
    assert "driver_env" not in [diagnosis.category, *alternative_labels(diagnosis)]
