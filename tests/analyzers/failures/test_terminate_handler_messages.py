"""Exceptions that a native engine only reports through C++'s terminate handler.

A serving engine written in C++ (glog lines, no Python traceback) that lets a `c10::Error`
escape dies in `std::terminate`, which prints a generic headline (`terminate called after
throwing ...`) and then the exception's own text after `what():`. That text is the error
whatever words it uses: torch's device check has none of the error words the scanner looks for
(`Expected all tensors to be on the same device ...`), so the line must still become an error
line and be read like the same refusal raised as a Python `RuntimeError`
(docs/labelling.md#a-tensor-left-on-the-cpu-of-an-npu-job).
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text, scan_text

# A C++ engine finishes a request, then a decode step hands masked_fill a mask left on the CPU.
ENGINE_ABORT = """\
I20260301 08:15:02.114203 4410 request.cpp:78] request_id: cmpl-7, finish_reason: stop, prompt_tokens: 812, generated_tokens: 64
terminate called after throwing an instance of 'c10::Error'
  what():  Expected all tensors to be on the same device, but found at least two devices, npu:2 and cpu! (when checking argument for argument mask in method wrapper_NPU__masked_fill_)
Exception raised from common_device_check_failure at /pytorch/aten/src/ATen/core/adaption.cpp:7 (most recent call first):
frame #0: c10::Error::Error(c10::SourceLocation, std::string) + 0x68 (0xffff9a11d898 in /opt/torch/lib/libc10.so)
"""

# The same engine on CUDA: the device check names two devices that are not an NPU and the CPU.
CUDA_ENGINE_ABORT = ENGINE_ABORT.replace("npu:2 and cpu", "cuda:1 and cpu").replace(
    "wrapper_NPU__masked_fill_", "wrapper_CUDA__masked_fill_"
)


def test_the_quoted_exception_is_the_first_error_not_the_terminate_headline() -> None:
    diagnosis = diagnose_text("engine.log", ENGINE_ABORT)
    assert_reads(diagnosis, "config", first_error="what():  Expected all tensors")


def test_a_cuda_device_pair_in_the_quoted_exception_stays_the_operator() -> None:
    diagnosis = diagnose_text("engine.log", CUDA_ENGINE_ABORT)
    assert_reads(diagnosis, "operator", first_error="what():")


def test_the_quoted_text_is_an_error_line_on_its_own() -> None:
    scan = scan_text("engine.log", ENGINE_ABORT.splitlines(keepends=True)[2])
    assert [event.line for event in scan.events] == [1]


def test_an_empty_quote_or_a_source_line_is_not_an_error() -> None:
    text = "  what():  \n    def what():\n        return self.message\n"
    assert scan_text("engine.log", text).events == []
