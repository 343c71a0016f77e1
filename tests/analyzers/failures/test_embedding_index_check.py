"""An embedding lookup whose index is past its table: index_select's host check says only
`index out of range in self`. Read as the indexing bound check it is, on the rank that raised
it; the peers that lost the connection afterwards are its consequences. The fixture is a
torchrun `--tee` stdout in its real shape, with its own values."""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

COMBINED = """\
[default7]: norm passed
[default4]: norm passed
[default7]:[rank7]: Traceback (most recent call last):
[default7]:[rank7]:   File "/srv/job/infer.py", line 409, in main
[default7]:[rank7]:     x = embed(ids)
[default7]:[rank7]:   File "/usr/lib/python3.11/site-packages/torch/nn/functional.py", line 2615, in embedding
[default7]:[rank7]:     return torch.embedding(weight, input, padding_idx, scale_grad_by_freq, sparse)
[default7]:[rank7]: IndexError: index out of range in self
[default7]:model run failed: index out of range in self
[default4]:model run failed: [/__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp/pair.cc:553] Connection closed by peer [127.0.0.1]:24410. This is typically caused by a remote worker crashing. Check the logs of the remote worker before reporting an error. GLHF!
"""


def test_an_embedding_index_past_its_table_is_an_index_bound_check() -> None:
    diagnosis = diagnose_text("job/job.log", COMBINED)
    assert_reads(diagnosis, "shape_mismatch", first_error="IndexError: index out of range in self")
    assert diagnosis.culprit_ranks == [7]


def test_an_index_past_a_table_keeps_the_data_as_its_neighbour() -> None:
    """The table may be fine and the index wrong: a node or token id the data should never
    have held. The reading offers `other` and stays below the confident band."""
    text = (
        "ERROR:root:sampler task failed: index 88120455 is out of bounds for dimension 0"
        " with size 5120\n"
    )
    diagnosis = diagnose_text("train/node0.log", text)
    assert diagnosis.category == "shape_mismatch"
    assert "other" in {alt.category for alt in diagnosis.alternatives}
    assert diagnosis.confidence < 0.8
