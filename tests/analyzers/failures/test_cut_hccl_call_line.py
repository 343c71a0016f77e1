"""torch_npu's HCCL call failure line cut inside the call's argument list.

A paste (or a narrow terminal) can end the line `HCCL function error: <call>(args...` before
the closing parenthesis and the return code. The line still names the HCCL call that failed,
so it is read as the HCCL call wrapper (`hccl`), not as an error no rule knows
(docs/labelling.md#wrappers).
"""

from __future__ import annotations

from analyzers.classify.line_matches import match_line
from analyzers.classify.rules import load_knowledge
from tests.analyzers.excerpts import assert_reads, diagnose_text

# FSDP's broadcast of module states builds the communicator; the pasted line stops mid-call.
CUT_INIT_LINE = """\
  File "/opt/conda/envs/fsdp/lib/python3.10/site-packages/torch/distributed/distributed_c10d.py", line 2217, in broadcast
    work = group.broadcast([tensor], opts)
RuntimeError: create:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:77 HCCL function error: HcclCommInitRootInfo(numRanks, &rootInfo
"""

# The same call quoted as C++ source in a build log: no failure, and no torch_npu wrapper.
QUOTED_SOURCE = "    HCCL_CHECK_ERROR(HcclCommInitRootInfo(numRanks, &rootInfo\n"


def test_a_cut_hccl_call_line_reads_as_the_hccl_call_wrapper() -> None:
    diagnosis = diagnose_text("fsdp_worker.log", CUT_INIT_LINE)
    assert_reads(diagnosis, "hccl", first_error="HCCL function error: HcclCommInitRootInfo(")
    assert diagnosis.root_cause.startswith("HCCL call failed"), diagnosis.root_cause


def test_the_call_quoted_without_the_wrapper_does_not_match() -> None:
    knowledge = load_knowledge()
    ids = {m.signature.id for m in match_line(QUOTED_SOURCE.strip(), (), knowledge)}
    assert "hccl.function_error" not in ids


# A trainer that builds its communicator at start-up; the line is kept up to the closing
# parenthesis of the call and the return code after it is gone.
CLOSED_CALL_LINE = """\
[rank1]: Traceback (most recent call last):
[rank1]:   File "/srv/rl/train_policy.py", line 88, in main
[rank1]:     trainer = PolicyTrainer(
[rank1]: RuntimeError: create:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:89 HCCL function error: HcclCommInitRootInfo(numRanks, &rootInfo, rank, &(comm->hcclComm_))
"""


def test_a_line_cut_after_the_argument_list_reads_as_the_hccl_call_wrapper() -> None:
    diagnosis = diagnose_text("train.log", CLOSED_CALL_LINE)
    assert_reads(diagnosis, "hccl", first_error="HcclCommInitRootInfo(numRanks")
    assert diagnosis.root_cause.startswith("HCCL call failed"), diagnosis.root_cause


def test_the_closed_call_followed_by_other_words_does_not_match() -> None:
    knowledge = load_knowledge()
    line = "HCCL function error: HcclCommInitRootInfo(numRanks, &rootInfo, rank, &(comm->hcclComm_)) retried after warm-up"
    ids = {m.signature.id for m in match_line(line, (), knowledge)}
    assert "hccl.function_error" not in ids
