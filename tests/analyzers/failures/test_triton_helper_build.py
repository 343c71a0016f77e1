"""Triton's own C helper that the host's compiler cannot build.

docs/labelling.md#a-triton-helper-the-host-cannot-build: Triton builds its driver utilities and
kernel launcher from a fixed `main.c` / `__triton_launcher.c` with the host's C compiler; when
Python records that build failing (`CalledProcessError: Command '['gcc', '/tmp/.../main.c', ...
cuda_utils...so', '-lcuda', ...]'`), the machine lacks a compiler, the Python headers or libcuda:
`driver_env`, with `config` and `operator` beside it, the line the first error and the
`BackendCompilerFailed` headline above it its wrapper. Inductor's generated C++ keeps its own
reading and a user's extension build is not this. Fixtures are a serving engine's worker lines
with paths, pids and times of our own.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

RULE = "env.triton_helper_build_failed"

WORKER = """\
(EngineWorker pid=2211) ERROR 03-02 10:40:01 worker.py:240]   File "/env/lib/python3.11/site-packages/torch/_dynamo/output_graph.py", line 1446, in _call_user_compiler
(EngineWorker pid=2211) ERROR 03-02 10:40:01 worker.py:240]     raise BackendCompilerFailed(self.compiler_fn, e) from e
(EngineWorker pid=2211) ERROR 03-02 10:40:01 worker.py:240] torch._dynamo.exc.BackendCompilerFailed: backend='inductor' raised:
(EngineWorker pid=2211) ERROR 03-02 10:40:01 worker.py:240] CalledProcessError: Command '['/usr/bin/gcc', '/tmp/tmpz81k/main.c', '-O3', '-shared', '-fPIC', '-o', '/tmp/tmpz81k/cuda_utils.cpython-311-x86_64-linux-gnu.so', '-lcuda', '-I/tmp/tmpz81k', '-I/usr/include/python3.11']' returned non-zero exit status 1.
(EngineWorker pid=2211) ERROR 03-02 10:40:01 worker.py:240]
(EngineWorker pid=2211) ERROR 03-02 10:40:01 worker.py:240] Set TORCH_LOGS="+dynamo" and TORCHDYNAMO_VERBOSE=1 for more information
"""

INDUCTOR_CPP = """\
[rank0]: torch._dynamo.exc.BackendCompilerFailed: backend='inductor' raised:
[rank0]: subprocess.CalledProcessError: Command '['g++', '/tmp/torchinductor_svc/qk/cqkz.cpp', '-shared', '-fPIC', '-o', '/tmp/torchinductor_svc/qk/cqkz.so']' returned non-zero exit status 1.
"""

EXTENSION = """\
Traceback (most recent call last):
  File "/srv/ext/setup_ops.py", line 30, in build
subprocess.CalledProcessError: Command '['gcc', '/srv/ext/csrc/main.cpp', '-shared', '-o', 'ops.so']' returned non-zero exit status 1.
"""


def test_a_failed_build_of_tritons_helper_is_the_hosts_set_up() -> None:
    diagnosis = diagnose_text("worker.log", WORKER)
    assert_reads(
        diagnosis,
        "driver_env",
        first_error="CalledProcessError: Command '['/usr/bin/gcc'",
        rule=RULE,
        beside=("config",),
    )


def test_inductor_cpp_and_an_extension_build_are_not_this_reading() -> None:
    inductor = diagnose_text("rank0.log", INDUCTOR_CPP)
    assert RULE not in rules_of(inductor)
    assert inductor.category == "operator", inductor.root_cause
    extension = diagnose_text("build.log", EXTENSION)
    assert RULE not in rules_of(extension)
