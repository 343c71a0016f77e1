"""docs/labelling.md#operator-installation-or-platform-limit: an op missing from a package's
own op namespace after the same log said the package's compiled library did not load.

Serving plugins that treat their kernels as optional log the load failure as a warning at
start-up and carry on; the namespace lookup fails much later, after model loading. The
fixtures are written here in that shape (worker prefixes, a vLLM-style level field); package,
library and op names, pids and times are made up.
"""

from __future__ import annotations

from analyzers.classify.block_context import BLOCK_LINES
from analyzers.classify.rules import load_knowledge
from analyzers.core.report import Diagnosis
from tests.analyzers.excerpts import diagnose_text

PREFIX = "(EngineCore_DP0 pid=5120)"
LOAD_WARNING = (
    f"{PREFIX} WARNING 03-02 08:15:41 [kernels.py:52] Failed to import npu_plugin_C:"
    "libnpu_plugin_kernels.so: cannot open shared object file: No such file or directory. "
    "Offloading will be disabled.\n"
)
SYMBOL_WARNING = (
    f"{PREFIX} WARNING 03-02 08:15:41 [kernels.py:52] Failed to import npu_plugin_C:"
    "/opt/venv/lib/python3.11/site-packages/npu_plugin/lib/libnpu_plugin_kernels.so: "
    "undefined symbol: _ZN3c106detail14torchCheckFailEPKcS2_jS2_\n"
)
LOADING = "".join(
    f"{PREFIX} INFO 03-02 08:16:{n:02d} [loader.py:88] Loading safetensors shard {n}/40\n"
    for n in range(1, 41)
)
LOOKUP = (
    f"{PREFIX} ERROR 03-02 08:17:30 [core.py:611] AttributeError: '_OpNamespace' "
    "'_C_plugin' object has no attribute 'paged_copy'\n"
)


def first_text(diagnosis: Diagnosis) -> str:
    assert diagnosis.first_error is not None
    return diagnosis.first_error.text


def test_the_fixture_puts_the_lookup_beyond_a_block() -> None:
    assert LOADING.count("\n") > BLOCK_LINES


def test_a_namespace_miss_after_a_library_that_did_not_load_is_its_consequence() -> None:
    diagnosis = diagnose_text("serve/engine.log", LOAD_WARNING + LOADING + LOOKUP)
    assert diagnosis.category == "driver_env"
    assert "libnpu_plugin_kernels.so: cannot open shared object file" in first_text(diagnosis)
    assert "operator" in {alt.category for alt in diagnosis.alternatives}


def test_a_library_refused_for_a_symbol_reads_as_the_undefined_symbol() -> None:
    diagnosis = diagnose_text("serve/engine.log", SYMBOL_WARNING + LOADING + LOOKUP)
    assert diagnosis.category == "config"
    assert "undefined symbol" in first_text(diagnosis)


def test_a_namespace_miss_alone_stays_the_op_registration() -> None:
    diagnosis = diagnose_text("serve/engine.log", LOADING + LOOKUP)
    assert diagnosis.category == "operator"
    assert "'_OpNamespace'" in first_text(diagnosis)


def test_a_load_failure_printed_after_the_miss_does_not_explain_it() -> None:
    diagnosis = diagnose_text("serve/engine.log", LOADING + LOOKUP + LOAD_WARNING)
    assert "'_OpNamespace'" in first_text(diagnosis)


def test_a_load_failure_in_another_file_does_not_explain_the_miss() -> None:
    from tests.analyzers.excerpts import diagnose_files

    diagnosis = diagnose_files({"serve/other.log": LOAD_WARNING, "serve/engine.log": LOOKUP})
    assert "'_OpNamespace'" in first_text(diagnosis)


def test_the_namespace_signature_names_the_load_failures_it_yields_to() -> None:
    signature = next(s for s in load_knowledge().signatures if s.id == "op.namespace_op_missing")
    assert "env.missing_shared_library" in signature.yields_to_earlier
