"""A worker's start script that asks the resolver for the master before the launcher runs.

Read by docs/labelling.md#a-rendezvous-host-with-no-address: the query tool's answer for a
name with no address (busybox or BIND nslookup, host, ping) is the earliest record of a store
host that cannot be found, `hccl` with `config` and `driver_env` beside it. The excerpts follow
the tools' real output around a torchrun traceback cut by the paste, with names of our own.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

RULE = "hccl.store_host_tool_lookup_failed"

BUSYBOX_WORKER = """\
nslookup: can't resolve '(null)': Name does not resolve
nslookup: can't resolve 'pretrain-8k2m-master-0': Name does not resolve
master not ready yet, retrying in 5s

Traceback (most recent call last):
  File "/usr/local/bin/torchrun", line 8, in <module>
    sys.exit(main())
  File "/usr/local/lib/python3.11/site-packages/torch/distributed/run.py", line 892, in run
    elastic_launch(
  File "/usr/local/lib/python3.11/site-packages/torch/distributed/elastic/metrics/api.py", line 138, in wrapper
    result = f(*args
"""


def test_a_start_script_that_cannot_resolve_the_master_is_the_store_host() -> None:
    diagnosis = diagnose_text("worker-1.log", BUSYBOX_WORKER)
    assert_reads(diagnosis, "hccl", first_error="'pretrain-8k2m-master-0'", rule=RULE)
    assert {"config", "driver_env"} <= {a.category for a in diagnosis.alternatives}


def test_other_resolver_tools_say_the_same() -> None:
    for line in (
        "** server can't find sft-7-master-0.jobs.svc.cluster.local: NXDOMAIN",
        "Host sft-7-master-0 not found: 3(NXDOMAIN)",
        "ping: sft-7-master-0: Name or service not known",
    ):
        diagnosis = diagnose_text("start.log", f"waiting for the master\n{line}\n")
        assert diagnosis.category == "hccl", line
        assert diagnosis.first_error is not None
        assert line in diagnosis.first_error.text
        assert RULE in rules_of(diagnosis), line


def test_busybox_naming_its_own_server_or_a_reverse_lookup_is_no_failure() -> None:
    text = (
        "nslookup: can't resolve '(null)': Name does not resolve\n"
        "** server can't find 7.0.20.10.in-addr.arpa: NXDOMAIN\n"
        "Name:      pretrain-8k2m-master-0\n"
        "Address 1: 10.20.0.7 pretrain-8k2m-master-0.jobs.svc.cluster.local\n"
    )
    diagnosis = diagnose_text("start.log", text)
    assert RULE not in rules_of(diagnosis)
    assert diagnosis.first_error is None


def test_an_info_line_about_resolving_is_not_read() -> None:
    text = "[rank3] INFO ping: master pretrain-8k2m-master-0 answered in 0.4 ms\n"
    diagnosis = diagnose_text("rank3.log", text)
    assert RULE not in rules_of(diagnosis)
