"""Whether each waiting rank got through to the rendezvous store, and what it waited for there.

    DistStoreError: Timed out after 21 seconds waiting for clients. 2/4 clients joined.
    DistStoreError: wait timeout after 30000ms, keys: /default_pg/0//cpu//0/3

Ranks that reached the store wait there for keys or for clients to join, while a rank given an
address or port where no store listens times out connecting: the few that never connected,
while the others waited in the store, are the ones the others waited for. A rank that reached
the store names what it waited for: gloo's set-up waits for each peer's address under a key
that ends in that peer's rank, so when the waiting ranks agree on the few keys that never
came, those ranks are the ones they waited for.
"""

from __future__ import annotations

import re

from analyzers.causal.chain import MIN_WAITERS, Blame, CausalChain
from analyzers.core.phrases import say, several


def unreached_store(chain: CausalChain) -> Blame | None:
    """The few ranks whose store wait was a connect that never got through, while the other
    waiting ranks had reached the store and waited there (for keys, for clients to join).
    When most or all waiting ranks could not connect, the store itself was out of reach (its
    host down, a wrong address for everyone) and no client is singled out."""
    unreached: set[int] = set()
    reached: set[int] = set()
    for item in [*chain.top, *chain.waited_behind]:
        if item.rank is None:
            continue
        if any(match.signature.unreached for match in item.matches):
            unreached.add(item.rank)
        else:
            reached.add(item.rank)
    reached -= unreached
    if not unreached:
        return None
    if len(unreached) >= len(reached) and len(unreached) != _clients_not_joined(chain):
        return None
    ranks = sorted(unreached)
    return Blame(ranks, say("waited.unreached", many=several(ranks)))


# the store's own count when it gave up: "Timed out after 21 seconds waiting for clients.
# 2/4 clients joined."
_CLIENTS_JOINED = re.compile(r"\b(\d+)/(\d+) clients joined\b")


def _clients_not_joined(chain: CausalChain) -> int | None:
    """How many clients the store counted missing when it gave up, when a client besides its
    own host had joined (the store was reachable): when exactly that many ranks failed to
    connect, they are the missing ones (a whole late node is half the job or more, yet the
    store's count still singles them out). A store that counted only itself was out of
    reach for everyone."""
    for item in [*chain.top, *chain.waited_behind, *chain.cascades]:
        found = _CLIENTS_JOINED.search(item.event.message or item.event.text)
        if found and int(found.group(1)) >= 2:
            return int(found.group(2)) - int(found.group(1))
    return None


# gloo's address key for one rank of a group: <group prefix>//cpu//<n>/<rank>
_PEER_KEY = re.compile(r"\bkeys: .*?//cpu//\d+/(?P<rank>\d+)\b")


def keys_waited_for(chain: CausalChain) -> Blame | None:
    """The ranks whose address keys every rank that waited in the store timed out on, when
    at least two ranks waited and they name the same few peers, none of which failed or
    waited itself (the store's own rank counting clients is a waiter, not the one missing)."""
    named: dict[int, set[int]] = {}
    waiters: set[int] = set()
    for item in [*chain.top, *chain.waited_behind]:
        if item.rank is None:
            continue
        waiters.add(item.rank)
        keys = {int(m["rank"]) for m in _PEER_KEY.finditer(item.event.message or item.event.text)}
        if keys:
            named.setdefault(item.rank, set()).update(keys)
    if len(named) < MIN_WAITERS:
        return None
    agreed = set.intersection(*named.values())
    if not agreed or agreed & waiters or len(agreed) >= len(named):
        return None
    ranks = sorted(agreed)
    return Blame(ranks, say("waited.keys", many=several(ranks)))
