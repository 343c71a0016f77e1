"""An import of a name the installed package does not hold, however the paste quotes it.

docs/labelling.md#config-driver_env-or-weight_load: `ImportError: cannot import name 'x' from
'y'` says the packages of the job do not fit together (one calls a name another release of the
other does not define): `config`. Python writes the names in single quotes; an issue or a wrapper
that retypes the line often writes them in double quotes, and the finding is the same.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

DOUBLE_QUOTED = (
    "[2026-03-02 09:14:07] Starting engine on device npu\n"
    'ImportError: cannot import name "_stream_pool_helper" from "torch.npu.memory"\n'
)

SINGLE_QUOTED = (
    "[2026-03-02 09:14:07] Starting engine on device npu\n"
    "ImportError: cannot import name '_stream_pool_helper' from 'torch.npu.memory' "
    "(/opt/py311/lib/python3.11/site-packages/torch/npu/memory.py)\n"
)

# A start-up warning that only reports an optional extension it skipped: the job goes on.
WARNING_WITH_REPR = (
    "[2026-03-02 09:14:07] Starting engine on device npu\n"
    "WARNING 03-02 09:14:08 [kernels.py:40] Optional fused kernels disabled: "
    'ImportError(\'cannot import name "fast_rope" from "kern_ext"\')\n'
    "[2026-03-02 09:14:12] Engine ready, serving on port 8000\n"
)


def test_a_double_quoted_import_refusal_is_the_package_set():
    diagnosis = diagnose_text("error.log", DOUBLE_QUOTED)
    assert_reads(diagnosis, "config", first_error="_stream_pool_helper")
    assert diagnosis.confidence >= 0.5


def test_the_single_quoted_line_reads_the_same():
    diagnosis = diagnose_text("error.log", SINGLE_QUOTED)
    assert_reads(diagnosis, "config", first_error="_stream_pool_helper")


def test_a_warning_that_quotes_a_skipped_import_is_no_failure():
    diagnosis = diagnose_text("server.log", WARNING_WITH_REPR)
    assert diagnosis.category != "config", diagnosis.root_cause
