"""A file whose path names no rank takes the one rank it states before its first checkpoint."""

import io

from analyzers.checkpoints.patterns import CheckpointMatcher
from analyzers.core.types import FileInfo, FileKind
from analyzers.scan.member import scan_file
from analyzers.scan.stated_rank import stated_rank


def _scan(text: str, path: str = "node-3/stdout.txt", kind: FileKind = FileKind.OTHER):
    return scan_file(io.BytesIO(text.encode()), FileInfo(path, kind, None), CheckpointMatcher())


def test_a_start_line_before_the_progress_gives_the_file_its_rank():
    text = "rank=3 world_size=4 local_rank=0\nprefill start: 8 tokens\n  norm passed\n[rank3]: RuntimeError: x\n"
    assert _scan(text).info.rank == 3


def test_a_rank_named_only_after_the_progress_is_not_the_files():
    text = "prefill start: 8 tokens\n  norm passed\nprefill start: 8 tokens\n  norm passed\n[rank1]: RuntimeError: x\n"
    assert _scan(text).info.rank is None


def test_two_ranks_named_give_no_rank():
    text = "rank=0 world_size=4\nrank=1 world_size=4\nprefill start: 8 tokens\n"
    assert _scan(text).info.rank is None


def test_a_launcher_log_is_never_given_one_rank():
    text = "rank=2 world_size=4\nprefill start: 8 tokens\n"
    assert _scan(text, path="launcher.log", kind=FileKind.LAUNCHER).info.rank is None


def test_the_rule_itself():
    assert stated_rank({"rank_hint": 2, "rank_hint_line": 1}, 2) == 2
    assert stated_rank({"rank_hint": 2, "rank_hint_line": 1}, None) == 2
    assert stated_rank({"rank_hint": 2, "rank_hint_line": 9}, 2) is None
    assert stated_rank({"rank_hint": 2}, 2) is None
