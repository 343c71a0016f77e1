"""A serving process whose own listener cannot take its port.

docs/labelling.md#config-driver_env-or-weight_load: a serving front end that cannot open the
address it was configured to serve on is `config`, with `driver_env` beside it (a leftover
process holding the port). Servers written in Rust (embedding and generation routers, their
metrics exporters) print the failure as an error chain, the context first and the operating
system's answer under `Caused by:`, worded by Rust's standard library with the errno in
brackets (`Address already in use (os error 98)`). That answer is the server's port, not a
collective's: the collective layer's own listen failures (HCCL's `listen on ip[...]`, the c10d
store's `EADDRINUSE`) stay `hccl`. Values are our own.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

METRICS_PORT_TAKEN = """\
2026-03-02T08:14:05.120Z  INFO embed_router: router/src/main.rs:181: Starting model backend
Error: could not start the metrics endpoint

Caused by:
    failed to create HTTP listener: Address already in use (os error 98)
"""

API_PORT_TAKEN = (
    "Error: error binding to 0.0.0.0:8090: error creating server listener: "
    "Address already in use (os error 98)\n"
)

STORE_PORT_TAKEN = (
    "torch.distributed.DistNetworkError: The server socket has failed to listen on any local "
    "network address. port: 29512, useIpv6: 0, code: -98, name: EADDRINUSE, message: address "
    "already in use\n"
)

LISTENING = (
    "2026-03-02T08:14:06.001Z  INFO embed_router: router/src/lib.rs:402: Starting HTTP server: "
    "0.0.0.0:8090\n"
)


def test_a_rust_server_whose_metrics_port_is_taken_is_its_address_setting() -> None:
    diagnosis = diagnose_text("serve.log", METRICS_PORT_TAKEN)
    assert_reads(
        diagnosis,
        "config",
        first_error="Address already in use (os error 98)",
        beside=("driver_env",),
    )
    assert "hccl" not in {alt.category for alt in diagnosis.alternatives}


def test_a_rust_server_whose_api_port_is_taken_is_its_address_setting() -> None:
    diagnosis = diagnose_text("router.log", API_PORT_TAKEN)
    assert diagnosis.category == "config"


def test_the_rendezvous_store_port_stays_the_collective_set_up() -> None:
    assert diagnose_text("launcher.log", STORE_PORT_TAKEN).category == "hccl"


def test_a_server_that_started_listening_reports_no_bind_failure() -> None:
    assert diagnose_text("serve.log", LISTENING).category != "config"
