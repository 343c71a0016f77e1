"""The checkpoint rules: `knowledge/checkpoints.yaml` checked as it is loaded, a user's regex
made a rule, and what a rule reads from a message."""

from __future__ import annotations

import re

import pytest

from analyzers.checkpoints.checkpoint_rules import (
    KNOWLEDGE,
    ROLES,
    TRAIN_ROLES,
    CheckpointRule,
    collapse,
    load_knowledge,
    user_rule,
)


def test_every_loaded_rule_has_a_known_role_and_the_training_roles_are_among_them():
    assert {rule.role for rule in load_knowledge().rules} <= ROLES
    assert TRAIN_ROLES <= ROLES


@pytest.mark.parametrize(
    ("broken", "complaint"),
    [
        ("unknown role", "unknown role"),
        ("bad regex", "bad pattern"),
        ("duplicate id", "duplicate ids"),
        ("text group", "text uses unknown"),
        ("unknown list", "which signal_names.yaml lacks"),
    ],
)
def test_knowledge_file_is_validated_on_load(tmp_path, broken, complaint):
    text = KNOWLEDGE.read_text(encoding="utf-8")
    edits = {
        "unknown role": ("role: submodule", "role: sub-module"),
        "bad regex": ("pattern: '\\[default\\d+\\]:'", "pattern: '[default'"),
        "duplicate id": ("id: prefill_passed", "id: layer_passed"),
        "text group": ("text: 'decode step {step} passed'", "text: 'decode step {n} passed'"),
        "unknown list": ("{{killed}}", "{{sigkill}}"),
    }
    old, new = edits[broken]
    assert old in text
    shared = KNOWLEDGE.with_name("signal_names.yaml")
    (tmp_path / shared.name).write_bytes(shared.read_bytes())
    path = tmp_path / "checkpoints.yaml"
    path.write_text(text.replace(old, new), encoding="utf-8")
    with pytest.raises(ValueError, match=complaint):
        load_knowledge(path)


@pytest.mark.parametrize(
    ("source", "role"),
    [(r"blk(?P<layer>\d+) fin", "layer"), (r"stage \w+ ok", "custom")],
)
def test_a_user_regex_is_a_layer_rule_only_when_it_names_a_layer(source, role):
    rule = user_rule(2, source)
    assert (rule.id, rule.role, rule.user) == ("user-2", role, True)


@pytest.mark.parametrize(
    ("source", "complaint"),
    [("layer (\\d+ passed", "not a valid regex"), ("  ", "empty"), ("x*", "matches an empty line")],
)
def test_a_bad_user_regex_is_a_value_error_naming_it(source, complaint):
    with pytest.raises(ValueError, match=complaint) as error:
        user_rule(0, source)
    assert repr(source) in str(error.value)


def test_a_user_rule_searches_the_message_and_keeps_the_match_as_its_text():
    hit = user_rule(0, r"step \d+ done").hit("epoch 1 step 12 done, loss 1.3")
    assert hit is not None
    assert (hit.text, hit.role, hit.counted) == ("step 12 done", "custom", True)


def test_a_rule_reads_its_numbers_and_an_absurd_one_is_no_number():
    rule = CheckpointRule(
        id="layer",
        role="layer",
        regex=re.compile(r"layer (?P<layer>\d+) passed"),
        text="layer {layer} passed",
    )
    assert rule.hit("layer 7 passed").layer == 7
    assert rule.hit("layer 12345678901 passed").layer is None
    assert rule.hit("in layer 7 passed") is None  # a default rule matches the whole message


def test_collapse_keeps_one_space_and_drops_the_closing_mark():
    assert collapse("  norm \t  passed!. ") == "norm passed"
