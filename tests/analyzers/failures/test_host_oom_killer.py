"""A rank the kernel's OOM killer killed.

docs/labelling.md#a-rank-killed-for-host-memory: a launcher's SIGKILL report (`exitcode: -9`,
`Signal 9 (SIGKILL) received by PID N`) is `device_fault` alone; with the kernel's record of
killing the same pid for lack of memory in the bundle, the host ran out of memory: `oom`, the
record first, wherever each was pasted. Fixtures follow the kernel log and torchrun's shapes,
with pids, sizes and hosts of our own.
"""

from __future__ import annotations

from analyzers.classify.events import classify_scans
from analyzers.classify.rules import load_knowledge
from analyzers.core.report import Diagnosis
from tests.analyzers.excerpts import assert_reads, diagnose_files, scan_text

KERNEL_LOG = """\
[Wed May  6 21:14:50 2026] pt_main_thread invoked oom-killer: gfp_mask=0x140cca(GFP_HIGHUSER_MOVABLE|__GFP_COMP), order=0, oom_score_adj=0
[Wed May  6 21:14:50 2026] oom-kill:constraint=CONSTRAINT_NONE,nodemask=(null),cpuset=/,mems_allowed=0-1,global_oom,task=pt_main_thread,pid=88231,uid=1000
[Wed May  6 21:14:50 2026] Out of memory: Killed process 88231 (pt_main_thread) total-vm:502113344kB, anon-rss:471220016kB, file-rss:0kB, shmem-rss:0kB, UID:1000 pgtables:923400kB oom_score_adj:0
"""


def launcher(pid: int) -> str:
    return (
        "W0506 21:14:51.022000 88190 torch/distributed/elastic/multiprocessing/api.py:897] "
        "Sending process 88232 closing signal SIGTERM\n"
        "E0506 21:14:51.604000 88190 torch/distributed/elastic/multiprocessing/api.py:869] "
        f"failed (exitcode: -9) local_rank: 0 (pid: {pid}) of binary: /opt/env/bin/python\n"
    )


def diagnose(files: dict[str, str]) -> Diagnosis:
    return diagnose_files(files)


def test_a_kill_the_kernel_recorded_for_the_rank_is_host_memory() -> None:
    diagnosis = diagnose({"node0/launcher.log": launcher(88231), "node0/dmesg.txt": KERNEL_LOG})
    assert diagnosis.category == "oom", diagnosis.root_cause
    assert diagnosis.first_error is not None
    assert "oom-killer" in diagnosis.first_error.text or "Killed process 88231" in (
        diagnosis.first_error.text
    )
    assert "device_fault" in {alt.category for alt in diagnosis.alternatives}


def test_a_sigkill_with_no_kernel_record_stays_a_killed_rank() -> None:
    diagnosis = diagnose({"node0/launcher.log": launcher(88231)})
    assert_reads(diagnosis, "device_fault", first_error="exitcode: -9")


def test_a_kernel_record_of_another_process_does_not_silence_the_rank() -> None:
    """The launcher's line keeps its place among the failures: it is not demoted."""
    files = {"node0/launcher.log": launcher(77001), "node0/dmesg.txt": KERNEL_LOG}
    scans = [scan_text(path, text) for path, text in files.items()]
    items = list(classify_scans(scans, load_knowledge()))
    signal = [i for i in items if i.best is not None and i.best.id == "dev.launcher_child_sigkill"]
    assert signal
    assert not any(item.demoted for item in signal)


def test_a_sigkill_with_no_kernel_record_offers_host_memory_as_the_alternative() -> None:
    """The OOM killer is the usual sender of a SIGKILL: without its record the answer stays
    `device_fault`, with `oom` beside it."""
    diagnosis = diagnose({"node0/launcher.log": launcher(52310)})
    assert diagnosis.category == "device_fault"
    oom = next(alt for alt in diagnosis.alternatives if alt.category == "oom")
    assert 0 < oom.score < diagnosis.confidence


def test_other_signals_of_a_rank_do_not_offer_host_memory() -> None:
    """Counterexample: a segfault (-11) is the rank's own crash, not a kill from outside."""
    text = launcher(52310).replace("exitcode: -9", "exitcode: -11")
    diagnosis = diagnose({"node0/launcher.log": text})
    assert diagnosis.category == "device_fault"
    assert "oom" not in {alt.category for alt in diagnosis.alternatives}


def test_a_sigkill_record_of_the_launcher_offers_host_memory_too() -> None:
    diagnosis = diagnose(
        {
            "node0/launcher.log": "torch.distributed.elastic.multiprocessing.errors."
            "ChildFailedError: rank 6 (local_rank: 2) exitcode: -9 (pid: 52310) signal: SIGKILL\n"
        }
    )
    assert diagnosis.category == "device_fault"
    assert "oom" in {alt.category for alt in diagnosis.alternatives}


# Other launchers' and supervisors' spellings of the same SIGKILL, with values of our own.
# docs/labelling.md#a-rank-killed-for-host-memory
SIGKILL_SPELLINGS = {
    "deepspeed": (
        "[2026-05-06 21:14:51,240] [ERROR] [launch.py:321:sigkill_handler] "
        "['/opt/env/bin/python', '-u', 'sft.py', '--local_rank=2'] exits with return code = -9\n"
    ),
    "vllm-worker": (
        "ERROR 05-06 21:14:51 multiproc_worker_utils.py:124] Worker VllmWorkerProcess pid 88231 "
        "died, exit code: -9\n"
    ),
    "vllm-core": (
        "RuntimeError: Engine core initialization failed. See root cause above. "
        "Failed core proc(s): {'EngineCore_DP1': -9}\n"
    ),
    "sglang-wait-status": (
        "[2026-05-06 21:14:51] Child process unexpectedly failed with exitcode=9. pid=88231\n"
    ),
    "shell-job": (
        "./serve_all.sh: line 12: 88231 Killed                  python -u serve.py --rank 2\n"
    ),
}


def test_every_spelling_of_a_sigkill_offers_host_memory() -> None:
    for name, text in SIGKILL_SPELLINGS.items():
        diagnosis = diagnose({"node0/launcher.log": text})
        assert diagnosis.category == "device_fault", (name, diagnosis.root_cause)
        assert diagnosis.first_error is not None, name
        assert "oom" in {alt.category for alt in diagnosis.alternatives}, name
        assert any("OOM killer" in action for action in diagnosis.next_actions), name


def test_a_kernel_record_in_the_same_file_outranks_the_supervisors_line() -> None:
    text = KERNEL_LOG + SIGKILL_SPELLINGS["vllm-worker"]
    diagnosis = diagnose({"node0/console.log": text})
    assert diagnosis.category == "oom", diagnosis.root_cause


def test_their_other_signals_offer_no_host_memory() -> None:
    """Counterexample: -11 (a segfault) is the process's own crash."""
    crashed = {
        "deepspeed": SIGKILL_SPELLINGS["deepspeed"].replace("= -9", "= -11"),
        "vllm-worker": SIGKILL_SPELLINGS["vllm-worker"].replace("code: -9", "code: -11"),
        "shell-job": SIGKILL_SPELLINGS["shell-job"].replace("Killed   ", "Bus error"),
    }
    for name, text in crashed.items():
        diagnosis = diagnose({"node0/launcher.log": text})
        assert diagnosis.category == "device_fault", (name, diagnosis.root_cause)
        assert "oom" not in {alt.category for alt in diagnosis.alternatives}, name
