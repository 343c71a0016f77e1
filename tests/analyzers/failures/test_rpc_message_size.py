"""A message over gRPC's size limit, or over the limit a server or client was given.

docs/labelling.md#a-message-over-the-rpc-librarys-size-limit: gRPC's core asserts that a slice
it sends stays under 4 GiB and aborts the process; smaller configured limits are refused in
words (`Received message larger than max (N vs. M)`). The request or the size options have to
change: `config`, with `other` beside it, and the assertion is the first error, ahead of the
abort it causes. Values and paths are our own.
"""

from __future__ import annotations

from tests.analyzers.excerpts import diagnose_text

ASSERTED = """\
client_upload.py::test_bulk_tensor E0907 11:02:33.104928311 88120 byte_stream.cc:40] assertion failed: slice_buffer->length <= UINT32_MAX
Fatal Python error: Aborted
Current thread 0x00007f2b9c1ff740 (most recent call first):
File ".../python3.10/site-packages/grpc/_channel.py", line 1030 in _blocking
File ".../python3.10/site-packages/grpc/_channel.py", line 1043 in __call__
"""

REFUSED = (
    "grpc._channel._InactiveRpcError: <_InactiveRpcError of RPC that terminated with:\n"
    "\tstatus = StatusCode.RESOURCE_EXHAUSTED\n"
    '\tdetails = "Received message larger than max (209715300 vs. 104857600)"\n'
)


def test_the_4gib_assertion_is_the_message_size_not_a_crash() -> None:
    diagnosis = diagnose_text("client.log", ASSERTED)
    assert diagnosis.category == "config"
    assert diagnosis.first_error is not None
    assert "slice_buffer->length <= UINT32_MAX" in diagnosis.first_error.text
    assert "other" in {alt.category for alt in diagnosis.alternatives}


def test_a_configured_limit_refused_in_words_reads_the_same() -> None:
    diagnosis = diagnose_text("client.log", REFUSED)
    assert diagnosis.category == "config"


def test_a_limit_set_at_start_up_is_no_failure() -> None:
    text = "I0907 11:02:33.104928311 88120 server.cc:210] max receive message length set to 536870912\n"
    diagnosis = diagnose_text("server.log", text)
    assert diagnosis.category != "config"
