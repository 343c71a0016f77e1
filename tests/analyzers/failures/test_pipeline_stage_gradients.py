"""Pipeline stages that get no gradient back for a tensor they passed on, skip connections
popped before anything stashed them, and two older or differently worded refusals met in
pipeline jobs (an RPC deadline, a convolution's input on the wrong device).

docs/labelling.md#a-pipeline-stage-that-gets-no-gradient-for-a-tensor-it-passed-on: the
runtimes' checks that a gradient came back are `config` with `other` beside, and a worker's
error carried back by RPC outranks the driver's failure to read the empty answer; a skip
connection popped unstashed is `other` with `config` beside.
docs/labelling.md#a-remote-call-that-ran-past-its-deadline: the older wording of the RPC
deadline is `hang`. docs/labelling.md#operands-of-different-dtypes: the convolutions' input and
weight type check is `operator` with `config` beside. Fixtures follow a DeepSpeed pipeline
engine, torch's pipelining, a FairScale RPC pipe and torchgpipe, with values of our own.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

DEEPSPEED_SEND_GRADS = """\
[rank2]: Traceback (most recent call last):
[rank2]:   File "/srv/train/pp_train.py", line 310, in <module>
[rank2]:     loss = engine.train_batch(data_iter).item()
[rank2]:   File "/opt/py3.11/site-packages/deepspeed/runtime/pipe/engine.py", line 392, in train_batch
[rank2]:     self._exec_schedule(sched)
[rank2]:   File "/opt/py3.11/site-packages/deepspeed/runtime/pipe/engine.py", line 1110, in _exec_send_grads
[rank2]:     assert buffer.grad is not None
[rank2]:            ^^^^^^^^^^^^^^^^^^^^^^^
[rank2]: AssertionError
"""

OTHER_BUFFER_ASSERT = """\
[rank2]:   File "/opt/py3.11/site-packages/deepspeed/runtime/pipe/engine.py", line 980, in _exec_load_micro_batch
[rank2]:     assert buffer is not None
[rank2]: AssertionError
"""

TORCH_PP_GRADIENT_NONE = """\
[rank5]:   File "/opt/py3.12/site-packages/torch/distributed/pipelining/stage.py", line 702, in get_bwd_send_ops
[rank5]:     raise RuntimeError(
[rank5]: RuntimeError: [5] for chunk 2 has gradients None and is expecting to send gradients to stage 4,
"""

SEND_DEBUG = """\
[rank1]:V0611 10:12:13.000000 140112 torch/distributed/pipelining/stage.py:640] [Stage 1] Sending gradient to Stage 0: torch.Size([4, 128, 512])
"""

RPC_PIPE_REMOTE = """\
Traceback (most recent call last):
  File "/opt/py3.9/site-packages/fairscale/nn/pipe/rpc.py", line 211, in _recv_result
    return message.tensors[0]
IndexError: tuple index out of range
On WorkerInfo(id=2, name=stage2):
RuntimeError('got 2 tensors and 1 gradients')
Traceback (most recent call last):
  File "/opt/py3.9/site-packages/torch/distributed/rpc/internal.py", line 204, in _run_function
"""

SKIP_NOT_STASHED = """\
Traceback (most recent call last):
  File "/opt/py3.8/site-packages/torchgpipe/skip/tracker.py", line 38, in load
    return self.tensors.pop((ns, name))
KeyError: (<Namespace '0d1c2b3a-4e5f-6071-8293-a4b5c6d7e8f9'>, 'p')
  File "/opt/py3.8/site-packages/torchgpipe/skip/skippable.py", line 175, in forward
    raise RuntimeError(f"'{name}' has not been stashed")
RuntimeError: 'p' has not been stashed
"""

WRAPPED_NO_GRAD = """\
[rank1]:   File "/opt/py3.12/site-packages/torch/autograd/graph.py", line
768, in _engine_run_backward
[rank1]: RuntimeError: element 2 of tensors does not require grad and
does not have a grad_fn
"""

OLD_RPC_DEADLINE = """\
terminate called after throwing an instance of 'std::runtime_error'
  what():  RPC ran for more than 250 milliseconds and timed out.
"""

CONV_INPUT_ON_CPU = """\
  File "/opt/py3.9/site-packages/torch/nn/modules/conv.py", line 443, in _conv_forward
    return F.conv2d(input, weight, bias, self.stride,
RuntimeError: Input type (torch.FloatTensor) and weight type (torch.cuda.FloatTensor) should be the same
"""


def test_deepspeeds_send_grads_assertion_is_config() -> None:
    diagnosis = diagnose_text("stdout.log", DEEPSPEED_SEND_GRADS)
    assert_reads(diagnosis, "config", first_error="AssertionError", beside=("other",))


def test_an_assertion_on_another_buffer_is_not_the_rule() -> None:
    diagnosis = diagnose_text("stdout.log", OTHER_BUFFER_ASSERT)
    rules = rules_of(diagnosis)
    assert "cfg.pipeline_stage_without_gradient" not in rules


def test_torch_pipelinings_missing_gradient_is_config() -> None:
    diagnosis = diagnose_text("stdout.log", TORCH_PP_GRADIENT_NONE)
    assert_reads(diagnosis, "config", first_error="has gradients None")


def test_the_runtimes_debug_line_about_a_gradient_is_no_failure() -> None:
    diagnosis = diagnose_text("stdout.log", SEND_DEBUG)
    assert diagnosis.category != "config"


def test_the_workers_error_carried_back_by_rpc_comes_before_the_drivers() -> None:
    diagnosis = diagnose_text("stdout.log", RPC_PIPE_REMOTE)
    assert_reads(diagnosis, "config", first_error="got 2 tensors and 1 gradients")


def test_a_skip_popped_before_anything_stashed_it_is_other_with_config_beside() -> None:
    diagnosis = diagnose_text("stdout.log", SKIP_NOT_STASHED)
    assert_reads(diagnosis, "other", first_error="'p'", beside=("config",))


def test_a_no_grad_refusal_wrapped_at_a_word_is_still_read() -> None:
    diagnosis = diagnose_text("stdout.log", WRAPPED_NO_GRAD)
    assert_reads(diagnosis, "config", first_error="element 2 of tensors does not require grad")


def test_the_older_rpc_deadline_wording_is_a_hang() -> None:
    diagnosis = diagnose_text("stderr.log", OLD_RPC_DEADLINE)
    assert_reads(diagnosis, "hang", first_error="250 milliseconds")


def test_a_convolution_handed_a_cpu_batch_is_operator_with_config_beside() -> None:
    diagnosis = diagnose_text("stderr.log", CONV_INPUT_ON_CPU)
    assert diagnosis.category == "operator", diagnosis.root_cause
    assert "config" in {a.category for a in diagnosis.alternatives}
