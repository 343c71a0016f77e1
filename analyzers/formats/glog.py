"""glog-style lines from C++ (torch c10d, torch elastic, Ray): a level letter and MMDD.

    [rank1]:[E324 13:00:25.428029551 compiler_depend.ts:721] [Rank 1] Watchdog caught collective operation timeout: ...
    E1129 07:25:37.499000 26576 torch/distributed/elastic/multiprocessing/api.py:1002] failed (exitcode: -11) local_rank: 1 (pid: 26691) of binary: /opt/venv/bin/python
    E20260311 09:15:02.330100 281470001112222 Dvpp.cpp:120] ...    (glog >= 0.7 writes the year; MindX SDK)
    W1129 07:25:37.303000 26576 torch/distributed/elastic/multiprocessing/api.py:1028] Sending process 26690 closing signal SIGTERM
    [rank2]:V0731 00:56:29.059000 132353 */torch/distributed/pipelining/stage.py:1354] Shape inference: ...
                       (torch's own records: a debug record's letter is V, verbose; a critical
                        one's is C)
    [2025-11-24 22:27:20,620 E 7435 7435] logging.cc:361: ...            (Ray's C++ core)
    2024-03-02 10:20:30.123456789 [E:onnxruntime:Default, cann_call.cc:139 CannCall] ...
    [E:onnxruntime:, sequential_executor.cc:369 Execute] ...   (onnxruntime's logger: level
                                                               letter, logger id, tag, site)

    F0000 00:00:1716973077.466057    9049 pjrt_computation_client.cc:487] Non-OK-status: ...
                       (abseil's logger before the program set it up, as XLA, TPU runtimes
                        and gRPC print: month and day are zeros and the time is seconds since
                        the epoch, which says no wall-clock time of its own)

    2022-04-11 07:41:22.318761: E tensorflow/compiler/xla/xla_client/xla_util.cc:88] ...
    2020-05-04 09:05:40.719332: E    1578 tensorflow/compiler/xla/xla_client/xla_util.cc:76] ...
                       (TensorFlow's own C++ logger, which torch_xla's XRT client used before
                        abseil's: a full date and time, a colon, the level letter, an optional
                        thread id, the source place)
    [2019-08-14 23:17:42.137107: F byteps/common/shared_memory.cc:38] Check failed: ...
                       (BytePS's logger, which writes the same header inside brackets)

    [F 12/ 1 14:47:20.689 ...le-Lite/lite/kernels/nnadapter/engine.cc:294 Engine] Check failed: ...
    [5 12/ 1 14:47:20.561 ...me/chao/Paddle-Lite/lite/core/op_lite.cc:75 operator()] pick kernel ...
                       (Paddle-Lite's own logger: the level letter, or a verbosity number for
                        its VLOG lines, then month/day and time padded with blanks, the source
                        cut from the left, the function; no year and no pid, so no time is
                        read from it)

    I1207 15:03:21.634 r2 infer.py:44]   attention passed
                       (a job's own Python Formatter in glog's shape, its rank tag in the
                        thread id's column: the rank is the line's)

Older glog writes no year: the scanner borrows it from the file.
"""

from __future__ import annotations

from analyzers.formats.base import header

NAME = "glog"
# a job's own Formatter in glog's shape puts its rank where glog has the thread id:
# "I1207 15:03:21.634 r2 infer.py:44] ...", "W1207 15:03:21.634 rank2 infer.py:44] ..."
_RANK_COLUMN = r"\[?(?i:rank|r)[ _=-]?(?P<rank>\d+)\]?\s+"
# Paddle-Lite writes a verbosity number where its VLOG lines would have a level letter
_PADDLE_LITE_LEVELS = (
    ("I", "INFO"),
    ("W", "WARNING"),
    ("E", "ERROR"),
    ("F", "CRITICAL"),
    *((str(verbosity), "DEBUG") for verbosity in range(10)),
)

HEADERS = (
    header(
        NAME,
        r"\[?(?P<level>[IWEF])0000 00:00:\d{9,11}\.\d+\s+(?:(?P<pid>\d+)\s+)?[^\]\s]+:\d+\]\s?",
    ),
    header(
        NAME,
        r"\[?(?P<level>[IWEFVC])(?P<ts>(?:\d{8}|\d{3,4}) \d\d:\d\d:\d\d\.\d+)\s+"
        r"(?:(?P<pid>\d+)\s+|" + _RANK_COLUMN + r")?[^\]\s]+:\d+\]\s?",
    ),
    # TensorFlow's own logger (torch_xla's XRT client, XLA, jaxlib's TPU binding): the place is
    # a C++ source, or a header it includes (`tpu_executor_init_fns.inc`).
    header(
        NAME,
        r"\[?(?P<ts>\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d+): (?P<level>[IWEF])\s+(?:(?P<pid>\d+)\s+)?"
        r"[^\]\s]+\.(?:cc|cpp|h|inc):\d+\]\s?",
    ),
    header(
        NAME,
        r"\[(?P<ts>\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d+) (?P<level>[IWEF]) (?P<pid>\d+) \d+\] "
        r"(?:[\w.]+:\d+:\s*)?",
    ),
    header(
        NAME,
        r"(?:(?P<ts>\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d+) )?\[(?P<level>[VIWEF]):\w+:[^,\]]*,\s+"
        r"[^\]\s]+:\d+ [^\]]*\]\s?",
    ),
    header(
        NAME,
        r"\[(?P<level>[IWEF0-9]) {1,2}\d{1,2}/ ?\d{1,2} +\d{1,2}:\d\d:\d\d\. ?\d+ \S+:\d+ [^\]\n]*\]\s?",
        levels=_PADDLE_LITE_LEVELS,
    ),
)
