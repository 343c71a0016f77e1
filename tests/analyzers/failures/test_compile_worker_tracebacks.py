"""The operator compiler's worker printing its whole traceback after its main process went
away: the bare EOFError of a connection read, under the frame that read the task queue.

docs/labelling.md#a-compiler-worker-that-outlives-its-process
"""

from __future__ import annotations

from tests.analyzers.excerpts import alternative_labels, diagnose_text

_ROUTE = (
    "/opt/Ascend/ascend-toolkit/8.0.0/python/site-packages/tbe/common/repository_manager/route.py"
)
_PY = "/opt/conda/envs/cv/lib/python3.8"

# A detection model's 8-card training: one card's log, double-spaced, the long frames wrapped
# after their paths by a narrow terminal, the traceback printed through to its exception.
WORKER_EOF = "".join(
    line + " \n\n"
    for line in [
        "Epoch 7/90  iter 310/620  loss 1.0734  lr 2.0e-03",
        "Traceback (most recent call last):",
        f'  File "{_PY}/multiprocessing/process.py", line 315, in _bootstrap',
        "    self.run()",
        f'  File "{_PY}/multiprocessing/process.py", line 108, in run',
        "    self._target(*self._args, **self._kwargs)",
        f'  File "{_ROUTE}",',
        " line 66, in wrapper",
        "    raise exp",
        f'  File "{_ROUTE}",',
        " line 63, in wrapper",
        "    func(*args, **kwargs)",
        f'  File "{_ROUTE}",',
        " line 281, in task_distribute",
        "    key, func_name, detail = resource_proxy[TASK_QUEUE].get()",
        '  File "<string>", line 2, in get',
        f'  File "{_PY}/multiprocessing/managers.py", line 835, in _callmethod',
        "    kind, result = conn.recv()",
        f'  File "{_PY}/multiprocessing/connection.py", line 250, in recv',
        "    buf = self._recv_bytes()",
        f'  File "{_PY}/multiprocessing/connection.py", line 414, in _recv_bytes',
        "    buf = self._recv(4)",
        f'  File "{_PY}/multiprocessing/connection.py", line 383, in _recv',
        "    raise EOFError",
        "EOFError",
    ]
)

# The same worker whose paste lost the queue read: the deepest frame of its own is the
# module's `wrapper`, which says nothing of the main process.
WRAPPER_EOF = WORKER_EOF.replace(
    f'  File "{_ROUTE}", \n\n line 281, in task_distribute \n\n'
    "    key, func_name, detail = resource_proxy[TASK_QUEUE].get() \n\n",
    "",
)


def test_a_compiler_workers_eof_under_its_queue_read_is_the_main_process_gone() -> None:
    diagnosis = diagnose_text("train_5.log", WORKER_EOF)
    assert diagnosis.category == "device_fault", diagnosis.root_cause
    assert diagnosis.confidence < 0.8
    assert diagnosis.first_error is not None
    assert diagnosis.first_error.text.startswith("EOFError")
    assert "line 281, in task_distribute" in diagnosis.first_error.text
    assert "resource_proxy[TASK_QUEUE].get()" in diagnosis.first_error.text
    assert "oom" in alternative_labels(diagnosis)


def test_a_compiler_workers_eof_under_its_wrapper_alone_is_not_read_as_the_queue() -> None:
    assert "in task_distribute" not in WRAPPER_EOF
    diagnosis = diagnose_text("train_5.log", WRAPPER_EOF)
    assert diagnosis.first_error is not None
    assert "in wrapper" in diagnosis.first_error.text
    assert diagnosis.category != "device_fault"
