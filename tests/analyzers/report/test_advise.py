"""Next actions: the most specific advice first, each once, and log switches only where
the bundle does not already show them."""

from __future__ import annotations

import re

from analyzers.classify.rules import Action, ActionBook, load_knowledge
from analyzers.report.advise import MAX_ACTIONS, Situation, next_actions

BOOK = load_knowledge().actions


def action(action_id: str, text: str, **conditions) -> Action:
    when = conditions.pop("when_text", None)
    return Action(
        id=action_id,
        text=text,
        unless_env=conditions.pop("unless_env", {}),
        when_text=re.compile(when, re.IGNORECASE) if when else None,
        **conditions,
    )


def test_signature_advice_comes_before_code_and_category_advice() -> None:
    book = ActionBook(
        categories={"hccl": (action("general", "General."), action("shared", "Shared."))},
        signatures={"hccl.x": (action("specific", "Specific."), action("shared", "Shared."))},
        codes={"EI0006": (action("by_code", "By code."),)},
    )
    situation = Situation(category="hccl", signature_ids=["hccl.x"], codes=["EI0006"])
    assert next_actions(book, situation) == ["Specific.", "Shared.", "By code.", "General."]


def test_switch_already_set_in_the_env_dump_is_not_suggested() -> None:
    text = "RuntimeError: ... AclrtSynchronizeDeviceWithTimeout, error code is 507014"
    fresh = next_actions(BOOK, Situation(category="aicore_timeout", first_error_text=text))
    already = next_actions(
        BOOK,
        Situation(
            category="aicore_timeout",
            first_error_text=text,
            env={"ASCEND_LAUNCH_BLOCKING": "1"},
        ),
    )
    assert any("ASCEND_LAUNCH_BLOCKING=1" in a for a in fresh)
    assert not any("ASCEND_LAUNCH_BLOCKING=1" in a for a in already)


def test_plog_collection_is_only_asked_for_when_no_plog_was_uploaded() -> None:
    without = next_actions(BOOK, Situation(category="aicore_timeout"))
    with_plog = next_actions(BOOK, Situation(category="aicore_timeout", file_kinds={"plog"}))
    assert any("plog" in a for a in without)
    assert not any("Collect the CANN plogs" in a for a in with_plog)


def test_fragmentation_advice_needs_the_allocator_figures_in_the_error() -> None:
    figures = (
        "NPU out of memory. Tried to allocate 2 GiB (... 60.10 GiB reserved in total by PyTorch)"
    )
    with_figures = Situation(
        category="oom", signature_ids=["oom.device_out_of_memory"], first_error_text=figures
    )
    bare = Situation(
        category="oom", signature_ids=["oom.device_out_of_memory"], first_error_text="NPU OOM"
    )
    assert any("max_split_size_mb" in a for a in next_actions(BOOK, with_figures))
    assert not any("max_split_size_mb" in a for a in next_actions(BOOK, bare))


def test_advice_naming_ranks_is_left_out_when_no_rank_is_known() -> None:
    signature = ["hccl.monitored_barrier_failed"]
    named = Situation(category="hccl", signature_ids=signature, values={"ranks": "2"})
    unknown = Situation(category="hccl", signature_ids=signature)
    assert next_actions(BOOK, named)[0].startswith("Rank(s) 2 never reached the barrier")
    assert not any("never reached the barrier" in a for a in next_actions(BOOK, unknown))


def test_multi_rank_advice_is_kept_for_multi_rank_jobs() -> None:
    single = next_actions(BOOK, Situation(category="hccl", values={"ranks_suffix": ""}))
    multi = next_actions(
        BOOK, Situation(category="hccl", multi_rank=True, values={"ranks_suffix": " (rank 3)"})
    )
    assert not any("failed first" in a for a in single)
    assert any("failed first (rank 3)" in a for a in multi)


def test_at_most_six_actions() -> None:
    situation = Situation(
        category="aicore_timeout",
        signature_ids=[sig.id for sig in load_knowledge().signatures],
        codes=["507014", "507015", "561002"],
        values={"ranks": "1", "ranks_suffix": " (rank 1)", "op": "aclnnAdd"},
    )
    assert len(next_actions(BOOK, situation)) == MAX_ACTIONS
