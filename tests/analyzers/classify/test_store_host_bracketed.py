"""A store host given as an IPv6 address still inside its URL brackets is a lookup that
cannot succeed: the resolver parses no bracketed form as a numeric address, so it asks for the
string as a name in both families and the connect never gets an address to try. The warning is
the unresolved rendezvous host (docs/labelling.md, "A rendezvous host with no address"), while
the bare address asked for in the other family stays the harmless lookup it always was.

The lines are c10d's own wording with addresses of our own; the workers sit in the store's
constructor until their timeout, so the warnings are all the log holds.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

BRACKETED = """\
(TrainerWorker pid=41200, ip=[fd00:42:7::2a]) [W1204 08:14:02.118305617 socket.cpp:752] [c10d] The IPv6 network addresses of ([fd00:42:7::1c], 41877) cannot be retrieved (gai error: -2 - Name or service not known).
(TrainerWorker pid=41201, ip=[fd00:42:7::1c]) [W1204 08:14:02.230114905 socket.cpp:752] [c10d] The IPv6 network addresses of ([fd00:42:7::1c], 41877) cannot be retrieved (gai error: -2 - Name or service not known).
"""

# The same address without brackets, asked for its IPv4 form: no IPv4 address exists for it,
# and the IPv6 connect goes ahead, so nothing failed.
BARE_OTHER_FAMILY = """\
[W1204 08:14:02.118305617 socket.cpp:752] [c10d] The IPv4 network addresses of (fd00:42:7::1c, 41877) cannot be retrieved (gai error: -2 - Name or service not known).
"""


def test_a_bracketed_ipv6_store_host_is_an_unresolved_host() -> None:
    diagnosis = diagnose_text("worker.log", BRACKETED)
    assert_reads(diagnosis, "hccl", first_error="[fd00:42:7::1c], 41877")
    assert diagnosis.confidence >= 0.2
    assert {"config", "driver_env"} <= {alt.category for alt in diagnosis.alternatives}


def test_a_bare_ipv6_address_asked_in_the_other_family_is_no_failure() -> None:
    diagnosis = diagnose_text("worker.log", BARE_OTHER_FAMILY)
    assert diagnosis.first_error is None
