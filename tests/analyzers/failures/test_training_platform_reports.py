"""What a managed training platform prints about a failed job, and the requests it refuses.

docs/labelling.md#wrappers: SageMaker's failure reason (the SDK's `UnexpectedStatusException`
with `ExitCode` and `ErrorMessage "<first line of the script's error>`), the training toolkit's
`Reporting training FAILURE`, Azure ML's `User program failed with ...` and Vertex AI's replica
exit report only say that the script failed; the error they quote, or the one the script printed
before them, is the first error, and alone they still are the record of the failure.
docs/labelling.md#a-scheduler-that-refuses-the-request: the platform refusing the instance type
the job asks for (the service's validation, the SDK's check of a distribution option) is the
job's request, `config`. Values of our own in the real shapes.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

# The SDK's reason quotes an exception no rule knows; it, not the SDK's headline, is the error.
SDK_REASON_QUOTES_THE_SCRIPT = """\
2025-06-02 11:04:17 Training - Training image download completed. Training in progress.
2025-06-02 11:09:52 Uploading - Uploading generated training model
2025-06-02 11:09:52 Failed - Training job failed
UnexpectedStatusException: Error for Training job clf-ddp-2025-06-02-10-58-03-117: Failed. Reason: AlgorithmError: ExecuteUserScriptError:
ExitCode 1
ErrorMessage "KeyError: 'label_ids'
 Traceback (most recent call last)
 File "train_clf.py", line 188, in <module>
 trainer.train()
"""

# The toolkit in the container reports the exit after the script's own traceback.
TOOLKIT_AFTER_THE_SCRIPT = """\
[1,mpirank:2,algo-1]<stderr>:Traceback (most recent call last):
[1,mpirank:2,algo-1]<stderr>:  File "train_clf.py", line 188, in <module>
[1,mpirank:2,algo-1]<stderr>:    trainer.train()
[1,mpirank:2,algo-1]<stderr>:KeyError: 'label_ids'
2025-06-02 11:09:40,512 sagemaker-training-toolkit ERROR    Reporting training FAILURE
2025-06-02 11:09:40,512 sagemaker-training-toolkit ERROR    ExecuteUserScriptError:
"""

# Alone, the platform's summary is still the one record that the job failed.
AZURE_SUMMARY_ALONE = """\
UserError: User program failed with FileNotFoundError: [Errno 2] No such file or directory: '/mnt/azureml/cr/j/0d3c/exe/wd/data/train.csv'
"""

INSTANCE_TYPE_NOT_OFFERED = """\
botocore.exceptions.ClientError: An error occurred (ValidationException) when calling the CreateTrainingJob operation: Unsupported instance type ml.p4de.24xlarge
"""

FEATURE_NOT_ON_INSTANCE_FAMILY = """\
Traceback (most recent call last):
  File "/opt/py/lib/python3.11/site-packages/sagemaker/estimator.py", line 4071, in _validate_smdataparallel_args
ValueError: SMDataParallel currently does not support g4dn instances.
"""

# Counterexample: a Python type check that says "instance" names no machine.
NOT_A_MACHINE = """\
TypeError: Unsupported instance type for argument device: list
"""


def test_the_sdk_reason_yields_to_the_error_it_quotes() -> None:
    diagnosis = diagnose_text("estimator_fit.log", SDK_REASON_QUOTES_THE_SCRIPT)
    assert diagnosis.first_error is not None
    assert "KeyError: 'label_ids'" in diagnosis.first_error.text
    assert "tail.platform_job_failed" in rules_of(diagnosis)


def test_the_toolkits_report_follows_the_scripts_error() -> None:
    diagnosis = diagnose_text("algo-1.log", TOOLKIT_AFTER_THE_SCRIPT)
    assert diagnosis.first_error is not None
    assert "KeyError: 'label_ids'" in diagnosis.first_error.text


def test_the_platform_summary_alone_is_the_record_of_the_failure() -> None:
    diagnosis = diagnose_text("run_error.txt", AZURE_SUMMARY_ALONE)
    assert diagnosis.first_error is not None
    assert "User program failed with FileNotFoundError" in diagnosis.first_error.text


def test_an_instance_type_the_service_does_not_offer_is_the_request() -> None:
    diagnosis = diagnose_text("notebook_output.txt", INSTANCE_TYPE_NOT_OFFERED)
    assert diagnosis.category == "config"
    assert "cfg.platform_instance_type_refused" in rules_of(diagnosis)


def test_a_distribution_feature_refused_on_an_instance_family_is_the_request() -> None:
    diagnosis = diagnose_text("launch.log", FEATURE_NOT_ON_INSTANCE_FAMILY)
    assert_reads(
        diagnosis,
        "config",
        first_error="does not support g4dn instances",
        rule="cfg.platform_instance_type_refused",
    )


def test_a_type_check_that_says_instance_is_no_machine_refused() -> None:
    diagnosis = diagnose_text("train.log", NOT_A_MACHINE)
    assert "cfg.platform_instance_type_refused" not in rules_of(diagnosis)
