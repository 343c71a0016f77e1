"""The keyword index hands a line the same signatures as testing every keyword would."""

from __future__ import annotations

import pytest

from analyzers.classify.rules import load_knowledge

KNOWLEDGE = load_knowledge()


# Each signature's keywords lowered once: the oracle below runs over every signature for
# each of the six thousand example lines.
LOWERED_KEYWORDS = [(s.id, [k.lower() for k in s.keywords]) for s in KNOWLEDGE.signatures]


def _every_keyword_tested(message: str) -> list[str]:
    """What the index must return: each signature with a keyword in the lowered line."""
    low = message.lower()
    return [sid for sid, keywords in LOWERED_KEYWORDS if any(k in low for k in keywords)]


@pytest.mark.parametrize(
    "message",
    [
        "RuntimeError: NPU out of memory. Tried to allocate 2.00 GiB",
        "[ERROR] HCCL(1234,python):2026-11-29-07:24:22.190.123 [hccl_communicator.cc:88] EI0006",
        "E39999: Inner Error! aicore timeout, AclrtSynchronizeDevice failed 507014",
        '  File "/usr/lib/python3.11/site-packages/torch/nn/modules/module.py", line 1518',
        "İSTANBUL rank 3 says ok",  # lower() changes the length of some letters
        "ab",
        "",
    ],
)
def test_signature_index_finds_what_testing_every_keyword_finds(message: str) -> None:
    found = [signature.id for signature in KNOWLEDGE.index.candidates(message)]
    assert found == _every_keyword_tested(message)


def test_signature_index_on_every_example_and_counterexample() -> None:
    lines = [line for sig in KNOWLEDGE.signatures for line in sig.examples + sig.counterexamples]
    for line in lines:
        found = [signature.id for signature in KNOWLEDGE.index.candidates(line)]
        assert found == _every_keyword_tested(line), line
