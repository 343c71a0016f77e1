"""Each triage field's check, and the refusal that names the field (no database)."""

from __future__ import annotations

import pytest
from django.utils import translation

from incidents.triage.validation import (
    MAX_TAGS,
    TriageInvalid,
    status_clean,
    tags_clean,
    text_clean,
)


def test_tags_are_lowered_hyphenated_and_kept_once_in_their_order():
    assert tags_clean("MoE, a2 cluster\nmoe") == ["moe", "a2-cluster"]


def test_too_many_tags_are_refused_naming_the_field():
    with pytest.raises(TriageInvalid) as refused:
        tags_clean([f"t{n}" for n in range(MAX_TAGS + 1)])

    assert refused.value.field == "tags"


def test_a_text_field_loses_its_nul_bytes_and_none_is_empty():
    assert text_clean("root_cause", "bad\x00 cable") == "bad cable"
    assert text_clean("root_cause", None) == ""


def test_a_refusal_names_the_field_as_the_page_calls_it():
    with translation.override("en"), pytest.raises(TriageInvalid) as refused:
        status_clean("closed-ish")

    assert refused.value.for_people().startswith("Status: 'closed-ish' is not one of new")
