"""The memo of severity answers gives each line the answer `classify` gives it."""

import pytest

from analyzers.formats.lines import parse_line
from analyzers.formats.severity import classify, load_prefilter
from analyzers.formats.severity_memo import SeverityMemo

# Same shape, other digits: the answer may differ only where the prefilter names digits.
LINES = [
    "/x/torch/nn/modules/module.py:1532: UserWarning: step 12: view does not match its stride",
    "/x/torch/nn/modules/module.py:1538: UserWarning: step 13: view does not match its stride",
    "node-0:40003:40103 [3] NCCL WARN Cuda failure 'out of resources' on ring 1, step 9",
    "node-0:40003:40103 [3] NCCL WARN Cuda failure 'out of resources' on ring 2, step 10",
    "Token indices sequence length is longer than the specified maximum sequence length "
    "for this model (611 > 512). Running this sequence through the model will result in "
    "indexing errors",
    "Token indices sequence length is longer than the specified maximum sequence length "
    "for this model (711 > 512). Running this sequence through the model will result in "
    "indexing errors",
    "training finished: 0 errors",
    "training finished: 3 errors",
    "worker exited with exit code 0",
    "worker exited with exit code 1",
    "2026-11-29 07:24:13,512 [rank0] WARNING step 1288 slow",
    "2026-11-29 07:24:14,512 [rank0] WARNING step 1289 slow",
]


@pytest.fixture
def memo() -> SeverityMemo:
    return SeverityMemo(load_prefilter(), warm=0)


def test_memo_answers_as_classify_line_by_line(memo: SeverityMemo) -> None:
    for _ in range(2):  # the second pass is answered from the memo where it may be
        for text in LINES:
            line = parse_line(text)
            assert memo.classify(line) == classify(line, load_prefilter()), text


def test_digits_that_the_prefilter_names_are_never_shared(memo: SeverityMemo) -> None:
    first, second = (
        parse_line("training finished: 0 errors"),
        parse_line("training finished: 3 errors"),
    )
    assert memo.classify(first) != memo.classify(second)


def test_a_warning_printed_every_step_is_classified_once(memo: SeverityMemo) -> None:
    memo.classify(parse_line(LINES[0]))
    assert len(memo._answers or {}) == 1
    memo.classify(parse_line(LINES[0].replace("step 12", "step 47")))
    assert len(memo._answers or {}) == 1


def test_the_memo_is_built_only_once_enough_lines_were_classified() -> None:
    """A process that reads a few lines never pays for widening the long alternation; its
    answers are classify's either way."""
    memo = SeverityMemo(load_prefilter(), warm=3)
    lines = [parse_line(text) for text in LINES[:3]]
    for line in lines:
        assert memo.classify(line) == classify(line, load_prefilter())
    assert memo._answers is None
    memo.classify(lines[0])
    assert memo._answers is not None
