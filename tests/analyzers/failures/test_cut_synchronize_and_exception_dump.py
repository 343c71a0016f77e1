"""Two pastes that kept only what surrounds a device failure.

docs/labelling.md#a-traceback-cut-before-its-exception: a worker's traceback cut before its
exception, whose deepest frame is a stream synchronize, is read at that frame as `stream_sync`
with the kernel and the collective beside it, whether or not the file ends with a line end.
docs/labelling.md#an-operator-name-decides-nothing: the exception dump's own lines, kept
without the runtime's error block, are a device-side core exception.
"""

from __future__ import annotations

import pytest

from tests.analyzers.excerpts import assert_reads, diagnose_text

PREFIX = "(Worker_DP3_EP3 pid=5120) ERROR 02-03 04:05:06 [multiproc_executor.py:990]"


def _cut_traceback(statement: str, end: str) -> str:
    return (
        "\n".join(
            [
                f'{PREFIX}   File "/srv/serve/worker/runner.py", line 2700, in _model_forward',
                f"{PREFIX}     hidden = run_model()",
                f"{PREFIX}                ^^^^^^^^^^^",
                f'{PREFIX}   File "/srv/serve/compilation/graph_replay.py", line 141, in __call__',
                f"{PREFIX}     {statement}",
                "(Worker_DP3_EP3 pid=5120) ERROR 02-03 04:05:06 [multipr",
            ]
        )
        + end
    )


@pytest.mark.parametrize("end", ["", "\n"], ids=["no-line-end", "line-end"])
def test_a_traceback_cut_at_a_stream_synchronize_reads_the_stream_layer(end: str) -> None:
    diagnosis = diagnose_text(
        "d_node/worker.log", _cut_traceback("torch.npu.current_stream().synchronize()", end)
    )
    assert diagnosis.category == "stream_sync"
    assert {"aicore_timeout", "hccl"} <= {alt.category for alt in diagnosis.alternatives}
    assert diagnosis.first_error is not None
    assert "synchronize()" in diagnosis.first_error.text
    assert diagnosis.confidence < 0.8


def test_a_traceback_cut_at_another_call_is_no_synchronize() -> None:
    # counterexample: the program's own method named like a synchronize
    diagnosis = diagnose_text("d_node/worker.log", _cut_traceback("self.synchronize_weights()", ""))
    assert diagnosis.category != "stream_sync"
    assert diagnosis.category != "hang"


DUMP = """\
[ERROR] IDEDD(3100,):2026-05-06-07:08:09.100.180 [dfx_args_parser.cpp:95][tid:3120] [AIC_INFO] args(0 to 6) after execute:0x12c000100000, 0x12c000100040, 0, 0x8, 0x1, 0,
[ERROR] IDEDD(3100,):2026-05-06-07:08:09.100.190 [dfx_args_parser.cpp:90][tid:3120] [AIC_INFO] after execute:args print end
[ERROR] IDEDD(3100,):2026-05-06-07:08:09.100.200 [dfx_args_parser.cpp:95][tid:3120] [Dump][Exception] begin to load normal tensor, index:0, tensor type:2(INPUT_TENSOR), pointer type:1(L1_POINTER)
[ERROR] IDEDD(3100,):2026-05-06-07:08:09.100.230 [dfx_args_parser.cpp:95][tid:3120] [Dump][Exception] exception info dump args data, addr:0x12c000100000; size:64 bytes
[ERROR] IDEDD(3100,):2026-05-06-07:08:09.100.240 [dfx_args_parser.cpp:95][tid:3120] [Dump][Exception] end to load normal tensor, index:0
"""


def test_exception_dump_lines_alone_are_a_device_side_core_exception() -> None:
    diagnosis = diagnose_text("plog/plog-3100_20260506070801.log", DUMP)
    assert_reads(diagnosis, "aicore_timeout", first_error="[Dump][Exception]", beside=("operator",))
    assert diagnosis.confidence < 0.8


def test_the_dump_being_switched_on_is_no_failure() -> None:
    notice = (
        "[INFO] IDEDD(3100,):2026-05-06-07:00:01.000.100 [adump_api.cpp:40][tid:3100] "
        "[Dump][Exception] exception dump is enabled, path:/var/log/npu/dump\n"
    )
    diagnosis = diagnose_text("plog/plog-3100_20260506070001.log", notice)
    assert diagnosis.category != "aicore_timeout"
