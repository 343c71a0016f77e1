"""Diffusion launchers whose sequence-parallel degrees do not fit the processes started.

Video and image generation scripts split the sequence over the ranks (Ulysses, ring, and a
guidance degree) and assert before loading the model that the degrees multiply to the world
size. Every rank raises the same assertion; the launch settings are all that can be wrong, so
the label is `config` in the confident band and the first rank's assertion is the first error.
The start-up line that merely prints the degrees is no error: a failure after it keeps its own
reading. docs/labelling.md#a-bare-divisibility-assertion

A trainer that checks each (packed) sequence against the multiple context parallelism cuts it
into names the context-parallel size beside the length: the settings do not fit (`config`,
`shape_mismatch` beside it). docs/labelling.md#a-sequence-length-that-context-parallelism-cannot-cut
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

ULYSSES_SIZE_RANKS = """\
[rank1]: Traceback (most recent call last):
[rank1]:   File "/work/video-gen/generate.py", line 612, in <module>
[rank1]:     generate(args)
[rank1]:   File "/work/video-gen/generate.py", line 371, in generate
[rank1]:     assert args.ulysses_size * args.ring_size == world_size, f"The number of ulysses_size and ring_size should be equal to the world size."
[rank1]: AssertionError: The number of ulysses_size and ring_size should be equal to the world size.
[rank0]: Traceback (most recent call last):
[rank0]:   File "/work/video-gen/generate.py", line 612, in <module>
[rank0]:     generate(args)
[rank0]:   File "/work/video-gen/generate.py", line 371, in generate
[rank0]:     assert args.ulysses_size * args.ring_size == world_size, f"The number of ulysses_size and ring_size should be equal to the world size."
[rank0]: AssertionError: The number of ulysses_size and ring_size should be equal to the world size.
"""

DEGREE_PRODUCT = """\
2026-05-03 10:20:31.118 | INFO     | sample_video:main:41 - ulysses_degree=4 ring_degree=2 rank=0 world_size=6
[rank0]: Traceback (most recent call last):
[rank0]:   File "/srv/hyvideo/sample_video.py", line 58, in <module>
[rank0]:     main()
[rank0]:   File "/srv/hyvideo/inference.py", line 172, in from_pretrained
[rank0]:     assert dist.get_world_size() == args.ring_degree * args.ulysses_degree, "number of GPUs(%d) should be equal to ring_degree * ulysses_degree." % dist.get_world_size()
[rank0]: AssertionError: number of GPUs(6) should be equal to ring_degree * ulysses_degree.
"""

DEGREES_PRINTED_THEN_OOM = """\
2026-05-03 10:20:31.118 | INFO     | sample_video:main:41 - ulysses_degree=2 ring_degree=2 rank=0 world_size=4
2026-05-03 10:22:05.640 | INFO     | sample_video:main:88 - denoising step 1/50
[rank0]: RuntimeError: NPU out of memory. Tried to allocate 6.40 GiB (NPU 0; 60.96 GiB total capacity; 55.10 GiB already allocated; 55.10 GiB current active; 1.92 GiB free; 58.70 GiB reserved in total by PyTorch)
"""


def test_ulysses_size_that_is_not_the_world_size_is_the_launch_settings() -> None:
    diagnosis = diagnose_text("console.txt", ULYSSES_SIZE_RANKS)
    assert_reads(diagnosis, "config", first_error="should be equal to the world size")
    assert diagnosis.confidence >= 0.8


def test_degree_product_that_is_not_the_device_count_is_the_launch_settings() -> None:
    diagnosis = diagnose_text("console.txt", DEGREE_PRODUCT)
    assert diagnosis.category == "config", diagnosis.root_cause
    assert diagnosis.first_error is not None
    assert (
        "number of GPUs(6) should be equal to ring_degree * ulysses_degree"
        in diagnosis.first_error.text
    )
    assert diagnosis.confidence >= 0.8


def test_printed_degrees_are_no_error_and_a_later_failure_keeps_its_reading() -> None:
    diagnosis = diagnose_text("console.txt", DEGREES_PRINTED_THEN_OOM)
    assert_reads(diagnosis, "oom", first_error="NPU out of memory")


CP_PACKING_ALIGNMENT = """\
[rank3]: Traceback (most recent call last):
[rank3]:   File "/srv/sft/train.py", line 77, in <module>
[rank3]:     run()
[rank3]:   File "/srv/sft/data/collator.py", line 214, in __call__
[rank3]:     assert seqlen % (2 * cp_size) == 0, msg
[rank3]: AssertionError: doc packing + context_parallel alignment mismatch (sub-sequence length not aligned to 2 * cp_size)
"""

CP_PADDING_REPORTED = """\
2026-05-03 10:20:31 INFO data: padding every sub-sequence to a multiple of 2 * cp_size (8)
2026-05-03 10:20:32 INFO data: context_parallel_size=4, sequence length 32768
"""


def test_a_packed_length_not_aligned_for_context_parallelism_is_the_settings() -> None:
    diagnosis = diagnose_text("train.log", CP_PACKING_ALIGNMENT)
    assert_reads(
        diagnosis, "config", first_error="not aligned to 2 * cp_size", beside=("shape_mismatch",)
    )
    assert any("twice the context-parallel size" in action for action in diagnosis.next_actions)


def test_the_padding_a_trainer_reports_for_context_parallelism_is_no_failure() -> None:
    diagnosis = diagnose_text("train.log", CP_PADDING_REPORTED)
    assert diagnosis.first_error is None
