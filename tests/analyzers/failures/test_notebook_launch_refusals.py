"""Workers for multi-GPU training that a notebook could not start.

docs/labelling.md#a-notebook-launcher-that-refuses-to-fork: a launcher that forks training
workers from a notebook kernel refuses when a cell already started CUDA (or built the object
that owns the device), and a child started by spawn cannot find what the notebook's cells
defined. No worker ran and nothing on a device failed: the notebook has to change, `config`.
A whole model unpickled by another script names a file-backed `__main__` and is not a worker
start.

Fixtures are written in the shapes of an IPython traceback, a rich traceback's closing line
and a spawned child's traceback, with paths, names and numbers of our own.
"""

from __future__ import annotations

import pytest

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

IPYTHON_REFUSAL = """\
File ~/envs/nb/lib/python3.10/site-packages/accelerate/launchers.py:131, in notebook_launcher(function, args, num_processes, mixed_precision, use_port)
--> 131     raise ValueError(
    132         "To launch a multi-GPU training from your notebook, you need to avoid running any instruction "

ValueError: To launch a multi-GPU training from your notebook, you need to avoid running any instruction using `torch.cuda` in any cell. Restart your notebook and make sure no cells use any CUDA function.
"""

LATER_WORDING = """\
Launching training on 2 GPUs.
RuntimeError: CUDA has been initialized before the `notebook_launcher` could create a forked subprocess. This likely stems from an outside import causing issues once the `notebook_launcher()` is called.
"""

# The launcher's debug check, run in the children before training, finding CUDA already started.
DEBUG_CHECK = """\
W1207 10:02:11.420000 88 torch/multiprocessing/spawn.py:169] Terminating process 131 via signal SIGTERM
launch failed: An issue was found when verifying a stable environment for the notebook launcher.This likely stems from an outside import.
"""

PARENT_ACCELERATOR = """\
ValueError: To launch a multi-GPU training from your notebook, the `Accelerator` should only be initialized inside your training function. Restart your notebook and make sure no cells initializes an `Accelerator`.
"""


@pytest.mark.parametrize(
    ("text", "words"),
    [
        (IPYTHON_REFUSAL, "avoid running any instruction using `torch.cuda`"),
        (LATER_WORDING, "could create a forked subprocess"),
        (PARENT_ACCELERATOR, "should only be initialized inside your training function"),
        (DEBUG_CHECK, "verifying a stable environment for the notebook launcher"),
    ],
)
def test_a_notebook_launcher_refusing_to_fork_is_the_notebook_setup(text: str, words: str) -> None:
    diagnosis = diagnose_text("notebook/cell_output.txt", text)
    assert_reads(diagnosis, "config", first_error=words)


SPAWNED_CHILD = """\
Traceback (most recent call last):
  File "<string>", line 1, in <module>
  File "/opt/py/lib/python3.10/multiprocessing/spawn.py", line 116, in spawn_main
    exitcode = _main(fd, parent_sentinel)
  File "/opt/py/lib/python3.10/multiprocessing/spawn.py", line 126, in _main
    self = reduction.pickle.load(from_parent)
AttributeError: Can't get attribute '{name}' on {module}
"""


@pytest.mark.parametrize(
    "module",
    ["<module '__main__' (built-in)>", "<module '__mp_main__' from '/srv/jobs/cls/train.py'>"],
)
def test_a_spawned_worker_that_cannot_find_the_notebooks_function(module: str) -> None:
    text = SPAWNED_CHILD.format(name="run_rank", module=module)
    diagnosis = diagnose_text("notebook/cell_output.txt", text)
    assert_reads(diagnosis, "config", first_error="Can't get attribute 'run_rank'")


def test_a_note_that_the_environment_check_passed_is_no_refusal() -> None:
    text = "DEBUG notebook launcher: verifying a stable environment, CUDA not initialized\n"
    diagnosis = diagnose_text("notebook/cell_output.txt", text)
    assert "cfg.notebook_launcher_after_device_start" not in rules_of(diagnosis)


def test_a_whole_model_unpickled_by_another_script_is_not_a_worker_start() -> None:
    text = (
        "Traceback (most recent call last):\n"
        '  File "/srv/jobs/cls/predict.py", line 14, in <module>\n'
        '    net = torch.load("net_full.pt", weights_only=False)\n'
        "AttributeError: Can't get attribute 'TinyNet' on <module '__main__' from"
        " '/srv/jobs/cls/predict.py'>\n"
    )
    diagnosis = diagnose_text("predict.log", text)
    assert "spawned worker" not in diagnosis.root_cause, diagnosis.root_cause
