"""The headers Python `logging` lines carry as the common frameworks format them, in order.

2026-11-29 07:25:37,216 [rank3] INFO layer 0 passed                       (plain logging)
[2026-05-31 14:31:51,231] [INFO] [comm.py:698:init_distributed] cdb=None  (deepspeed)
2025-01-28 18:45:18,768 - lmdeploy - ERROR - model_agent.py:735 - Rank[2] failed.
2026-02-26 19:18:17.731 | ERROR    | app.server:run:42 - ...            (loguru)
(Worker_DP0_TP5_EP5 pid=270) ERROR 04-02 19:33:00 [multiproc_executor.py:388] ...  (vLLM v1)
(VllmWorkerProcess pid=3802570) ERROR 07-19 22:15:30 multiproc_worker_utils.py:725] ...  (vLLM v0)
[227098] [2027-10-14 15:24:01:938] torch.distributed: [ERROR] [164517] Find exception ...
[2025-05-13 02:25:58.64217] [error] [36815] [hccl_runner.cpp:132] ...     (MindIE / ATB C++)
[2024-12-05 09:28:49.347] [dicp] [error] [model.cpp:234] ...              (spdlog: logger name)
[2026-01-08 10:27:45.319+08:00] [52] [611] [server] [ERROR] [http_server.cpp:163] : ...
                                          (MindIE service: zoned time, pid, thread, module)
[2025-11-18 09:33:11,638] [42] [281471064600800] [llmmodels] [INFO] [model_runner.py-108] : ...
                                          (MindIE's Python model runner, same fields)
[2026-11-29 07:25:43.583] [RANK 0] [INFO] toy_decoder:  norm passed        (rank-tagged brackets)
[2025-05-14 09:12:40 DP1 TP3 EP3] Scheduler hit an exception: ...          (SGLang worker indices)
INFO:vllm_adapter.spmd_gpu_executor:# GPU blocks: 9963                      (basicConfig)
[ERROR] collector.py: results table is empty                               (level in brackets,
                                          then the module file: operator test and profiling
                                          tools' own loggers)
[ERROR] The dataset directory holds no shards for split "train"
                                          (the level alone in brackets: a launch script's
                                           echo, a tool's own logger)
time="2024-07-19T10:17:55+08:00" level=info msg="..." ...                  (logrus, Go tools)
2025-09-22 20:20:40.102319 error 12789 pid[12789] [BM devmm_ioctl.cpp:122] ...
                                          (MemFabric, under KV transfer engines: time, level,
                                           thread, pid, module and source file)
[12/04 13:24:21.149] I decoder.r05 pid=4126 | layer 0 passed
                                          (a job's own Formatter: `%m/%d %H:%M:%S` time with
                                           msecs, level letter, logger name, pid, `|`)
[2026-12-05 01:17:17,545] INFO [train.rank1] step 0 loss 0.1475
                                          (a job's logger named per rank,
                                           `getLogger(f"train.rank{rank}")`, after the level)
2026-12-05 21:58:30,587 [local_rank0] ERROR model run failed: ...
                                          (a multi-node job's tag with only its LOCAL_RANK:
                                           time and level read, the tag not taken for a rank)
[2026-12-04 15:30:16.361] rank 5: model run failed: ...
                                          (a job's own print: time in brackets, its rank
                                           label, no level; ranks sharing one stdout)
[12:15:19.226] I r0:   mlp passed
[2026-12-07T12:16:35.558] r1 | [layer 0/6] norm ok
                                          (the same with a level letter or word, the rank
                                           as `rN`, a bar for the colon, the time of day
                                           alone: no date, so the time is left unread)
2026-12-05T07:16:03.159215Z [info     ] layer 0 passed                 rank=2
                                          (structlog's ConsoleRenderer: the level padded in
                                           brackets, the event padded to 30 columns, then the
                                           bound pairs, read by `console_pairs`)
[2026-12-04 18:35:11.370][toymoe][r1][INFO]   norm passed
                                          (a job's own Formatter: bracketed fields without
                                           spaces, logger name, its rank `rN`, level)
ts=2026-12-04T18:34:36.707Z level=info rank=1 msg="  norm passed"
                                          (logfmt: key=value pairs, the rank among them, the
                                           message quoted last; `LOGFMT_OPEN` ends the header)
[gpu-node-2:3/8] 2025-06-03 09:13:02,116 (trainer:617) WARNING: The grad norm is nan. ...
                                          (ESPnet: host, then rank/world size when
                                           distributed, time, module:line, level)
submitit INFO (2026-12-04 19:00:48,994) - Starting with JobEnvironment(...)
                                          (submitit's own logger in its tasks' log files:
                                           logger name, level, time in parentheses, ` - `)
[WARNING|trainer.py:1021] 2026-12-04 10:11:12,345 >> ...
                                          (transformers' own handler: level and source file
                                           in one bracket, time, ` >> `)
[INFO|2026-12-04 10:11:12] llamafactory.cli:143 >> ...
                                          (LLaMA-Factory: level and time in one bracket,
                                           logger name and line, ` >> `)
12/04/2026 10:11:12 - ERROR - __main__ - ...
                                          (the Hugging Face example scripts: month-first
                                           date, level, logger name, ` - `)
2026-12-07 09:32:54,039 - INFO - rank 1 - ...
                                          (the same order under logging's ISO time, the
                                           name field a rank label read as the rank)
[2026-12-04 19:46:19.112: C smp/torch/worker.py:110] [17] Hit an exception ...
                                          (SageMaker's distributed libraries: time and a
                                           level letter, C for critical, with the source
                                           file in one bracket, then the rank in brackets)
12-04 10:11:12 [lmms_eval/models/llava.py:407] ERROR Error ... in generating
                                          (lmms-eval's loguru format: month-day time with no
                                           year, the source file and line in brackets, level)
2026-12-06 10:02:11 gpu-probe INFO no critical Xid error detected on 8 GPUs
                                          (`%(asctime)s %(name)s %(levelname)s`: the
                                           logger's name, bare or bracketed, before the level)
[2026-08-14 03:17:42,508] LMCache WARNING: Failed to allocate ... (nixl_connector_v3.py:567:...)
                                          (a library's logger named before the level, the
                                           time in brackets, `:` after the level: LMCache,
                                           its source place at the end of the message)
INFO 2026-12-06 05:42:42.726 rank6 train:73] layer 2 passed
                                          (a job's own Formatter in glog's order: level,
                                           full date, rank word, glog's `file:line]`)
2026-12-05 02:58:23,929 pid=17350 INFO infer: layer 2 passed
2026-12-05 07:08:03,363 10684 ERROR model run failed: ...
                                          (processes sharing one file, tagged only by their
                                           pid, `pid=` or bare: the pid is the line's worker
                                           tag)
[2026-12-07 12:20:55,830][train.rank1][INFO] - Epoch 0/3 - step 5/6 done
                                          (Hydra's default job logging: time, logger name and
                                           level each in brackets, ` - `; a logger named per
                                           rank gives the rank)
2026-12-07T12:16:55.853+0000 INFO  moe_infer rank=1 | layer 1 norm passed
                                          (a job's own Formatter: the level padded, the
                                           logger's name, its `rank=N`, a bar; the ISO time,
                                           zoned as `%z` writes it, is peeled first as a
                                           collector's stamp and given back by `lines`)
2026-12-07 23:58:24,863 INFO node1 rank4 train:   norm passed
                                          (a multi-node job's Formatter: level, the host and
                                           rank words, the logger's name and a colon)
"""

