"""An NCCL call that fails with a reason only the first NCCL release returns.

docs/labelling.md#nccl-failures-named-by-the-call. NCCL 2 and later answer a caller's mistake
with `invalid argument` or `invalid usage`; the finer reasons of NCCL 1 (`invalid data type`,
`invalid reduction operations`, `invalid device pointer`, `unsupported device count`, ...) can
only come from an NCCL 1 library. A binary built for NCCL 2 that prints one has loaded another
NCCL than it was built against (an environment's own old copy ahead of the system's), so the
machine's library set-up changes: `driver_env`, with `config` and `hccl` beside it. The fixtures
are in the shapes Horovod and its TensorFlow ops print (values are ours).
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

OLD_NCCL_REASON = """\
[1,1]<stdout>:step 0 images/sec: 212.4
[1,1]<stderr>:tensorflow.python.framework.errors_impl.UnknownError: ncclAllGather failed: invalid data type
[1,1]<stderr>:\t [[{{node HorovodAllgather_labels_0}}]]
"""

OLD_NCCL_REDUCTION = """\
[0] horovod.common.exceptions.HorovodInternalError: ncclReduceScatter failed: invalid reduction operations
"""

# Counterexample: NCCL 2's own answer for a misuse keeps the collective-layer reading.
CURRENT_NCCL_REASON = """\
[1,1]<stderr>:horovod.common.exceptions.HorovodInternalError: ncclAllReduce failed: invalid usage
"""

# Counterexample: a dtype word in a framework's own message is not NCCL's reason.
FRAMEWORK_DTYPE_MESSAGE = """\
ValueError: invalid data type for the embedding table: expected float32
"""


def test_a_reason_only_nccl_1_returns_is_the_machines_nccl() -> None:
    diagnosis = diagnose_text("horovodrun.log", OLD_NCCL_REASON)
    assert_reads(
        diagnosis,
        "driver_env",
        first_error="ncclAllGather failed: invalid data type",
        rule="env.nccl_first_release_reason",
    )
    assert {"config", "hccl"} <= {a.category for a in diagnosis.alternatives}


def test_another_first_release_reason_reads_alike() -> None:
    diagnosis = diagnose_text("train.log", OLD_NCCL_REDUCTION)
    assert diagnosis.category == "driver_env", diagnosis.root_cause
    assert "env.nccl_first_release_reason" in rules_of(diagnosis)


def test_nccl_2s_own_misuse_answer_stays_the_collective_layer() -> None:
    diagnosis = diagnose_text("horovodrun.log", CURRENT_NCCL_REASON)
    assert diagnosis.category == "hccl", diagnosis.root_cause
    assert "env.nccl_first_release_reason" not in rules_of(diagnosis)


def test_a_frameworks_own_dtype_message_is_not_nccls() -> None:
    diagnosis = diagnose_text("train.log", FRAMEWORK_DTYPE_MESSAGE)
    assert "env.nccl_first_release_reason" not in rules_of(diagnosis)


# The same reason behind a plain `NCCL error:` prefix, with neither the call's name nor the
# wrapper's source place (a framework or a note that prints only the library's status).
PLAIN_PREFIX_OLD_REASON = """\
RuntimeError: NCCL error: invalid device pointer
"""

# Counterexample: NCCL 2's misuse answer behind the same plain prefix.
PLAIN_PREFIX_CURRENT_REASON = """\
RuntimeError: NCCL error: invalid argument
"""


def test_a_first_release_reason_behind_a_plain_prefix_reads_alike() -> None:
    diagnosis = diagnose_text("train.log", PLAIN_PREFIX_OLD_REASON)
    assert_reads(
        diagnosis,
        "driver_env",
        first_error="NCCL error: invalid device pointer",
        rule="env.nccl_first_release_reason",
    )


def test_nccl_2s_answer_behind_a_plain_prefix_is_not_the_first_release() -> None:
    diagnosis = diagnose_text("train.log", PLAIN_PREFIX_CURRENT_REASON)
    assert "env.nccl_first_release_reason" not in rules_of(diagnosis)
