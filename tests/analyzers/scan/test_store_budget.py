"""The log viewer's copy of a run stays within its byte and file budgets."""

from analyzers import AnalyzeOptions, analyze
from analyzers.core.limits import Limits
from analyzers.scan.store_budget import FILE_OVERHEAD, StoreBudget
from tests.analyzers import hostile


def test_files_past_the_file_budget_are_scanned_but_not_copied(tmp_path):
    bundle = hostile.many_members(tmp_path / "m.tar.gz", 30)
    store = tmp_path / "store"

    report = analyze(
        bundle, AnalyzeOptions(workers=1, store_dir=str(store), limits=Limits(store_files=10))
    )

    assert len(report.bundle.files) == 30
    assert len(list(store.glob("*.json"))) == 10
    (hit,) = report.bundle.limits
    assert hit.limit == "store_files"
    assert "first 10 files" in hit.message
    assert "20 more open from the bundle" in hit.message


def test_the_byte_budget_counts_each_file_with_its_overhead(tmp_path):
    budget = StoreBudget(str(tmp_path), limit=3 * FILE_OVERHEAD)

    for i in range(5):  # as the scanner does: ask, copy (here: nothing written), count
        path = f"f{i}.log"
        budget.add(path, budget.dir_for(path))

    assert (budget.kept, budget.not_kept) == (3, 2)
    assert budget.hit().limit == "store_bytes"


def test_no_store_wanted_means_nothing_is_counted():
    budget = StoreBudget(None, limit=1)

    assert budget.dir_for("a.log") is None
    assert budget.hit() is None
