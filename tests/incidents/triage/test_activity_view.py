"""Activity entries read back field by field: states by their label, tags and tickets as
links, a duplicate as a link to the original, long text cut."""

from __future__ import annotations

import pytest

from incidents.accounts.models import Activity
from incidents.triage.activity_view import ActivityValue, activity_line, activity_value


def entry(verb: str, field: str = "", old: str = "", new: str = "") -> Activity:
    return Activity(verb=verb, field=field, old=old, new=new, target="INC-7")


@pytest.mark.parametrize(
    ("kind", "raw", "value"),
    [
        ("status", "", ActivityValue("empty")),
        ("status", "root_caused", ActivityValue("status", "Root caused", [("root_caused", "")])),
        ("status", "someday", ActivityValue("status", "someday", [("someday", "")])),
        (
            "tags",
            "a2, moe",
            ActivityValue(
                "tags", items=[("a2", "/incidents/?tag=a2"), ("moe", "/incidents/?tag=moe")]
            ),
        ),
        (
            "links",
            "https://jira.example.com/browse/NPU-77\nhttps://tracker.example.com/t?id=3",
            ActivityValue(
                "links",
                items=[
                    ("NPU-77", "https://jira.example.com/browse/NPU-77"),
                    ("https://tracker.example.com/t?id=3", "https://tracker.example.com/t?id=3"),
                ],
            ),
        ),
        ("links", "INC-12", ActivityValue("links", items=[("INC-12", "/incidents/INC-12/")])),
        ("prose", "rank 3 **hung**", ActivityValue("prose", "rank 3 **hung**")),
        ("text", "a title", ActivityValue("text", "a title")),
    ],
)
def test_a_value_reads_by_its_kind(kind, raw, value):
    assert activity_value(kind, raw) == value


def test_long_text_is_cut():
    value = activity_value("prose", "x" * 1000)
    assert len(value.text) == 300
    assert value.text.endswith("…")


@pytest.mark.parametrize(
    ("activity", "verb", "field", "old_kind", "new_kind"),
    [
        (
            entry("changed", "triage_status", "new", "investigating"),
            "changed",
            "triage status",
            "status",
            "status",
        ),
        (entry("set", "owner", "", "bob"), "set", "owner", "empty", "text"),
        (entry("cleared", "owner", "bob", ""), "cleared", "owner", "text", "empty"),
        (entry("set", "tags", "", "moe"), "set", "tags", "empty", "tags"),
        (
            entry("set", "tickets", "", "https://j.example/browse/A-1"),
            "set",
            "tickets",
            "empty",
            "links",
        ),
        (entry("set", "root_cause", "", "**x**"), "set", "root cause", "empty", "prose"),
        (
            entry("set", "root_cause_category", "", "hccl"),
            "set",
            "root-cause category",
            "empty",
            "text",
        ),
        (entry("changed", "decision", "a", "b"), "changed", "decision", "prose", "prose"),
        (entry("set", "duplicate_of", "", "INC-3"), "set", "duplicate of", "empty", "links"),
        (entry("commented", "", "", "looks like **HCCL**"), "commented", "", "empty", "prose"),
        (
            entry("reanalyzed", "checkpoint_patterns"),
            "analyzed again",
            "checkpoint_patterns",
            "empty",
            "empty",
        ),
        (entry("renamed", "whatever", "a", "b"), "renamed", "whatever", "text", "text"),
    ],
)
def test_an_entry_reads_as_a_sentence(activity, verb, field, old_kind, new_kind):
    line = activity_line(activity)
    assert (line.verb, line.field, line.old.kind, line.new.kind) == (
        verb,
        field,
        old_kind,
        new_kind,
    )
