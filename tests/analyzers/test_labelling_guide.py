"""The rules that implement a labelling precedence point at a section that exists.

A signature's `guide:` names a heading anchor of docs/labelling.md; renaming a section must
not leave rules pointing nowhere. The tests of each rule cite the same anchors.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import pytest

from analyzers.classify.rules import load_knowledge

GUIDE = Path(__file__).resolve().parents[2] / "docs" / "labelling.md"
KNOWLEDGE = load_knowledge()
TESTS = Path(__file__).parent


@cache
def anchors() -> frozenset[str]:
    """GitHub-style anchors of the guide's headings, read once: the guide does not change
    during a run, and a thousand rules each ask for them."""
    headings = re.findall(r"^#{2,4} (.+)$", GUIDE.read_text(encoding="utf-8"), re.MULTILINE)
    return frozenset(re.sub(r"[^\w\- ]", "", h.strip().lower()).replace(" ", "-") for h in headings)


GUIDED = [sig for sig in KNOWLEDGE.signatures if sig.guide]


def test_several_rules_implement_a_guide_section() -> None:
    assert len({sig.guide for sig in GUIDED}) >= 5


@pytest.mark.parametrize("signature", GUIDED, ids=[sig.id for sig in GUIDED])
def test_a_rule_names_an_existing_guide_section(signature) -> None:
    assert signature.guide in anchors()


def test_every_anchor_cited_by_a_test_exists() -> None:
    cited = set()
    for path in TESTS.rglob("test_*.py"):
        text = path.read_text(encoding="utf-8")
        cited |= set(re.findall(r"labelling\.md#([a-z0-9_-]+)", text))
        for line in re.findall(r"labelling\.md#[^\n]*", text):
            cited |= set(re.findall(r"#([a-z0-9_-]+)", line))
    assert cited, "the rule tests cite the guide"
    assert cited <= anchors(), cited - anchors()
