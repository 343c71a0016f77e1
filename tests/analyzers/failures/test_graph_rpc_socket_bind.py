"""A graph-learning RPC server that cannot bind its socket (DistDGL).

DistDGL starts its graph servers and trainers from an IP config; each binds the RPC socket at
the address and port listed for it. The C++ socket layer logs the failed bind with the
system's error number or message, then the communicator raises it as a `DGLError`. The
transport's own set-up failed: `hccl`, with the IP config (`config`) and the host's network
(`driver_env`) beside it, and the socket line, not the wrapper after it, is the first error.
docs/labelling.md#a-parameter-server-transport-that-cannot-start. Values are our own.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

NOT_THIS_HOSTS_ADDRESS = """\
The number of OMP threads per trainer is set to 8
[08:12:40] /opt/dgl/src/rpc/network/tcp_socket.cc:69: Failed bind on 10.20.3.7:30050 ,errno=99

dgl._ffi.base.DGLError: [08:12:40] /opt/dgl/src/rpc/network/socket_communicator.cc:197: Cannot bind to 10.20.3.7:30050
"""

PORT_HELD = """\
[14:02:11] /opt/dgl/src/rpc/network/tcp_socket.cc:76: Failed bind on 10.20.3.7:30050 , error: Address already in use
"""

WRAPPER_ONLY = """\
Traceback (most recent call last):
  File "train_dist.py", line 310, in <module>
    dgl.distributed.initialize(args.ip_config)
dgl._ffi.base.DGLError: [08:12:40] /opt/dgl/src/rpc/network/socket_communicator.cc:197: Cannot bind to 10.20.3.7:30050
"""

START_UP_NOTES = """\
[08:12:39] /opt/dgl/src/rpc/rpc.cc:140: Sender with NetType~socket is created.
[08:12:39] /opt/dgl/src/rpc/tensorpipe/tp_communicator.cc:102: TPReceiver starts to wait on [tcp://10.20.3.7:30050].
Exception: trainer 1 did not report its rank in time
"""

RULE = "hccl.dgl_rpc_bind_failed"


def test_a_bind_to_an_address_not_on_this_host_is_the_transports_set_up() -> None:
    diagnosis = diagnose_text("server.log", NOT_THIS_HOSTS_ADDRESS)
    assert_reads(diagnosis, "hccl", first_error="Failed bind on", rule=RULE, beside=("config",))


def test_the_newer_wording_with_the_systems_message_reads_the_same() -> None:
    diagnosis = diagnose_text("server.log", PORT_HELD)
    assert_reads(diagnosis, "hccl", first_error="Failed bind on", rule=RULE, beside=("config",))


def test_the_communicators_error_alone_is_read_as_the_same_bind() -> None:
    diagnosis = diagnose_text("trainer.log", WRAPPER_ONLY)
    assert_reads(diagnosis, "hccl", first_error="Cannot bind to", rule=RULE)


def test_the_rpc_layers_start_up_notes_are_no_bind_failure() -> None:
    diagnosis = diagnose_text("server.log", START_UP_NOTES)
    assert RULE not in rules_of(diagnosis)
