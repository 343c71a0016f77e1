"""A whole error line pasted into the case search finds its case.

People paste the line their job printed, with its own pid, timestamp, sizes and paths. The
library's cases never hold those, so the search ranks cases by how many of the line's words
they hold (a word most cases hold counts little) instead of asking for every word.

Run on both databases: with DATABASE_URL (PostgreSQL) and without (SQLite).
"""

from __future__ import annotations

import pytest

from incidents.library.query import case_search
from incidents.library.services import cases_load_knowledge
from tests.incidents.library_helpers import make_case, make_library

pytestmark = pytest.mark.django_db


@pytest.fixture
def seeded():
    cases_load_knowledge()


def slugs(text: str) -> list[str]:
    return [hit.case.slug for hit in case_search(text=text, per_page=100).hits]


# Lines as jobs printed them (tests/../corpus), with another pid, time, sizes and paths.
PASTED = [
    pytest.param(
        "(EngineCore_DP0 pid=80412) EZ9999[PID: 80412] 2027-01-03-09:12:44.501.007 (EZ9999):  "
        "HCCL_BUFFSIZE is too SMALL, maxBs = 512, h = 7168, epWorldSize = 16, "
        "localMoeExpertNum = 16, sharedExpertNum = 1, tokenNeedSizeDispatch = 7296, "
        "tokenNeedSizeCombine = 14336, k = 8, NEEDED_HCCL_BUFFSIZE(...) = 1843MB, "
        "HCCL_BUFFSIZE=400MB.[FUNC:MoeDistributeDispatchA3TilingFuncImpl]"
        "[FILE:moe_distribute_dispatch_v2_tiling.cc][LINE:201]",
        "hccl-buffsize-too-small",
        id="hccl-buffsize",
    ),
    pytest.param(
        "[rank5]: EI0006: [PID: 918273] 2027-03-11-22:41:09.114.902 Getting socket times out. "
        "Reason: Remote Rank did not send the data in time. "
        "Please check the reason for the rank being stuck",
        "hccl-socket-timeout-peer-stuck",
        id="socket-timeout",
    ),
    pytest.param(
        "[rank0]:[E0412 13:02:55.118204771 ProcessGroupGloo.cpp:2901] [Rank 0]: "
        "Rank 6 failed to pass monitoredBarrier in 30000 ms",
        "hccl-branch-divergence",
        id="monitored-barrier",
    ),
]


@pytest.mark.parametrize(("line", "case"), PASTED)
def test_a_pasted_error_line_finds_its_case_first(seeded, line, case):
    assert slugs(line)[:1] == [case]


def test_a_pasted_oom_line_finds_the_two_cases_its_words_name_first(seeded):
    line = (
        "(VllmWorkerProcess pid=40021) ERROR 11-21 08:15:33 multiproc_worker_utils.py:712] "
        "RuntimeError: NPU out of memory. Tried to allocate 1.50 GiB (NPU 3; 29.50 GiB total "
        "capacity; 4.02 GiB already allocated; 4.02 GiB current active; 301.00 MiB free; "
        "26.13 GiB reserved in total by PyTorch) If reserved memory is >> allocated memory "
        "try setting max_split_size_mb to avoid fragmentation."
    )

    # It quotes both cases' signatures; which one holds is in its numbers, not its words.
    assert set(slugs(line)[:2]) == {"oom-memory-outside-allocator", "oom-fragmentation"}


def test_two_words_of_the_line_still_find_the_case(seeded):
    assert slugs("monitoredBarrier failed")[:1] == ["hccl-branch-divergence"]


def test_a_case_holding_more_of_the_words_ranks_higher(seeded):
    make_case(
        slug="tokenizer-lock",
        title="Tokenizer lock left behind stalls start-up",
        category="other",
        symptoms=["rank 0 waits on the tokenizer lock file"],
        root_cause="A crashed run left its lock file.",
        fix="Remove the lock file before launch.",
    )
    make_case(
        slug="tokenizer-slow",
        title="Tokenizer loads slowly",
        category="other",
        root_cause="The vocabulary is parsed on every rank.",
        fix="Cache it.",
    )

    found = slugs("tokenizer lock file stalls pid 4711")

    assert found.index("tokenizer-lock") < found.index("tokenizer-slow")


def test_an_excluded_word_still_removes_cases_from_a_long_query():
    make_library()

    found = slugs("dispatch hangs on every rank -tiling")

    assert "mc2-dispatch-experts-per-rank" in found
    assert "moe-dispatch-v1-tiling" not in found


def test_a_line_none_of_whose_words_the_library_holds_finds_nothing():
    make_library()

    result = case_search(text="zqxj 4711 /tmp/wxyz.bin")

    assert (result.hits, result.total) == ([], 0)
