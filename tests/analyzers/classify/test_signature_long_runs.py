"""Signatures that name a library (`[\\w.+-]+\\.so`) read a long run of name characters once:
they are tried only where the run starts, and still name the whole library."""

import pytest

from analyzers.classify.rules import load_knowledge

CASES = [
    (
        "cfg.extension_symbol_mismatch",
        "x " + "a." * 4000 + " undefined symbol: _ZN3c104cuda",
        {"lib": None, "cut_lib": None},
    ),
    (
        "cfg.extension_symbol_mismatch",
        "ImportError: " + "b" * 8000 + "libtorch.so: undefined symbol: _ZN3c10",
        {"lib": "b" * 8000 + "libtorch.so", "cut_lib": None},
    ),
    (
        "env.shared_library_static_tls",
        "_" * 8192 + " cannot allocate memory in static TLS block",
        {"lib": None},
    ),
    (
        "env.shared_library_static_tls",
        "OSError: " + "c" * 8000 + "libgomp.so.1: cannot allocate memory in static TLS block",
        {"lib": "c" * 8000 + "libgomp.so.1"},
    ),
]


@pytest.mark.parametrize(("signature_id", "line", "groups"), CASES)
def test_library_signature_on_a_long_run(signature_id: str, line: str, groups: dict) -> None:
    signature = next(s for s in load_knowledge().signatures if s.id == signature_id)
    found = signature.search(line)
    assert found is not None
    assert {name: found.group(name) for name in groups} == groups


def test_a_long_run_without_the_library_suffix_matches_nothing() -> None:
    signature = next(
        s for s in load_knowledge().signatures if s.id == "env.shared_library_static_tls"
    )
    assert signature.search("_" * 8192 + ": static TLS") is None
