"""Reading a labelled set: its case folders and torch bundles, each with its truth."""

from __future__ import annotations

import tarfile

from analyzers.labelled_sets import Sample, as_bundle, is_corpus, samples


def test_a_set_lists_its_case_folders_and_torch_bundles_with_their_truth(tmp_path) -> None:
    case = tmp_path / "cases" / "d01"
    case.mkdir(parents=True)
    (case / "truth.json").write_text('{"category": "oom"}', encoding="utf-8")
    (tmp_path / "cases" / "d02").mkdir()  # no truth yet: not a sample
    torch = tmp_path / "torch"
    torch.mkdir()
    (torch / "t01.tar.gz").write_bytes(b"")
    (torch / "t01.truth.json").write_text('{"category": "hccl"}', encoding="utf-8")

    found = samples(tmp_path)

    assert is_corpus(tmp_path)
    assert [(s.name, s.truth["category"]) for s in found] == [("d01", "oom"), ("t01", "hccl")]
    assert found[1].bundle == torch / "t01.tar.gz"


def test_a_folder_without_cases_or_torch_is_no_set(tmp_path) -> None:
    assert not is_corpus(tmp_path)


def test_a_case_packs_logs_in_subfolders_but_never_its_truth(tmp_path) -> None:
    """Held-out cases keep the posted files under `logs/`; the archive keeps that path and
    leaves the answer out. A file named like the truth deeper down is a log, not the answer."""
    case = tmp_path / "cases" / "h01"
    (case / "logs" / "node1").mkdir(parents=True)
    (case / "truth.json").write_text('{"category": "hccl"}', encoding="utf-8")
    (case / "logs" / "train.log").write_text("EI0006 Getting socket times out\n", encoding="utf-8")
    (case / "logs" / "node1" / "truth.json").write_text("{}", encoding="utf-8")
    with (
        as_bundle(Sample("h01", case, {"category": "hccl"})) as archive,
        tarfile.open(archive) as tar,
    ):
        names = sorted(tar.getnames())
    assert names == ["h01/logs/node1/truth.json", "h01/logs/train.log"]
