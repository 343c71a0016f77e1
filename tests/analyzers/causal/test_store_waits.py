"""Who the ranks waiting at the rendezvous store waited for: the rank whose connect never got
through, or the ranks whose address keys never came."""

from __future__ import annotations

from analyzers.causal.chain import CausalChain
from analyzers.causal.store_waits import keys_waited_for, unreached_store
from tests.analyzers.causal.timed_items import item

UNREACHED = (
    "torch.distributed.DistNetworkError: The client socket has timed out after 10000ms while "
    "trying to connect to (127.0.0.1, 29501)."
)
KEY_WAIT = (
    "torch.distributed.DistStoreError: wait timeout after 10000ms, keys: "
    "/default_pg/0//cpu//0/{peer}"
)
CLIENTS = (
    "torch.distributed.DistStoreError: Timed out after 11 seconds waiting for clients. "
    "{joined}/4 clients joined."
)


def _chain(lines: dict[int, str]) -> CausalChain:
    top = [item(line, rank=rank, order=rank) for rank, line in lines.items()]
    return CausalChain(top[0], top=top)


def test_the_rank_that_could_not_connect_is_the_one_the_others_waited_for():
    chain = _chain({0: KEY_WAIT.format(peer=3), 1: KEY_WAIT.format(peer=3), 3: UNREACHED})
    assert unreached_store(chain).ranks == [3]


def test_a_store_nobody_reached_singles_out_no_one():
    assert unreached_store(_chain({1: UNREACHED, 2: UNREACHED, 3: UNREACHED})) is None


def test_the_stores_count_of_missing_clients_names_a_late_half_of_the_job():
    """Ranks 2 and 3 could not connect while the store counted 2 of 4 clients: as many ranks
    as it missed, so they are the ones, though they are as many as the ranks that reached it."""
    chain = _chain(
        {0: CLIENTS.format(joined=2), 1: KEY_WAIT.format(peer=2), 2: UNREACHED, 3: UNREACHED}
    )
    assert unreached_store(chain).ranks == [2, 3]


def test_waiters_agreeing_on_a_missing_key_name_its_rank():
    chain = _chain({r: KEY_WAIT.format(peer=3) for r in (0, 1, 2)})
    assert keys_waited_for(chain).ranks == [3]


def test_a_key_of_a_rank_that_waited_itself_names_no_one():
    chain = _chain({0: KEY_WAIT.format(peer=1), 1: KEY_WAIT.format(peer=1)})
    assert keys_waited_for(chain) is None


def test_one_waiter_naming_a_key_is_no_agreement():
    assert keys_waited_for(_chain({0: KEY_WAIT.format(peer=3)})) is None
