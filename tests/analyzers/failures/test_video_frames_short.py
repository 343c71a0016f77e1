"""A video that yields fewer frames than it announces.

docs/labelling.md#a-video-that-yields-fewer-frames-than-it-announces: a video loader that
decodes fewer frames than the container promised stops the request. The file is the job's
input data: `other`, settled, with the sampling settings (`config`) beside it; a client that
quotes the server's sentence in its error status is read the same way. Fixtures use the
loader's message shape with values of our own.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

# A client of a vision-language server: the request for a clip fails with the loader's
# sentence inside the 500 answer.
CLIENT_STATUS = """\
Traceback (most recent call last):
  File "/home/demo/ask_video.py", line 27, in <module>
    reply = client.chat.completions.create(model="demo-vl", messages=messages)
  File "/opt/venv/lib/python3.12/site-packages/openai/_base_client.py", line 1047, in request
    raise self._make_status_error_from_response(err.response) from None
openai.InternalServerError: Error code: 500 - {'error': {'message': 'Expected reading 480 frames, but only loaded 477 frames from video.', 'type': 'Internal Server Error', 'param': None, 'code': 500}}
"""

# The server's own log of the same kind of failure.
SERVER_LOG = """\
(APIServer pid=901) INFO 11-06 10:15:01 [logger.py:41] Received request chatcmpl-7a1c: prompt: '<|vision_start|><|video_pad|>...', params: SamplingParams(n=1)
(APIServer pid=901) ERROR 11-06 10:15:02 [serving_chat.py:268] Error in preprocessing prompt inputs
(APIServer pid=901) ERROR 11-06 10:15:02 [serving_chat.py:268] ValueError: Expected reading 32 frames, but only loaded 30 frames from video.
(APIServer pid=901) INFO:     10.1.0.7:40112 - "POST /v1/chat/completions HTTP/1.1" 500 Internal Server Error
"""


def test_a_client_quoting_the_loader_is_the_input_video() -> None:
    diagnosis = diagnose_text("client.log", CLIENT_STATUS)
    assert_reads(diagnosis, "other", first_error="only loaded 477 frames")
    assert "video" in diagnosis.root_cause
    assert "config" in {alt.category for alt in diagnosis.alternatives}
    assert diagnosis.confidence > 0.1  # recognised, not the floor


def test_the_servers_own_line_is_the_first_error() -> None:
    diagnosis = diagnose_text("logs/server.log", SERVER_LOG)
    assert_reads(diagnosis, "other", first_error="only loaded 30 frames")
    assert "video" in diagnosis.root_cause


def test_a_loader_that_reports_its_samples_is_no_failure() -> None:
    text = (
        "INFO sampled 32 frames from video clip_0007.mp4 (fps 2.0)\n"
        "[rank0]: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 3.00 GiB. GPU 0 has a total capacity of 79.15 GiB of which 1.02 GiB is free.\n"
    )
    diagnosis = diagnose_text("logs/train.log", text)
    assert diagnosis.category == "oom", diagnosis.root_cause
