"""Failures of torch's RPC framework itself: its transport and its own checks.

docs/labelling.md#an-rpc-agent-that-cannot-reach-its-peer: the TensorPipe agent's warning that
it could not connect to (or hear back from) a peer worker is `hccl`, `config` and `driver_env`
beside it, and it leads the exception the call then raises with the same words.
A brpc channel of a C++ serving engine that never connects to its peer (`[E112]Not connected
to ... yet`, `[E111]Fail to connect ...: Connection refused`) is read the same way, with `config`
and `hang` beside it.
docs/labelling.md#an-rdma-stack-that-refuses-tensorpipe-at-start: a verbs call refused while
TensorPipe starts its InfiniBand transport is the host's set-up (`driver_env`), whatever the
C++ lambda's name `operator()` suggests.
docs/labelling.md#a-check-inside-the-rpc-framework-that-fails: an internal assert on the RPC
thread pool or in its request callback is `other`, not a missing start-up step.

Fixtures are written in the shape of the agent's output, with names and numbers of our own.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_files, diagnose_text

# A parameter-server job across two hosts: the trainer cannot open a pipe to the server it
# calls, and rpc_sync re-raises the agent's reason.
TRAINER_REFUSED = """\
trainer0: joined RPC group of 3 as rank 1
[W tensorpipe_agent.cpp:650] RPC agent for trainer0 encountered error when sending outgoing request #0 to ps0: ECONNREFUSED: connection refused
Traceback (most recent call last):
  File "/srv/ps/trainer.py", line 88, in <module>
    weights = rpc.rpc_sync("ps0", fetch_weights, args=(step,))
  File "/opt/env/lib/python3.10/site-packages/torch/distributed/rpc/api.py", line 820, in rpc_sync
    return fut.wait()
