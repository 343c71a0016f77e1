"""The weak hints name a failure kind by the words of its class, whoever printed the line."""

from __future__ import annotations

import time
from dataclasses import replace
from pathlib import Path

import pytest
import yaml

from analyzers.classify import hints
from analyzers.classify.hints import (
    is_build_report,
    is_relay_banner,
    load_hints,
    place_vote,
    tally,
    vote,
    without_echoed_command,
)
from analyzers.core.yamlcheck import KnowledgeError
from analyzers.ingest.textio import MAX_LINE_CHARS

HINTS = load_hints()


@pytest.mark.parametrize(
    ("text", "category"),
    [
        # a runtime's status constant for memory or resources running out, as its API spells it
        (
            "RuntimeError: level_zero backend failed with error: 40 (UR_RESULT_ERROR_OUT_OF_RESOURCES)",
            "oom",
        ),
        ("zeMemAllocDevice returned ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY", "oom"),
        ("RuntimeError: HIP error: hipErrorOutOfMemory", "oom"),
        # an allocation call named as the code calls it, reported failed
        ("DevMemAllocManaged: [drv api] halMemAlloc failed:size=32(Byte), drvRetCode=6", "oom"),
        ("aclrtMalloc failed, ret=207001", "oom"),
        # a binary with no code for the device it runs on: the build's targets
        ("ERROR 05-15 18:58:57 [engine.py:448] HIP error: invalid device function", "config"),
        ("rccl/src/enqueue.cc:66 NCCL WARN Cuda failure 'invalid kernel file'", "config"),
        ("CUDA error: no kernel image is available for execution on the device", "config"),
        # the devices as a runtime call counts them, the machine's own services not up
        (
            "Unexpected error from cudaGetDeviceCount(). Error 802: system not yet initialized",
            "driver_env",
        ),
        ("hipGetDeviceCount returned 100", "driver_env"),
        # a kernel's tile beyond the card's on-chip memory
        (
            "OutOfResources: out of resource: shared memory, Required: 131088, Hardware limit: 101376",
            "operator",
        ),
        ("the kernel's unified buffer overflows: required 262144 bytes", "operator"),
        # an operator library's operation object, by its class name
        (
            "[E905 06:51:46.673826892 compiler_depend.ts:429] SelfAttentionOperation setup failed!",
            "operator",
        ),
        ("PagedAttentionOperation execute failed", "operator"),
        # a layer's KV cache looked up by name: the engine's registry of its layers
        ("KeyError: 'model.layers.0.self_attn.indexer.k_cache'", "config"),
        # Habana's collective library by its folder and file names
        (
            "/src/hcl/platform/hcl_device_control_factory.cpp::71(initDevice): The condition [ false ] failed.",
            "hccl",
        ),
    ],
)
def test_the_words_of_a_class_vote_for_it(text: str, category: str) -> None:
    assert vote(text) == category


@pytest.mark.parametrize(
    "text",
    [
        # the same words about something else keep their own reading or none
        "ncclSystemError: System call (e.g. socket, malloc) or external library call failed",
        "AllReduceOperation setup failed!",
        "RuntimeError: the Operation timed out",
        "KeyError: 'model.layers.1.mlp.experts.weight'",
        "bus error: this might be caused by insufficient shared memory (shm)",
    ],
)
def test_the_same_words_about_another_thing_do_not_vote_for_the_class(text: str) -> None:
    assert vote(text) not in {"oom", "operator", "config"}


@pytest.mark.parametrize("text", HINTS.build_reports.examples)
def test_an_exception_that_only_says_a_build_stopped_is_a_build_report(text: str) -> None:
    assert is_build_report(text)


@pytest.mark.parametrize("text", HINTS.build_reports.counterexamples)
def test_a_build_failure_that_says_why_is_no_bare_report(text: str) -> None:
    assert not is_build_report(text)


@pytest.mark.parametrize("text", HINTS.relay_banners.examples)
def test_a_launchers_banner_over_a_childs_output_is_a_relay_banner(text: str) -> None:
    assert is_relay_banner(text)


@pytest.mark.parametrize("text", HINTS.relay_banners.counterexamples)
def test_a_launchers_own_report_or_a_banner_with_its_text_is_no_bare_banner(text: str) -> None:
    assert not is_relay_banner(text)


@pytest.mark.parametrize("text", HINTS.echoed_commands.examples)
def test_a_quoted_launch_command_is_taken_out_before_the_vote(text: str) -> None:
    assert without_echoed_command(text) != text


@pytest.mark.parametrize("text", HINTS.echoed_commands.counterexamples)
def test_a_list_that_is_no_launch_command_keeps_its_words(text: str) -> None:
    assert without_echoed_command(text) == text


REBUILD = (
    'File "/srv/venv/lib/python3.11/site-packages/torch/multiprocessing/reductions.py", '
    "line 538, in rebuild_storage_fd"
)


def test_the_place_alone_names_a_dead_sender_of_a_shared_tensor() -> None:
    """torch rebuilding a tensor a DataLoader worker shared: a reset there is the worker gone."""
    assert place_vote([REBUILD]) == "device_fault"
    reset = "ConnectionResetError: [Errno 104] Connection reset by peer"
    assert tally(reset, frames=[REBUILD]).most_common(1)[0][0] == "device_fault"
    assert vote(reset, frames=[REBUILD]) == "device_fault"


