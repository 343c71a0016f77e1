"""classify.tail_reading: a bundle with no error line is read at its files' tails."""

from __future__ import annotations

import time
from pathlib import Path

from analyzers import AnalyzeOptions, analyze
from analyzers.classify.rules import load_knowledge
from analyzers.classify.tail_reading import RULE, WORDS, read_tails, reads
from analyzers.core.types import Event, EventKind, FileInfo, FileKind, FileScan
from analyzers.formats.severity import load_prefilter
from analyzers.ingest.textio import MAX_LINE_CHARS
from analyzers.scan.quiet_tail import QUIET_TAIL, TAIL_SOURCE

KNOWLEDGE = load_knowledge()
PATH = "job/log_0.log"


def line(number: int, text: str) -> Event:
    return Event(
        file=PATH, line=number, text=text, kind=EventKind.ERROR, message=text, source=TAIL_SOURCE
    )


def scan_with_tail(*tail: Event, events: tuple[Event, ...] = ()) -> FileScan:
    info = FileInfo(PATH, FileKind.RANK_LOG, 0)
    return FileScan(info=info, events=list(events), facts={QUIET_TAIL: list(tail)})


def test_a_line_a_rule_reads_becomes_the_files_error_line() -> None:
    scan = scan_with_tail(line(3, "loading weights"), line(4, "npu is busy, check again"))
    added = read_tails([scan], KNOWLEDGE)
    assert [event.message for event in added] == ["npu is busy, check again"]
    assert scan.events == added
    assert QUIET_TAIL not in scan.facts


def test_a_line_only_the_learned_words_read_is_taken_from_the_files_end() -> None:
    too_old = "npu driver version too old for this toolkit, please upgrade the driver package"
    assert reads(line(5, too_old), KNOWLEDGE) == WORDS
    scan = scan_with_tail(line(5, too_old))
    assert [event.line for event in read_tails([scan], KNOWLEDGE)] == [5]


def test_nothing_is_read_when_the_bundle_holds_an_error_line() -> None:
    error = Event(file=PATH, line=1, text="RuntimeError: boom", kind=EventKind.ERROR)
    scan = scan_with_tail(line(4, "npu is busy, check again"), events=(error,))
    assert read_tails([scan], KNOWLEDGE) == []
    assert scan.events == [error]
    assert QUIET_TAIL not in scan.facts


def test_nothing_is_read_when_a_warning_already_reads_as_the_failure() -> None:
    warned = Event(
        file=PATH,
        line=1,
        text="NCCL WARN NET/IB : Got completion with error 12, opcode 0, len 32631, vendor err 129",
        message="NET/IB : Got completion with error 12, opcode 0, len 32631, vendor err 129",
        kind=EventKind.WARNING,
    )
    scan = scan_with_tail(line(4, "npu is busy, check again"), events=(warned,))
    assert read_tails([scan], KNOWLEDGE) == []


def test_a_rule_reads_a_line_whatever_its_indent() -> None:
    assert reads(line(2, "    npu is busy, check again"), KNOWLEDGE) == RULE


def test_commands_banners_and_indented_details_are_left_to_the_rules() -> None:
    for text in (
        "Process 4100: /srv/venv/bin/python3 -u infer.py --timeout 60 --fault-tolerance",
        "(base)$ python launch.py --config configs/dreamfusion-if.yaml --train --gpu 0,1",
        "NCCL version 2.18.6+cuda11.8",
        "                Node: while/NcclAllReduce_271, function: while_body_135159",
    ):
        assert reads(line(1, text), KNOWLEDGE) is None, text


def test_chatter_is_never_read() -> None:
    assert reads(line(1, "upload of the checkpoint failed; retrying in 5 s"), KNOWLEDGE) is None


def test_a_phase_timer_announcing_a_step_is_never_read() -> None:
    # An RL trainer's timer says a phase begins or ends (`Timer actor_train start`); a run that
    # stops after it is a hang with nothing said, though the learned words lean to a device.
    for text in (
        "(TrainActor pid=310) [2026-05-02 11:20:14] timer.py:24 - Timer actor_train start",
        "[2026-05-02 11:31:02] timer.py:31 - Timer update_weights end",
    ):
        assert reads(line(1, text), KNOWLEDGE) is None, text


