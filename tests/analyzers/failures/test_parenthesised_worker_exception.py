"""A serving API's error reply that quotes the worker's exception in parentheses.

docs/labelling.md#a-server-reply-that-wraps-the-workers-exception-in-parentheses: a chat
server that catches a worker's exception answers the client with a fixed sentence of its own
and the exception's text after two escaped newlines, set in parentheses (`"...PAGE.**\\n\\n(<the
exception>)"`). The client raises its own error around that JSON body. The fixed sentence is
the server's, not a network failure; the exception in the parentheses is the worker's and is
read as if it had been raised on its own line: two cards of one accelerator keep the op's
reading, `operator`, with `config` beside it. Counterexamples: a writer's prefix in
parentheses at the start of an escaped piece (`(Worker pid=7) ...`) is not a wrapper, and a
parenthesised note that closes before the rest of its line stays as written.

The fixtures are written in the shape of an OpenAI-compatible client's console, with our own
values.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

WRAPPED = (
    'openai.error.APIError: Invalid response object from API: \'{"object":"error",'
    '"message":"**SERVER BUSY. PLEASE RETRY.**\\\\n\\\\n(Expected all tensors to be on the '
    "same device, but found at least two devices, cuda:1 and cuda:0! (when checking argument "
    'for argument mat2 in method wrapper_CUDA_bmm))","code":50001}\' (HTTP response code was 400)\n'
)


def test_the_exception_in_the_reply_is_read_as_raised() -> None:
    diagnosis = diagnose_text("client.log", WRAPPED)
    assert_reads(
        diagnosis,
        "operator",
        first_error="found at least two devices, cuda:1 and cuda:0",
        beside=["config"],
    )


def test_a_once_escaped_reply_body_reads_the_same() -> None:
    text = (
        '{"text": "**SERVER BUSY. PLEASE RETRY.**'
        "\\n\\n(CUDA out of memory. Tried to allocate 2.00 GiB (GPU 1; 15.77 GiB total "
        'capacity; 13.90 GiB already allocated))", "error_code": 50002}\n'
    )
    diagnosis = diagnose_text("worker.log", text)
    assert_reads(diagnosis, "oom", first_error="CUDA out of memory. Tried to allocate 2.00 GiB")


def test_a_writer_prefix_in_parentheses_is_not_unwrapped() -> None:
    text = (
        "RuntimeError('startup failed\\n(Worker pid=7) INFO 03-02 10:11:12 loader.py:40] "
        "loaded 4 shards (fp16)\\n')\n"
    )
    diagnosis = diagnose_text("engine.log", text)
    assert diagnosis.category != "operator"
    assert diagnosis.first_error is None or "(Worker pid=7)" not in diagnosis.first_error.text
