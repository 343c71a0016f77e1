"""A model's own check that raises (not asserts) with a dimension's count and the different
count another tensor needs.

docs/labelling.md#an-assertion-that-quotes-two-shapes-that-differ: model code often raises
instead of asserting, in the same words (`ValueError: rotary cache has 7 positions but the
sequence needs 8`, `RuntimeError: mask has 4 heads but attention expects 8`): a dimension that
disagrees, `shape_mismatch`, with `config` beside it (a cache or table sized by a setting), the
message being the first error ahead of the peers' lost connections. Equal counts, a count of
something that is no dimension and a warning that only reports the counts are not this check.
Fixtures are a rank's traceback as torchrun's console relays it, with paths and values of our
own.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

CACHE_SHORT = """\
[default1]:  attention passed
[default2]:[rank2]: Traceback (most recent call last):
[default2]:[rank2]:   File "/srv/decoder/run.py", line 99, in <module>
[default2]:[rank2]:     x = model[i](x)
[default2]:[rank2]:   File "/srv/decoder/run.py", line 74, in forward
[default2]:[rank2]:     raise ValueError(f"rotary cache has {n} positions but the sequence needs {t}")
[default2]:[rank2]: ValueError: rotary cache has 1023 positions but the sequence needs 1024
[default3]:[rank3]: RuntimeError: [/__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp/pair.cc:553] Connection closed by peer [127.0.0.1]:27879. This is typically caused by a remote worker crashing. Check the logs of the remote worker before reporting an error.
"""

HEADS_SHORT = """\
Traceback (most recent call last):
  File "/home/ml/attn.py", line 41, in forward
    raise RuntimeError(f"mask has {m.size(1)} heads but attention expects {self.heads}")
RuntimeError: mask has 4 heads but attention expects 8
"""

SAME_COUNT = """\
Traceback (most recent call last):
  File "/home/ml/attn.py", line 44, in forward
ValueError: mask has 8 heads but attention expects 8 (got dtype torch.bool)
"""

NOT_A_DIMENSION = """\
Traceback (most recent call last):
  File "/srv/fetch.py", line 22, in fetch
ValueError: queue has 3 retries but the policy needs 5
"""

WARNING_ONLY = """\
2026-12-06 00:22:34.097 | WARNING  | data:pack:58 - rotary cache has 7 positions but the sequence needs 8; extending it
2026-12-06 00:22:34.318 | INFO     | __main__:say:75 - layer 0 passed
"""


def test_a_raised_short_dimension_is_a_shape_mismatch() -> None:
    for text, first in (
        (CACHE_SHORT, "ValueError: rotary cache"),
        (HEADS_SHORT, "RuntimeError: mask"),
    ):
        diagnosis = diagnose_text("console.log", text)
        assert_reads(diagnosis, "shape_mismatch", first_error=first)
        assert "shape.raised_counts_differ" in rules_of(diagnosis)
        assert "config" in {a.category for a in diagnosis.alternatives}


def test_equal_counts_or_other_counts_are_not_this_check() -> None:
    for text in (SAME_COUNT, NOT_A_DIMENSION, WARNING_ONLY):
        diagnosis = diagnose_text("stderr.log", text)
        assert "shape.raised_counts_differ" not in {e.rule for e in diagnosis.evidence if e.rule}, (
            text
        )