def test_a_timer_that_reports_a_failure_is_still_read() -> None:
    text = "Timer actor_train start failed: npu is busy, check again"
    assert reads(line(1, text), KNOWLEDGE) == RULE


def test_paddles_launcher_command_is_left_to_the_rules() -> None:
    # Paddle's collective launcher typed at the top of a paste names what was run, not a failure.
    text = 'fleetrun --ips="10.0.0.1,10.0.0.2" train_with_fleet.py '
    assert reads(line(1, text), KNOWLEDGE) is None


def test_an_op_builders_accepted_minor_mismatch_is_never_read() -> None:
    text = (
        "(PolicyRayActor pid=2231) Installed CUDA version 12.8 does not match the version torch"
        " was compiled with 12.6 but since the APIs are compatible, accepting this combination"
    )
    assert reads(line(1, text), KNOWLEDGE) is None


def test_a_run_of_alike_worded_lines_is_cited_from_its_first_line() -> None:
    # a loader listing every parameter it could not fill, one line each, as the job's last
    # words: the list starts at its first line, whichever parameter comes last
    listed = [
        "encoder.layers.7.attn.qkv.weight: checkpoint holds shape [3072, 1024] but the model expects [0]",
        "encoder.layers.7.attn.qkv.bias: checkpoint holds shape [3072] but the model expects [0]",
        "encoder.norm.weight: checkpoint holds shape [1024] but the model expects [0]",
    ]
    scan = scan_with_tail(*(line(number, text) for number, text in enumerate(listed, start=8)))
    assert [event.line for event in read_tails([scan], KNOWLEDGE)] == [8]


def test_unlike_worded_lines_at_the_end_are_still_cited_from_the_last() -> None:
    # two different reports, or a list cut by another line, keep the file's last word
    first = "encoder.norm.weight: checkpoint holds shape [1024] but the model expects [0]"
    other = "npu driver version too old for this toolkit, please upgrade the driver package"
    scan = scan_with_tail(line(8, first), line(9, other))
    assert [event.line for event in read_tails([scan], KNOWLEDGE)] == [9]
    apart = scan_with_tail(line(8, first), line(11, first.replace("norm", "final_norm")))
    assert [event.line for event in read_tails([apart], KNOWLEDGE)] == [11]


# A progress bar that reached its total (`Loading weights: 100%|█████| 9/9 [00:07<00:00,
# 1.21it/s]`, tqdm's whole line) says the step it counted finished: no line to cite, however the
# learned words read its description. A failure glued behind the bar on the same line still is.
def test_a_finished_progress_bar_in_a_quiet_tail_is_no_failure() -> None:
    bar = "Loading checkpoint shards: 100%|██████████| 9/9 [00:07<00:00,  1.21it/s]"
    assert reads(line(2, bar), KNOWLEDGE) is None
    scan = scan_with_tail(line(2, bar), line(3, "USER: hello"), line(4, "ASSISTANT: hi there"))
    assert read_tails([scan], KNOWLEDGE) == []


def test_a_failure_glued_behind_a_finished_bar_is_still_read() -> None:
    glued = (
        "Loading checkpoint shards: 100%|██████████| 9/9 [00:07<00:00,  1.21it/s]"
        "npu is busy, check again"
    )
    assert reads(line(2, glued), KNOWLEDGE) is not None


def test_a_debuggers_frames_of_a_stuck_process_are_left_to_the_rules() -> None:
    # gdb attached to a rank that waits in an MPI broadcast: its position line and frames name
    # libraries and calls, not a failure
    for frame in (
        "0x00007f3c1a2b4c5d in MPIDI_CH3I_Progress () from /usr/lib64/mpich/lib/libmpi.so.12",
        "#3  0x00007f3c1a2b5e6f in MPIC_Recv () from /usr/lib64/mpich/lib/libmpi.so.12",
        "#6  0x00007f3c1a2c0102 in PMPI_Bcast_c () from /usr/lib64/mpich/lib/libmpi.so.12",
        "#15 doLaunches (head=<optimized out>) at group.cc:163",
    ):
        assert reads(line(9, frame), KNOWLEDGE) is None, frame


