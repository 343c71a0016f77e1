"""A job log that ends waiting at the store for ranks that never joined
(`analyzers.formats.store_wait`).

docs/labelling.md#a-rank-that-never-reached-the-store: the store barrier's wait, last in the
log and with fewer processes counted than the world holds, is a rank left waiting for the
others to check in; a count that reached the world size, a wait followed by more progress, or
the barrier's timeout error say something else. Values made up.
"""

from __future__ import annotations

import pytest

from analyzers.formats.lines import parse_line
from analyzers.formats.store_wait import waiting_at_store

HEAD = "[2026-10-02 11:40:10,502][torch.distributed.distributed_c10d][INFO] - "
WAIT = (
    "Waiting in store based barrier to initialize process group for rank: 0, key: "
    "store_based_barrier_key:1 (world_size={size}, worker_count={joined}, timeout=0:30:00)"
)


@pytest.mark.parametrize(
    ("text", "counts"),
    [
        (HEAD + WAIT.format(size=4, joined=3), (3, 4)),
        ("INFO:torch.distributed.distributed_c10d:" + WAIT.format(size=8, joined=1), (1, 8)),
        (HEAD + WAIT.format(size=4, joined=4), None),
        (HEAD + "Rank 0: Completed store-based barrier for key:store_based_barrier_key:1", None),
        ("epoch 0 step 12 loss 2.31", None),
        ("", None),
    ],
)
def test_only_a_wait_short_of_the_world_is_read(text: str, counts: tuple[int, int] | None) -> None:
    found = waiting_at_store([(7, parse_line(text))])
    assert (found[2:] if found else None) == counts


def test_the_last_line_with_text_decides() -> None:
    texts = [HEAD + WAIT.format(size=2, joined=1), "", " "]
    tail = [(n, parse_line(text)) for n, text in enumerate(texts, 1)]
    found = waiting_at_store(tail)
    assert found is not None
    assert found[0] == 1
    later = [*tail, (4, parse_line("[rank0] step 1 loss 3.02"))]
    assert waiting_at_store(later) is None
