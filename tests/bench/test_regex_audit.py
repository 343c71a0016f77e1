"""The regex audit's inputs: hostile lines of the length asked, every pattern it must try."""

from bench.regex_audit import analyzer_patterns, hostile_lines


def test_every_hostile_line_has_the_length_asked() -> None:
    lines = dict(hostile_lines(1000))
    assert len(lines) > 10
    assert {len(line) for line in lines.values()} == {1000}


def test_module_patterns_and_signature_regexes_are_both_audited() -> None:
    names = [name for name, _ in analyzer_patterns()]
    assert "analyzers.formats.npu_smi._USAGE" in names
    assert any(name.startswith("signature ") for name in names)
