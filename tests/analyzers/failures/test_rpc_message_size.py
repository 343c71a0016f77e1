"""A message over gRPC's size limit, or over the limit a server or client was given.

docs/labelling.md#a-message-over-the-rpc-librarys-size-limit: gRPC's core asserts that a slice
it sends stays under 4 GiB and aborts the process; smaller configured limits are refused in
words (`Received message larger than max (N vs. M)`). The request or the size options have to
change: `config`, with `other` beside it, and the assertion is the first error, ahead of the
abort it causes. Values and paths are our own.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

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
    assert_reads(
        diagnosis, "config", first_error="slice_buffer->length <= UINT32_MAX", beside=("other",)
    )


def test_a_configured_limit_refused_in_words_reads_the_same() -> None:
    diagnosis = diagnose_text("client.log", REFUSED)
    assert diagnosis.category == "config"


def test_a_limit_set_at_start_up_is_no_failure() -> None:
    text = "I0907 11:02:33.104928311 88120 server.cc:210] max receive message length set to 536870912\n"
    diagnosis = diagnose_text("server.log", text)
    assert diagnosis.category != "config"


# protobuf refuses to serialise a message over 2 GB and names the message type and its size;
# a collective over gRPC (a worker-to-worker buffer of a multi-worker strategy) or a cluster
# runtime's key-value request hits it when one tensor is too large. The peers then find the
# sender "down": that check and its deadline are the aftermath. Values are our own.
PROTOBUF_CAP = """\
Epoch 1/5
[libprotobuf ERROR external/com_google_protobuf/src/google/protobuf/message_lite.cc:451] tensorflow.RecvBufRespExtra exceeded maximum protobuf size of 2GB: 3221225600
WARNING:tensorflow:/job:worker/replica:0/task:2 seems down, retrying 1/3
ERROR:tensorflow:Cluster check alive failed, /job:worker/replica:0/task:2 is down, aborting collectives: Deadline Exceeded
"""


def test_protobufs_2gb_cap_is_the_message_size_ahead_of_the_peer_check() -> None:
    diagnosis = diagnose_text("worker-0.log", PROTOBUF_CAP)
    assert_reads(
        diagnosis, "config", first_error="exceeded maximum protobuf size of 2GB", beside=("other",)
    )


def test_a_python_protobuf_refusal_reads_the_same() -> None:
    text = (
        "ValueError: Message ray.rpc.DataRequest exceeds maximum protobuf size of 2GB: 2415919200\n"
    )
    diagnosis = diagnose_text("driver.log", text)
    assert diagnosis.category == "config"


def test_a_large_message_warning_is_no_size_refusal() -> None:
    text = (
        "[libprotobuf WARNING google/protobuf/io/coded_stream.cc:604] Reading dangerously large "
        "protocol message.  If the message turns out to be larger than 2147483647 bytes, parsing "
        "will be halted for security reasons.\n"
    )
    diagnosis = diagnose_text("worker-0.log", text)
    assert diagnosis.category != "config"
