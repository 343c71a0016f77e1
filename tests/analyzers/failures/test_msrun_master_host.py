"""MindSpore's launcher given a master host name that does not resolve.

docs/labelling.md#a-rendezvous-host-with-no-address: msrun resolves the master's host name
itself before the workers meet and stops with its own sentence when the resolver does not know
the name (`RuntimeError: DNS resolution failed: [Errno -2] Name or service not known. Please
check whether the correct host name is input.`). It is torch's store host with no address in
another launcher's words: `hccl`, with `config` (the name the job was given) and `driver_env`
(the cluster's name service) beside it, and the first error. A lookup that only timed out once
and was retried is not this line. Values are our own.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

UNRESOLVED = (
    "RuntimeError: DNS resolution failed: [Errno -2] Name or service not known. Please check "
    "whether the correct host name is input.\n"
)


def test_a_master_name_the_resolver_does_not_know_is_the_rendezvous_host() -> None:
    diagnosis = diagnose_text("msrun_worker_3.log", UNRESOLVED)
    assert_reads(diagnosis, "hccl", first_error="DNS resolution failed")
    assert {"config", "driver_env"} <= {alt.category for alt in diagnosis.alternatives}
    assert diagnosis.confidence >= 0.5
