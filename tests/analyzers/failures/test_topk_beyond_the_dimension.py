"""torch's top-k refusing a k larger than the dimension it selects from.

docs/labelling.md#a-top-k-larger-than-the-dimension: `selected index k out of range` (and the
old THC wording `k not in range for dimension`) is the op's one documented limit exceeded:
`op_constraint`, with `operator` and `config` beside it, and the first error ahead of the
peers' closed connections. Values of our own in the real formats.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

# A router that asks for more experts than the layer has, on one rank of four; the others
# then lose their connection to it in the next collective.
ROUTER_K = """\
02-11 09:14:07.311 | rank=1 | INFO    | [step 3] layer 5 attention passed
[rank1]: Traceback (most recent call last):
[rank1]:   File "/srv/moe/serve.py", line 212, in <module>
[rank1]:     main()
[rank1]:   File "/srv/moe/router.py", line 57, in forward
[rank1]:     weights, experts = torch.topk(scores, self.k, dim=-1)
[rank1]:                        ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
[rank1]: RuntimeError: selected index k out of range
[rank0]: RuntimeError: [/__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp/pair.cc:553] Connection closed by peer [127.0.0.1]:40112. This is typically caused by a remote worker crashing. Check the logs of the remote worker before reporting an error. GLHF! 🏖️
"""

# The THC kernel's wording of the same check in the old CUDA releases.
THC_K = """\
Traceback (most recent call last):
  File "eval.py", line 213, in accuracy
    _, pred = output.topk(maxk, 1, True, True)
RuntimeError: invalid argument 5: k not in range for dimension at /pytorch/aten/src/THC/generic/THCTensorTopK.cu:23
"""

# A k that fits, or one the program shrinks itself, refuses nothing.
K_NOTES = """\
INFO sampler: top_k=50 of 32000 candidates
WARNING retriever: requested top_k=64 but only 12 passages; using k=12
IndexError: index 9 is out of bounds for dimension 0 with size 8
"""


def test_a_top_k_above_the_experts_is_the_ops_limit() -> None:
    diagnosis = diagnose_text("log_1.log", ROUTER_K)
    assert_reads(
        diagnosis,
        "op_constraint",
        first_error="selected index k out of range",
        rule="opc.topk_beyond_dimension",
        beside=("operator",),
    )


def test_the_old_cuda_wording_reads_the_same() -> None:
    diagnosis = diagnose_text("train.log", THC_K)
    assert_reads(
        diagnosis,
        "op_constraint",
        first_error="k not in range for dimension",
        rule="opc.topk_beyond_dimension",
    )


def test_a_k_that_fits_or_is_shrunk_is_no_refusal() -> None:
    diagnosis = diagnose_text("serve.log", K_NOTES)
    assert diagnosis.category != "op_constraint", diagnosis.root_cause
