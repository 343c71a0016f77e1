"""An offline model's execution that fails, as an inference SDK or an ACL application logs it.

docs/labelling.md#code-only-synchronize-failures: MindX SDK writes the run's failure in its glog
header with the runtime's code in brackets (`[507011][Error code unknown] Failed to model infer
execute`), an ACL sample in its own line (`Execute model(<file>.om) error:507011`). A code that
names no label leaves the model run's failure (`other`, with `config` and `operator` beside it);
it is the first error, and the application's error on the empty result after it is its
consequence. The excerpts follow the real shapes with values of our own.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

MINDX_RUN = """\
Begin to initialize Log.
WARNING: Logging before InitGoogleLogging() is written to STDERR
I20250611 14:02:36.510032  7741 FileUtils.cpp:330] The input file is empty
E20250611 14:02:37.881204  7741 MxOmModelDesc.cpp:861] [507011][Error code unknown] Failed to model infer execute, details seen in CANN document.
E20250611 14:02:37.881290  7741 MxOmModelDesc.cpp:129] Model Infer failed.
E20250611 14:02:37.881302  7741 MxOmModelDesc.cpp:154] Infer failed, result is null
Traceback (most recent call last):
  File "/opt/app/infer.py", line 88, in <module>
    boxes = model.infer(frame)[0]
IndexError: list index out of range
"""

ACL_SAMPLE_RUN = """\
[INFO]  Load model ./models/rtdetr_r18_bs4.om success
[ERROR]  Execute model(./models/rtdetr_r18_bs4.om) error:507011
"""


def test_the_sdks_model_execution_line_goes_before_the_scripts_index_error() -> None:
    diagnosis = diagnose_text("infer.log", MINDX_RUN)
    assert_reads(diagnosis, "other", first_error="Failed to model infer execute")
    assert "507011" in diagnosis.error_codes
    assert {"config", "operator"} <= {alt.category for alt in diagnosis.alternatives}
    assert diagnosis.confidence < 0.5


def test_an_acl_samples_execute_line_is_read_the_same_way() -> None:
    diagnosis = diagnose_text("infer.log", ACL_SAMPLE_RUN)
    assert diagnosis.first_error is not None
    assert "Execute model(" in diagnosis.first_error.text
    assert "acl.offline_model_execute_failed" in rules_of(diagnosis)


def test_a_code_that_names_a_label_decides() -> None:
    text = ACL_SAMPLE_RUN.replace("error:507011", "error:507015")
    diagnosis = diagnose_text("infer.log", text)
    assert diagnosis.category == "aicore_timeout"


def test_the_sdks_restatement_alone_is_no_model_execution_failure() -> None:
    text = "E20250611 14:02:37.881290  7741 MxOmModelDesc.cpp:129] Model Infer failed.\n"
    diagnosis = diagnose_text("infer.log", text)
    assert "acl.offline_model_execute_failed" not in rules_of(diagnosis)
