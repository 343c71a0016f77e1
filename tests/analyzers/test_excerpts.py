"""The shared readers and the one assertion the excerpt tests state a reading with."""

from __future__ import annotations

import pytest

from tests.analyzers.excerpts import alternative_labels, assert_reads, diagnose_text, rules_of

HOROVODRUN_KILLED = """\
[1,0]<stdout>:epoch 0 step 120 loss 2.113
Process 2 exit with status code 137.
Terminating remaining workers after failure of Process 2.
"""


def test_rules_of_names_each_rule_that_reads_a_line_once() -> None:
    diagnosis = diagnose_text("horovodrun.log", HOROVODRUN_KILLED)
    assert "dev.horovodrun_process_killed" in rules_of(diagnosis)
    assert None not in rules_of(diagnosis)


def test_alternative_labels_keep_the_order_the_report_gives() -> None:
    diagnosis = diagnose_text("horovodrun.log", HOROVODRUN_KILLED)
    assert alternative_labels(diagnosis) == [alt.category for alt in diagnosis.alternatives]
    assert "oom" in alternative_labels(diagnosis)


def test_assert_reads_states_the_label_the_line_and_what_stands_beside() -> None:
    diagnosis = diagnose_text("horovodrun.log", HOROVODRUN_KILLED)
    assert_reads(
        diagnosis,
        "device_fault",
        first_error="status code 137",
        rule="dev.horovodrun_process_killed",
        beside=("oom",),
    )


@pytest.mark.parametrize(
    ("category", "phrase", "rule", "beside"),
    [
        pytest.param("oom", "status code 137", None, (), id="another-label"),
        pytest.param("device_fault", "status code 139", None, (), id="another-line"),
        pytest.param("device_fault", "status code 137", "dev.nothing", (), id="another-rule"),
        pytest.param("device_fault", "status code 137", None, ("config",), id="nothing-beside"),
    ],
)
def test_assert_reads_fails_showing_what_was_read_instead(
    category: str, phrase: str, rule: str | None, beside: tuple[str, ...]
) -> None:
    diagnosis = diagnose_text("horovodrun.log", HOROVODRUN_KILLED)
    with pytest.raises(AssertionError) as failure:
        assert_reads(diagnosis, category, first_error=phrase, rule=rule, beside=beside)
    message = str(failure.value)
    assert "read device_fault" in message
    assert "Process 2 exit with status code 137." in message
    assert "dev.horovodrun_process_killed" in message
    assert diagnosis.root_cause in message


def test_assert_reads_fails_when_no_line_was_read_first() -> None:
    diagnosis = diagnose_text("train.log", "epoch 0 step 1 loss 2.0\n")
    with pytest.raises(AssertionError, match="no first error"):
        assert_reads(diagnosis, diagnosis.category, first_error="loss")
