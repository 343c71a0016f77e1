"""A collective's connection to a peer that nothing answered, with no other failure printed.

docs/labelling.md#a-peer-that-refuses-the-connection: gloo's TCP pair, torch's store client and
the rendezvous log a connect that the peer's host refused (`pair.cc:799] connect
[10.2.0.4]:41877: Connection refused`). Nothing listened at that port: the peer had not started
or had already died, the address or port given was the wrong one, or a firewall on the way
turned the connection down (gloo picks a fresh port for every group it builds). The link is
the collective layer's, `hccl`, below the confident band since the line is a symptom, with
`config` (the addresses and launch settings) and `driver_env` (the host's network and
firewall) beside it. A peer's own error printed before the refusal stays the first error.
Counterexample: a client of an HTTP service that was refused is another rule. Values are our
own.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

GLOO_PAIR_REFUSED = """\
Traceback (most recent call last):
  File "train_dreambooth.py", line 412, in main
    cpu_group = dist.new_group(ranks, backend="gloo")
RuntimeError: [../third_party/gloo/gloo/transport/tcp/pair.cc:799] connect [10.2.0.4]:41877: Connection refused
"""

PEER_FAILED_FIRST = """\
[rank1]: RuntimeError: CUDA error: an illegal memory access was encountered
[rank0]: RuntimeError: [../third_party/gloo/gloo/transport/tcp/pair.cc:799] connect [10.2.0.5]:52110: Connection refused
"""

HTTP_CLIENT_REFUSED = """\
requests.exceptions.ConnectionError: HTTPConnectionPool(host='127.0.0.1', port=8000): Max retries exceeded with url: /v1/models (Caused by NewConnectionError('<urllib3.connection.HTTPConnection object at 0x7f1c>: Failed to establish a new connection: [Errno 111] Connection refused'))
"""


def test_a_refused_gloo_connection_offers_the_settings_and_the_host_beside_it() -> None:
    diagnosis = diagnose_text("train.log", GLOO_PAIR_REFUSED)
    assert_reads(
        diagnosis,
        "hccl",
        first_error="pair.cc:799] connect [10.2.0.4]:41877: Connection refused",
        rule="hccl.connect_refused",
        beside=("config", "driver_env"),
    )
    assert diagnosis.confidence < 0.8


def test_a_peers_own_error_before_the_refusal_stays_first() -> None:
    diagnosis = diagnose_text("train.log", PEER_FAILED_FIRST)
    assert diagnosis.first_error is not None
    assert "illegal memory access" in diagnosis.first_error.text
    assert diagnosis.category == "device_fault"


def test_a_refused_http_client_is_not_the_collectives_link() -> None:
    diagnosis = diagnose_text("client.log", HTTP_CLIENT_REFUSED)
    assert "hccl.connect_refused" not in rules_of(diagnosis)


# The same refusal pasted with the line wrapped after `connect`: the address and the refusal
# stand on the next line and are read with it.
GLOO_PAIR_REFUSED_WRAPPED = """\
RuntimeError: [../third_party/gloo/gloo/transport/tcp/pair.cc:799] connect 
[10.2.0.4]:41877: Connection refused
"""


def test_a_refusal_wrapped_after_connect_reads_as_one_line() -> None:
    diagnosis = diagnose_text("train.log", GLOO_PAIR_REFUSED_WRAPPED)
    assert_reads(
        diagnosis,
        "hccl",
        first_error="connect [10.2.0.4]:41877: Connection refused",
        beside=("config", "driver_env"),
    )
