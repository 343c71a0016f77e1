"""A Triton kernel calling a math function with types it has no overload for.

docs/labelling.md#operator-installation-or-platform-limit: Triton's math and libdevice
functions are tables keyed by argument types; a kernel that mixes types the table lacks stops
at compile time, spelled `input arg type does not match` upstream and as a bare KeyError on
the dtype tuple in older releases and vendor forks. The kernel has to cast: `operator`. A
KeyError naming a Triton module, or older Triton's handled JIT cache miss, is not this.
Values are our own, in the tools' real wordings.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

RULE = "op.triton_extern_dtype_overload_missing"


KEYERROR_IN_TP_WORKER = """\
(Worker_TP0 pid=7301) INFO 03-14 10:20:31 [gpu_model_runner.py:2100] Model loading took 7.1 GiB
(Worker_TP1 pid=7302) ERROR 03-14 10:21:05 [multiproc_executor.py:700]     else:
(Worker_TP1 pid=7302) ERROR 03-14 10:21:05 [multiproc_executor.py:700]         return _scale(v.to(tl.float64), w)
(Worker_TP1 pid=7302) ERROR 03-14 10:21:05 [multiproc_executor.py:700]                ^
(Worker_TP1 pid=7302) ERROR 03-14 10:21:05 [multiproc_executor.py:700] (triton.language.float64, triton.language.bfloat16)
KeyError: (triton.language.float64, triton.language.bfloat16)
"""

UPSTREAM_WORDING = """\
[rank2]: Traceback (most recent call last):
[rank2]:   File "/srv/app/kernels/act.py", line 41, in forward
[rank2]:     _gelu_fwd[grid](x, out, n, BLOCK=1024)
[rank2]: ValueError: input arg type does not match.Expect one of dict_keys([(triton.language.fp32,), (triton.language.fp64,)]), got (triton.language.fp16,)
"""

# Counterexample: older Triton's cache miss, printed and handled before it compiles; the
# real failure is the out-of-memory line after it.
CACHE_MISS_THEN_OOM = """\
Traceback (most recent call last):
  File "<string>", line 21, in _attn_fwd
KeyError: ('2-.-0-.-0-9c3e5a7b1d2f4e6a8b0c1d2e3f4a5b6c', (torch.float16, torch.float16, 'i32'), (64, 64, 4))

During handling of the above exception, another exception occurred:

torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 23.64 GiB of which 1.10 GiB is free.
"""


def test_dtype_tuple_keyerror_in_a_worker_is_the_kernels_operator_failure() -> None:
    diagnosis = diagnose_text("vllm_serve.log", KEYERROR_IN_TP_WORKER)
    assert_reads(
        diagnosis,
        "operator",
        first_error="(triton.language.float64, triton.language.bfloat16)",
        rule=RULE,
    )


def test_upstream_wording_is_the_same_failure() -> None:
    diagnosis = diagnose_text("train.log", UPSTREAM_WORDING)
    assert_reads(diagnosis, "operator", first_error="input arg type does not match", rule=RULE)


def test_jit_cache_miss_keyerror_is_not_this_failure() -> None:
    diagnosis = diagnose_text("train.log", CACHE_MISS_THEN_OOM)
    assert RULE not in rules_of(diagnosis)
    assert diagnosis.category == "oom"
