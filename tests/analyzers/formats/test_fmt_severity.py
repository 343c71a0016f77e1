"""Which lines read as pasted Python source (`formats.severity`): a statement keyword opens
code only as a word of its own; followed by a slash it is a path or a TensorFlow scope name.
"""

from __future__ import annotations

import pytest

from analyzers.core.types import EventKind
from analyzers.formats.lines import parse_line
from analyzers.formats.severity import classify, load_prefilter, reads_as_source
from tests.analyzers.excerpts import diagnose_text

SCOPED = (
    "while/body/_1/gradients/AddN_12: InvalidArgumentError: Nan in summary histogram for:"
    " while/body/_1/loss"
)


@pytest.mark.parametrize(
    ("message", "source"),
    [
        ("while not done:", True),
        ("    for rank in ranks:", True),
        ("if/else branches of the graph differ", False),
        (SCOPED, False),
        ("  " + SCOPED, False),
        ("from/to addresses differ in the hostfile", False),
    ],
    ids=["while", "for", "if-slash", "tf-scope", "indented-tf-scope", "from-slash"],
)
def test_a_keyword_then_a_slash_is_no_statement(message: str, source: bool) -> None:
    assert reads_as_source(message) is source


def test_an_indented_scoped_error_is_an_error_not_source() -> None:
    assert classify(parse_line("  " + SCOPED), load_prefilter()) is EventKind.ERROR


@pytest.mark.parametrize(
    "message",
    [
        "段错误（核心已转储）",
        "Убито",
        "Gleitkomma-Ausnahme",
        "./run.sh: 第 3 行：11210 已放弃               （核心已转储）sleep 5",
        "[1]+  非法指令            python train.py",
    ],
)
def test_the_shells_report_of_a_signal_death_in_another_language_is_an_error(
    message: str,
) -> None:
    assert classify(parse_line(message), load_prefilter()) is EventKind.ERROR


def test_the_shells_word_inside_a_sentence_is_no_error() -> None:
    line = parse_line("排查发现段错误是自定义算子越界写导致的，已修复")
    assert classify(line, load_prefilter()) is not EventKind.ERROR


def test_the_shells_words_are_keywords_as_the_block_holds_them() -> None:
    keywords = load_prefilter().keywords
    assert "段错误".encode() in keywords
    assert "Убито".encode() in keywords  # the block's folding leaves Cyrillic capitals
    assert b"processus arr\xc3\xaat\xc3\xa9" in keywords


@pytest.mark.parametrize(
    ("message", "kind"),
    [
        ("rank 0/8 ready, pg timeout 1800s", None),
        ("process group up: backend gloo, timeout 30 s", None),
        ("init done (timeout: 600s)", None),
        ("collective timeout 600s exceeded", EventKind.ERROR),
        ("socket timeout after 30s", EventKind.ERROR),
        ("gloo timeout", EventKind.ERROR),
    ],
    ids=["ready-line", "spaced-unit", "colon-in-parens", "exceeded", "after", "bare"],
)
def test_a_timeout_stated_with_its_value_is_a_setting(message: str, kind: EventKind | None) -> None:
    """A start-up line that states the timeout it was given (`pg timeout 1800s`) says how the
    job was set up, as `timeout=1800s` does; a timeout that something reached or ran into is
    still an error."""
    assert classify(parse_line(message), load_prefilter()) is kind


@pytest.mark.parametrize(
    ("message", "kind"),
    [
        (
            "[Load] comm config of [group_name_7]: bufferSize[209715200], deterministic[0], "
            "execTimeOut[1836]",
            None,
        ),
        (
            "[Get][Connection]topo exchange server get socket timeout! timeout[720 s]",
            EventKind.ERROR,
        ),
    ],
    ids=["settings-record", "timeout-with-its-limit"],
)
def test_hccls_settings_record_names_a_timeout_it_was_given(
    message: str, kind: EventKind | None
) -> None:
    """HCCL records each communicator's settings as `Name[value]` (`execTimeOut[1836]`): the
    execution timeout it was configured with, not one it ran into; a wait that ran out and
    states its limit in brackets is still an error."""
    assert classify(parse_line(message), load_prefilter()) is kind


# torch's C++ warnings (`TORCH_WARN`: `[W <file>.cpp:<n>] Warning: ... (function <fn>)`, newer
# releases with glog's date, time and thread in the tag) go to stderr. An interactive program
# prints its answer marker to stdout without a newline before it generates, so the warning the
# first kernel raises lands behind the marker on the same line. The tag still says warning,
# whatever words its text holds (`Check ... failed, result is untrustworthy`).
GLUED_TORCH_WARNINGS = [
    "ASSISTANT: [W OpCommand.cpp:96] Warning: [Check][offset] Check input storage_offset[%ld] = 0"
    " failed, result is untrustworthy1 (function operator())",
    "答： [W1206 10:12:03.400120 2211 OpParamMaker.cpp:88] Warning: cast of the scalar failed,"
    " the host value is used (function operator())",
    "Output> [W NPUStream.cpp:641] Warning: NPU warning, error code is 507046[Error]: ."
    " (function npuSynchronizeUsedDevices)",
]


@pytest.mark.parametrize("message", GLUED_TORCH_WARNINGS)
def test_a_torch_warning_behind_a_prompt_marker_is_a_warning(message: str) -> None:
    assert classify(parse_line(message), load_prefilter()) is EventKind.WARNING


@pytest.mark.parametrize(
    "message",
    [
        "RuntimeError: [W OpCommand.cpp:96] Warning: [Check][offset] Check input failed",
        "the reply of rank 3 failed: [W pair.cc:48] Warning: peer closed the socket",
    ],
    ids=["exception-type", "error-sentence"],
)
def test_an_error_sentence_before_the_tag_keeps_its_reading(message: str) -> None:
    assert classify(parse_line(message), load_prefilter()) is EventKind.ERROR


def test_a_chat_transcript_with_a_glued_warning_cites_no_error() -> None:
    transcript = (
        "USER: name three rivers\n" + GLUED_TORCH_WARNINGS[0] + "\nNile, Amazon, Yangtze.\n"
    )
    assert diagnose_text("chat.log", transcript).first_error is None


@pytest.mark.parametrize(
    ("message", "error"),
    [
        (
            "Token indices sequence length is longer than the specified maximum sequence length"
            " for this model (611 > 512). Running this sequence through the model will result in"
            " indexing errors",
            False,
        ),
        ("IndexError: index out of range in self", True),
    ],
    ids=["tokenizer-notice", "the-indexing-error-itself"],
)
def test_a_tokenizers_notice_of_an_over_long_sample_is_no_error(message: str, error: bool) -> None:
    # a tokenizer warns of every sample longer than the model's maximum, each step of a long
    # run; "will result in indexing errors" predicts a failure, it reports none
    assert (classify(parse_line(message), load_prefilter()) is EventKind.ERROR) is error
