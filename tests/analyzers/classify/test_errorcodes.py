"""The code table says which codes are the error manager's internal errors: the code every
module prints when a call failed inside it, whichever call it was (`internal_errors` in
knowledge/error_codes.yaml)."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from analyzers.classify.errorcodes import load_codes
from analyzers.classify.rules import KNOWLEDGE_DIR
from analyzers.core.yamlcheck import KnowledgeError

CODES = load_codes(KNOWLEDGE_DIR / "error_codes.yaml")


@pytest.mark.parametrize("code", ["EZ9999", "EE9999", "EH9999", "EI9999", "EL9999", "E19999"])
def test_a_modules_internal_error_code_is_internal(code: str) -> None:
    assert CODES.internal(code)


@pytest.mark.parametrize("code", ["EI0006", "EE1002", "EZ9903", "507015", "ERR00100"])
def test_a_code_that_names_its_failure_is_not_internal(code: str) -> None:
    assert not CODES.internal(code)


def _table_with(tmp_path: Path, internal_errors: str) -> Path:
    data = yaml.safe_load((KNOWLEDGE_DIR / "error_codes.yaml").read_text(encoding="utf-8"))
    data["internal_errors"] = internal_errors
    path = tmp_path / "error_codes.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    return path


def test_the_file_says_which_codes_are_internal(tmp_path: Path) -> None:
    codes = load_codes(_table_with(tmp_path, "EE9999"))
    assert codes.internal("EE9999")
    assert not codes.internal("EZ9999")


def test_an_internal_errors_pattern_that_is_no_regex_is_rejected(tmp_path: Path) -> None:
    with pytest.raises(KnowledgeError, match="field 'internal_errors' is not a valid regex"):
        load_codes(_table_with(tmp_path, "E[0-9A-Z9999"))
