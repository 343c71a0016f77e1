"""A message codec refusing a type it was asked to encode or decode.

docs/labelling.md#a-message-codec-that-cannot-handle-a-declared-type: a serving engine builds
its codecs for the message types it exchanges between processes when it starts (msgspec's
`Decoder(SomeType)`); a codec release that cannot handle a type the engine declares refuses it
at construction with `TypeError: Type '<...>' is not supported`. The engine and the codec
library come from releases that do not fit: `config`, with `other` beside it. Values of our
own in the real shape.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

DECODER_REFUSED = """\
[rank0]:   File "/opt/venv/lib/python3.10/site-packages/engine/executor/ray_executor.py", line 93, in _init_executor
[rank0]:     self.output_decoder = msgspec.msgpack.Decoder(
[rank0]: TypeError: Type '<function Generator at 0xfffd00112233>' is not supported
[ERROR] 2026-03-02-10:11:12 (PID:4120, Device:0, RankID:-1) ERR99999 UNKNOWN applicaiton exception
"""

ENCODER_REFUSED = """\
Traceback (most recent call last):
  File "/srv/app/serve.py", line 20, in <module>
    encoder = msgspec.json.Encoder(enc_hook=None, schema=Payload)
TypeError: Type 'typing.Iterator[int]' is not supported
"""


def test_a_decoder_that_refuses_a_declared_type_is_config() -> None:
    diagnosis = diagnose_text("infer.log", DECODER_REFUSED)
    assert_reads(
        diagnosis,
        "config",
        first_error="Type '<function Generator at 0xfffd00112233>' is not supported",
        rule="cfg.codec_type_unsupported",
        beside=("other",),
    )
    assert diagnosis.confidence >= 0.5


def test_an_encoder_refusal_without_a_rank_prefix_is_the_same() -> None:
    diagnosis = diagnose_text("stdout.log", ENCODER_REFUSED)
    assert_reads(diagnosis, "config", first_error="Type 'typing.Iterator[int]' is not supported")


def test_a_feature_refusal_that_names_a_type_is_not_a_codec() -> None:
    text = "ValueError: Type 'fp8' is not supported on this device, use bf16\n"
    diagnosis = diagnose_text("stdout.log", text)
    assert "cfg.codec_type_unsupported" not in rules_of(diagnosis)


def test_a_source_line_that_raises_the_refusal_is_no_failure() -> None:
    text = "    raise TypeError(f\"Type '{t!r}' is not supported\")\n"
    diagnosis = diagnose_text("stdout.log", text)
    assert "cfg.codec_type_unsupported" not in rules_of(diagnosis)
