"""A file operation the path's file system refuses outright (errno 1, EPERM).

docs/labelling.md#config-driver_env-or-weight_load: `PermissionError: [Errno 1] Operation not
permitted: '<path>'` is the sibling of errno 13 for a path: the job was pointed at a folder where
the call is not allowed at all (a save folder made under a kernel file system, a chmod or a
timestamp copy onto a network mount that does not keep them). The job's path or the mount has
to change: `config`, with `driver_env` beside it, below the confident band, and the refused path
is the first error ahead of the peers that lose the rank in the barrier. A device node and a
call that names no path (a CPU affinity or memory policy refused) keep their own readings.
Values are our own, in Python's and torch's real wordings.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

# torchrun --redirects 3: rank 0 creates its save folder after step 2's backward.
SAVE_FOLDER_REFUSED = """\
layer 2 passed
[rank0]: Traceback (most recent call last):
[rank0]:   File "/opt/train/train.py", line 141, in <module>
[rank0]:     main()
[rank0]:   File "/opt/train/train.py", line 118, in main
[rank0]:     os.makedirs(args.save_dir, exist_ok=True)
[rank0]:   File "<frozen os>", line 225, in makedirs
[rank0]: PermissionError: [Errno 1] Operation not permitted: '/sys/kernel/ckpt'
"""

# shutil.copy2 onto a CIFS share that keeps no timestamps.
COPYSTAT_REFUSED = """\
2026-12-07 10:02:11,204 [rank0] INFO saving tokenizer to /mnt/share/run7/tokenizer
Traceback (most recent call last):
  File "/usr/lib/python3.11/shutil.py", line 383, in copystat
    lookup("utime")(dst, ns=(st.st_atime_ns, st.st_mtime_ns),
PermissionError: [Errno 1] Operation not permitted: '/mnt/share/run7/tokenizer/vocab.json'
"""

PEERS_AFTER = """\
[rank1]: RuntimeError: [/__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp/pair.cc:553] Connection closed by peer [127.0.0.1]:29595. This is typically caused by a remote worker crashing. Check the logs of the remote worker before reporting an error. GLHF! 🏖️
"""

NOT_A_PATH = [
    "taskset: failed to set pid 4121's affinity: Operation not permitted",
    "set_mempolicy: Operation not permitted",
    "PermissionError: [Errno 1] Operation not permitted: '/dev/nvidia-uvm'",
    "OSError: [Errno 1] Operation not permitted",
]


def test_a_path_where_the_call_is_not_allowed_is_the_jobs_setting() -> None:
    for text, path in (
        (SAVE_FOLDER_REFUSED + PEERS_AFTER, "/sys/kernel/ckpt"),
        (COPYSTAT_REFUSED, "/mnt/share/run7/tokenizer/vocab.json"),
    ):
        diagnosis = diagnose_text("stderr.log", text)
        assert_reads(
            diagnosis,
            "config",
            first_error=f"Operation not permitted: '{path}'",
            rule="cfg.path_permission_denied",
            beside=["driver_env"],
        )
        assert diagnosis.confidence < 0.8, text


def test_a_device_node_or_a_call_without_a_path_is_no_refused_path() -> None:
    for text in NOT_A_PATH:
        diagnosis = diagnose_text("stderr.log", text + "\n")
        assert "cfg.path_permission_denied" not in rules_of(diagnosis), text
