"""A start script that reads the host's address from a network interface that is not there.

Launch scripts that wrap a distributed job often look up the local IP from an interface named
by a setting (a default such as `eth0`), using `ifconfig` or their own helper, and stop when
the host has no such interface. The setting names the wrong interface: `config`, with
`driver_env` (the host's interfaces) and `hccl` beside it, and the interface tool's refusal is
the first error (docs/labelling.md#a-rendezvous-host-with-no-address). Values of our own.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

RULE = "env.launch_interface_missing"


def test_the_interface_tools_refusal_is_the_first_error() -> None:
    text = (
        "ens7: error fetching interface information: Device not found\n"
        "[ERROR] [ 26-03-02 08:15:40 ] can not get IP from ens7\n"
    )
    diagnosis = diagnose_text("launch.log", text)
    assert_reads(
        diagnosis,
        "config",
        first_error="ens7: error fetching interface information",
        rule=RULE,
    )


def test_the_scripts_own_line_alone_is_read_the_same_way() -> None:
    diagnosis = diagnose_text("launch.log", "ERROR: cannot get IP from bond0, exiting\n")
    assert_reads(diagnosis, "config", first_error="cannot get IP from bond0", rule=RULE)


def test_an_interface_listing_is_no_failure() -> None:
    text = (
        "ens7: flags=4163<UP,BROADCAST,RUNNING,MULTICAST>  mtu 1500\n"
        "        inet 10.20.0.7  netmask 255.255.0.0  broadcast 10.20.255.255\n"
        "INFO got IP 10.20.0.7 from ens7\n"
    )
    diagnosis = diagnose_text("launch.log", text)
    assert RULE not in rules_of(diagnosis)
