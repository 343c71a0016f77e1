"""The excerpt set's halves: tuned on one, scored on the other, the same cut every build."""

import json
from pathlib import Path

from analyzers.labelled_sets import samples
from bench.excerpt_halves import HALVES, half_of, split


def write_case(root: Path, folder: str, source: str) -> None:
    case = root / "cases" / folder
    case.mkdir(parents=True)
    (case / "rank0.log").write_text("RuntimeError: boom\n", encoding="utf-8")
    truth = {"category": "other", "first_error_contains": "boom", "source": source}
    (case / "truth.json").write_text(json.dumps(truth), encoding="utf-8")


def test_a_case_keeps_its_half_when_a_new_test_renumbers_the_folders(tmp_path: Path) -> None:
    sources = [f"tests/analyzers/x/test_y.py::test_{n}#0" for n in range(40)]
    for n, source in enumerate(sources):
        write_case(tmp_path / "before", f"e{n:04d}", source)
        write_case(tmp_path / "after", f"e{n + 1:04d}", source)  # one test added in front
    split(tmp_path / "before", tmp_path / "a")
    split(tmp_path / "after", tmp_path / "b")

    def halves(root: Path) -> dict[str, str]:
        return {sample.truth["source"]: half for half in HALVES for sample in samples(root / half)}

    assert halves(tmp_path / "a") == halves(tmp_path / "b")


def test_every_case_lands_in_exactly_one_half_and_both_halves_are_used(tmp_path: Path) -> None:
    for n in range(40):
        write_case(tmp_path / "set", f"e{n:04d}", f"tests/t.py::test_{n}#0")
    counts = split(tmp_path / "set", tmp_path / "halves")
    names = [s.name for half in HALVES for s in samples(tmp_path / "halves" / half)]
    assert sorted(names) == [f"e{n:04d}" for n in range(40)]
    assert counts["studied"] > 0
    assert counts["unseen"] > 0


def test_the_half_of_a_name_is_fixed_by_its_hash_not_by_the_run() -> None:
    # the first byte of SHA-256: 0xc8 (even) for the first name, 0x7d (odd) for the second
    assert half_of("tests/t.py::test_1#0") == "studied"
    assert half_of("tests/t.py::test_0#0") == "unseen"
