"""An MPI launcher's own daemons: not found on a host, unreachable, lost mid-job; ranks that
cannot connect over Open MPI's TCP transport.

docs/labelling.md#an-mpi-launcher-that-cannot-place-or-start-its-ranks: a host's shell that
cannot find `orted`, or daemons (Hydra proxies) that cannot connect back over TCP, stop the
launch before any rank: `driver_env`, and the line before Open MPI's generic banner is the first
error. docs/labelling.md#an-mpi-launcher-that-loses-a-hosts-daemon: a daemon lost while the job
runs is the host going away (`device_fault`, `hccl` beside it).
docs/labelling.md#mpi-ranks-that-cannot-connect-to-each-other: a failed connect of the TCP
transport between running ranks is `hccl`. Values are our own, in the tools' real wordings.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

ORTE_BANNER = """\
--------------------------------------------------------------------------
ORTE was unable to reliably start one or more daemons.
This usually is caused by:

* not finding the required libraries and/or binaries on
  one or more nodes. Please check your PATH and LD_LIBRARY_PATH
  settings, or configure OMPI with --enable-orterun-prefix-by-default
"""

# horovodrun over mpirun: the second host's shell has no Open MPI on its PATH.
DAEMON_NOT_FOUND = (
    """\
$ horovodrun -np 8 -H gpu-a:4,gpu-b:4 python train.py
[gpu-a:30117] Warning: could not find environment variable "OLDPWD"
bash: orted: command not found
"""
    + ORTE_BANNER
)

# mpirun between two containers whose daemons cannot reach each other.
DAEMON_LINK = """\
$ mpirun --allow-run-as-root -np 16 --hostfile /etc/mpi/hostfile python train.py
------------------------------------------------------------
A process or daemon was unable to complete a TCP connection
to another process:
  Local host:    trainer-launcher
  Remote host:   trainer-worker-3.trainer
This is usually caused by a firewall on the remote host. Please
check that any firewall (e.g., iptables) has been disabled and
try again.
------------------------------------------------------------
"""

# MPICH's Hydra proxy on a compute node cannot connect back to the launching node.
HYDRA_PROXY = """\
[proxy:0:5@cn-118] HYDU_sock_connect (lib/utils/sock.c:140): unable to connect from "cn-118" to "cn-002" (No route to host)
[proxy:0:5@cn-118] main (proxy/pmip.c:105): unable to connect to server cn-002 at port 40123 (check for firewalls!)
srun: error: cn-118: task 5: Exited with exit code 5
"""

# The banner alone: no line says which reason.
BANNER_ALONE = "$ mpirun -np 4 -H node-1,node-2 python train.py\n" + ORTE_BANNER

# A worker pod of an MPI job dies; the launcher loses its daemon and ends the job.
DAEMON_LOST = """\
step 1400 loss 2.113
step 1410 loss 2.108
--------------------------------------------------------------------------
ORTE has lost communication with a remote daemon.

  HNP daemon   : [[40211,0],0] on node bert-job-launcher-x2k9q
  Remote daemon: [[40211,0],3] on node bert-job-worker-2

This is usually due to either a failure of the TCP network
connection to the node, or possibly an internal failure of
the daemon itself. We cannot recover from this failure, and
therefore will terminate the job.
--------------------------------------------------------------------------
"""

# Two hosts under mpirun: the ranks start, then rank 0 cannot open its TCP link to the peer.
TRANSPORT_CONNECT = """\
[node-a][[40211,1],0][btl_tcp_endpoint.c:857:mca_btl_tcp_endpoint_start_connect] peer: node-b Unable to connect to the peer 10.8.0.12 on port 1024: No route to host

