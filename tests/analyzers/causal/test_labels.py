"""A first error whose own line names no failure kind takes its block's label."""

from analyzers.causal.first_error import find_first_error
from analyzers.causal.labels import first_error_label, first_error_reading
from analyzers.classify.rules import load_knowledge
from analyzers.classify.tiers import classify_event
from analyzers.core.types import Event, EventKind
from analyzers.formats.codes import extract_codes

KNOWLEDGE = load_knowledge()


def items(*messages: str):
    events = [
        Event(
            file="job/log_0.log",
            line=n,
            text=text,
            kind=EventKind.ERROR,
            message=text,
            codes=extract_codes(text),
        )
        for n, text in enumerate(messages, start=1)
    ]
    return [classify_event(event, 0, KNOWLEDGE) for event in events]


def test_a_labelled_first_error_keeps_its_own_label():
    chain = find_first_error(items("RuntimeError: NPU out of memory. Tried to allocate 2.00 GiB"))
    assert first_error_label(chain) == ("oom", "memory")


def test_a_generic_manager_line_takes_the_label_of_the_wrapper_in_its_block():
    chain = find_first_error(
        items(
            "RuntimeError: create_config:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:102 "
            "HCCL function error: hcclCommInitRootInfoConfig(numRanks, &rootInfo, rank, config, "
            "&(comm->hcclComm_)), error code is 7",
            "EE9999: [PID: 6610] 2026-01-15-10:20:30.405.506 get error: phyid:2 realDeviceId:2 "
            "is err:0x7010003[FUNC:GetDeviceIndexByPhyId]",
        )
    )
    assert "realDeviceId" in chain.first.event.message
    assert first_error_label(chain) == ("hccl", "communication")


def test_a_refused_write_takes_its_label_from_a_full_disk_found_later():
    """`label_from_bundle`: the refused write stays first and the later line gives the label."""
    chain = find_first_error(
        items(
            "RuntimeError: [enforce fail at inline_container.cc:595] . PytorchStreamWriter "
            "failed writing file data/31: file write failed",
            "OSError: [Errno 28] No space left on device",
        )
    )
    assert "PytorchStreamWriter" in chain.first.event.message
    assert first_error_label(chain) == ("driver_env", "environment")


def test_a_refused_write_alone_keeps_its_own_label():
    chain = find_first_error(
        items(
            "RuntimeError: [enforce fail at inline_container.cc:595] . PytorchStreamWriter "
            "failed writing file data/31: file write failed"
        )
    )
    assert first_error_label(chain)[0] == "other"


def test_nothing_in_the_block_names_a_kind():
    chain = find_first_error(
        items("EE9999: [PID: 1] 2026-01-15-10:20:30.405.506 something went wrong somewhere")
    )
    assert first_error_label(chain)[0] == "other"


# A first error in wording no rule knows, whose words are those of a rule's examples
# (oom.kv_cache_no_room: `... gpu_memory_utilization ...`), and on which the hints find no winner.
KV_CACHE_SHORT = "kv cache memory too small to hold one block, raise gpu_memory_utilization"


def unread(text: str, kind: EventKind = EventKind.ERROR, level: str | None = None):
    event = Event("job/log_0.log", 1, text, kind, text, level=level, source="logging")
    return find_first_error([classify_event(event, 0, KNOWLEDGE)])


def test_an_error_line_no_rule_or_hint_reads_takes_the_label_its_words_share():
    reading = first_error_reading(unread(f"ValueError: {KV_CACHE_SHORT}"))
    assert (reading.category, reading.subsystem) == ("oom", "memory")
    assert reading.words is not None
    assert "gpu_memory_utilization" in reading.words.words


def test_the_same_words_logged_at_a_quiet_level_stay_unlabelled():
    for level in ("INFO", "WARNING", "DEBUG"):
        reading = first_error_reading(unread(KV_CACHE_SHORT, level=level))
        assert (reading.category, reading.words) == ("other", None)


def test_the_same_words_under_a_level_field_no_format_parsed_stay_unlabelled():
    line = f"2026-04-11 06:20:28,640 - INFO - engine: {KV_CACHE_SHORT}"
    reading = first_error_reading(unread(line))
    assert (reading.category, reading.words) == ("other", None)


def test_the_same_words_on_a_warning_line_stay_unlabelled():
    reading = first_error_reading(unread(KV_CACHE_SHORT, kind=EventKind.WARNING))
    assert (reading.category, reading.words) == ("other", None)


def test_the_hints_answer_before_the_learned_words():
    """`DistStoreError` is the store's class to the hints: their label stands."""
    reading = first_error_reading(unread(f"DistStoreError: {KV_CACHE_SHORT}"))
    assert (reading.category, reading.words) == ("hccl", None)


def test_a_rules_label_is_never_reread_by_the_words():
    reading = first_error_reading(
        unread("RuntimeError: NPU out of memory. Tried to allocate 2 GiB")
    )
    assert (reading.category, reading.words) == ("oom", None)