def test_frames_elsewhere_name_no_place() -> None:
    frame = (
        'File "/srv/venv/lib/python3.11/site-packages/torch/distributed/distributed_c10d.py", '
        "line 2806, in all_reduce"
    )
    assert place_vote([frame]) is None
    assert place_vote([]) is None
    # the words of the frame are not read as the place: a user's function named alike
    assert place_vote(['File "/home/user/train.py", line 9, in rebuild_storage_fd']) is None


# A wrapper that re-raises another process's exception under a header naming the inner class in
# parentheses (Ray's `RayTaskError(<inner>): ray::...`): the inner class is the exception's own,
# and votes as it would on its own line (docs/labelling.md#wrappers). Values of our own.
@pytest.mark.parametrize(
    "text",
    [
        "ray.exceptions.RayTaskError(DistBackendError): ray::PolicyTrainer.update() (pid=2211, ip=10.1.0.4)",
        "(TaskRunner pid=77) ray.exceptions.RayTaskError(torch.distributed.DistNetworkError): ray::Learner.setup()",
        "ray.exceptions.RayTaskError(DistStoreError): ray::Rollout",
    ],
)
def test_the_class_a_wrapper_names_in_parentheses_votes_as_its_own(text: str) -> None:
    assert tally(text)["hccl"] >= HINTS.min_score
    assert vote(text) == "hccl"


@pytest.mark.parametrize(
    "text",
    [
        # a class that says nothing by itself stays without a label
        "ray.exceptions.RayTaskError(ValueError): ray::PolicyTrainer.update() (pid=2211, ip=10.1.0.4)",
        "ray.exceptions.RayTaskError(KeyError): ray::Worker.run()",
        # the wrapper's name in prose, with no exception printed after it
        "RayTaskError(DistBackendError) was retried on the next step",
        # parentheses after a call, not after an exception class
        "register_error_handler(DistBackendError) returned None",
    ],
)
def test_a_wrapped_class_that_names_no_layer_or_no_wrapper_does_not_vote(text: str) -> None:
    assert vote(text) is None


def test_the_hints_are_read_back_from_the_knowledge_cache(tmp_path, monkeypatch) -> None:
    """Checked once per content of their file: a second process reads them back from the
    cache and votes as the first did."""
    cache = tmp_path / "cache"
    monkeypatch.setenv("RANKLENS_CACHE_DIR", str(cache))
    line = "RuntimeError: NPU out of memory. Tried to allocate 2.00 GiB"
    load_hints.cache_clear()
    try:
        fresh, voted = load_hints(), tally(line)
        assert len(list(cache.glob("hints-*.pickle"))) == 1
        load_hints.cache_clear()  # as a new process would start
        again = load_hints()
        assert again is not fresh
        assert [row[1].pattern for row in again.keywords] == [
            row[1].pattern for row in fresh.keywords
        ]
        assert tally(line) == voted
        assert vote(line) == "oom"
    finally:
        load_hints.cache_clear()


def _hints_file(tmp_path: Path, **sections: object) -> Path:
    path = tmp_path / "fallback.yaml"
    data = {"min_score": 3, "code_weight": 3, "exception_types": {}, "keywords": {}, **sections}
    path.write_text(yaml.safe_dump(data), encoding="utf-8")
    return path


@pytest.mark.parametrize(
    "sections",
    [
        {"keywords": {"oom": [["out of memory", 3]]}},
        {"exception_types": {"MemoryError": {"category": "oom", "weight": 3}}},
    ],
    ids=["keyword", "exception_type"],
)
def test_a_hint_for_a_label_the_file_leaves_unvoted_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, sections: dict
) -> None:
    monkeypatch.setenv("RANKLENS_CACHE_DIR", str(tmp_path / "cache"))
    path = _hints_file(tmp_path, unvoted=["other", "oom"], **sections)
    with pytest.raises(KnowledgeError, match="'oom' is not a category hints can vote for"):
        load_hints(path)


def test_the_unvoted_labels_are_taxonomy_labels(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("RANKLENS_CACHE_DIR", str(tmp_path / "cache"))
    with pytest.raises(KnowledgeError, match="cosmic_ray"):
        load_hints(_hints_file(tmp_path, unvoted=["other", "cosmic_ray"]))


def test_a_code_votes_for_its_label_unless_the_file_leaves_the_label_unvoted(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # a line with no telling words beside a code whose table entry says `oom`
    assert tally("RuntimeError: step 12 failed", codes=["oom"])["oom"] == HINTS.code_weight
    unvoted = replace(HINTS, unvoted=HINTS.unvoted | {"oom"})
    monkeypatch.setattr(hints, "load_hints", lambda: unvoted)
    assert tally("RuntimeError: step 12 failed", codes=["oom"])["oom"] == 0


@pytest.mark.parametrize(
    ("text", "english"),
    [
        ("已放弃（核心已转储）", "Aborted (core dumped)"),
        ("浮動小数点例外 (コアダンプ)", "Floating point exception (core dumped)"),
        ("Abgebrochen (Speicherabzug geschrieben)", "Aborted (core dumped)"),
    ],
)
def test_the_shells_core_dump_in_another_language_votes_as_the_english_one(
    text: str, english: str
) -> None:
    assert vote(text) == vote(english) == "device_fault"


def test_a_long_word_is_voted_on_at_once_and_an_api_status_still_votes_oom() -> None:
    # a line of one long identifier (a hash, an underscore rule) as long as a line is kept;
    # time.process_time counts this process's own work, so a loaded machine does not flake it
    long_word = "_" * MAX_LINE_CHARS
    assert vote("hipErrorOutOfMemory: out of memory on device 0") == "oom"  # loads the hints
    started = time.process_time()
    vote(long_word)
    assert time.process_time() - started < 0.5
