"""An aclnn API named in front of the sentence its parameter check wrote.

docs/labelling.md#an-operator-name-decides-nothing: a report often keeps only the op's API name
and the refusal its host-side check wrote (`aclnnIncreFlashAttentionV4 error: "the query's actual
sequence lengths shape size is 3, it should be bigger or equal to batch size(8) or equal to 1"`),
without the error code, the PID or the source tag CANN puts around it: an issue title, a
wrapper's one-line message, a log cut to the line that mattered. It is the op refusing its inputs
on the host, the first row of the table: `operator`, and the first error ahead of the Python
frames around it. The op's documented limits are the `op_constraint` neighbour. Counterexamples:
a line that names the API and only reports (sizes, a finished call), the runtime's own
`call aclnnX failed, error code is N` summary (other rules read the code), and a model's check
that names no op. Values and names are ours.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

RULE = "op.aclnn_named_refusal"

# A tracker title that quotes the refusal, above the worker frames of the crashed engine.
TITLE_ABOVE_FRAMES = """\
[Bug]: v0.11.0 aclnnIncreFlashAttentionV4: "the query's actual sequence lengths shape size is 3, it should be bigger or equal to batch size(8) or equal to 1" after a long run
(Worker_TP1_EP1 pid=702) ERROR 05-02 10:11:12 [multiproc_executor.py:830]   File "/srv/engine/compilation/graph.py", line 97, in __call__
(Worker_TP1_EP1 pid=702) ERROR 05-02 10:11:12 [multiproc_executor.py:830]     return self.runnable(*args, **kwargs)
(Worker_TP1_EP1 pid=702) ERROR 05-02 10:11:12 [multiproc_executor.py:830]   File "/usr/lib/python3.11/site-packages/torch/_ops.py", line 380, in dispatch
(Worker_TP1_EP1 pid=702) ERROR 05-02 10:11:12 [multiproc_executor.py:830]     return kernel(*args, **kwargs)
"""

# A wrapper that raises with the API name and the check's sentence on one line.
WRAPPER_MESSAGE = """\
Traceback (most recent call last):
  File "/srv/train/moe/layer.py", line 140, in forward
    out = grouped_matmul(x, weights, group_list)
RuntimeError: aclnnGroupedMatmulV4: the length of groupList must be equal to the number of weights (8), got 6
"""


def test_a_title_quoting_the_checks_refusal_is_the_operator_and_the_first_error() -> None:
    diagnosis = diagnose_text("worker.log", TITLE_ABOVE_FRAMES)
    assert_reads(
        diagnosis,
        "operator",
        first_error="it should be bigger or equal to batch size(8)",
        rule=RULE,
    )


def test_a_wrapper_raising_with_the_api_name_first_reads_alike() -> None:
    diagnosis = diagnose_text("rank3.log", WRAPPER_MESSAGE)
    assert_reads(diagnosis, "operator", first_error="aclnnGroupedMatmulV4: the length", rule=RULE)


def test_a_line_that_names_the_api_and_only_reports_is_not_a_refusal() -> None:
    text = "[I] aclnnIncreFlashAttentionV4: actual sequence lengths 3, batch size 8, layout BSH\n"
    assert RULE not in rules_of(diagnose_text("worker.log", text))


def test_the_runtimes_failed_call_summary_is_left_to_the_code_rules() -> None:
    text = (
        "RuntimeError: call aclnnFlashAttentionScore failed, error code is 161002\n"
        "[ERROR] 2026-05-02-10:11:12 (PID:702, Device:1, RankID:1) ERR00100 PTA call acl api failed\n"
    )
    assert RULE not in rules_of(diagnose_text("worker.log", text))


def test_a_models_own_check_that_names_no_op_is_not_the_ops() -> None:
    text = (
        "ValueError: the actual sequence lengths should be bigger or equal to the batch size (8)\n"
    )
    assert RULE not in rules_of(diagnose_text("worker.log", text))
