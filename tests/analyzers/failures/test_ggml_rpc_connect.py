"""A ggml RPC client that cannot reach its rpc-server.

docs/labelling.md#a-ggml-rpc-server-the-client-cannot-reach: llama.cpp's RPC backend prints
one bare line per failed connect to a remote device's endpoint. It is the first error: the link
between the hosts (`hccl`), with `config` beside it, since an endpoint with no host or a wrong
port is a slip on the command line. Values are our own, in the backend's real wording.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

UNREACHABLE = """\
llama_model_load_from_file_impl: using device RPC0 (10.1.4.20:50052) - 0 MiB free
load_tensors: offloading 40 repeating layers to GPU
Failed to connect to 10.1.4.20:50052
Failed to connect to 10.1.4.20:50052
"""

EMPTY_HOST = "Failed to connect to :50053\n"


def test_an_rpc_endpoint_that_does_not_answer_is_the_link() -> None:
    diagnosis = diagnose_text("llama-cli.log", UNREACHABLE)
    assert_reads(
        diagnosis,
        "hccl",
        first_error="Failed to connect to 10.1.4.20:50052",
        rule="hccl.ggml_rpc_connect_failed",
        beside=("config",),
    )


def test_an_endpoint_without_a_host_is_read_alike() -> None:
    diagnosis = diagnose_text("llama-cli.log", EMPTY_HOST)
    assert "hccl.ggml_rpc_connect_failed" in rules_of(diagnosis)


def test_other_connect_retries_are_not_the_rpc_backend() -> None:
    diagnosis = diagnose_text(
        "server.log", "Failed to connect to the metrics endpoint, will retry later\n"
    )
    assert "hccl.ggml_rpc_connect_failed" not in rules_of(diagnosis)