[node-a:00000] *** An error occurred in Socket closed
[node-a:00000] *** reported by process [2637299713,0]
[node-a:00000] *** on a NULL communicator
[node-a:00000] *** Unknown error
[node-a:00000] *** MPI_ERRORS_ARE_FATAL (processes in this communicator will now abort,
[node-a:00000] ***    and MPI will try to terminate your MPI job as well)
"""

# Counterexample: the launcher echoing the daemon's command line is no failure.
DAEMON_COMMAND_ECHO = """\
+ POD_NAME=trainer-worker-1
+ /opt/kube/kubectl exec trainer-worker-1 -- /bin/sh -c PATH=/usr/local/bin:$PATH ; /usr/local/bin/orted -mca ess "env" -mca ess_base_jobid "51820" -mca ess_base_vpid 1
step 10 loss 3.902
"""


def test_a_daemon_the_hosts_shell_cannot_find_is_the_hosts_set_up() -> None:
    diagnosis = diagnose_text("launch.log", DAEMON_NOT_FOUND)
    assert_reads(
        diagnosis,
        "driver_env",
        first_error="orted: command not found",
        rule="env.mpi_daemon_not_found",
        beside=("config",),
    )


def test_daemons_that_cannot_connect_are_the_hosts_network() -> None:
    diagnosis = diagnose_text("launch.log", DAEMON_LINK)
    assert_reads(
        diagnosis,
        "driver_env",
        first_error="unable to complete a TCP connection",
        rule="env.mpi_launcher_link_unreachable",
    )


def test_a_hydra_proxy_that_cannot_connect_back_is_read_at_its_connect() -> None:
    diagnosis = diagnose_text("job.out", HYDRA_PROXY)
    assert_reads(diagnosis, "driver_env", first_error="HYDU_sock_connect", beside=("hccl",))


def test_the_banner_alone_still_says_the_daemons_did_not_start() -> None:
    diagnosis = diagnose_text("launch.log", BANNER_ALONE)
    assert_reads(
        diagnosis, "driver_env", first_error="unable to reliably start one or more daemons"
    )


def test_a_daemon_lost_mid_job_is_the_host_going_away() -> None:
    diagnosis = diagnose_text("launcher.log", DAEMON_LOST)
    assert_reads(
        diagnosis,
        "device_fault",
        first_error="lost communication with a remote daemon",
        rule="dev.mpi_daemon_lost",
        beside=("hccl",),
    )


def test_a_transport_connect_between_ranks_is_the_link() -> None:
    diagnosis = diagnose_text("mpirun.log", TRANSPORT_CONNECT)
    assert_reads(
        diagnosis,
        "hccl",
        first_error="Unable to connect to the peer",
        rule="hccl.mpi_tcp_transport_connect_failed",
    )


def test_the_daemons_echoed_command_line_is_no_failure() -> None:
    diagnosis = diagnose_text("launch.log", DAEMON_COMMAND_ECHO)
    assert not rules_of(diagnosis) & {"env.mpi_daemon_not_found", "env.mpi_daemons_not_started"}


# The same launch on a host whose shell speaks Chinese (LANG=zh_CN.UTF-8): bash says the
# command was not found in its own words, and Open MPI's block says the daemon exited 127.
DAEMON_NOT_FOUND_ZH = """\
$ mpirun -f hostfile -n 32 ./all_gather_test -b 8K -e 1G -f 2
bash: orted: 未找到命令
--------------------------------------------------------------------------
A daemon (pid 40112) died unexpectedly with status 127 while attempting
to launch so we are aborting.
--------------------------------------------------------------------------
"""


def test_a_daemon_the_hosts_shell_cannot_find_reads_alike_in_a_chinese_locale() -> None:
    diagnosis = diagnose_text("launch.log", DAEMON_NOT_FOUND_ZH)
    assert_reads(
        diagnosis,
        "driver_env",
        first_error="orted: 未找到命令",
        rule="env.mpi_daemon_not_found",
        beside=("config",),
    )


def test_another_command_missing_in_a_chinese_locale_is_no_daemon() -> None:
    diagnosis = diagnose_text("launch.log", "bash: module: 未找到命令\nstep 10 loss 3.902\n")
    assert "env.mpi_daemon_not_found" not in rules_of(diagnosis)
