"""A case's index document (pure functions, no database)."""

from __future__ import annotations

from incidents.library.search_documents import case_document, signature_text
from incidents.library.search_text import cjk_spaced, key_lexeme


def test_document_weights_title_body_and_detail_apart():
    doc = case_document(
        {
            "title": "显存不足",
            "symptoms": ["OOM at step 3"],
            "signatures": [r"HCCL_BUFFSIZE\s+is too small"],
            "codes": ["507014"],
            "category": "oom",
            "category_terms": ["out of memory"],
            "root_cause": "leak",
            "fix": "restart",
        }
    )

    # What names the failure (title, symptoms, category) outweighs how it is matched.
    assert doc.title == cjk_spaced("显存不足 \nOOM at step 3 \noom \nout of memory")
    assert "HCCL_BUFFSIZE is too small" in doc.body
    assert "507014" in doc.body
    assert "OOM" not in doc.body
    assert doc.detail.split()[:2] == ["leak", "restart"]
    assert doc.keys == key_lexeme("507014")


def test_a_signature_regex_is_indexed_as_its_words():
    assert signature_text(r"monitored_?barrier\s+timed out") == "monitored_ barrier timed out"