RuntimeError: ECONNREFUSED: connection refused
"""

# Two hosts over InfiniBand: the learner's pipe to the actor carries nothing and the RDMA
# retries run out; the actor only sees the pipe close. The learner's traceback is cut.
LEARNER_RETRIES = {
    "logs/actor.log": (
        "[W tensorpipe_agent.cpp:532] RPC agent for actor encountered error when accepting"
        " incoming pipe: eof (this error originated at"
        " tensorpipe/transport/ibv/connection_impl.cc:300)\n"
    ),
    "logs/learner.log": (
        "[W tensorpipe_agent.cpp:942] RPC agent for learner encountered error when reading"
        " incoming response from actor: transport retry counter exceeded (this error"
        " originated at tensorpipe/transport/ibv/connection_impl.cc:480)\n"
        "Traceback (most recent call last):\n"
        '  File "/srv/rl/learner.py", line 12, in <module>\n'
        '    rpc.init_rpc("learner", rank=0, world_size=2)\n'
        '  File "/opt/env/lib/python3.10/site-packages/torch/distributed/rpc/__init__.py",'
        " line 200, in init_rpc\n"
        "    _init_rpc_backend(backend, store, name, rank, world_size, rpc_backend_options)\n"
    ),
}

# Many workers starting RPC on one host at once: rank 0's listener turns connects away and
# the interleaved tracebacks leave the exception's message on a line of its own.
WORKERS_TURNED_AWAY = """\
  File "/opt/env/lib/python3.9/site-packages/torch/distributed/rpc/api.py", line 230, in _all_gather
    rpc_sync(
RuntimeError
  File "/opt/env/lib/python3.9/site-packages/torch/distributed/rpc/api.py", line 812, in rpc_sync
: connect: Resource temporarily unavailable (this error originated at tensorpipe/common/socket.cc:114)
"""

IBV_REFUSED = """\
Traceback (most recent call last):
  File "/srv/pp/launch.py", line 30, in <module>
    rpc.init_rpc("stage1", rank=1, world_size=4)
  File "/opt/env/lib/python3.8/site-packages/torch/distributed/rpc/api.py", line 118, in _init_rpc_states
    _set_and_start_rpc_agent(agent)
RuntimeError: In operator() at tensorpipe/common/ibv.h:170 "": Operation not supported
"""

THREAD_POOL_ASSERT = """\
[E thread_pool.cpp:110] Exception in thread pool task: !completed() INTERNAL ASSERT FAILED at "/build/aten/src/ATen/core/ivalue_inl.h":530, please report a bug to PyTorch.
Exception raised from setErrorInternal at /build/aten/src/ATen/core/ivalue_inl.h:530 (most recent call first):
frame #0: c10::Error::Error(c10::SourceLocation, std::string) + 0x40 (0x7f11aa0102f0 in /opt/env/lib/libc10.so)
"""

OWNER_NEVER_CREATED = (
    "[E request_callback_no_python.cpp:560] Received error while processing request type 260:"
    ' false INTERNAL ASSERT FAILED at "/build/torch/csrc/distributed/rpc/rref_context.cpp":390,'
    " please report a bug to PyTorch. Expected OwnerRRef with id"
    " GloballyUniqueId(created_on=1, local_id=7) to be created.\n"
)


def test_a_refused_pipe_to_a_peer_is_the_connection_and_its_warning_leads() -> None:
    diagnosis = diagnose_text("trainer0.log", TRAINER_REFUSED)
    assert_reads(diagnosis, "hccl", first_error="RPC agent for trainer0")
    assert {"config", "driver_env"} <= {alt.category for alt in diagnosis.alternatives}


def test_rdma_retries_that_run_out_lead_the_peer_that_saw_its_pipe_close() -> None:
    diagnosis = diagnose_files(LEARNER_RETRIES)
    assert_reads(diagnosis, "hccl", first_error="transport retry counter exceeded")


def test_connects_turned_away_at_start_are_read_from_the_split_message() -> None:
    diagnosis = diagnose_text("console.log", WORKERS_TURNED_AWAY)
    assert_reads(diagnosis, "hccl", first_error="Resource temporarily unavailable")


def test_a_verbs_call_refused_at_rpc_start_is_the_host() -> None:
    diagnosis = diagnose_text("stage1.log", IBV_REFUSED)
    assert_reads(diagnosis, "driver_env", first_error="tensorpipe/common/ibv.h")


def test_an_assert_on_the_rpc_thread_pool_is_the_framework() -> None:
    diagnosis = diagnose_text("worker1.log", THREAD_POOL_ASSERT)
    assert_reads(diagnosis, "other", first_error="Exception in thread pool task")


def test_an_owner_reference_never_created_is_the_framework() -> None:
    diagnosis = diagnose_text("ps0.log", OWNER_NEVER_CREATED)
    assert_reads(diagnosis, "other", first_error="Expected OwnerRRef")


def test_pipes_closing_and_transport_start_up_are_no_failures() -> None:
    text = (
        "[W tensorpipe_agent.cpp:726] RPC agent for ps0 encountered error when reading incoming"
        " request from trainer2: eof (this error originated at"
        " tensorpipe/transport/shm/connection_impl.cc:259)\n"
        "V0402 10:11:12.000100 4410 tensorpipe/core/context_impl.cc:81] Context worker0 is"
        " registering transport ibv\n"
    )
    diagnosis = diagnose_text("ps0.log", text)
    assert diagnosis.category not in {"hccl", "driver_env"}


# A C++ serving engine started on two nodes: the master's brpc channel to a worker it expects
# never connects, and every retry is appended to the same glog line.
BRPC_NOT_CONNECTED = """\
I20260301 09:10:05.100200  1207 master.cpp:140] Waiting for 2 workers to register
E20260301 09:10:11.223344  1207 comm_channel.cpp:46] Hello request failed: [E112]Not connected to 10.3.0.21:38011 yet, server_id=7 [R1][E112]Not connected to 10.3.0.21:38011 yet, server_id=7 [R2][E112]Not connected to 10.3.0.21:38011 yet, server_id=7
E20260301 09:10:14.223501  1207 comm_channel.cpp:46] Hello request failed: [E112]Not connected to 10.3.0.21:38011 yet, server_id=7 [R1][E112]Not connected to 10.3.0.21:38011 yet, server_id=7 [R2][E112]Not connected to 10.3.0.21:38011 yet, server_id=7
"""

BRPC_REFUSED = """\
E20260301 09:10:11.500100  1311 worker_client.cpp:88] Init request failed: [E111]Fail to connect SocketId=8589934593@10.3.0.22:38013: Connection refused
"""


def test_a_brpc_channel_that_never_connects_is_the_peer_link() -> None:
    for text in (BRPC_NOT_CONNECTED, BRPC_REFUSED):
        diagnosis = diagnose_text("logs/master.log", text)
        assert diagnosis.category == "hccl"
        assert diagnosis.first_error is not None
        assert "Fail to connect SocketId" in diagnosis.first_error.text or (
            "Hello request failed: [E112]" in diagnosis.first_error.text
            and diagnosis.first_error.line == 2
        )
        assert {"config", "hang"} <= {a.category for a in diagnosis.alternatives}


# The same refusal where the pasted traceback stops right after the error's name: the
# exception still restates the agent's warning and must not hide it.
TRAINER_REFUSED_CUT = """\
[W tensorpipe_agent.cpp:641] RPC agent for worker0 encountered error when sending outgoing request #0 to worker1: ECONNREFUSED: connection refused
Traceback (most recent call last):
  File "/home/u/rpc_demo.py", line 41, in <module>
    rpc.rpc_sync("worker1", ping, args=(t,))
  File "/opt/env/lib/python3.8/site-packages/torch/distributed/rpc/api.py", line 752, in rpc_sync
    return fut.wait()
RuntimeError: ECONNREFUSED:
"""


def test_an_exception_cut_after_the_errors_name_still_leads_back_to_the_agents_warning() -> None:
    diagnosis = diagnose_text("worker0.log", TRAINER_REFUSED_CUT)
    assert_reads(
        diagnosis,
        "hccl",
        first_error="RPC agent for worker0 encountered error",
        rule="hccl.rpc_peer_unreachable",
    )
