"""Recommendation and graph-learning jobs: checkpoints, sampler workers and native checks.

A sharded embedding checkpoint whose saved per-rank segments cannot form the row range of a
rank that loads it (resumed on another number of ranks) is a weight load that does not fit
(docs/labelling.md#a-checkpoint-cut-for-another-number-of-ranks).

The CUDA runtime's bare initialisation error raised in a forked loader or sampler worker is
the job's worker setting, not the device (docs/labelling.md#cuda-that-does-not-start-in-a-worker);
the loader's headline above it is the same failure's wrapper.

A graph library's failed native check printed with its backtrace names shared objects only as
frames: those names do not make it a missing library, and with nothing else telling the error
stays unlabelled.
"""

from __future__ import annotations

from tests.analyzers.excerpts import alternative_labels, assert_reads, diagnose_text

RESUMED_ON_FEWER_RANKS = """\
[rank1]:   File "/opt/conda/lib/python3.11/site-packages/torch/nn/modules/module.py", line 2597, in load
[rank1]:     out = hook(module, incompatible_keys)
[rank1]:   File "/opt/conda/lib/python3.11/site-packages/torchrec/modules/mc_modules.py", line 231, in _load_state_dict_post_hook
[rank1]:     module.validate_state()
[rank1]:   File "/opt/conda/lib/python3.11/site-packages/torchrec/modules/mc_modules.py", line 1398, in validate_state
[rank1]:     start in self._output_segments_tensor
[rank1]: AssertionError: shard within range [250000, 500000] cannot be built out of segements tensor([     0, 125000, 250000, 375000, 500000])
"""

FORKED_SAMPLER_WORKER = """\
RuntimeError: Caught RuntimeError in DataLoader worker process 1.
Original Traceback (most recent call last):
  File "/venv/lib/python3.10/site-packages/torch/utils/data/_utils/worker.py", line 308, in _worker_loop
    data = fetcher.fetch(index)
  File "/venv/lib/python3.10/site-packages/torch/utils/data/_utils/fetch.py", line 51, in fetch
    data = [self.dataset[idx] for idx in possibly_batched_index]
RuntimeError: CUDA error: initialization error
CUDA kernel errors might be asynchronously reported at some other API call, so the stacktrace below might be incorrect.
For debugging consider passing CUDA_LAUNCH_BLOCKING=1.
"""

NATIVE_CHECK_WITH_BACKTRACE = """\
dgl._ffi.base.DGLError: [11:20:05] /opt/dgl/src/rpc/rpc.cc:484: Check failed: l_id < local_data_shape[0] (18446744073709551615 vs. 52001) : 
Stack trace:
  [bt] (0) /env/lib/python3.10/site-packages/dgl/libdgl.so(+0x8a4b80) [0x7f10aaa4b80]
  [bt] (1) /env/lib/python3.10/site-packages/dgl/libdgl.so(DGLFuncCall+0x48) [0x7f10a916108]
  [bt] (2) /env/lib/python3.10/site-packages/dgl/_ffi/_cy3/core.cpython-310-x86_64-linux-gnu.so(+0x162a3) [0x7f10a1f72a3]
  [bt] (3) /env/bin/python(_PyObject_MakeTpCall+0x254) [0x502a14]
"""

LIBRARY_THAT_DOES_NOT_LOAD = """\
Traceback (most recent call last):
  File "/srv/train.py", line 12, in <module>
    import graphops
OSError: /env/lib/python3.10/site-packages/graphops/graphops_py.so: undefined symbol: _ZN3c104cuda9SetDeviceEi
"""


def test_a_checkpoint_cut_for_more_ranks_is_weight_load() -> None:
    diagnosis = diagnose_text("train.log", RESUMED_ON_FEWER_RANKS)
    assert_reads(diagnosis, "weight_load", first_error="cannot be built out of segements")


def test_cuda_that_does_not_start_in_a_loader_worker_is_config() -> None:
    diagnosis = diagnose_text("train.log", FORKED_SAMPLER_WORKER)
    assert diagnosis.category == "config"
    assert "driver_env" in alternative_labels(diagnosis)
    assert diagnosis.first_error.text.strip() in {
        "RuntimeError: CUDA error: initialization error",
        "RuntimeError: Caught RuntimeError in DataLoader worker process 1.",
    }


def test_backtrace_frames_naming_shared_objects_are_no_missing_library() -> None:
    diagnosis = diagnose_text("trainer.log", NATIVE_CHECK_WITH_BACKTRACE)
    assert_reads(diagnosis, "other", first_error="Check failed: l_id < local_data_shape[0]")


def test_a_shared_object_that_does_not_load_still_points_at_the_environment() -> None:
    diagnosis = diagnose_text("train.log", LIBRARY_THAT_DOES_NOT_LOAD)
    assert diagnosis.category in {"driver_env", "config"}
    assert "undefined symbol" in diagnosis.first_error.text
