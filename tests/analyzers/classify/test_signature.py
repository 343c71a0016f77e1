"""Every shipped signature matches its examples and none of its counterexamples."""

from __future__ import annotations

import pytest

from analyzers.classify.rules import load_knowledge

KNOWLEDGE = load_knowledge()
EXAMPLES = [
    pytest.param(sig, line, id=f"{sig.id}#{n}")
    for sig in KNOWLEDGE.signatures
    for n, line in enumerate(sig.examples)
]
COUNTEREXAMPLES = [
    pytest.param(sig, line, id=f"{sig.id}#{n}")
    for sig in KNOWLEDGE.signatures
    for n, line in enumerate(sig.counterexamples)
]


@pytest.mark.parametrize(("signature", "line"), EXAMPLES)
def test_signature_matches_its_example(signature, line: str) -> None:
    assert signature.search(line), f"{signature.id} does not match {line!r}"


@pytest.mark.parametrize(("signature", "line"), COUNTEREXAMPLES)
def test_signature_rejects_its_counterexample(signature, line: str) -> None:
    assert not signature.search(line), f"{signature.id} wrongly matches {line!r}"
