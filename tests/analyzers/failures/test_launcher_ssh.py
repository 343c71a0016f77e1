"""A multi-node launcher that cannot reach a node over ssh never started its workers there.

docs/labelling.md#a-launcher-that-cannot-reach-a-node-over-ssh: DeepSpeed's runner checks
each hostfile host with ssh before it starts, and pdsh (or mpirun's agent) starts the
workers over ssh; ssh's exit status 255 and its own reason are the machines' ssh set-up
(`driver_env`), with the hostfile or the launcher mode (`config`) as the alternative. Values
are our own, in the tools' real wordings.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

# The runner's pre-check of the second hostfile host fails; the runner restates it.
RUNNER_SSH_CHECK = """\
[2026-05-02 10:11:10,204] [INFO] [real_accelerator.py:203:get_accelerator] Setting ds_accelerator to cuda (auto detect)
Traceback (most recent call last):
  File "/opt/venv/lib/python3.11/site-packages/deepspeed/launcher/runner.py", line 455, in main
    subprocess.check_call(ssh_check_cmd, stderr=subprocess.DEVNULL, stdout=subprocess.DEVNULL, shell=True)
  File "/usr/lib/python3.11/subprocess.py", line 413, in check_call
    raise CalledProcessError(retcode, cmd)
subprocess.CalledProcessError: Command 'ssh -o PasswordAuthentication=no gpu-b12 hostname' returned non-zero exit status 255.

During handling of the above exception, another exception occurred:

Traceback (most recent call last):
  File "/opt/venv/bin/deepspeed", line 6, in <module>
    main()
  File "/opt/venv/lib/python3.11/site-packages/deepspeed/launcher/runner.py", line 459, in main
    raise RuntimeError(
RuntimeError: Using hostfile at /etc/ds/hosts but host=gpu-b12 was not reachable via ssh. If you are running with a single node please remove /etc/ds/hosts or setup passwordless ssh.
"""

# pdsh refused by one host's sshd while it starts the per-node launchers.
PDSH_REFUSED = """\
[2026-05-02 10:11:12,001] [INFO] [runner.py:568:main] cmd = pdsh -S -f 1024 -w gpu-b11,gpu-b12 export PYTHONPATH=/srv/train; cd /srv/train; /opt/venv/bin/python -u -m deepspeed.launcher.launch --world_info=e30= --node_rank=%n --master_addr=10.20.0.11 --master_port=29500 train.py
gpu-b12: ops@gpu-b12: Permission denied (publickey,password).
pdsh@gpu-b11: gpu-b12: ssh exited with exit code 255
"""

# Counterexample: ssh reached the host and the command it ran failed on its own.
REMOTE_COMMAND_FAILED = """\
Traceback (most recent call last):
  File "/srv/tools/probe_nodes.py", line 21, in <module>
    subprocess.check_call(["ssh gpu-b12 nvidia-smi -L"], shell=True)
  File "/usr/lib/python3.11/subprocess.py", line 413, in check_call
    raise CalledProcessError(retcode, cmd)
subprocess.CalledProcessError: Command '['ssh gpu-b12 nvidia-smi -L']' returned non-zero exit status 9.
"""


def test_the_runners_ssh_check_is_the_machines_set_up() -> None:
    diagnosis = diagnose_text("launch.log", RUNNER_SSH_CHECK)
    assert diagnosis.category == "driver_env"
    assert "env.launcher_ssh_unreachable" in rules_of(diagnosis)
    assert diagnosis.first_error is not None
    assert (
        "Command 'ssh -o PasswordAuthentication=no gpu-b12 hostname'" in diagnosis.first_error.text
    )
    assert "config" in {alt.category for alt in diagnosis.alternatives}


def test_pdsh_refused_by_a_hosts_sshd_is_the_machines_set_up() -> None:
    diagnosis = diagnose_text("launch.log", PDSH_REFUSED)
    assert_reads(
        diagnosis, "driver_env", first_error="gpu-b12", rule="env.launcher_ssh_unreachable"
    )


def test_a_command_that_ssh_ran_and_that_failed_is_not_ssh() -> None:
    diagnosis = diagnose_text("probe.log", REMOTE_COMMAND_FAILED)
    assert "env.launcher_ssh_unreachable" not in rules_of(diagnosis)
    assert diagnosis.confidence < 0.5


# A launcher that opens its ssh sessions through a Python ssh client (paramiko, used by
# fabric-based launchers) reports the client's own exception, not ssh's exit status.
PYTHON_SSH_CLIENT_REFUSED = """\
Error: failed to run torchrun --nproc_per_node=8 --nnodes=2 --node_rank=1 --master_addr=10.20.0.11 --master_port=29500 pretrain.py on gpu-b12, is localhost: False, exception: No authentication methods available
"""

PYTHON_SSH_CLIENT_BAD_KEY = """\
Error: failed to run torchrun --nproc_per_node=8 --nnodes=2 --node_rank=1 --master_addr=10.20.0.11 --master_port=29500 pretrain.py on gpu-b12, is localhost: False, exception: not a valid RSA private key file
"""


def test_a_python_ssh_client_without_credentials_is_the_machines_set_up() -> None:
    diagnosis = diagnose_text("launch.log", PYTHON_SSH_CLIENT_REFUSED)
    assert_reads(
        diagnosis,
        "driver_env",
        first_error="No authentication methods available",
        rule="env.launcher_ssh_unreachable",
    )


def test_a_key_the_python_ssh_client_cannot_read_is_the_machines_set_up() -> None:
    diagnosis = diagnose_text("launch.log", PYTHON_SSH_CLIENT_BAD_KEY)
    assert diagnosis.category == "driver_env"
    assert "env.launcher_ssh_unreachable" in rules_of(diagnosis)


# A wrapper hands mpirun a host list in `host:slots` form; an Open MPI release that does not
# split it asks ssh for a host whose name carries the slot count, and the daemon banner follows.
SLOTS_IN_HOST_NAME = """\
ssh: Could not resolve hostname localhost:4: Name or service not known
--------------------------------------------------------------------------
ORTE was unable to reliably start one or more daemons.
This usually is caused by:
"""


def test_a_slot_count_that_reached_ssh_is_the_launch_command() -> None:
    # docs/labelling.md#a-host-list-whose-slot-count-reached-ssh
    diagnosis = diagnose_text("launch.log", SLOTS_IN_HOST_NAME)
    assert_reads(
        diagnosis,
        "config",
        first_error="Could not resolve hostname localhost:4",
        rule="cfg.mpi_host_slots_in_ssh_name",
        beside=("driver_env",),
    )


def test_a_plain_host_name_ssh_cannot_resolve_stays_the_machines_set_up() -> None:
    # docs/labelling.md#a-host-list-whose-slot-count-reached-ssh (counterexample)
    text = "ssh: Could not resolve hostname gpu-b12: Name or service not known\n"
    diagnosis = diagnose_text("launch.log", text)
    assert diagnosis.category == "driver_env"
    assert "cfg.mpi_host_slots_in_ssh_name" not in rules_of(diagnosis)
