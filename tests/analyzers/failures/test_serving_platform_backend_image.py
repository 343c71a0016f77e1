"""A model-serving platform that finds no container image for the backend it was asked to run.

docs/labelling.md#a-serving-platform-with-no-image-for-the-chosen-backend: the platform picks
an image per inference backend, version and accelerator; when none fits the choice, the
deployment's choice (or the platform's packaging of it) has to change: `config`, with the
node's set-up beside it. A multimodal request whose picture could not be fetched is no such
failure. Names and times are made up.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

NO_BACKEND_IMAGE = """\
2026-03-02 10:11:12.100000+08:00 - gpustack.worker.serve_manager - INFO - Provisioning model instance demo-abc12
2026-03-02 10:11:12.200000+08:00 - gpustack.worker.backends.vllm - INFO - Starting vLLM model instance: demo-abc12
2026-03-02 10:11:13.300000+08:00 - gpustack.worker.serve_manager - ERROR - Error provisioning model instance demo-abc12: Failed to get vLLM backend image
Traceback (most recent call last):
  File "/usr/lib/python3/site-packages/gpustack/worker/serve_manager.py", line 400, in _serve_model_instance
    server_ins.start()
ValueError: Failed to get vLLM backend image
"""

SHORT_WORDING = """\
2026-03-02 10:11:13.300000+08:00 - gpustack.worker.serve_manager - ERROR - Error provisioning model instance demo-abc12: failed to get MindIE image
"""

PICTURE_NOT_FETCHED = """\
2026-03-02 10:11:13.300000+08:00 - app.handlers - ERROR - Failed to get image from url https://example.org/cat.png: timed out
"""


def test_no_image_for_the_chosen_backend_is_the_deployments_setting() -> None:
    diagnosis = diagnose_text("worker/gpustack.log", NO_BACKEND_IMAGE)
    assert_reads(
        diagnosis,
        "config",
        first_error="Failed to get vLLM backend image",
        rule="cfg.serving_backend_image_missing",
        beside=["driver_env"],
    )


def test_the_short_wording_names_the_backend_alone() -> None:
    diagnosis = diagnose_text("worker/gpustack.log", SHORT_WORDING)
    assert_reads(
        diagnosis,
        "config",
        first_error="failed to get MindIE image",
        rule="cfg.serving_backend_image_missing",
    )


def test_a_picture_that_could_not_be_fetched_is_not_a_backend_image() -> None:
    diagnosis = diagnose_text("app/server.log", PICTURE_NOT_FETCHED)
    assert "cfg.serving_backend_image_missing" not in rules_of(diagnosis)
