"""A request that needs weights the deployed checkpoint does not ship.

docs/labelling.md#a-feature-whose-weights-the-checkpoint-does-not-ship: a served speech model
whose released checkpoint leaves out the audio encoder refuses a voice-cloning request with an
exception saying the encoder weights are not in the checkpoint. The feature does not fit the
checkpoint: `config`, with `weight_load` beside it. Values of our own in the real shapes.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

REFUSED_REQUEST = """\
(StageEngineCoreProc pid=214) ERROR 04-02 11:20:05 [stage_engine_core_proc.py:174] Traceback (most recent call last):
(StageEngineCoreProc pid=214) ERROR 04-02 11:20:05 [stage_engine_core_proc.py:174]   File "/opt/venv/lib/python3.12/site-packages/omni/models/tts/audio_tokenizer.py", line 912, in encode_waveforms
(StageEngineCoreProc pid=214) ERROR 04-02 11:20:05 [stage_engine_core_proc.py:174]     raise RuntimeError(
(StageEngineCoreProc pid=214) ERROR 04-02 11:20:05 [stage_engine_core_proc.py:174] RuntimeError: encode_waveforms requires encoder weights which are not available in the open-source checkpoint.
(APIServer pid=1) ERROR 04-02 11:20:05 [serving_speech.py:233] Speech generation failed: EngineDeadError
"""


def test_a_feature_without_its_weights_in_the_checkpoint_is_config() -> None:
    diagnosis = diagnose_text("stdout.log", REFUSED_REQUEST)
    assert_reads(
        diagnosis,
        "config",
        first_error="requires encoder weights which are not available",
        beside=("weight_load",),
    )


def test_a_warning_that_a_feature_is_off_is_no_failure() -> None:
    text = (
        "INFO 04-02 11:19:40 [loader.py:51] loading weights from /models/tts\n"
        "WARNING 04-02 11:19:41 [tts.py:88] encoder weights are not available in the checkpoint;"
        " voice cloning is disabled\n"
    )
    diagnosis = diagnose_text("stdout.log", text)
    assert diagnosis.category != "config"
