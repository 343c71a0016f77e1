"""The collective a rank waited in, read from the innermost frame of its traceback."""

from __future__ import annotations

from analyzers.classify.collective_frames import (
    NamedWork,
    check_examples,
    frame_call,
    load_frames,
    named_work,
)


def test_the_frame_patterns_keep_their_examples_and_counterexamples() -> None:
    assert load_frames().frames
    assert check_examples() == []


def test_a_frame_in_the_collective_api_names_the_collective() -> None:
    frame = (
        'File "/srv/venv/lib/python3.12/site-packages/torch/distributed/distributed_c10d.py", '
        "line 3120, in reduce_scatter_tensor"
    )
    assert frame_call(frame) == "reduce_scatter_tensor"


def test_point_to_point_calls_and_helpers_name_no_collective() -> None:
    """Two ranks of one exchange wait in different calls by design; a helper of the module
    (its argument checks, its group lookup) is no collective either."""
    base = 'File "/srv/venv/lib/python3.12/site-packages/torch/distributed/distributed_c10d.py"'
    assert frame_call(f"{base}, line 2410, in recv") is None
    assert frame_call(f"{base}, line 1001, in _check_single_tensor") is None


def test_a_frame_of_the_job_s_own_code_names_no_collective() -> None:
    assert frame_call('File "/data/jobs/llm/train.py", line 88, in all_reduce') is None


def test_a_watchdog_line_names_the_work_it_gave_up_on() -> None:
    line = (
        "[rank3]:[E0412 08:10:55.120347881 ProcessGroupNCCL.cpp:632] [Rank 3] Watchdog caught "
        "collective operation timeout: WorkHCCL(SeqNum=630, OpType=ALLREDUCE, "
        "Timeout(ms)=7865663) ran for 9228580 milliseconds before timing out."
    )
    assert named_work(line) == NamedWork(630, "ALLREDUCE")


def test_a_line_cut_inside_the_work_names_none() -> None:
    """A terminal's wrap can cut the sequence number's digits too."""
    line = "[Rank 5] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=27"
    assert named_work(line) is None
