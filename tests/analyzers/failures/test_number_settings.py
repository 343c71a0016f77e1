"""Python's int()/float() refusal of a text value is the first error, also when only a rank's
own failure print in a shared stdout carries it (torch.multiprocessing.spawn re-raised a peer's
lost connection instead); the frame that raised it decides between config and other, and the
other ranks' lines printed beside it do not vote."""

from __future__ import annotations

from tests.analyzers.excerpts import alternative_labels, assert_reads, diagnose_text

SHARED_STDOUT = """\
rank 2:   norm passed
rank 3:   MoE passed
rank 3: layer 0 passed
rank 3:   norm passed
rank 0:   attention passed
rank 3:   attention passed
rank 2:   attention passed
rank 2: model run failed: invalid literal for int() with base 10: 'two'
rank 1:   attention passed
rank 1: model run failed: [/__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp/pair.cc:553] Connection closed by peer [127.0.0.1]:22920. This is typically caused by a remote worker crashing. Check the logs of the remote worker before reporting an error. GLHF! 🏖️
terminate called without an active exception
rank 3: model run failed: [/__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp/pair.cc:553] Connection closed by peer [127.0.0.1]:21175. This is typically caused by a remote worker crashing. Check the logs of the remote worker before reporting an error. GLHF! 🏖️
rank 0: model run failed: [/__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp/pair.cc:553] Connection closed by peer [127.0.0.1]:57001. This is typically caused by a remote worker crashing. Check the logs of the remote worker before reporting an error. GLHF! 🏖️
W1204 15:46:31.602000 17385 torch/multiprocessing/spawn.py:165] Terminating process 17387 via signal SIGTERM
W1204 15:46:31.602000 17385 torch/multiprocessing/spawn.py:165] Terminating process 17389 via signal SIGTERM
W1204 15:46:31.602000 17385 torch/multiprocessing/spawn.py:165] Terminating process 17390 via signal SIGTERM
Traceback (most recent call last):
  File "/srv/job/spawn_main.py", line 20, in <module>
    mp.spawn(worker, args=(world,), nprocs=world, join=True)
  File "/usr/lib/python3.11/site-packages/torch/multiprocessing/spawn.py", line 340, in spawn
    return start_processes(fn, args, nprocs, join, daemon, start_method="spawn")
           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
  File "/usr/lib/python3.11/site-packages/torch/multiprocessing/spawn.py", line 296, in start_processes
    while not context.join():
              ^^^^^^^^^^^^^^
  File "/usr/lib/python3.11/site-packages/torch/multiprocessing/spawn.py", line 211, in join
    raise ProcessRaisedException(msg, error_index, failed_process.pid)
torch.multiprocessing.spawn.ProcessRaisedException: 

-- Process 1 terminated with the following error:
Traceback (most recent call last):
  File "/usr/lib/python3.11/site-packages/torch/multiprocessing/spawn.py", line 87, in _wrap
    fn(i, *args)
  File "/srv/job/spawn_main.py", line 14, in worker
    runpy.run_path(sys.argv[0], run_name="__main__")
  File "<frozen runpy>", line 291, in run_path
  File "<frozen runpy>", line 98, in _run_module_code
  File "<frozen runpy>", line 88, in _run_code
  File "/srv/job/infer.py", line 247, in <module>
    main()
  File "/srv/job/infer.py", line 232, in main
    x = layer(x)
        ^^^^^^^^
  File "/usr/lib/python3.11/site-packages/torch/nn/modules/module.py", line 1778, in _wrapped_call_impl
    return self._call_impl(*args, **kwargs)
           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
  File "/usr/lib/python3.11/site-packages/torch/nn/modules/module.py", line 1789, in _call_impl
    return forward_call(*args, **kwargs)
           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
  File "/srv/job/infer.py", line 195, in forward
    dist.all_reduce(y)
  File "/usr/lib/python3.11/site-packages/torch/distributed/c10d_logger.py", line 83, in wrapper
    return func(*args, **kwargs)
           ^^^^^^^^^^^^^^^^^^^^^
  File "/usr/lib/python3.11/site-packages/torch/distributed/distributed_c10d.py", line 3252, in all_reduce
    work.wait()
RuntimeError: [/__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp/pair.cc:553] Connection closed by peer [127.0.0.1]:22920. This is typically caused by a remote worker crashing. Check the logs of the remote worker before reporting an error. GLHF! 🏖️

"""

TRACEBACK = """\
Traceback (most recent call last):
  File "/srv/train.py", line 88, in <module>
    args = parse_runtime_config()
  File "/srv/config.py", line 41, in parse_runtime_config
    topk = int(os.environ["MOE_TOPK"])
ValueError: invalid literal for int() with base 10: 'two'
"""


def test_a_ranks_own_print_of_the_refusal_is_the_first_error() -> None:
    diagnosis = diagnose_text("stdout.log", SHARED_STDOUT)
    assert "invalid literal for int()" in diagnosis.first_error.text
    assert diagnosis.culprit_ranks == [2]
    # the peers' lost connections printed beside it are other ranks' lines: no vote for hccl
    assert diagnosis.category == "other"
    assert "config" in alternative_labels(diagnosis)


def test_raised_while_reading_settings_the_refusal_is_config() -> None:
    diagnosis = diagnose_text("log_0.log", TRACEBACK)
    assert_reads(diagnosis, "config", first_error="invalid literal for int()")
