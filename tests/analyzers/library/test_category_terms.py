"""The search words of each failure category (`knowledge/category_terms.yaml`)."""

from __future__ import annotations

import pytest

from analyzers.core.yamlcheck import KnowledgeError
from analyzers.library.category_terms import category_terms
from analyzers.library.data import taxonomy


def test_the_shipped_file_names_only_categories_of_the_taxonomy():
    terms = category_terms()

    assert set(terms) <= taxonomy()
    assert "out of memory" in terms["oom"]
    assert all(isinstance(t, str) and t.strip() == t for words in terms.values() for t in words)


def test_no_word_belongs_to_two_categories():
    seen: dict[str, str] = {}
    for label, words in category_terms().items():
        for word in words:
            assert seen.setdefault(word.lower(), label) == label, word


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("categories:\n  out_of_memory: [OOM]\n", "'out_of_memory' is not a category"),
        ("categories:\n  oom: OOM\n", "field 'oom' must be list"),
        ("categories:\n  oom: ['', OOM]\n", "field 'oom' must list non-empty strings"),
        ("terms: {}\n", "missing field 'categories'"),
    ],
    ids=["unknown-label", "not-a-list", "empty-word", "no-categories"],
)
def test_a_malformed_file_is_refused_naming_the_file(tmp_path, text, message):
    path = tmp_path / "category_terms.yaml"
    path.write_text(text)

    with pytest.raises(KnowledgeError, match=r"category_terms\.yaml") as caught:
        category_terms(path)

    assert message in str(caught.value)
