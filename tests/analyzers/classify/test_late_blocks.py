"""Generic error-manager records after a failure a rule recognised are the writer going down
(`classify.late_blocks`, docs/labelling.md#late-device-blocks).

    [rank0]: ... Watchdog caught collective operation timeout: WorkHCCL(...)   <- first error
    [rank0]: EE9999: [PID: 441] ... rtStreamDestroy execution failed, reason=unknown
"""

from __future__ import annotations

import re
from dataclasses import replace

from analyzers.classify.late_blocks import demote_late_blocks
from analyzers.classify.matches import Classified
from analyzers.classify.rules import load_knowledge
from analyzers.classify.signature import Signature
from analyzers.classify.tiers import TIER_CAUSE, TIER_SYMPTOM, TIER_WRAPPER
from tests.analyzers.classified import line, signature

CODES = load_knowledge().codes

TIMEOUT = signature("demo.watchdog_timeout", "hccl", role="symptom")
TEARDOWN = "EE9999: [PID: 441] rtStreamDestroy execution failed, reason=unknown"


def _timeout_then(record: Signature, code: str = "EE9999") -> list[Classified]:
    return [
        line(TIMEOUT, TIER_SYMPTOM, rank=0, at=10),
        line(record, TIER_CAUSE, rank=0, at=12, text=TEARDOWN, codes=(code,)),
    ]


def test_a_generic_record_after_a_recognised_failure_drops_to_the_wrappers() -> None:
    record = signature("demo.error_manager_record", "other", generic_record=True)
    timeout, teardown = items = _timeout_then(record)
    demote_late_blocks(items, TIER_WRAPPER, CODES)
    assert (timeout.tier, teardown.tier) == (TIER_SYMPTOM, TIER_WRAPPER)


def test_a_record_a_specific_rule_reads_keeps_its_tier() -> None:
    # an AI Core exception's own words: the record says what failed, not that the writer left
    specific = signature("demo.aicore_exception", "aicore_timeout")
    _, record = items = _timeout_then(specific)
    demote_late_blocks(items, TIER_WRAPPER, CODES)
    assert record.tier == TIER_CAUSE


def test_a_generic_record_with_a_specific_code_keeps_its_tier() -> None:
    record = signature("demo.error_manager_record", "other", generic_record=True)
    _, kept = items = _timeout_then(record, code="EI0006")
    demote_late_blocks(items, TIER_WRAPPER, CODES)
    assert kept.tier == TIER_CAUSE


def test_the_code_table_says_which_codes_mark_a_record_of_the_writer_going_down() -> None:
    record = signature("demo.error_manager_record", "other", generic_record=True)
    _, teardown = items = _timeout_then(record, code="EI0006")
    demote_late_blocks(items, TIER_WRAPPER, replace(CODES, internal_errors=re.compile("EI0006")))
    assert teardown.tier == TIER_WRAPPER
