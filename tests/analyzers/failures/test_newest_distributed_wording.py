"""Newer torch distributed wording that reaches the reader in forms the rules had not met.

Four classes, each in lines of our own shaped like the real formats: DTensor's refusal of an op
it keeps no sharding rule for, quoted without its exception class; ProcessGroupNCCL's monitor
warning that the job's store is gone (the process hosting it exited); torch's reference
implementation of expand refusing a size, quoted at the end of dynamo's fake-tensor report; and
an AttributeError that dynamo wraps as its own internal failure
(docs/labelling.md#a-store-host-gone-under-the-dump-check,
docs/labelling.md#a-compiler-that-fails-its-own-checks).
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

BARE_MISSING_RULE = """\
2026-02-14 10:02:55 INFO optimizer: rounding bf16 master weights stochastically
Operator aten.bitwise_and.Tensor does not have a sharding strategy registered.
"""

STORE_GONE_UNDER_DUMP_CHECK = """\
[rank3]:[W305 14:20:11.902113457 ProcessGroupNCCL.cpp:1662] [PG ID 0 PG GUID 0 Rank 3] Failed to check the "should dump" flag on TCPStore, (maybe TCPStore server has shut down too early), with error: Connection reset by peer
[rank3]:[W305 14:20:11.903771020 TCPStore.cpp:125] [c10d] sendBytes failed on SocketImpl(fd=41, addr=[node-b]:51822, remote=[node-a]:29400): Connection reset by peer
Exception raised from sendBytes at /pytorch/torch/csrc/distributed/c10d/Utils.hpp:682 (most recent call first):
frame #0: c10::Error::Error(c10::SourceLocation, std::string) + 0x98 (0x7f11a2c785e8 in /opt/venv/lib/python3.12/site-packages/torch/lib/libc10.so)
"""

STORE_GONE_AFTER_A_REAL_ERROR = """\
[rank0]: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 79.11 GiB of which 1.02 GiB is free.
[rank3]:[W305 14:20:11.902113457 ProcessGroupNCCL.cpp:1662] [PG ID 0 PG GUID 0 Rank 3] Failed to check the "should dump" flag on TCPStore, (maybe TCPStore server has shut down too early), with error: Broken pipe
"""

FAKE_EXPAND_REFUSED = """\
[rank2]:   File "/opt/venv/lib/python3.12/site-packages/torch/_dynamo/utils.py", line 3284, in run_node
[rank2]:     raise RuntimeError(make_error_message(e)).with_traceback(
[rank2]: torch._dynamo.exc.TorchRuntimeError: Dynamo failed to run FX node with fake tensors: call_method copy_(*(DTensor(local_tensor=FakeTensor(..., device='cuda:2', size=(97, 4096)), device_mesh=DeviceMesh('cuda', [0, 1, 2, 3], mesh_dim_names=('dp_shard',)), placements=(Shard(dim=0),)), DTensor(local_tensor=FakeTensor(..., device='cuda:2', size=(97, 4096)), device_mesh=DeviceMesh('cuda', [0, 1, 2, 3], mesh_dim_names=('dp_shard',)), placements=(Shard(dim=0),))), **{}): got RuntimeError('expand: attempting to expand a dimension of length 388!')
"""

DYNAMO_WRAPPED_ATTRIBUTE = """\
[rank1]:   File "/opt/venv/lib/python3.12/site-packages/torch/_subclasses/meta_utils.py", line 912, in meta_tensor
[rank1]:     inner = getattr(t, attr)
[rank1]: torch._dynamo.exc.InternalTorchDynamoError: AttributeError: 'ShardedGradTensor' object has no attribute '_local'
[rank1]: from user code:
[rank1]:    File "/srv/ft/model.py", line 58, in forward
"""

PLAIN_MISSING_ATTRIBUTE = """\
[rank1]: AttributeError: 'DemoModelConfig' object has no attribute 'rope_theta'
"""


def test_a_missing_sharding_rule_quoted_without_its_class_is_the_refusal() -> None:
    diagnosis = diagnose_text("report.log", BARE_MISSING_RULE)
    assert_reads(
        diagnosis,
        "config",
        first_error="does not have a sharding strategy registered",
        rule="cfg.dtensor_without_mesh",
    )


def test_the_store_gone_under_the_dump_check_is_a_peer_that_left() -> None:
    diagnosis = diagnose_text("worker.log", STORE_GONE_UNDER_DUMP_CHECK)
    assert diagnosis.category == "hccl"
    assert diagnosis.first_error is not None
    assert '"should dump" flag' in diagnosis.first_error.text
    assert "hccl.store_host_gone_under_dump_check" in rules_of(diagnosis)


def test_a_real_error_outranks_the_store_gone_warning() -> None:
    diagnosis = diagnose_text("worker.log", STORE_GONE_AFTER_A_REAL_ERROR)
    assert_reads(diagnosis, "oom", first_error="CUDA out of memory")


def test_the_reference_expand_refusal_in_a_fake_tensor_run_is_a_shape_check() -> None:
    diagnosis = diagnose_text("train.log", FAKE_EXPAND_REFUSED)
    assert_reads(
        diagnosis, "shape_mismatch", first_error="attempting to expand a dimension of length 388"
    )


def test_an_attribute_error_inside_dynamo_is_the_compilers_failure() -> None:
    diagnosis = diagnose_text("train.log", DYNAMO_WRAPPED_ATTRIBUTE)
    assert diagnosis.category == "other"
    assert "framework.compiler_internal_check" in rules_of(diagnosis)
    assert "cfg.missing_attribute" not in rules_of(diagnosis)


def test_the_same_attribute_error_outside_dynamo_keeps_its_reading() -> None:
    diagnosis = diagnose_text("train.log", PLAIN_MISSING_ATTRIBUTE)
    assert diagnosis.category == "config"
    assert "cfg.missing_attribute" in rules_of(diagnosis)
