"""A weight loader's bare shape or presence assertion, against assertions in model code.

docs/labelling.md#config-driver_env-or-weight_load: a parallel layer's loader that asserts the
parameter's shape equals the checkpoint tensor's prints only `AssertionError`; the statement
above it says the loader compared what it read with what it fills, so the label is
`weight_load` (`shape_mismatch` offered). The same bare exception under a comparison of two
activations in a forward pass is not a loader's check. A loader that fuses several checkpoint
tensors into one parameter asserts that each part it gathered holds the tensor it needs; when
the checkpoint lacks it, that is `weight_load` too (`config` offered: an option asking for
layers the checkpoint does not ship). Fixtures are CI-style tracebacks with paths and values of
our own.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

LOADER_CHECK = """\
[05-06 07:08:09] Streamed 9.4 GiB of checkpoint files to cpu in 1.31s
Traceback (most recent call last):
  File "/ci/_work/gen/gen/runtime/loader/sharded_load.py", line 388, in load_full_state_dict
    weight_loader(temp_param, full_tensor)
  File "/ci/_work/gen/gen/runtime/layers/linear.py", line 402, in weight_loader_v2
    param.load_row_parallel_weight(loaded_weight=loaded_weight)
  File "/ci/_work/gen/gen/runtime/models/parameter.py", line 131, in load_row_parallel_weight
    assert self.data.shape == loaded_weight.shape
AssertionError
"""

FORWARD_CHECK = """\
Traceback (most recent call last):
  File "/ci/_work/gen/gen/runtime/models/dit/block.py", line 214, in forward
    hidden = self.norm(hidden + residual)
  File "/ci/_work/gen/gen/runtime/models/dit/block.py", line 188, in _check
    assert hidden.shape == residual.shape
AssertionError
"""

# the failed statement quoted on its own, as a report copies it out of the traceback
QUOTED_STATEMENT = """\
assert self.data.shape == loaded_weight.shape
"""


def test_a_loader_shape_assertion_is_a_weight_load_failure() -> None:
    diagnosis = diagnose_text("ci/job.log", LOADER_CHECK)
    assert diagnosis.category == "weight_load", diagnosis.root_cause
    assert diagnosis.first_error is not None
    assert diagnosis.first_error.text.endswith("AssertionError")
    assert "shape_mismatch" in {alt.category for alt in diagnosis.alternatives}


def test_a_shape_assertion_between_activations_is_not_a_loader_check() -> None:
    diagnosis = diagnose_text("ci/job.log", FORWARD_CHECK)
    assert diagnosis.category != "weight_load", diagnosis.root_cause


def test_a_loader_shape_assertion_quoted_alone_is_the_loader_failure() -> None:
    diagnosis = diagnose_text("serve/api_server.log", QUOTED_STATEMENT)
    assert_reads(diagnosis, "weight_load", first_error="loaded_weight.shape")


def test_a_shape_assertion_between_activations_quoted_alone_is_no_loader_failure() -> None:
    diagnosis = diagnose_text("serve/api_server.log", "assert hidden.shape == residual.shape\n")
    assert diagnosis.category != "weight_load", diagnosis.root_cause


# A fused gate/up loader whose checkpoint lacks one part's scale, printed both ways Python
# shows a failed assertion: the statement as the message, or a bare exception under its source.
FUSED_PART_MISSING_MESSAGE = """\
[05-06 07:08:09] Loading weights: 97%|#########7| 1812/1866
[rank5]: Traceback (most recent call last):
[rank5]:   File "/srv/gen/models/loaders.py", line 77, in load_fused_gate_up
[rank5]:     assert all('weight_scale' in parts[j] for j in range(2))
[rank5]: AssertionError: assert all('weight_scale' in parts[j] for j in range(2))
"""

FUSED_PART_MISSING_BARE = """\
Traceback (most recent call last):
  File "/srv/gen/models/loaders.py", line 52, in load_fused_qkv
    assert 'weight' in shard_weights[2]
AssertionError
"""

# Counterexample: a presence check on a device or option string is no loader's.
DEVICE_STRING_CHECK = """\
Traceback (most recent call last):
  File "/srv/gen/runtime/platform.py", line 31, in pick_device
    assert 'cuda' in device_type
AssertionError
"""


def test_a_fused_loaders_presence_assertion_is_a_weight_load_failure() -> None:
    for text in (FUSED_PART_MISSING_MESSAGE, FUSED_PART_MISSING_BARE):
        diagnosis = diagnose_text("serve/worker.log", text)
        assert_reads(diagnosis, "weight_load", first_error="AssertionError", beside=("config",))


def test_a_presence_assertion_on_a_device_string_is_not_a_loader_check() -> None:
    diagnosis = diagnose_text("serve/worker.log", DEVICE_STRING_CHECK)
    assert diagnosis.category != "weight_load", diagnosis.root_cause