def test_a_debuggers_table_heading_is_never_read() -> None:
    # cuda-gdb's `info cuda threads` groups its rows under one heading per kernel
    assert reads(line(4, "Kernel 0"), KNOWLEDGE) is None
    assert reads(line(4, "Kernel 12"), KNOWLEDGE) is None


def test_a_wrapped_search_path_of_an_echoed_command_is_never_read() -> None:
    # a launcher echoes the command it runs on every node; a terminal wraps its PATH value
    wrapped = (
        "r/bin:/usr/local/sbin:/usr/sbin:/opt/ibutils/bin:/apps/runtime/bin:"
        "/opt/singularity/3.1.0/bin:/home/user1/bin;  cd "
    )
    assert reads(line(6, wrapped), KNOWLEDGE) is None


def test_a_notice_the_prefilter_knows_as_benign_is_never_read() -> None:
    # NCCL on a host without verbs says it could not load them, then uses sockets
    notice = "node-7:40112:40112 [0] misc/ibvwrap.cc:63 NCCL WARN Failed to open libibverbs.so[.1]"
    assert reads(line(12, notice), KNOWLEDGE) is None


def test_a_stall_whose_tail_holds_only_such_lines_keeps_no_first_error() -> None:
    scan = scan_with_tail(
        line(1, "0x00007f3c1a2b4c5d in MPIDI_CH3I_Progress () from /usr/lib64/libmpi.so.12"),
        line(2, "#7  0x00007f3c1a2c0102 in PMPI_Bcast_c () from /usr/lib64/libmpi.so.12"),
        line(3, "Kernel 0"),
    )
    assert read_tails([scan], KNOWLEDGE) == []


def test_a_failure_stated_on_a_frame_like_line_is_still_read_by_its_rule() -> None:
    crashed = "#0  0x00007f11a2f00b11 in aclrtMemcpy () from /usr/local/Ascend/lib64/libascendcl.so"
    assert reads(line(2, crashed), KNOWLEDGE) == RULE


def test_a_debuggers_own_narration_is_never_read() -> None:
    for text in (
        "[Thread debugging using libthread_db enabled]",
        'Using host libthread_db library "/lib/x86_64-linux-gnu/libthread_db.so.1".',
        "[New Thread 0x7f2a11bfe640 (LWP 20417)]",
        "Reading symbols from /usr/bin/python3.10...",
    ):
        assert reads(line(1, text), KNOWLEDGE) is None, text


def test_a_benchmarks_settings_header_is_never_read() -> None:
    header = "# nThread 1 nGpus 8 minBytes 16 maxBytes 1073741824 step: 2(factor) warmup iters: 5"
    assert reads(line(2, header), KNOWLEDGE) is None


def test_a_py_spy_thread_header_is_never_read() -> None:
    """docs/labelling.md (a quiet end's tails): a paste that starts inside a py-spy dump leaves
    a thread's header as an unindented line; it says where a thread stood, not what failed."""
    for header in (
        'Thread 2210457 (idle): "Thread-3 (forward_loop)"',
        'Thread 0x7F3A91C2B740 (active+gil): "MainThread"',
        "Process 2210401: /usr/bin/python3 -m sglang.launch_server --tp 8",
        "Python v3.12.3 (/usr/bin/python3.12)",
    ):
        assert reads(line(7, header), KNOWLEDGE) is None, header


