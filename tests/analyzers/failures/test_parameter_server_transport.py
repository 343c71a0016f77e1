"""Parameter-server jobs over ps-lite (MXNet's dist kvstore, BytePS) that fail to start.

ps-lite is the transport of the scheduler, servers and workers; its fatal checks come through
dmlc's logging (`.../dmlc/logging.h:N: [time] <file>:<line>: <message>`, then `Stack trace
returned N entries:`), with no level and often no error word. A van that cannot bind its port
is the communication set-up failing (`hccl`, the port setting beside it); a van that finds no
address of its own is the local end of the network (`hccl`, with the interface setting and the
machine beside it); a process started without the launcher's DMLC_* settings, or used before
its role started the van, is the job's own launch settings (`config`).
docs/labelling.md#a-parameter-server-transport-that-cannot-start. Values are our own.
"""

from __future__ import annotations

from tests.analyzers.excerpts import alternative_labels, assert_reads, diagnose_files, diagnose_text

SCHEDULER_BIND_RETRY = """\
BytePS launching scheduler
[10:21:07] src/postoffice.cc:25: Creating Van: zmq
[10:21:07] 3rdparty/ps-lite/include/dmlc/logging.h:276: [10:21:07] src/./zmq_van.h:121: Reached max retry for bind: Address already in use. errno = 98

Stack trace returned 10 entries:
[bt] (0) /opt/byteps/server/c_lib.so(+0x2300b) [0x7f1a2c19000b]
"""

WORKER_WAITING = """\
BytePS launching worker
[10:21:05] src/postoffice.cc:25: Creating Van: zmq
[10:21:05] src/./zmq_van.h:299: Start ZMQ recv thread
"""

KVSTORE_BIND = """\
Traceback (most recent call last):
  File "/opt/mxnet/python/mxnet/kvstore_server.py", line 73, in run
    check_call(_LIB.MXKVStoreRunServer(self.handle, _ctrl_proto(self._controller()), None))
mxnet.base.MXNetError: [04:15:32] src/van.cc:76: Check failed: (my_node_.port) != (-1) bind failed
"""

NO_OWN_ADDRESS = """\
  File "/opt/mxnet/python/mxnet/kvstore.py", line 655, in create
    ctypes.byref(handle)))
mxnet.base.MXNetError: [09:41:12] src/van.cc:63: Check failed: !ip.empty() failed to get ip
"""

NO_LAUNCHER_SETTING = """\
mxnet.base.MXNetError: [06:30:01] src/postoffice.cc:18: Check  notnull: Environment::Get()->find("DMLC_PS_ROOT_URI")
"""

VAN_NOT_STARTED = """\
[16:02:11] ./dmlc-core/include/dmlc/logging.h:215: [16:02:11] ./ps-lite/include/ps/internal/van.h:56: Check failed: ready_ call Start() first
Traceback (most recent call last):
  File "train.py", line 40, in <module>
    print(kv.rank)
mxnet.base.MXNetError: [16:02:11] ./ps-lite/include/ps/internal/van.h:56: Check failed: ready_ call Start() first
"""


def test_a_scheduler_that_cannot_bind_is_the_transports_set_up() -> None:
    diagnosis = diagnose_files(
        {"scheduler.log": SCHEDULER_BIND_RETRY, "worker.log": WORKER_WAITING}
    )
    assert_reads(diagnosis, "hccl", first_error="Reached max retry for bind")
    assert "config" in alternative_labels(diagnosis)


def test_a_kvstore_van_bind_check_reads_the_same() -> None:
    diagnosis = diagnose_text("scheduler.log", KVSTORE_BIND)
    assert_reads(diagnosis, "hccl", first_error="bind failed")
    assert "config" in alternative_labels(diagnosis)


def test_a_van_with_no_address_of_its_own_is_the_local_network() -> None:
    diagnosis = diagnose_text("worker.log", NO_OWN_ADDRESS)
    assert diagnosis.category == "hccl"
    assert {"config", "driver_env"} <= set(alternative_labels(diagnosis))


def test_a_missing_launcher_variable_is_the_jobs_setting() -> None:
    diagnosis = diagnose_text("worker.log", NO_LAUNCHER_SETTING)
    assert_reads(diagnosis, "config", first_error="DMLC_PS_ROOT_URI")


def test_a_van_used_before_its_role_started_it_is_the_launch() -> None:
    diagnosis = diagnose_text("worker.log", VAN_NOT_STARTED)
    assert_reads(diagnosis, "config", first_error="call Start() first")


def test_start_up_notes_of_the_transport_are_no_failure() -> None:
    text = (
        "[10:21:07] src/van.cc:389: Bind to role=scheduler, id=1, ip=10.0.0.4, port=9091, is_recovery=0\n"
        "[10:21:07] src/./zmq_van.h:61: BYTEPS_ZMQ_MAX_SOCKET set to 1024\n"
    )
    diagnosis = diagnose_text("scheduler.log", text)
    assert diagnosis.category not in {"hccl", "config"}
