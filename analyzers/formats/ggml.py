"""llama.cpp's own logger (ggml's common log), also written by servers built on it (llama-box).

    0.00.476.376 E CANN error: EE1001: ... The argument is invalid. ...
    103.56.463.383 I srv        log_server_request: rid 2630536610452 | POST /v1/chat/completions
    [2025-05-22 15:09:00.540863] I srv                      main: starting server

A level letter (I, W, E, D) follows either the time since the process started
(minutes.seconds.milliseconds.microseconds) or a bracketed wall-clock time. The elapsed form
says no time of day, so it is not read as a timestamp. An `E` line is the writer's error
whatever its words: a model loader's check (`load_model: multimodal projector embedding length
is not equal to the model`) carries no error word of its own.
"""

from __future__ import annotations

from analyzers.formats.base import header

NAME = "ggml"

HEADERS = (
    header(NAME, r"\d{1,6}\.\d\d\.\d{3}\.\d{3} (?P<level>[IWED]) "),
    header(NAME, r"\[(?P<ts>\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{6})\] (?P<level>[IWED]) "),
)
