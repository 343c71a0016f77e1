"""The flight recorder's cross-rank analysis naming ranks that never joined a collective.

docs/labelling.md#a-flight-recorder-analysis-that-names-missing-ranks: torch's `fr_trace` tool
(also installed as `torchfrtrace`) reads every rank's dump and prints, for the first collective
some ranks never issued, `Not all ranks joining collective` with the group, the collective and
the missing ranks. That is a stall's finding, `hang` with `hccl` beside it, and the line to
cite; an error a rank printed before it still wins, and a collective timeout printed with it
decides as it does beside a stuck watchdog (`hccl`, `hang` beside). Releases word the headline three ways; all
three are read. The torchcomms gloo backend's transport timeout drops the `to complete` of the
older wording and is still a gloo timeout. Groups, ranks and sizes are our own.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

NEWEST = (
    "Not all ranks joining collective, sequence number: 812\n"
    "internal record id: 811\n"
    "group info: 3:tp_group\n"
    "collective: nccl:all_gather_into_tensor_coalesced\n"
    "missing ranks: {5}\n"
    "input sizes: [[2048, 512]]\n"
    "output sizes: [[16384, 512]]\n"
    "world size: 8\n"
    "expected ranks: {0, 1, 2, 3, 4, 5, 6, 7}\n"
    "collective state: scheduled\n"
)
AT_ENTRY = (
    "Not all ranks joining collective 57 at entry 56\n"
    "group info: 0:default_pg\n"
    "collective: nccl:broadcast\n"
    "missing ranks: {2, 3}\n"
    "collective state: scheduled\n"
)
FOR_GROUP = (
    "Not all ranks joining collective for group 0:default_pg collective nccl:all_reduce "
    "Missing ranks are {1}\n"
)
TIMEOUT_AFTER = (
    "[Rank 2] step 4410 done\n"
    "Not all ranks joining collective, sequence number: 9\n"
    "collective: nccl:all_reduce\n"
    "missing ranks: {3}\n"
    "[Rank 2] caught: RuntimeError: Timed out waiting 30000ms for recv operation\n"
)
RAISED_BEFORE = (
    "[rank5]: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 3.00 GiB. GPU 5 has"
    " a total capacity of 79.11 GiB of which 1.20 GiB is free.\n" + NEWEST
)
SENTENCE = (
    "Tip: when not all ranks joining collectives is suspected, run fr_trace on the dumps.\n"
    "fr_trace: no mismatches found across 8 ranks\n"
)
TORCHCOMMS_GLOO_TIMEOUT = "[Rank 1] RuntimeError: Timed out waiting 45000ms for send operation\n"


def test_the_newest_analysis_headline_is_a_stall_in_a_collective() -> None:
    diagnosis = diagnose_text("fr_trace.txt", NEWEST)
    assert_reads(
        diagnosis,
        "hang",
        first_error="Not all ranks joining collective",
        rule="hang.flight_recorder_missing_ranks",
        beside=("hccl",),
    )


def test_the_older_headlines_are_read_alike() -> None:
    for text in (AT_ENTRY, FOR_GROUP):
        diagnosis = diagnose_text("fr_trace.txt", text)
        assert diagnosis.category == "hang", text
        assert "hang.flight_recorder_missing_ranks" in rules_of(diagnosis), text
        assert "Not all ranks joining collective" in diagnosis.first_error.text


def test_a_timeout_beside_the_finding_decides_as_beside_a_stuck_watchdog() -> None:
    diagnosis = diagnose_text("run.log", TIMEOUT_AFTER)
    assert_reads(
        diagnosis,
        "hccl",
        first_error="Timed out waiting 30000ms for recv operation",
        beside=("hang",),
    )


def test_an_error_printed_before_the_finding_wins() -> None:
    diagnosis = diagnose_text("run.log", RAISED_BEFORE)
    assert_reads(diagnosis, "oom", first_error="CUDA out of memory")


def test_the_phrase_in_advice_or_a_clean_report_is_no_finding() -> None:
    diagnosis = diagnose_text("notes.log", SENTENCE)
    assert "hang.flight_recorder_missing_ranks" not in rules_of(diagnosis)


def test_the_torchcomms_gloo_timeout_is_a_gloo_timeout() -> None:
    diagnosis = diagnose_text("rank0.log", TORCHCOMMS_GLOO_TIMEOUT)
    assert diagnosis.category == "hccl"
    assert "hccl.gloo_timeout" in rules_of(diagnosis)
