"""Every shipped signature matches its examples and none of its counterexamples."""

from __future__ import annotations

import time

import pytest

from analyzers.classify.rules import load_knowledge
from analyzers.ingest.textio import MAX_LINE_CHARS

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


def test_a_long_run_of_library_name_characters_is_searched_at_once() -> None:
    # a loader line whose library name is one long run (a path glued without slashes), cut at
    # the length a line is kept; process_time counts this process's own work, not the load's
    missing = next(sig for sig in KNOWLEDGE.signatures if sig.id == "env.missing_shared_library")
    hostile = "OSError: " + ("libx.so." * 1100)[: MAX_LINE_CHARS - 30] + " : cannot open"
    started = time.process_time()
    missing.search(hostile)
    assert time.process_time() - started < 0.25
    found = missing.search("OSError: libatb.so: cannot open shared object file: No such file")
    assert found is not None
    assert found["lib"] == "libatb.so"
