"""A processor handed a part of another class.

docs/labelling.md#a-processor-handed-a-part-of-another-class: transformers refuses a processor
part (image processor, tokenizer) whose class is not the one the processor declares. The
installed release and the model's or engine's processor code do not fit together: `config`,
with `other` beside it, and the check is the first error under the engine's wrappers.
Fixtures use the library's message shape with classes and values of our own.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

# Two tensor-parallel workers of a serving engine profile a vision-language model at start-up;
# worker 1 builds the processor, the engine reports that it could not start.
ENGINE_WORKERS = """\
(VllmWorker rank=1 pid=20411) INFO 05-02 09:14:40 [gpu_model_runner.py:1810] Model loading took 8.1033 GiB and 12.402311 seconds
(VllmWorker rank=1 pid=20411) ERROR 05-02 09:14:51 [multiproc_executor.py:522] WorkerProc hit an exception.
(VllmWorker rank=1 pid=20411) ERROR 05-02 09:14:51 [multiproc_executor.py:522] Traceback (most recent call last):
(VllmWorker rank=1 pid=20411) ERROR 05-02 09:14:51 [multiproc_executor.py:522]   File "/opt/venv/lib/python3.12/site-packages/transformers/processing_utils.py", line 561, in check_argument_for_proper_class
(VllmWorker rank=1 pid=20411) ERROR 05-02 09:14:51 [multiproc_executor.py:522]     raise TypeError(
(VllmWorker rank=1 pid=20411) ERROR 05-02 09:14:51 [multiproc_executor.py:522] TypeError: Received a DemoVLImageProcessorFast for argument image_processor, but a DemoVLImageProcessor was expected.
(VllmWorker rank=0 pid=20410) INFO 05-02 09:14:51 [multiproc_executor.py:470] Parent process exited, terminating worker
ERROR 05-02 09:14:52 [core.py:700] EngineCore failed to start.
RuntimeError: Engine core initialization failed. See root cause above. Failed core proc(s): {}
"""

# A fine-tuning rank builds the processor from remote code written for an older release.
TRAINER_RANK = """\
[rank0]: Traceback (most recent call last):
[rank0]:   File "/srv/vlm/train.py", line 54, in <module>
[rank0]:     processor = AutoProcessor.from_pretrained(args.model, trust_remote_code=True)
[rank0]:   File "/opt/env/lib/python3.11/site-packages/transformers/processing_utils.py", line 540, in __init__
[rank0]:     self.check_argument_for_proper_class(attribute_name, arg)
[rank0]: TypeError: Received a PreTrainedTokenizerFast for argument tokenizer, but a DemoTokenizer was expected.
E0502 09:20:12.004000 3110 torch/distributed/elastic/multiprocessing/api.py:869] failed (exitcode: 1) local_rank: 0 (pid: 3171) of binary: /opt/env/bin/python
"""


def test_an_engine_worker_refusing_a_part_is_the_installed_release() -> None:
    diagnosis = diagnose_text("logs/serve.log", ENGINE_WORKERS)
    assert_reads(diagnosis, "config", first_error="for argument image_processor", beside=("other",))


def test_a_trainer_rank_refusing_a_tokenizer_part_reads_the_same() -> None:
    diagnosis = diagnose_text("logs/train.log", TRAINER_RANK)
    assert_reads(diagnosis, "config", first_error="but a DemoTokenizer was expected")


def test_a_constructor_given_an_argument_twice_is_not_this_check() -> None:
    text = (
        "Traceback (most recent call last):\n"
        '  File "/srv/vlm/serve.py", line 31, in build\n'
        "    proc = DemoVLProcessor(image_processor=ip, **kwargs)\n"
        "TypeError: DemoVLProcessor.__init__() got multiple values for argument 'image_processor'\n"
    )
    diagnosis = diagnose_text("logs/serve.log", text)
    assert diagnosis.first_error is not None
    assert "got multiple values" in diagnosis.first_error.text
    assert "processor was handed a part" not in diagnosis.root_cause
