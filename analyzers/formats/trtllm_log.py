"""TensorRT-LLM's own level tags, written before the message by its C++ runtime and by its
Python logger (and TensorRT's Python logger, which TensorRT-LLM's build prints through):

    [TensorRT-LLM][ERROR] Encountered an error in forwardAsync function: [TensorRT-LLM][ERROR] Assertion failed: ...
    [TensorRT-LLM][INFO] NCCL comm created for rank 1 of 4: failed attempts 0
    [05/04/2024-17:40:12] [TRT-LLM] [I] Load engine takes: 41.2 sec
    [11/10/2023-06:30:40] [TRT] [E] 2: [virtualMemoryBuffer.cpp::resizePhysical::140] Error Code 2: OutOfMemory (no further information)

The C++ tag spells the level out (TRACE, DEBUG, INFO, WARNING, ERROR); the Python one gives a
letter (V, I, W, E, and F for an internal error) after a bracketed time. The level is the
writer's: an ERROR line is a failure whatever its words (an assertion's text is often only a
comparison of two numbers), an INFO line that counts "failed attempts 0" is not. The tags are
left in the message, where rules quote them; the header only reads the level. Triton's server
log and mpirun's per-rank prefixes can stand in front and are peeled first.
"""

from __future__ import annotations

from analyzers.formats.base import header

NAME = "logging"  # a levelled header like Python logging's: the level field is the writer's

LEVELS = (
    ("ERROR", "ERROR"),
    ("WARNING", "WARNING"),
    ("INFO", "INFO"),
    ("DEBUG", "DEBUG"),
    ("TRACE", "DEBUG"),
    ("F", "CRITICAL"),
    ("E", "ERROR"),
    ("W", "WARNING"),
    ("I", "INFO"),
    ("V", "DEBUG"),
)

HEADERS = (
    header(
        NAME,
        r"(?=\[TensorRT-LLM\]\[(?P<level>ERROR|WARNING|INFO|DEBUG|TRACE)\])",
        LEVELS,
    ),
    header(
        NAME,
        r"(?=(?:\[\d\d/\d\d/\d{4}-\d\d:\d\d:\d\d\] )?\[(?:TRT-LLM|TRT)\] \[(?P<level>[FEWIV])\] )",
        LEVELS,
    ),
)
