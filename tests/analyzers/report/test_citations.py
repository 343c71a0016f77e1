"""The lines a diagnosis cites, with their roles, and the codes they print."""

from __future__ import annotations

from analyzers.causal.chain import CausalChain
from analyzers.classify.rules import load_knowledge
from analyzers.report.citations import evidence_codes, evidence_of, unknown_codes
from tests.analyzers.classified import line, signature


def test_the_first_error_is_the_cause_and_the_lines_it_explains_its_cascades():
    first = line(signature("hccl.timeout", "hccl"), rank=2, at=40)
    later = line(signature("comm.peer_gone", "hccl"), rank=0, at=12)
    chain = CausalChain(first=first, top=[first], cascades=[later])

    cited = evidence_of(chain)

    assert [(e.ref.file, e.ref.line, e.role) for e in cited] == [
        ("rank2.log", 40, "cause"),
        ("rank0.log", 12, "cascade"),
    ]
    assert cited[0].rule == "hccl.timeout"


def test_a_code_the_table_does_not_know_is_kept_as_printed():
    first = line(signature("acl.failed", "device_fault"), rank=0, codes=("ZZ9999",))
    chain = CausalChain(first=first, top=[first])

    known = evidence_codes(chain, load_knowledge())

    assert known == []
    assert unknown_codes(chain, known) == ["ZZ9999"]