from __future__ import annotations

from analyzers.formats.base import header
from analyzers.formats.logging_fields import (
    ANY_CASE_LEVEL,
    BARE_LEVEL,
    DATE,
    HOST_BEFORE_RANK,
    HOST_IN_RANK_TAG,
    HOST_RANK_LOGGER,
    LEVEL,
    LEVEL_OR_LETTER,
    LOCAL_RANK_TAG,
    LOGFMT_PAIR,
    LOGFMT_TS,
    NO_HOST_RANK_LOGGER,
    NO_RANK_LOGGER,
    NOT_ANOTHER_BRACKETED_LEVEL,
    RANK_LOGGER,
    TRACING_LEVEL,
    ZONED_DATE,
)
from analyzers.formats.pylogging import (
    LEVEL_NAME_RANK_BAR,
    LOGFMT_ANY_ORDER,
    LOGFMT_OPEN,
    NAME,
    SGLANG,
    STRUCTLOG_CONSOLE,
    VLLM,
)

HEADERS = (
    STRUCTLOG_CONSOLE,
    LEVEL_NAME_RANK_BAR,
    # Hydra's default job logging, `[%(asctime)s][%(name)s][%(levelname)s] - %(message)s`: a
    # logger named per rank (`train.rank1`) gives the rank; a bare rank tag in that place is
    # read by the rank-tagged brackets below
    header(
        NAME,
        r"\[(?P<ts>"
        + DATE
        + r")\]\[(?!(?i:rank|r)[ _]?\d+\])(?:(?:[A-Za-z_][\w-]*\.)*(?i:rank)[_-]?"
        r"(?P<rank>\d+)|[A-Za-z_][\w.-]*)\]\[" + LEVEL + r"\] - ",
    ),
    # processes sharing one log file, told apart by logging's `%(process)d` alone:
    # "2026-12-05 02:58:23,929 pid=17350 INFO infer: layer 2 passed" (the rank, if any, is
    # what the process states on its own lines: `formats.worker_tags`)
    header(
        NAME,
        r"\[?(?P<ts>"
        + ZONED_DATE
        + r")\]?\s+\[?pid[=:](?P<process_pid>\d+)\]?\s+\[?"
        + LEVEL
        + r"\]?(?:\s+[\w.]+(?::\s|\s+-\s)|:\s|\s+-\s|\s+|$)",
    ),
    # the same with `%(process)d` bare: "2026-12-05 07:08:03,363 10684 ERROR model run failed"
    # (a pid has 2 to 7 digits; a thread id's 15 do not pass for one)
    header(
        NAME,
        r"\[?(?P<ts>"
        + ZONED_DATE
        + r")\]?\s+\[?(?P<process_pid>\d{2,7})\]?\s+\[?"
        + LEVEL
        + r"\]?(?:\s+[\w.]+(?::\s|\s+-\s)|:\s|\s+-\s|\s+|$)",
    ),
    header(
        VLLM,
        LEVEL + r" (?P<ts>\d\d-\d\d \d\d:\d\d:\d\d|\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(?:\.\d+)?) "
        r"(?:\[[\w./-]+:\d+\]|[\w./-]+:\d+\])\s?",
    ),
    # a job's own Formatter in glog's order: the level first, the full date, its rank word,
    # then glog's `file:line]` location: "INFO 2026-12-06 05:42:42.726 rank6 train:73] ..."
    header(
        NAME,
        LEVEL + r" (?P<ts>" + DATE + r") (?:(?i:rank)[ _=-]?(?P<rank>\d+) )?[\w./-]+:\d+\]\s?",
    ),
    header(
        NAME,
        r"\[?(?P<ts>" + DATE + r")\]?\s+" + LEVEL + r"\s+" + RANK_LOGGER,
    ),
    header(NAME, r"\[?(?P<ts>" + DATE + r")\]?\s+" + LEVEL + r"\s+" + HOST_RANK_LOGGER),
    header(
        NAME,
        r"\[?(?P<ts>"
        + DATE
        + r")\]?\s+"
        + HOST_BEFORE_RANK
        + r"(?:\["
        + HOST_IN_RANK_TAG
        + r"(?i:rank)[ _]?(?P<rank>\d+)\]\s+|"
        + LOCAL_RANK_TAG
        + r")?"
        r"(?:-\s+[\w.]+\s+-\s+)?(?:\|\s+)?\[?"
        + LEVEL
        + r"\]?(?:\s+-\s+|\s*\|\s+|:\s+|\s+|$)"
        + NO_RANK_LOGGER
        + NO_HOST_RANK_LOGGER,
    ),
    # loguru's default format since 0.8 writes the zone after a space (`{time:... Z}`), and
    # its own SUCCESS level between INFO and WARNING: "2026-12-07 15:04:17.194 +00:00 | SUCCESS
    # | __main__:main:39 - step 1 done" (the record's location is left to the message, as above)
    header(
        NAME,
        r"(?P<ts>" + DATE + r"(?: [+-]\d\d:\d\d)?) \| "
        r"(?P<level>TRACE|DEBUG|INFO|SUCCESS|WARNING|ERROR|CRITICAL) *\| ",
        (
            ("TRACE", "DEBUG"),
            ("DEBUG", "DEBUG"),
            ("INFO", "INFO"),
            ("SUCCESS", "INFO"),
            ("WARNING", "WARNING"),
            ("ERROR", "ERROR"),
            ("CRITICAL", "CRITICAL"),
        ),
    ),
    header(
        NAME,
        r"\[(?P<pid>\d+)\] \[(?P<ts>" + DATE + r")\] [\w.]+: \[" + LEVEL + r"\] (?:\[\d+\] )?",
    ),
    header(
        NAME,
        r"\[(?P<ts>" + DATE + r")\] \[" + ANY_CASE_LEVEL + r"\] \[(?P<pid>\d+)\] "
        r"(?:\[[\w./-]+:\d+\] )?",
    ),
    header(
        NAME,
        r"\[(?P<ts>" + DATE + r")\] \[[A-Za-z_][\w.-]*\] \[" + ANY_CASE_LEVEL + r"\] "
        r"(?:\[[\w./-]+:\d+\] )?",
    ),
    header(
        NAME,
        r"\[(?P<ts>" + DATE + r")\] \[(?i:rank)[ _]?(?P<rank>\d+)\] \[" + ANY_CASE_LEVEL + r"\] ",
    ),
    # a library's logger named before the level: `[<time>] LMCache WARNING: ...`
    header(NAME, r"\[(?P<ts>" + DATE + r")\] [A-Za-z_][\w.-]* " + LEVEL + r": "),
    # logging's `%(asctime)s %(name)s %(levelname)s %(message)s`: the logger's name, bare or
    # in brackets, right before the level; a logger named per rank (`rank3`) gives the rank
    header(
        NAME,
        r"(?P<ts>" + DATE + r") (?:\[?(?i:rank)[_-]?(?P<rank>\d+)\]?|\[[A-Za-z_][\w.-]*\]"
        r"|[A-Za-z_][\w.-]*) " + LEVEL + r"(?::\s+|\s+-\s+|\s+|$)",
    ),
    header(
        NAME,
        r"\[(?P<ts>" + ZONED_DATE + r")\] \[(?P<pid>\d+)\] \[\d+\] \[[A-Za-z_][\w.-]*\] "
        r"\[" + ANY_CASE_LEVEL + r"\] (?:\[[\w./-]+?[:-]\d+\] )?(?::\s+)?",
    ),
    header(
        NAME,
        r"(?P<ts>" + DATE + r") " + ANY_CASE_LEVEL + r" \d+ pid\[(?P<pid>\d+)\] "
        r"(?:\[[A-Z][A-Z_]* [\w./-]+:\d+\] )?",
    ),
    header(
        NAME,
        r"\[(?P<ts>(?:\d{4}-)?\d\d[-/]\d\d[ T]\d\d:\d\d:\d\d(?:[.,]\d+)?)\] "
        r"(?P<level>[DIWEFC]|DEBUG|INFO|WARNING|WARN|ERROR|CRITICAL) "
        r"[A-Za-z_][\w.-]*(?: pid=(?P<pid>\d+))? \| ",
    ),
    header(
        NAME,
        r"\[[\w.-]+(?::(?P<rank>\d+)/\d+)?\] (?P<ts>" + DATE + r") \([\w.]+:\d+\) " + LEVEL + r": ",
    ),
    header(NAME, r"[A-Za-z_][\w.]* " + LEVEL + r" \((?P<ts>" + DATE + r")\) - "),
    # a launcher's logger in capitals, its level, then the time unbracketed: Paddle's
    # `python -m paddle.distributed.launch` ("LAUNCH INFO 2026-03-07 08:54:14,880 ips: ...")
    header(NAME, r"[A-Z][A-Z0-9_]* " + LEVEL + r" (?P<ts>" + DATE + r") "),
    header(NAME, r"\[" + LEVEL + r"\|[\w./-]+:\d+\] (?P<ts>" + DATE + r") >> "),
    header(NAME, r"\[" + LEVEL + r"\|(?P<ts>" + DATE + r")\] [\w.]+(?::\d+)? >> "),
    header(
        NAME,
        r"(?P<ts>\d\d/\d\d/\d{4} \d\d:\d\d:\d\d(?:[.,]\d+)?) - " + LEVEL + r" - [\w.]+ - ",
    ),
    # the same order under logging's default ISO time (`%(asctime)s - %(levelname)s - %(name)s -
    # %(message)s`), the name field often the rank itself (`- INFO - rank 1 - `)
    header(
        NAME,
        r"(?P<ts>" + DATE + r") - " + LEVEL + r" - (?:(?i:rank)[ _]?(?P<rank>\d+)|[\w.]+) - ",
    ),
    header(
        NAME,
        r"\[(?P<ts>" + DATE + r"): (?P<level>[DIWEFC]) [\w./-]+\.py:\d+\] (?:\[(?P<rank>\d+)\] )?",
    ),
    header(NAME, r"(?P<ts>\d\d-\d\d \d\d:\d\d:\d\d) \[[\w./-]+\.py:\d+\] " + LEVEL + r"\s+"),
    header(SGLANG, r"\[(?P<ts>" + DATE + r")(?P<worker>(?: [A-Z][A-Z_]*\d+)+)\] "),
    # a job's own print or Formatter: the time in brackets (a full date, or the time of day
    # alone, which says no date and is left unread), a level letter or word if any, then its
    # rank label (`rank 5`, `r5`) closed by a colon or a bar
    header(
        NAME,
        r"\[(?:(?P<ts>" + DATE + r")|\d\d:\d\d:\d\d(?:[.,]\d{1,6})?)\] "
        r"(?:" + LEVEL_OR_LETTER + r" )?(?:(?i:rank) ?|[rR])(?P<rank>\d+)(?::| \|)\s",
    ),
    # the same print behind a full date, bracketed or not, with no level: its rank label in
    # brackets ("2026-12-07 12:20:55 [rank 1] loss 2.31") or, after a bare date, closed by a
    # colon or a bar ("2026-12-07 12:20:55,418 rank 1: ..."); a level after the label leaves
    # the line to the headers above that read it
    header(
        NAME,
        r"\[?(?P<ts>"
        + DATE
        + r")\]? \[(?i:rank)[ _]?(?P<rank>\d+)\]:?(?!\s*\[?"
        + BARE_LEVEL
        + r")\s+",
    ),
    header(
        NAME,
        r"(?P<ts>"
        + DATE
        + r") (?i:rank)[ _]?(?P<rank>\d+)(?::| \|)(?!\s*\[?"
        + BARE_LEVEL
        + r")\s+",
    ),
    header(NAME, LEVEL + r":[\w.]+:"),
    header(NAME, r"\[" + LEVEL + r"\] [\w.-]+\.py(?::\d+)?: "),
    # the level alone in brackets before the words (a launch script's `echo "[ERROR] ..."`, a
    # tool's own logger): the writer's level. Not a CANN log's record (`[ERROR] RUNTIME(987,):
    # ...`, `formats.plog`), torch_npu's (`[ERROR] 2025-05-16-20:08:19 (PID:...`) or the line
    # above naming its module file; a level in brackets inside a line is no header. A guide or
    # a paste can lose the blank after the brackets (`[ERROR]The strategy is ...`): a capital
    # starting a word still opens the message, where a CANN module's name would go on to its
    # `(pid,...)` and is refused as above
    header(
        NAME,
        r"\[" + LEVEL + r"\](?:\s+(?=\S)|(?=[A-Z][a-z]))" + NOT_ANOTHER_BRACKETED_LEVEL,
    ),
    header(NAME, r"time=\"(?P<ts>[^\"]+)\" level=(?P<level>\w+) "),
    header(
        NAME,
        r"\[(?P<ts>" + DATE + r")\] ?(?:\[[A-Za-z_][\w.-]*\] ?)?\[(?i:rank|r)[ _]?(?P<rank>\d+)\] ?"
        r"\[" + ANY_CASE_LEVEL + r"\] ?",
    ),
    header(
        NAME,
        LOGFMT_TS + r" level=" + ANY_CASE_LEVEL + r"(?:" + LOGFMT_PAIR + r")*"
        r"(?: rank=(?P<rank>\d+))?(?:" + LOGFMT_PAIR + r")* " + LOGFMT_OPEN,
    ),
    # the same pairs in the order a renderer was given (structlog's LogfmtRenderer with
    # `key_order=["ts", "rank", "level", "msg"]`), or without a level: `logfmt_pairs` reads
    # the level and the rank from among them
    LOGFMT_ANY_ORDER,
    # Rust's tracing, once a collector-time wrapper took its RFC 3339 time: the level padded
    # to five, then the spans entered (`name{field=1}:`) and the module path (`a::b:`)
    header(
        NAME,
        r" ?" + TRACING_LEVEL + r" (?:[A-Za-z_][\w.-]*(?:\{[^{}]*\})?: )*?"
        r"[A-Za-z_][\w.-]*(?:::[\w.-]+)*: ",
    ),
)
