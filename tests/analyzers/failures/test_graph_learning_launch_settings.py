"""Graph-learning jobs whose launch names something the installed build cannot serve.

docs/labelling.md#a-path-whose-scheme-no-file-system-handles: a path whose URL scheme no
registered file system handles (TensorFlow's registry, Graph-Learn's C++ environment, fsspec)
is the job's setting, with the build or host lacking the file system beside it.
docs/labelling.md#distdgl-samplers-that-cannot-find-their-dataloader: DistDGL sampler processes
that stop at `KeyError: 'dataloader-<n>'` are torch and DGL releases that do not fit.
Values of our own in the real shapes.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

GRAPH_SERVER_PLACEHOLDER_PATH = """\
world_size: 4, rank: 2
[2025-03-14 09:41:22.105311] Invalid file path: store://graphs/products
E20250314 09:41:22.105337  6120 env.cc:112] File system not implemented: store://graphs/products
F20250314 09:41:22.105502  6120 fs_coordinator.cc:42] Invalid tracker path: store://graphs/products/
*** Check failure stack trace: ***
    @     0x7f91d2a4b22e  google::LogMessage::Fail()
    @     0x7f91d2a4b18b  google::LogMessage::SendToLog()
"""


def test_a_tracker_path_with_a_scheme_the_build_lacks_is_the_launch_setting() -> None:
    diagnosis = diagnose_text("gl/server_2.log", GRAPH_SERVER_PLACEHOLDER_PATH)
    assert_reads(
        diagnosis,
        "config",
        first_error="File system not implemented: store://graphs/products",
        rule="cfg.filesystem_scheme_not_implemented",
        beside=("driver_env",),
    )


TF_SCHEME_NOT_IMPLEMENTED = """\
Traceback (most recent call last):
  File "/srv/gnn/train_ego_sage.py", line 88, in <module>
    files = tf.io.gfile.glob(args.tables)
tensorflow.python.framework.errors_impl.UnimplementedError: File system scheme 'viewfs' not implemented (file: 'viewfs://cluster7/datasets/graph/part-00003')
"""


def test_tensorflows_wording_of_the_same_refusal_reads_the_same_way() -> None:
    diagnosis = diagnose_text("worker_1.log", TF_SCHEME_NOT_IMPLEMENTED)
    assert diagnosis.category == "config"
    assert "cfg.filesystem_scheme_not_implemented" in rules_of(diagnosis)


OPERATOR_NOT_IMPLEMENTED = """\
Traceback (most recent call last):
  File "/srv/gnn/layers.py", line 40, in forward
    out = x.scatter_reduce(0, idx, src, reduce="amax")
NotImplementedError: scatter_reduce for sparse tensors is not implemented
"""


def test_an_operator_that_is_not_implemented_is_not_a_path() -> None:
    diagnosis = diagnose_text("rank0.log", OPERATOR_NOT_IMPLEMENTED)
    assert "cfg.filesystem_scheme_not_implemented" not in rules_of(diagnosis)


DISTDGL_SAMPLER = """\
Client [388] waits on 10.30.5.12:47291
Machine (1) group (0) client (9) connect to server successfuly!
Traceback (most recent call last):
  File "/opt/venv/lib/python3.10/site-packages/dgl/distributed/dist_context.py", line 101, in init_process
    collate_fn_dict[dataloader_name](collate_args),
KeyError: 'dataloader-1'
Process SpawnProcess-3:
Traceback (most recent call last):
  File "/usr/lib/python3.10/multiprocessing/process.py", line 315, in _bootstrap
    self.run()
"""


def test_distdgl_samplers_without_their_dataloader_are_releases_that_do_not_fit() -> None:
    diagnosis = diagnose_text("part1/trainer.log", DISTDGL_SAMPLER)
    assert_reads(
        diagnosis,
        "config",
        first_error="KeyError: 'dataloader-1'",
        rule="cfg.distdgl_sampler_dataloader_missing",
        beside=("other",),
    )