def test_a_server_whose_tail_holds_only_nccl_set_up_and_a_dump_keeps_no_first_error(
    tmp_path: Path,
) -> None:
    """The same quiet end in a bundle: NCCL's set-up lines of a long pod name and a py-spy dump
    of a forward thread inside an NCCL call, and no error anywhere."""
    pod = "infer-glm-fp8-deepep-worker-0-7c9d"
    server = (
        "".join(
            f"{pod}:3310562:3314470 [5] NCCL INFO {words}\n"
            for words in ("Channel 30/32 : 0 1", "Channel 31/32 : 0 1", "Trees [0] 1/-1/-1->0->-1")
        )
        + "[2026-03-02 11:20:41 DP0 TP0 EP0] running batch of 1 request, 6 input tokens\n"
    )
    dump = (
        "    run_scheduler_process (scheduler.py:2598)\n"
        '    <module> (<string>:1)\nThread 3314501 (idle): "Thread-2 (forward_thread_func)"\n'
        "    ncclCommWindowRegister (pynccl_wrapper.py:532)\n"
        "    register_comm_window_raw (pynccl.py:301)\n"
        "    forward_batch_generation (tp_worker.py:248)\n"
    )
    (tmp_path / "server.log").write_text(server)
    (tmp_path / "py-spy.txt").write_text(dump)
    diagnosis = analyze(tmp_path, AnalyzeOptions(workers=1)).diagnosis
    assert diagnosis.category == "hang", diagnosis.root_cause
    assert diagnosis.first_error is None, diagnosis.first_error


def test_a_gloo_count_of_a_complete_mesh_is_never_read() -> None:
    """docs/labelling.md (a quiet end's tails): each rank of a new gloo group reports how many
    peers it connected to and how many it expected; when the two agree the group is up, so the
    line is a set-up notice, also as a stalled server's last worded line."""
    for text in (
        "[Gloo] Rank 0 is connected to 0 peer ranks. Expected number of connected peer ranks is : 0",
        "[Gloo] Rank 5 is connected to 7 peer ranks. Expected number of connected peer ranks is : 7",
    ):
        assert reads(line(3, text), KNOWLEDGE) is None, text


def test_a_gloo_count_of_a_short_mesh_is_not_a_notice() -> None:
    # fewer peers than expected is no report of a group that came up: the notice rule leaves it
    short = (
        "[Gloo] Rank 5 is connected to 6 peer ranks. Expected number of connected peer ranks is : 7"
    )
    assert load_prefilter().benign.sub(" ", short).strip() == short


def test_a_server_stalled_after_its_gloo_groups_came_up_keeps_no_first_error(
    tmp_path: Path,
) -> None:
    """A serving engine that set up its CPU groups, announced the model load and printed nothing
    more: no line of it failed, so the quiet end's `hang` with no first error."""
    engine = "(EngineCore_DP0 pid=4120) "
    gloo = (
        "[Gloo] Rank 0 is connected to 0 peer ranks. Expected number of connected peer ranks is : 0"
    )
    log = (
        f"{engine}INFO 03-02 10:14:07 [parallel_state.py:1208] rank 0 in world size 1 is "
        "assigned as DP rank 0, PP rank 0, TP rank 0, EP rank 0\n"
        + f"{gloo}\n" * 3
        + f"{engine}INFO 03-02 10:14:11 [gpu_model_runner.py:2602] Starting to load model\n"
    )
    (tmp_path / "serve.log").write_text(log)
    diagnosis = analyze(tmp_path, AnalyzeOptions(workers=1)).diagnosis
    assert diagnosis.category == "hang", diagnosis.root_cause
    assert diagnosis.first_error is None, diagnosis.first_error


def test_a_long_run_of_path_characters_is_read_at_once_and_a_search_path_still_is_not() -> None:
    # a line of one long token as long as a line is kept, no colon in it; process_time counts
    # this process's own work, so a loaded machine does not flake the bound
    assert reads(line(5, "/usr/sbin:/opt/x/bin:/home/user1/bin"), KNOWLEDGE) is None
    assert reads(line(6, "a_short_token"), KNOWLEDGE) is None  # the first reading loads the hints
    for token in ("_" * MAX_LINE_CHARS, ("/usr/lib/python3/site-packages" * 300)[:MAX_LINE_CHARS]):
        started = time.process_time()
        reads(line(7, token), KNOWLEDGE)
        assert time.process_time() - started < 1.0
