"""Python tracebacks: the exception line, its chains and the rank it belongs to, however the
traceback is printed."""

import io

from analyzers.core.types import EventKind, FileInfo, FileKind
from analyzers.scan.member import scan_file


def scan(text: str, rank: int | None = None):
    return scan_file(io.BytesIO(text.encode()), FileInfo("log_0.log", FileKind.RANK_LOG, rank))


def errors(result):
    return [(e.line, e.source, e.message) for e in result.events if e.kind == EventKind.ERROR]


CHAINED = """\
Traceback (most recent call last):
  File "/usr/lib/python3.10/ctypes/__init__.py", line 619, in __init__
    self._handle = _dlopen(self._name, mode)
OSError: libatb.so: cannot open shared object file: No such file or directory

The above exception was the direct cause of the following exception:

Traceback (most recent call last):
  File "/root/venv/lib/python3.10/site-packages/torch_npu/op_plugin/atb/_atb_ops.py", line 66, in <module>
    torch.ops.load_library(atb_so_path)
  File "/root/venv/lib/python3.10/site-packages/torch/_ops.py", line 7593, in load_library
    raise OSError(f"Could not load this library: {path}") from e
OSError: Could not load this library: /usr/local/Ascend/nnal/atb/lib/libatb.so
"""


def test_chained_tracebacks_point_at_the_first_exception():
    result = scan(CHAINED)
    assert errors(result) == [
        (
            4,
            "traceback",
            "OSError: libatb.so: cannot open shared object file: No such file or directory",
        ),
        (
            13,
            "traceback",
            "OSError: Could not load this library: /usr/local/Ascend/nnal/atb/lib/libatb.so",
        ),
    ]
    first, second = result.facts["tracebacks"]
    assert (first["chained"], first["root_line"]) == (False, 4)
    assert (second["chained"], second["root_line"]) == (True, 4)
    assert (first["frame_line"], second["frame_line"]) == (2, 11)


def test_interleaved_ranks_keep_their_own_tracebacks():
    text = (
        "[default0]:Traceback (most recent call last):\n"
        "[default1]:Traceback (most recent call last):\n"
        '[default0]:  File "/app/infer.py", line 313, in run_model\n'
        '[default1]:  File "/app/infer.py", line 286, in forward\n'
        "[default1]:KeyboardInterrupt\n"
        "[default0]:RuntimeError: mat1 and mat2 shapes cannot be multiplied (8x8 and 32x32)\n"
    )
    result = scan(text)
    assert [(e.line, e.rank) for e in result.events if e.source == "traceback"] == [(5, 1), (6, 0)]
    assert [t["frame_line"] for t in result.facts["tracebacks"]] == [4, 3]


def test_an_excerpt_that_starts_mid_traceback_still_gives_the_exception():
    text = (
        '    raise RuntimeError("Distributed package doesn\'t have NCCL built in")\n'
        "RuntimeError: Distributed package doesn't have NCCL built in\n"
    )
    assert errors(scan(text)) == [
        (2, "traceback", "RuntimeError: Distributed package doesn't have NCCL built in")
    ]


DCP_QUOTED = """\
[rank0]: torch.distributed.checkpoint.api.CheckpointException: CheckpointException ranks:dict_keys([1])
[rank0]: Traceback (most recent call last): (RANK 1)
[rank0]:   File "/opt/venv/lib/python3.11/site-packages/torch/distributed/checkpoint/utils.py", line 193, in reduce_scatter
[rank0]:     local_data = map_fun()
[rank0]:   File "/opt/venv/lib/python3.11/site-packages/torch/distributed/checkpoint/default_planner.py", line 495, in create_default_local_load_plan
[rank0]:     raise RuntimeError(f"Missing key in checkpoint state_dict: {fqn}.")
[rank0]: RuntimeError: Missing key in checkpoint state_dict: model.layers.0.bq.
"""


def test_a_distributed_checkpoint_quote_of_another_ranks_traceback_is_that_ranks():
    """torch's distributed checkpoint raises every failed rank's exception on every rank, each
    under `Traceback (most recent call last): (RANK n)`: the exception below is rank n's."""
    result = scan(DCP_QUOTED, rank=0)
    [inner] = [e for e in result.events if e.kind == EventKind.ERROR and "Missing key" in e.text]
    assert inner.rank == 1


def test_a_plain_traceback_header_names_no_rank():
    text = DCP_QUOTED.replace(" (RANK 1)", "")
    result = scan(text, rank=0)
    [inner] = [e for e in result.events if e.kind == EventKind.ERROR and "Missing key" in e.text]
    assert inner.rank == 0
