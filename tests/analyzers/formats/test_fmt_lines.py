"""Wrappers and headers peel off every real line shape; the message is what rules match."""

import re
from datetime import datetime

import pytest

from analyzers.formats.base import Header
from analyzers.formats.lines import HEADERS, header_union, parse_line
from analyzers.formats.timestamps import PartialTime
from tests.analyzers.excerpts import diagnose_text

# (id, line, source, level, rank, pid, message starts with)
CASES = [
    (
        "plog-runtime",
        "[ERROR] RUNTIME(987,):2027-04-02-19:29:32.538.614 [stars_engine.cc:7900]326 ProcLogicCqReport:Task run failed, device_id=3",
        "plog",
        "ERROR",
        None,
        987,
        "ProcLogicCqReport:Task run failed",
    ),
    (
        # a manual's example with the stamp written as its placeholder (non-breaking hyphens)
        "plog-manual-placeholder-stamp",
        "[ERROR] RUNTIME(5120,python3):YYYY\u2011MM\u2011DD\u2011HH:MM:SS.fff.uuu [stream.cc:1188]5177"
        " GetError:Stream Synchronize failed, stream_id=2",
        "plog",
        "ERROR",
        None,
        5120,
        "GetError:Stream Synchronize failed",
    ),
    (
        "plog-manual-placeholder-stamp-ascii",
        "[INFO] GE(5120,main):YYYY-MM-DD-HH:MM:SS.fff.uuu [error_manager.cc:411]5177"
        " ReportErrMessage:report error_message, error_code:EZ9999",
        "plog",
        "INFO",
        None,
        5120,
        "ReportErrMessage:report error_message",
    ),
    (
        "plog-hccl",
        "[ERROR] HCCL(4644660,python3):2026-03-12-07:49:36.326.808 [hccl_socket.cc:532] [4644660][HcclSocket][Listen] socket type[1]",
        "plog",
        "ERROR",
        None,
        4644660,
        "[4644660][HcclSocket][Listen]",
    ),
    (
        # a paste whose stamps put a colon, not a dot, between the seconds and the milliseconds
        "plog-stamp-colon-before-milliseconds",
        "[ERROR] HCCL(20417,python):2026-07-03-09:14:05:118.402 [topoinfo_ranktableConcise.cc:169][20490][Parse][ClusterInfo]ranktable config devId[2], but local devId[6]",
        "plog",
        "ERROR",
        None,
        20417,
        "[20490][Parse][ClusterInfo]",
    ),
    (
        "plog-level-glued-to-module",
        "[ERROR]HCCL(3021,python3):2026-09-14-08:12:30.441.207 [externalinput.cc:940] [3021][Parse][rdmaTrafficClass]HCCL_RDMA_TC[300] is invalid. except: [0, 255]",
        "plog",
        "ERROR",
        None,
        3021,
        "[3021][Parse][rdmaTrafficClass]",
    ),
    (
        "plog-app-no-file",
        '[ERROR] APP(2014231,):2027-01-13-06:28:48.993.467 2014231 MakeSureQueueEmpty:NPUQueue.cpp:539: "[PTA]:"Inner error',
        "plog",
        "ERROR",
        None,
        2014231,
        "MakeSureQueueEmpty:",
    ),
    (
        "plog-grep-prefix",
        "/root/ascend/log/debug/plog/plog-790506_20241022175135120.log:[ERROR] RUNTIME(205664,python):2025-06-11-21:53:16.188.200 [runtime.cc:5860]790506 PrimaryContextRetain:report error module_type=0",
        "plog",
        "ERROR",
        None,
        205664,
        "PrimaryContextRetain:",
    ),
    (
        "device-event",
        "[EVENT] KERNEL(6843,sklogd):2023-06-10-13:16:14.096.793 [klogd.c:253][251681.794072] [ascend] [ERROR] [tsdrv] receive ts exception msg",
        "plog",
        "EVENT",
        None,
        6843,
        "[251681.794072] [ascend] [ERROR]",
    ),
    (
        "mindspore-python-side",
        "[WARNING] ME(5521:281470001234567,MainProcess):2025-06-07-08:09:10.111.000 [mindspore/parallel/cluster/process_entity/_api.py:318] There's worker exits with exception, kill all other workers.",
        "plog",
        "WARNING",
        None,
        5521,
        "There's worker exits with exception",
    ),
    (
        "mindspore-cpp-side",
        "[ERROR] DEVICE(5521,fffd1c2b31e0,python):2025-06-07-08:09:10.222.333 [mindspore/ccsrc/runtime/device/kernel_runtime_manager.cc:136] WaitTaskFinishOnDevice] SyncStream failed",
        "plog",
        "ERROR",
        None,
        5521,
        "WaitTaskFinishOnDevice] SyncStream failed",
    ),
    (
        "pta-in-rank-prefix",
        "[rank1]: [ERROR] 2026-02-20-04:04:28 (PID:2531699, Device:1, RankID:1) ERR01100 OPS call acl api failed.",
        "torch_npu",
        "ERROR",
        1,
        2531699,
        "ERR01100 OPS call acl api failed.",
    ),
    (
        "cann-headline",
        "[rank1]: EI0006: [PID: 2531699] 2026-02-20-04:04:28.999.536 Getting socket times out. Reason: Remote Rank did not send the data in time.",
        "cann",
        None,
        1,
        2531699,
        "EI0006: [PID: 2531699]",
    ),
    (
        "cann-named",
        "[PID: 959] 2026-08-06-05:15:23.957.311 Device_Absent/Abnormal(EL0001): Device not found or invalid.",
        "cann",
        None,
        None,
        959,
        "[PID: 959]",
    ),
    (
        "cann-in-ray-tag",
        "(EngineCore_DP0 pid=57621) EZ9999[PID: 57621] 2026-07-10-14:37:28.138.485 (EZ9999):  HCCL_BUFFSIZE is too SMALL, maxBs = 914",
        "cann",
        None,
        None,
        57621,
        "EZ9999[PID: 57621]",
    ),
    (
        # a reply that quotes part of a paste: the headline keeps the indent the quote gave it
        "cann-headline-indented",
        "      E19010: No parser is registered for Op [/enc/blocks.3/FusedGelu, optype [ai.onnx::13::FusedGelu]].",
        "cann",
        None,
        None,
        None,
        "E19010: No parser is registered",
    ),
    (
        "cann-headline-quoted",
        ">     EZ3003: [PID: 7715] 2026-04-02-11:20:31.004.118 No supported Ops kernel and engine are found for [Unique3], optype [Unique].",
        "cann",
        None,
        None,
        7715,
        "EZ3003: [PID: 7715]",
    ),
    (
        "glog-watchdog",
        "[rank1]:[E324 13:00:25.428029551 compiler_depend.ts:721] [Rank 1] Watchdog caught collective operation timeout: WorkHCCL(SeqNum=503)",
        "glog",
        "ERROR",
        1,
        None,
        "[Rank 1] Watchdog caught",
    ),
    (
        "glog-elastic",
        "E1129 07:25:37.499000 26576 torch/distributed/elastic/multiprocessing/api.py:1002] failed (exitcode: -11) local_rank: 1 (pid: 26691) of binary: /opt/venv/bin/python",
        "glog",
        "ERROR",
        None,
        26576,
        "failed (exitcode: -11)",
    ),
    (
        "glog-with-year",
        "E20260311 09:15:02.330100 281470001112222 Dvpp.cpp:120] decode failed (Code = -1)",
        "glog",
        "ERROR",
        None,
        281470001112222,
        "decode failed",
    ),
    (
        "npu-warning",
        "[W NPUStream.cpp:788] Warning: NPU warning, error code is 107020[Error]: .",
        "torch_npu",
        "WARNING",
        None,
        None,
        "Warning: NPU warning",
    ),
    (
        "torchrun-logging",
        "[default0]:2026-11-29 07:25:37,254 [rank0] ERROR model run failed: Connection closed by peer",
        "logging",
        "ERROR",
        0,
        None,
        "model run failed:",
    ),
    (
        "torchrun-traceback",
        "[default2]:[rank2]: RuntimeError: [../gloo/transport/tcp/pair.cc:553] Connection closed by peer [127.0.0.1]:42639.",
        None,
        None,
        2,
        None,
        "RuntimeError: [../gloo",
    ),
    (
        "ggml-elapsed",
        "0.02.118.406 E srv                load_model: multimodal projector embedding length is not equal to the model",
        "ggml",
        "ERROR",
        None,
        None,
        "srv                load_model:",
    ),
    (
        "ggml-bracketed",
        "[2025-06-02 10:14:09.802114] W srv                load_model: draft model ignored",
        "ggml",
        "WARNING",
        None,
        None,
        "srv                load_model:",
    ),
    (
        "version-not-ggml",  # a dotted version then a capital word is no logger header
        "1.10.100.200 E2E test suite",
        None,
        None,
        None,
        None,
        "1.10.100.200 E2E",
    ),
    (
        "vllm-v1",
        "(Worker_DP0_TP8_EP8 pid=394) ERROR 2026-11-01 17:32:37.778 [multiproc_executor.py:366] KeyError: 'model.layers.1.mlp.experts.weight'",
        "vllm",
        "ERROR",
        8,  # the EP index: vLLM's expert-parallel group spans DP x TP
        394,
        "KeyError: 'model.layers.1",
    ),
    (
        "vllm-v0",
        "(VllmWorkerProcess pid=16293) ERROR 03-02 17:07:09 multiproc_worker_utils.py:708] RuntimeError: NPU out of memory.",
        "vllm",
        "ERROR",
        None,
        16293,
        "RuntimeError: NPU out of memory.",
    ),
    (
        "vllm-around-pta",
        "(Worker_TP1 pid=88362) ERROR 01-13 23:45:56 [multiproc_executor.py:294] [ERROR] 2027-01-13-23:45:56 (PID:88362, Device:1, RankID:-1) ERR00100 PTA call acl api failed.",
        "torch_npu",
        "ERROR",
        None,
        88362,
        "ERR00100 PTA call acl api failed.",
    ),
    (
        "ray-around-glog",
        "(vLLMHttpServer pid=8919413) [rank0]:[E126 03:28:29.988683190 compiler_depend.ts:334] boom",
        "glog",
        "ERROR",
        0,
        8919413,
        "boom",
    ),
    (
        "deepspeed",
        "[2026-05-31 14:31:51,231] [INFO] [comm.py:698:init_distributed] cdb=None",
        "logging",
        "INFO",
        None,
        None,
        "[comm.py:698:init_distributed] cdb=None",
    ),
    ("pdsh-worker", "worker-1: RuntimeError: x", None, None, None, None, "RuntimeError: x"),
    ("pdsh-node", "node7: RuntimeError: x", None, None, None, None, "RuntimeError: x"),
    # cluster and cloud host names carry hyphens before their number
    ("pdsh-hyphened", "gpu-node-07: RuntimeError: x", None, None, None, None, "RuntimeError: x"),
    ("pdsh-cloud", "ip-172-31-8-5: RuntimeError: x", None, None, None, None, "RuntimeError: x"),
    (
        "pdsh-fqdn",
        "gpu01.cluster.local: RuntimeError: x",
        None,
        None,
        None,
        None,
        "RuntimeError: x",
    ),
    (
        "pdsh-localhost",
        "localhost: [rank3]: RuntimeError: x",
        None,
        None,
        3,
        None,
        "RuntimeError: x",
    ),
    ("checkpoint-word-not-host", "layer3: passed", None, None, None, None, "layer3: passed"),
    # a server's request tag has a host name's shape and is the process's own word
    (
        "request-tag-not-host",
        "req-2: decode step 0 passed",
        None,
        None,
        None,
        None,
        "req-2: decode step 0 passed",
    ),
    (
        "request-tag-after-logging-header",
        "2026-12-05 03:54:29,659 [rank0] INFO req-0: decode step 1 passed",
        "logging",
        "INFO",
        0,
        None,
        "req-0: decode step 1 passed",
    ),
    (
        "spdlog-named-logger",
        "[2024-12-05 09:28:49.347] [dicp] [error] [model.cpp:234] execute node[0] fail, error code: 3",
        "logging",
        "ERROR",
        None,
        None,
        "execute node[0] fail",
    ),
    (
        "mindie-service-zoned-time",
        "[2026-04-01 08:09:10.111+08:00] [31] [402] [server] [ERROR] [http_server.cpp:163] : "
        "[MIE04E02041C] [endpoint] Failed to listen 10.1.2.3:1025",
        "logging",
        "ERROR",
        None,
        31,
        "[MIE04E02041C] [endpoint] Failed to listen",
    ),
    (
        "mindie-python-runner",
        "[2026-04-01 08:09:11,204] [31] [281473302216800] [llmmodels] [ERROR] "
        "[model_runner.py-132] : weights of layer 3 are missing",
        "logging",
        "ERROR",
        None,
        31,
        "weights of layer 3",
    ),
    (
        "mindie-operation-record-has-no-level",
        "[2026-04-01 08:09:10.112+08:00] [31] [host] [system] [server] [Start mindie server] [fail]",
        None,
        None,
        None,
        None,
        "[2026-04-01 08:09:10.112+08:00] [31] [host]",
    ),
    ("grep-n-rank", "118:[rank3]: RuntimeError: x", None, None, 3, None, "RuntimeError: x"),
    # a job's own Formatter: bracketed fields without spaces, logger, rank `rN`, level
    (
        "bracketed-own",
        "[2026-12-04 18:35:11.370][toymoe][r1][INFO]   norm passed",
        "logging",
        "INFO",
        1,
        None,
        "  norm passed",
    ),
    (
        "bracketed-own-error",
        "[2026-12-04 18:35:11.370][toymoe][r12][ERROR] model run failed",
        "logging",
        "ERROR",
        12,
        None,
        "model run failed",
    ),
    # a logger named per rank (`getLogger(f"train.rank{rank}")`) in brackets after the level
    (
        "rank-logger",
        "[2026-12-05 01:17:17,569] INFO [train.rank1] prefill start: 8 tokens",
        "logging",
        "INFO",
        1,
        None,
        "prefill start: 8 tokens",
    ),
    (
        "rank-logger-error",
        "[2026-12-05 01:17:18,032] ERROR [train.rank3] training failed",
        "logging",
        "ERROR",
        3,
        None,
        "training failed",
    ),
    (
        "rank-logger-not-a-module",
        "[2026-12-05 01:17:18,032] INFO [train.loader] 3 batches in my shard",
        "logging",
        "INFO",
        None,
        None,
        "[train.loader] 3 batches in my shard",
    ),
    # logfmt: the rank among the pairs, the quoted message last and unquoted
    (
        "logfmt-rank",
        'ts=2026-12-04T18:34:36.707Z level=info rank=1 msg="  norm passed"',
        "logging",
        "INFO",
        1,
        None,
        "  norm passed",
    ),
    (
        "logfmt-pairs",
        'ts=2026-12-04T18:34:36.707Z level=error caller=w.go:3 rank=4 msg="a \\"b\\" c" extra=1',
        "logging",
        "ERROR",
        4,
        None,
        'a "b" c',
    ),
    # srun --label: the task number, right-aligned, then a colon and one space
    ("srun-label-rank", " 3: [rank3]: RuntimeError: x", None, None, 3, None, "RuntimeError: x"),
    ("srun-label-wide", "13: [rank13]: RuntimeError: x", None, None, 13, None, "RuntimeError: x"),
    ("grep-n-indented-frame", '7:  File "x.py", line 3', None, None, None, None, '  File "x.py"'),
    ("grep-n-source", "2:    raise RuntimeError('x')", None, None, None, None, "    raise"),
    (
        "viewer-gutter-rank",
        "  1145\t[rank3]: RuntimeError: InnerRun failed",
        None,
        None,
        3,
        None,
        "RuntimeError: InnerRun",
    ),
    (
        "viewer-gutter-source",
        "    12\t    raise RuntimeError('x')",
        None,
        None,
        None,
        None,
        "    raise",
    ),
    ("unpadded-data-row", "0\t1\t2", None, None, None, None, "0\t1\t2"),
    # a notebook platform's kernel log: seconds since the session began, the output's line
    # number, each closed by a tab
    (
        "kernel-log-rank",
        "704.7s\t1344\t[rank0]: RuntimeError: file write failed",
        None,
        None,
        0,
        None,
        "RuntimeError: file write",
    ),
    ("kernel-log-blank", "704.7s\t1345\t", None, None, None, None, ""),
    ("elapsed-no-number", "0.5s\tloss 0.31", None, None, None, None, "0.5s\tloss"),
    # a viewer's bracketed line number, in front of torch's rank tag only
    (
        "bracketed-number-rank",
        "[5120] [rank2]: RuntimeError: NCCL communicator was aborted",
        None,
        None,
        2,
        None,
        "RuntimeError: NCCL communicator",
    ),
    ("bracketed-number-local", "[77][default1]:Traceback (x)", None, None, None, None, "Traceback"),
    ("bracketed-rank-not-a-tag", "[3] NCCL INFO Channel 00/02", None, None, None, None, "[3] NCCL"),
    # a platform's time with a space before torch's rank tag, seconds optional
    (
        "stamped-rank-tag-minutes",
        "2026-04-02 07:31 [rank5]:[E402 07:31:09.118000000 ProcessGroupNCCL.cpp:616] x",
        "glog",
        "ERROR",
        5,
        None,
        "x",
    ),
    (
        "stamped-rank-tag-led-by-space",
        " 2026-04-02 07:31:09 [rank12]: RuntimeError: y",
        None,
        None,
        12,
        None,
        "RuntimeError: y",
    ),
    ("indented-number-no-tab", "    12 ranks joined", None, None, None, None, "    12 ranks"),
    (
        "lmdeploy",
        "2025-01-28 18:45:18,768 - lmdeploy - ERROR - model_agent.py:735 - Rank[2] failed.",
        "logging",
        "ERROR",
        2,
        None,
        "model_agent.py:735 - Rank[2] failed.",
    ),
    (
        "lmms-eval-loguru",
        "12-04 09:41:09 [lmms_eval/models/qwen_vl.py:212] ERROR Error boom in generating",
        "logging",
        "ERROR",
        None,
        None,
        "Error boom in generating",
    ),
    (
        "docker-compose-loguru",
        "mineru-npu-model-server   | 2026-02-26 19:18:17.731 | ERROR    | app:run:42 - boom",
        "logging",
        "ERROR",
        None,
        None,
        "app:run:42 - boom",
    ),
    (
        "watchdog-query",
        "[227098] [2027-10-14 15:24:01:938] torch.distributed: [ERROR] [164517] Find exception when finishedNPUExecutionInternal",
        "logging",
        "ERROR",
        None,
        227098,
        "Find exception",
    ),
    (
        "ray-cpp",
        "(WorkerDict pid=7435, ip=172.16.22.183) [2025-11-24 22:27:20,620 E 7435 7435] logging.cc:361: @ ... and at least 178 more frames",
        "glog",
        "ERROR",
        None,
        7435,
        "@ ... and at least",
    ),
    (
        "basic-config",
        "INFO:vllm_adapter.spmd_gpu_executor:# GPU blocks: 9963",
        "logging",
        "INFO",
        None,
        None,
        "# GPU blocks",
    ),
    (
        "logrus",
        'time="2024-07-19T10:29:54+08:00" level=info msg="[sidecar] SIGTERM signal is received"',
        "logging",
        "INFO",
        None,
        None,
        'msg="[sidecar] SIGTERM',
    ),
    (
        "rust-tracing-error",
        "2026-03-02T11:40:07.118204Z ERROR frontend.start{model=qwen}: kv_router::scheduler: no worker accepted the prefill",
        "logging",
        "ERROR",
        None,
        None,
        "no worker accepted the prefill",
    ),
    (
        "rust-tracing-info-padded",
        "2026-03-02T11:40:01.502771Z  INFO kv_router::scheduler: 2 workers registered",
        "logging",
        "INFO",
        None,
        None,
        "2 workers registered",
    ),
    (
        "vllm-worker-rank-field",
        "(VllmWorker rank=3 pid=20417) ERROR 05-11 08:02:19 [multiproc_executor.py:470] WorkerProc failed to start.",
        "vllm",
        "ERROR",
        None,
        20417,
        "WorkerProc failed to start.",
    ),
    (
        "vllm-tag-split-by-paste",
        "(EngineCore _DP1 pid=8812) ERROR 02-03 11:40:07 [core.py:710] EngineCore failed to start.",
        "vllm",
        "ERROR",
        None,
        8812,
        "EngineCore failed to start.",
    ),
    (
        "colour-codes-without-esc",
        "[0;36m(EngineCore_DP2 pid=731)[0;0m INFO 07-30 14:21:50 [shm_broadcast.py:542] No available shared memory broadcast block found in 60 seconds.",
        "vllm",
        "INFO",
        None,
        731,
        "No available shared memory",
    ),
    (
        "collector-timestamp",
        "2026-02-14T06:31:09.104527311Z (Worker_TP2 pid=4410) ERROR 02-14 06:31:09 [multiproc_executor.py:671] RuntimeError: boom",
        "vllm",
        "ERROR",
        None,
        4410,
        "RuntimeError: boom",
    ),
    (
        "grep-n-over-plogs",
        "/root/ascend/log/debug/plog/plog-7311_20260302101500123.log:118:[ERROR] RUNTIME(7311,python):2026-03-02-10:15:40.221.908 [runtime.cc:5860]7402 boom",
        "plog",
        "ERROR",
        None,
        7311,
        "boom",
    ),
    (
        "caret-notation-colour-codes",
        "^[[1;36m(VllmWorker TP4 pid=36115)^[[0;0m ERROR 09-10 10:35:53 [multiproc_executor.py:596] RuntimeError: boom",
        "vllm",
        "ERROR",
        None,
        36115,
        "RuntimeError: boom",
    ),
    (
        "markdown-quoted-paste",
        "> [E306 00:03:07.842961975 socket.cpp:1011] [c10d] The client socket has timed out after 60000ms",
        "glog",
        "ERROR",
        None,
        None,
        "[c10d] The client socket has timed out",
    ),
    (
        "ray-daemon-inside-process-tag",
        "(EngineCore pid=5120) (raylet) A worker died or was killed while executing a task by an unexpected system error.",
        None,
        None,
        None,
        5120,
        "A worker died or was killed",
    ),
    (
        "torch-npu-function-suffix-is-no-tag",
        " (function npuSynchronizeUsedDevices)",
        None,
        None,
        None,
        None,
        " (function npuSynchronizeUsedDevices)",
    ),
    (
        "mindie-cpp",
        "[2026-01-09 11:40:02.31193] [error] [5130] [hccl_runner.cpp:132] AllReduceHcclRunner:0 HcclCommInitRootInfo fail, error:4",
        "logging",
        "ERROR",
        None,
        5130,
        "AllReduceHcclRunner:0 HcclCommInitRootInfo fail",
    ),
    (
        "plain",
        "Segmentation fault (core dumped)",
        None,
        None,
        None,
        None,
        "Segmentation fault (core dumped)",
    ),
    (
        "memfabric-level-thread-pid",
        "2026-03-02 08:00:41.200110 error 7311 pid[7311] [BM devmm_ioctl.cpp:122] svm advise failed:-1 : 3 : No such process",
        "logging",
        "ERROR",
        None,
        7311,
        "svm advise failed",
    ),
    (
        # a time and a lower-case word with no thread and pid fields is free text
        "time-then-word-is-no-level",
        "2026-03-02 08:00:41.200110 error happened while loading",
        None,
        None,
        None,
        None,
        "2026-03-02 08:00:41.200110 error happened",
    ),
    (
        # a tool's own logger: the level in brackets, then the Python file that logged it
        "bracketed-level-then-module-file",
        "[ERROR] collector.py: results table is empty",
        "logging",
        "ERROR",
        None,
        None,
        "results table is empty",
    ),
    (
        # a job's own logging.Formatter: `%m/%d %H:%M:%S.msecs`, level letter, logger, pid, `|`
        "logging-custom-formatter",
        "[12/04 13:24:21.149] I decoder.r05 pid=4126 |   norm passed",
        "logging",
        "INFO",
        None,
        4126,
        "  norm passed",
    ),
    (
        "logging-custom-formatter-error",
        "[12/04 13:26:31.235] E decoder.r09 pid=6759 | unhandled exception, rank exiting",
        "logging",
        "ERROR",
        None,
        6759,
        "unhandled exception",
    ),
    (
        # ESPnet's distributed trainer: host, rank/world size, time, module:line, level
        "espnet-distributed",
        "[gpu-node-2:3/8] 2025-06-03 09:13:02,116 (trainer:617) WARNING: The grad norm is nan.",
        "logging",
        "WARNING",
        3,
        None,
        "The grad norm is nan.",
    ),
    (
        # the same without a process group: the host alone names no rank
        "espnet-single",
        "[gpu-node-2] 2025-06-03 09:13:02,116 (asr_train:24) ERROR: training stopped",
        "logging",
        "ERROR",
        None,
        None,
        "training stopped",
    ),
    (
        # submitit's own logger in a task's %j_%t_log.out: name, level, time in parentheses;
        # an error word inside a path on an INFO line is no error
        "submitit-info",
        "submitit INFO (2026-12-04 19:00:48,994) - Loading pickle: /runs/killed_jobs/28281_submitted.pkl",
        "logging",
        "INFO",
        None,
        None,
        "Loading pickle: /runs/killed_jobs/",
    ),
    (
        "submitit-error",
        "submitit ERROR (2026-12-04 19:00:55,884) - Submitted job triggered an exception",
        "logging",
        "ERROR",
        None,
        None,
        "Submitted job triggered an exception",
    ),
    (
        # transformers' own handler: level and source file share a bracket, ` >> ` ends it
        "transformers-handler",
        "[WARNING|trainer.py:1021] 2026-12-04 10:11:12,345 >> The model was loaded in float16",
        "logging",
        "WARNING",
        None,
        None,
        "The model was loaded in float16",
    ),
    (
        # LLaMA-Factory: level and time share a bracket, then the logger and its line
        "llamafactory-logger",
        "[INFO|2026-12-04 10:11:13] llamafactory.cli:143 >> Initializing 8 distributed tasks at: 127.0.0.1:29500",
        "logging",
        "INFO",
        None,
        None,
        "Initializing 8 distributed tasks",
    ),
    (
        # the Hugging Face example scripts: a month-first date, level and logger between dashes
        "hf-example-script",
        "12/04/2026 10:11:15 - ERROR - __main__ - Evaluation dataset is empty on this process",
        "logging",
        "ERROR",
        None,
        None,
        "Evaluation dataset is empty",
    ),
    (
        # a word, a level and a parenthesis in free text are no such header
        "word-level-parenthesis-free-text",
        "restart ERROR (see above) - giving up",
        None,
        None,
        None,
        None,
        "restart ERROR (see above)",
    ),
    (
        # the same brackets in front of free text, no file named: the level is still the
        # writer's (a launch script's echo, a small tool's logger)
        "bracketed-level-then-free-text",
        "[ERROR] the results table is empty",
        "logging",
        "ERROR",
        None,
        None,
        "the results table is empty",
    ),
    (
        # a level in brackets inside a line is no header of it (a shell's `set -x` echo)
        "bracketed-level-inside-a-line",
        "+ echo '[ERROR] the results table is empty'",
        None,
        None,
        None,
        None,
        "+ echo '[ERROR] the results table",
    ),
    (
        # a library's logger named before the level (LMCache): the level is its field
        "library-logger-before-level",
        "[2026-08-14 03:17:42,508] LMCache WARNING: Failed to allocate memory object, retrying... (kv_channel.py:412:lmcache.v1.kv_channel)",
        "logging",
        "WARNING",
        None,
        None,
        "Failed to allocate memory object, retrying...",
    ),
    (
        "library-logger-before-level-info",
        "[2026-08-14 03:17:40,101] LMCache INFO: error_handling disabled, chunk size 256 (config.py:88:lmcache.v1.config)",
        "logging",
        "INFO",
        None,
        None,
        "error_handling disabled",
    ),
    (
        # a launcher's logger named before the level and its unbracketed time (Paddle's
        # `python -m paddle.distributed.launch`): the level is its field
        "launcher-logger-level-time",
        "LAUNCH INFO 2026-03-07 08:54:14,880 elastic_timeout: 30",
        "logging",
        "INFO",
        None,
        None,
        "elastic_timeout: 30",
    ),
    (
        "launcher-logger-level-time-error",
        "LAUNCH ERROR 2026-03-07 09:02:41,105 Container failed !!!",
        "logging",
        "ERROR",
        None,
        None,
        "Container failed !!!",
    ),
    (
        # logging's `%(asctime)s %(name)s %(levelname)s %(message)s`: the logger's name before
        # its level, nothing between them; an INFO line that names an error is still INFO
        "time-name-level-info",
        "2026-12-06 10:02:11 gpu-probe INFO no critical Xid error detected on 8 GPUs",
        "logging",
        "INFO",
        None,
        None,
        "no critical Xid error detected",
    ),
    (
        "time-name-level-error-colon",
        "2026-12-06 10:02:14,337 trainer.data ERROR: shard 17 holds no samples",
        "logging",
        "ERROR",
        None,
        None,
        "shard 17 holds no samples",
    ),
    (
        # the name in brackets (`%(asctime)s [%(name)s] %(levelname)s ...`)
        "time-bracketed-name-level",
        "2026-12-06 10:02:15 [train.loop] WARNING grad norm is nan at step 40",
        "logging",
        "WARNING",
        None,
        None,
        "grad norm is nan at step 40",
    ),
    (
        # a logger named per rank in that place gives the rank
        "time-rank-name-level",
        "2026-12-06 10:02:16 rank3 INFO layer 2 passed",
        "logging",
        "INFO",
        3,
        None,
        "layer 2 passed",
    ),
    (
        # a time and an exception's class, then its text: no logger and no level
        "time-then-exception",
        "2026-12-06 10:02:17 RuntimeError: INFO about the failed rank was lost",
        None,
        None,
        None,
        None,
        "2026-12-06 10:02:17 RuntimeError: INFO",
    ),
    (
        # a bracketed time, then words with no level after them, is no header
        "bracketed-time-then-words",
        "[2026-08-14 03:17:42,508] prefill worker: done",
        None,
        None,
        None,
        None,
        "[2026-08-14 03:17:42,508] prefill worker",
    ),
]


@pytest.mark.parametrize(
    ("name", "text", "source", "level", "rank", "pid", "message"), CASES, ids=[c[0] for c in CASES]
)
def test_parse_line(name, text, source, level, rank, pid, message):
    line = parse_line(text)
    assert (line.source, line.level, line.rank, line.pid) == (source, level, rank, pid)
    assert line.message.startswith(message)
    assert line.text == text


def test_an_indented_line_that_only_starts_with_a_code_like_word_is_no_error_manager_line():
    """An indent before an error-manager code makes the line a CANN headline only when the
    code is written as one: a glog record's level and date (`E1105 08:01:12`) or a code quoted
    inside a sentence stays what it was."""
    for text in (
        "    E1105 08:01:12.000001 4410 socket.cpp:88] connect to peer failed",
        "    Error EZ1001 means a parameter check failed",
        "    E19010 = 1",
    ):
        assert parse_line(text).source != "cann", text


def test_the_hugging_face_headers_give_their_times():
    handler = parse_line("[INFO|trainer.py:2134] 2026-12-04 10:11:12,345 >> Running training")
    assert handler.time == datetime(2026, 12, 4, 10, 11, 12, 345000)
    factory = parse_line("[INFO|2026-12-04 10:11:13] llamafactory.cli:143 >> Initializing")
    assert factory.time == datetime(2026, 12, 4, 10, 11, 13)
    example = parse_line("12/04/2026 10:11:15 - INFO - __main__ - Process rank: 3")
    assert example.time == datetime(2026, 12, 4, 10, 11, 15)


def test_pta_rank_minus_one_is_no_rank():
    line = parse_line(
        "[ERROR] 2026-07-10-14:37:28 (PID:57621, Device:0, RankID:-1) ERR00100 PTA call acl api failed."
    )
    assert line.rank is None


def test_torchrun_local_rank_and_writer_key():
    line = parse_line("[default3]:2026-11-29 07:25:36,861 [rank3] INFO init process group")
    assert (line.local_rank, line.rank) == (3, 3)
    assert line.stream_key == "[default3]:"
    assert line.time == datetime(2026, 11, 29, 7, 25, 36, 861000)


def test_logging_level_then_name_between_dashes_under_an_iso_time():
    """logging's `%(asctime)s - %(levelname)s - %(name)s - %(message)s` with its default ISO
    time, the name field a rank label (`rank 1`) or a logger: the time, the level and the rank
    are the header's, the words after the third dash the message. Before, only the month-first
    date of the Hugging Face scripts was read in this order, so a gloo job logging so had no
    level on any line and its rank's departure could not be told from an error."""
    ranked = parse_line(
        "2026-12-07 09:32:54,039 - INFO - rank 1 - no more batches in shard, finishing"
    )
    assert (ranked.level, ranked.rank) == ("INFO", 1)
    assert ranked.message == "no more batches in shard, finishing"
    assert ranked.time == datetime(2026, 12, 7, 9, 32, 54, 39000)
    named = parse_line("2026-12-07 09:32:54,039 - ERROR - trainer - shard part-3 is empty")
    assert (named.level, named.rank, named.message) == ("ERROR", None, "shard part-3 is empty")


def test_a_name_before_the_level_between_dashes_keeps_its_reading():
    """Counterexample: the cookbook's own order (`- name - LEVEL - `, lmdeploy's) is read as
    before: the message starts after the level, the logger's name is no part of it."""
    line = parse_line(
        "2025-01-28 18:45:18,768 - lmdeploy - ERROR - model_agent.py:735 - Rank[2] failed."
    )
    assert line.level == "ERROR"
    assert line.message.startswith("model_agent.py:735")
    free = parse_line("2026-12-07 09:32:54,039 - see INFO - above - for details")
    assert free.level is None


@pytest.mark.parametrize("tag", ["[rank 3]", "[RANK 3]", "[rank_3]"])
def test_a_logging_rank_tag_written_with_a_space_keeps_the_lines_time(tag):
    """A job's formatter that writes the rank as `[rank 3]` (an f-string `[rank {rank}]`) is
    the same header as `[rank3]`: before, the time and level were lost with it, so a rank's
    logged error sorted after every timed line of the bundle."""
    line = parse_line(f"2026-12-05 10:09:02,231 {tag} ERROR model run failed: boom")
    assert line.rank == 3
    assert line.level == "ERROR"
    assert line.time == datetime(2026, 12, 5, 10, 9, 2, 231000)
    assert line.message == "model run failed: boom"


def test_custom_formatter_time_under_a_torchrun_prefix():
    line = parse_line("[default6]:[12/04 13:27:03.788] I decoder.r14 pid=7586 | prefill start")
    assert (line.local_rank, line.message) == (6, "prefill start")
    assert line.time == PartialTime(12, 4, 13, 27, 3, 788000)


def test_glog_time_has_no_year():
    line = parse_line(
        "W1129 07:25:37.303000 26576 torch/distributed/elastic/multiprocessing/api.py:1028] Sending process 26690 closing signal SIGTERM"
    )
    assert line.time == PartialTime(11, 29, 7, 25, 37, 303000)


def test_a_collector_time_is_the_time_of_a_line_that_has_none_of_its_own():
    line = parse_line("2026-02-14T06:31:09.104527311Z Traceback (most recent call last):")
    assert (line.time.hour, line.time.minute, line.message) == (
        6,
        31,
        "Traceback (most recent call last):",
    )
    assert line.stream_key == ""


def test_a_clock_time_at_the_start_is_not_taken_for_a_grep_line_number():
    line = parse_line("12:30:01 worker stalled")
    assert line.message.startswith("12:30:01")


def test_ray_repeat_marker_is_dropped():
    line = parse_line(
        "(NPURayWorkerWrapper pid=66420) RuntimeError: boom [repeated 6x across cluster]"
    )
    assert line.message == "RuntimeError: boom"


def test_an_srun_task_label_is_a_writer_of_its_own():
    first, second = parse_line(" 3: [rank3]: boom"), parse_line(" 4: [rank4]: boom")
    assert first.stream_key != second.stream_key
    assert first.message == second.message == "boom"


def test_an_srun_labelled_frame_keeps_its_indent_and_its_task():
    """A task's indented line (a stack's frame) after `0: ` is the task's, like its header;
    grep -n's number before an indented line (no space of its own after the colon) is not."""
    header = parse_line("0: Thread 0x00007f62f65e5b80 (most recent call first):")
    frame = parse_line('0:   File "/srv/decoder.py", line 169 in main')
    assert frame.stream_key == header.stream_key != ""
    assert frame.message == '  File "/srv/decoder.py", line 169 in main'
    grepped = parse_line('118:  File "/srv/decoder.py", line 169, in main')
    assert grepped.stream_key == ""
    assert grepped.message == '  File "/srv/decoder.py", line 169, in main'


def test_an_srun_labelled_line_indented_by_a_tab_is_the_tasks():
    """torch's `load_state_dict` error lists each mismatch on a tab-indented line of its own;
    behind srun's label the tab stays the line's and the task stays the writer."""
    header = parse_line("0: RuntimeError: Error(s) in loading state_dict for LlamaForCausalLM:")
    detail = parse_line("0: \tsize mismatch for model.embed_tokens.weight: copying a param")
    assert detail.stream_key == header.stream_key != ""
    assert detail.message == "\tsize mismatch for model.embed_tokens.weight: copying a param"


def test_a_labelled_state_dict_error_is_cited_by_its_headline():
    text = "".join(
        f"0: {line}\n"
        for line in (
            "Traceback (most recent call last):",
            '  File "/srv/train.py", line 41, in <module>',
            "    model.load_state_dict(state)",
            "RuntimeError: Error(s) in loading state_dict for LlamaForCausalLM:",
            "\tsize mismatch for model.embed_tokens.weight: copying a param with shape "
            "torch.Size([32001, 4096]) from checkpoint, the shape in current model is "
            "torch.Size([32000, 4096]).",
        )
    )
    diagnosis = diagnose_text("slurm-4121.out", text)
    assert diagnosis.first_error is not None
    assert diagnosis.first_error.line == 4


def test_an_srun_tasks_empty_line_stays_the_tasks():
    """srun labels a task's empty lines too (`0: `): the empty line ends the task's exception
    message, as it does unlabelled, instead of falling to another writer."""
    header = parse_line("0: torch.multiprocessing.spawn.ProcessRaisedException: ")
    for empty in ("0: ", "0:"):
        line = parse_line(empty)
        assert line.stream_key == header.stream_key
        assert line.message == ""


def test_a_labelled_spawn_failure_names_the_childs_exception():
    text = "".join(
        f"0: {line}\n"
        for line in (
            "torch.multiprocessing.spawn.ProcessRaisedException: ",
            "",
            "-- Process 1 terminated with the following error:",
            "Traceback (most recent call last):",
            '  File "/srv/job/launch.py", line 41, in worker',
            '    dist.init_process_group("nccl", rank=rank, world_size=2)',
            "RuntimeError: CUDA driver error: invalid device ordinal",
        )
    )
    diagnosis = diagnose_text("job/stdout.log", text)
    assert diagnosis.first_error is not None
    assert "invalid device ordinal" in diagnosis.first_error.text


def test_a_viewer_gutter_number_is_not_part_of_the_writer_key():
    """Numbered lines of one pasted traceback stay one writer's stream."""
    first = parse_line("  1144\t[rank3]:     return F.conv3d(")
    second = parse_line("  1145\t[rank3]: RuntimeError: x")
    assert first.stream_key == second.stream_key == "[rank3]:"


def test_a_kernel_log_prefix_is_not_part_of_the_writer_key():
    """The elapsed time and the line number change on every line of one writer's stream."""
    first = parse_line("704.7s\t1386\t[rank0]:     self.file_like.write_end_of_file()")
    second = parse_line("704.7s\t1387\t[rank0]: RuntimeError: x")
    assert first.stream_key == second.stream_key == "[rank0]:"


def test_a_launcher_summary_in_a_kernel_log_closes_and_the_lines_after_it_are_read():
    """The prefix comes off before the launcher's summary is read, so its closing rule ends
    it, and a full disk the notebook runner meets afterwards is read."""
    lines = [
        "torch.distributed.elastic.multiprocessing.errors.ChildFailedError: ",
        "============================================================",
        "train.py FAILED",
        "------------------------------------------------------------",
        "Failures:",
        "  <NO_OTHER_FAILURES>",
        "------------------------------------------------------------",
        "Root Cause (first observed failure):",
        "[0]:",
        "  time      : 2026-03-25_17:13:24",
        "  rank      : 0 (local_rank: 0)",
        "  exitcode  : 1 (pid: 1886)",
        "  error_file: <N/A>",
        "============================================================",
        "Traceback (most recent call last):",
        '  File "/usr/lib/python3/dist-packages/nbrunner/io.py", line 88, in write',
        "    handle.write(buf)",
        "OSError: [Errno 28] No space left on device",
    ]
    text = "".join(f"704.7s\t{1461 + n}\t{line}\n" for n, line in enumerate(lines))
    diagnosis = diagnose_text("kernel.log", text)
    assert diagnosis.category == "driver_env", diagnosis.root_cause


def test_a_bracketed_line_number_is_not_part_of_the_writer_key():
    """Lines numbered `[N] ` by a log viewer stay one writer's stream per rank tag; a bracketed
    number before a line that has no rank tag (a pid, a launcher's rank) is left as written."""
    first = parse_line("[5119] [rank2]:     work = group.allreduce([tensor], opts)")
    second = parse_line("[5120] [rank2]: RuntimeError: x")
    assert first.stream_key == second.stream_key == "[rank2]:"
    pid = parse_line("[4121] [INFO] worker ready")
    assert pid.message == "[4121] [INFO] worker ready"


def test_a_log_viewer_table_row_gives_its_record_and_the_time_cell():
    """Rows copied from a console's log table: blank cells, the time cell, the record, the
    closing bar; the record keeps its own prefixes for the next rounds."""
    row = parse_line(
        '  |   | 2026-05-07 09:14:03.218 | [rank6]:   File "/opt/app/train.py", line 12 |  '
    )
    assert row.message == '  File "/opt/app/train.py", line 12'
    assert row.rank == 6
    assert (row.time.hour, row.time.minute, row.time.second) == (9, 14, 3)
    first = parse_line("2026-05-07 09:14:03.219 | [rank6]: No module named 'fastkern' |")
    assert first.message == "No module named 'fastkern'"


def test_rows_without_a_time_cell_or_a_closing_bar_are_not_viewer_rows():
    """An npu-smi row and a loguru line (time, then level, no closing bar) keep their readings."""
    smi = "| 3     910B3               | OK            | 95.1        41                0    / 0             |"
    assert parse_line(smi).message == smi
    loguru = parse_line("2026-05-07 09:14:03.218 | ERROR    | app.main:run:40 - worker died")
    assert loguru.level == "ERROR"
    assert loguru.message == "app.main:run:40 - worker died"


def test_a_journal_line_gives_its_program_pid_and_record():
    """A job run as a service and read back with journalctl: the host and program are the
    writer, the record keeps its own prefixes for the next rounds."""
    line = parse_line("Mar 01 10:00:05 node3 python[4121]: [rank2]: RuntimeError: boom")
    assert line.pid == 4121
    assert line.rank == 2
    assert line.message == "RuntimeError: boom"
    other = parse_line("Mar 01 10:00:05 node3 python[4122]: [rank2]: RuntimeError: boom")
    assert line.stream_key != other.stream_key


def test_a_month_name_opening_a_message_is_not_a_journal_prefix():
    text = "May 3 runs failed: see the attached trace"
    assert parse_line(text).message == text
    assert parse_line(text).time is None


def test_a_journal_line_keeps_its_time():
    line = parse_line("Mar 01 10:00:05 node3 python[4121]: RuntimeError: boom")
    assert (line.time.month, line.time.day, line.time.second) == (3, 1, 5)


def test_an_open_mpi_output_tag_gives_the_rank_and_the_record():
    line = parse_line("[1,3]<stderr>:RuntimeError: boom")
    assert line.rank == 3
    assert line.message == "RuntimeError: boom"
    assert parse_line("[1,3]<stdout>:x").stream_key != parse_line("[1,3]<stderr>:x").stream_key


def test_a_worker_tag_inside_an_open_mpi_tag_names_the_worker_not_mpis_rank():
    """mpirun started the server, and the server spawned the worker: MPI's rank is the
    server's, so the worker's own tag decides its rank (settled for the whole bundle)."""
    line = parse_line("[1,0]<stderr>:(Worker_TP1 pid=88362) ERROR 01-13 23:45:56 [x.py:294] boom")
    assert line.rank is None
    assert line.tags["worker"] == "vllm:TP1"
    assert parse_line("[1,2]<stderr>:[rank3]: boom").rank == 3
    assert parse_line("[1,2]<stderr>:[rank3]: (Worker_TP1 pid=9) boom").rank == 3
    assert parse_line("[1,2]<stderr>:ERROR boom").rank == 2


def test_a_failing_tensor_parallel_worker_behind_an_open_mpi_tag_is_the_culprit():
    text = "".join(
        f"[1,0]<stderr>:({worker} pid={pid}) ERROR 01-13 23:45:56 [multiproc_executor.py:294] "
        f"{message}\n"
        for worker, pid, message in (
            ("Worker_TP0", 36615, "Traceback (most recent call last):"),
            ("Worker_TP1", 88362, "Traceback (most recent call last):"),
            ("Worker_TP1", 88362, "RuntimeError: NPU out of memory. Tried to allocate 2.00 GiB"),
            ("Worker_TP0", 36615, "RuntimeError: shm_broadcast: timed out waiting for peers"),
        )
    )
    diagnosis = diagnose_text("serve.log", text)
    assert diagnosis.first_error is not None
    assert "NPU out of memory" in diagnosis.first_error.text
    assert diagnosis.first_error.rank == 1


def test_a_bracketed_pair_of_numbers_without_a_stream_is_not_an_mpi_tag():
    assert parse_line("[1,3] shards loaded").message == "[1,3] shards loaded"


def test_a_quoted_traceback_keeps_each_line_s_own_indent():
    """A Markdown quote around a pasted traceback: the marker goes, the frame's source line
    stays indented under its frame so it is not read as the exception."""
    assert parse_line('>   File "/srv/train.py", line 40, in main').message == (
        '  File "/srv/train.py", line 40, in main'
    )
    assert parse_line(">     raise RuntimeError('x')").message == "    raise RuntimeError('x')"


def test_a_bare_quote_marker_is_a_blank_line_of_the_quote():
    """Markdown quotes every line of a paste, the blank ones too: `>` alone is a blank line,
    so a blank-separated traceback inside a quote keeps its blank separators."""
    assert parse_line(">").message == ""
    assert parse_line(">   ").message == ""
    assert parse_line("> >").message == ""  # a quote inside a quote


def test_a_progress_bar_frame_glued_to_the_next_line_is_dropped():
    """tqdm redraws with a carriage return; the line written after its last frame follows the
    frame with no break, and keeps its own header once the frame is peeled."""
    line = parse_line(
        "Epoch 2:  40%|████      | 40/100 [01:10<01:45,  0.57it/s, loss=1.9]"
        "[rank3]:[E1203 10:11:12.000000000 ProcessGroupNCCL.cpp:600] [Rank 3] collective timed out"
    )
    assert line.rank == 3
    assert line.level == "ERROR"
    assert line.message == "[Rank 3] collective timed out"


def test_several_frames_of_one_redraw_before_the_next_line_are_all_dropped():
    """A training loop that updates its bar and then sets its postfix redraws it twice before
    it logs its step: both frames stand before the record, their carriage returns read as
    blanks, and a record read after the first frame alone kept the second in its message.
    (A real gloo run's rank log: tqdm on stdout, logging records after it.)"""
    line = parse_line(
        "\rtrain:  14%|█████▍                                | 1/7 [00:00<00:04,  1.34it/s]"
        "\rtrain:  14%|███▋                      | 1/7 [00:00<00:04,  1.34it/s, loss=2.685]"
        "2026-12-05 18:52:22,173 [rank4] INFO train step 1 passed"
    )
    assert line.rank == 4
    assert line.message == "train step 1 passed"


def test_a_progress_bar_frame_that_shows_a_nan_loss_is_kept_whole():
    """A frame whose postfix says the loss went NaN is itself the news: it is not dropped as the
    wrapper of the logger line glued after it."""
    text = (
        "Steps:   2%|▏         | 30/1500 [04:10<3:24:12,  8.34s/it, lr=5e-06, step_loss=nan]"
        "[2026-01-09 11:02:03,114] [INFO] [loss_scaler.py:183:update_scale] OVERFLOW! Rank 0"
        " Skipping step. Attempted loss scale: 512, reducing to 256"
    )
    assert parse_line(text).message.startswith("Steps:   2%|")


def test_a_progress_bar_alone_or_a_percent_in_a_table_is_left_as_it_is():
    alone = " 70%|███████   | 7/10 [00:07<00:03,  1.00it/s]"
    assert parse_line(alone).message == alone
    table = "| top-1 95%| top-5 99% | epoch 3 [done]|"
    assert parse_line(table).message == table


def test_compiler_progress_dots_glued_to_the_next_line_are_dropped():
    """CANN's compilers print a dot per step with no newline; the record written after the
    last dot follows it on the same line and keeps its own reading once the dots are peeled."""
    line = parse_line(
        "........EZ3003: [PID: 4412] 2026-02-11-09:15:40.221.803 No supported Ops kernel and"
        " engine are found for [GridSampler2D7], optype [GridSampler2D]."
    )
    assert (line.source, line.message[:20]) == ("cann", "EZ3003: [PID: 4412] ")
    plog = parse_line(
        "...[ERROR] GE(2210,atc):2026-02-11-09:15:41.100.200 [op_build.cc:88]2210 BuildOp: op"
        " build failed"
    )
    assert (plog.source, plog.level, plog.pid) == ("plog", "ERROR", 2210)
    assert plog.message == "BuildOp: op build failed"


def test_a_multi_stage_servers_stage_tag_names_the_writer():
    """vLLM-Omni puts `[Stage-N] ` before each line a stage's process writes; behind it the
    vLLM header gives level and time, and the stage joins the writer's key."""
    line = parse_line(
        "...[Stage-2] ERROR 02-03 11:20:45 [core.py:700] RuntimeError: stage worker failed"
    )
    assert (line.source, line.level, line.stream_key) == ("vllm", "ERROR", "[Stage-2]")
    assert line.message == "RuntimeError: stage worker failed"


def test_a_stage_word_in_brackets_that_is_no_tag_is_left_as_it_is():
    for text in ("[Stage 2/4] compiling kernels", "[Stage-1]", "[Stage-x] INFO ready"):
        assert parse_line(text).message == text


def test_a_row_of_dots_an_ellipsis_or_a_relative_path_is_left_as_it_is():
    for text in ("..........", "... 3 more frames", "../configs/serve.yaml not found", ".. done"):
        assert parse_line(text).message == text


def test_abseil_lines_written_before_logging_was_set_up_read_their_level():
    """Month and day are zeros and the time is epoch seconds: the level letter still counts,
    and no wall-clock time is made up from it."""
    line = parse_line(
        "E0000 00:00:1733000000.250000   8812 tpu_client.cc:210] Device 2 stopped responding"
    )
    assert (line.source, line.level, line.pid, line.time) == ("glog", "ERROR", 8812, None)
    assert line.message == "Device 2 stopped responding"


def test_a_line_that_only_starts_with_zeros_is_not_an_abseil_header():
    text = "E0000 00:00:17 is not a log header] but a note"
    assert parse_line(text).message == text


def test_a_ts_stamped_torch_line_is_not_read_as_a_journal_line():
    """The journal's host is a host name: a rank tag after a bare time is the record's own."""
    line = parse_line("Mar 01 10:00:02 [rank4]: ValueError: remaining arguments ['--x']")
    assert line.rank == 4
    assert line.message == "ValueError: remaining arguments ['--x']"


def test_a_worker_line_a_trainer_relays_at_info_is_read_by_its_words():
    line = parse_line(
        "2026-02-03 04:05:06,101 - Tuner - INFO - [rank5]: RuntimeError: NPU out of memory."
    )
    assert line.rank == 5
    assert line.level is None  # INFO was the relaying logger's level, not the worker's
    assert line.message == "RuntimeError: NPU out of memory."


def test_an_info_record_without_a_worker_tag_stays_quiet():
    line = parse_line("2026-02-03 04:05:06,101 - Tuner - INFO - step 40 error rate 0.02")
    assert line.level == "INFO"


def test_ggml_elapsed_time_is_no_timestamp_but_its_bracketed_time_is():
    assert parse_line("0.00.476.376 E CANN error: EE1001: argument invalid").time is None
    line = parse_line("[2025-06-02 10:14:07.120331] I srv main: loading model")
    assert line.time == datetime(2025, 6, 2, 10, 14, 7, 120331)


def test_a_rank_label_a_job_writes_before_its_message_names_the_writer():
    """Ranks that share one stdout and write `rank N: ` before each message (lines of a real
    4-rank gloo run); the label stays in the message, since rules may quote it."""
    line = parse_line("rank 3:   MoE passed")
    assert (line.rank, line.message) == (3, "rank 3:   MoE passed")
    stamped = parse_line(
        "[2026-12-04 15:30:16.361] rank 5: model run failed: shape '[8, 3, 10]' is invalid "
        "for input of size 256"
    )
    assert stamped.rank == 5
    assert stamped.time == datetime(2026, 12, 4, 15, 30, 16, 361000)
    assert stamped.message.startswith("model run failed: shape '[8, 3, 10]'")


def test_a_clock_a_level_letter_and_a_short_rank_tag_name_the_writer():
    """A job's own Formatter, `[%(asctime)s.%(msecs)03d] %(levelname).1s r{rank}: ` with the
    time of day alone (lines of a real 6-rank gloo run), and the same print with a full ISO
    time and a bar: the level and the rank are read and the message is what follows. The
    time of day says no date and is left unread. Counterexamples: a word that starts with `r`
    is no rank tag, and a tag with no separator after it opens no header."""
    line = parse_line("[12:15:19.226] I r0:   mlp passed")
    assert (line.level, line.rank, line.message, line.time) == ("INFO", 0, "  mlp passed", None)
    failed = parse_line("[12:15:19.245] E r4: model run failed: Detected mismatch between")
    assert (failed.level, failed.rank) == ("ERROR", 4)
    assert failed.message.startswith("model run failed: Detected mismatch")
    iso = parse_line("[2026-12-07T12:16:35.558] r1 | [layer 0/6] norm ok")
    assert (iso.rank, iso.message) == (1, "[layer 0/6] norm ok")
    assert iso.time == datetime(2026, 12, 7, 12, 16, 35, 558000)
    assert parse_line("[12:15:19.226] I rows: 12 loaded").rank is None
    assert parse_line("[12:15:19.226] r0 norm passed").message == "[12:15:19.226] r0 norm passed"


def test_a_bracketed_rank_label_names_the_writer_too():
    """`[rank N] ` before each message, as a job writes it into a stdout its ranks share."""
    line = parse_line("[rank 2]  attention passed")
    assert (line.rank, line.message) == (2, "[rank 2]  attention passed")
    assert parse_line("[Rank 5] model run success").rank == 5
    assert parse_line("[rank 0]nothing after a space").rank is None


def test_lightnings_rank_prefixed_message_names_the_writer():
    """Lightning's `[rank: N] ` prefix, after its console handler's level (`INFO: `), as ranks
    of one node write it into one file (a real 8-rank gloo run); the label
    stays in the message. Counterexamples: no space after it, a rank inside the words."""
    line = parse_line("INFO: [rank: 6]   attention passed")
    assert (line.rank, line.message) == (6, "INFO: [rank: 6]   attention passed")
    assert parse_line("[rank: 2] Seed set to 42").rank == 2
    assert parse_line("ERROR: [rank: 6] model run failed").rank == 6
    assert parse_line("INFO: [rank: 6]nothing after a space").rank is None
    assert parse_line("INFO: waiting for [rank: 6] to join").rank is None


def test_a_rank_named_inside_a_message_is_no_rank_label():
    assert (
        parse_line("Rank 1 successfully reached monitoredBarrier, but received errors").rank is None
    )
    assert parse_line("AssertionError: Rank 6: found NaN in local grad norm").rank is None
    assert parse_line("rank 0:12 tokens left").rank is None


def test_a_collector_s_stamp_is_the_time_only_of_a_line_without_its_own():
    """The collector's stamp times a line that has none, and says so (another clock than the
    program's own); a line with its own time keeps that one."""
    bare = parse_line("2026-12-04T10:01:33.000000009Z [rank1]: KeyboardInterrupt")
    assert bare.collected
    assert (bare.time.hour, bare.time.minute, bare.time.second) == (10, 1, 33)
    own = parse_line(
        "2026-12-04T10:01:29.000000002Z W1204 18:01:29.391000 11599 "
        "torch/distributed/elastic/agent/server/api.py:753] Received 2 death signal"
    )
    assert not own.collected
    assert own.time.hour == 18


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("2026-12-04T10:01:31.000000091Z ", ""),  # kubectl logs --timestamps
        ("Dec 04 10:01:31 node7 python3[4121]: ", "node7 python3[4121]"),  # the journal
        ("trainer-1  | ", "trainer-1  |"),  # docker compose
        ("node7: ", "node7:"),  # pdsh
    ],
)
def test_a_blank_line_behind_a_collector_s_prefix_is_blank(text: str, key: str):
    """The stream's blank line keeps only the prefix, whose closing space goes with the line's
    end: it is still a blank line (an exception's text ends there), not the prefix's words."""
    line = parse_line(text)
    assert line.message == ""
    assert line.stream_key == key


def test_a_sagemaker_library_line_gives_its_level_letter_and_rank():
    line = parse_line(
        "[2026-12-04 19:46:19.112: C smp/torch/worker.py:110] [5] Hit an exception for 12/0 "
        "on thread 1: the step handler gave up"
    )
    assert line.level == "CRITICAL"
    assert line.rank == 5
    assert line.message.startswith("Hit an exception for 12/0")
    info = parse_line("[2026-12-04 19:46:18.002: I smp/torch/state.py:88] [5] layer 3 passed")
    assert info.level == "INFO"
    assert info.message == "layer 3 passed"


def test_a_bracketed_time_with_a_colon_and_no_source_file_is_no_sagemaker_header():
    line = parse_line("[2026-12-04 19:46:19.112: C] something happened")
    assert line.level != "CRITICAL"


def test_a_model_server_relay_gives_the_workers_line_without_the_relays_level():
    """TorchServe's frontend records each line its worker prints at INFO (stdout) or WARN
    (stderr); the worker's thread is the writer and the worker's words decide."""
    line = parse_line(
        "2025-06-02T11:20:33,417 [INFO ] W-9003-classifier_1.0-stdout MODEL_LOG - "
        "RuntimeError: CUDA error: invalid device ordinal"
    )
    assert line.level is None
    assert line.message == "RuntimeError: CUDA error: invalid device ordinal"
    assert (line.time.hour, line.time.minute, line.time.second) == (11, 20, 33)
    older = parse_line(
        "2020-04-29 06:57:01,990 [WARN ] W-9001-detector_1.0-stderr "
        "org.pytorch.serve.wlm.WorkerLifeCycle - Traceback (most recent call last):"
    )
    assert older.level is None
    assert older.message == "Traceback (most recent call last):"
    assert line.stream_key != older.stream_key


def test_a_model_servers_own_record_keeps_its_level():
    line = parse_line(
        "2025-06-02T11:20:34,002 [ERROR] W-9003-classifier_1.0 org.pytorch.serve.wlm."
        "WorkerThread - Backend worker error"
    )
    assert line.level == "ERROR"


def test_pytests_failure_marker_is_peeled_and_glogs_level_letter_is_not():
    """pytest prints a failing test's exception text behind a lone `E` and padding; the text
    after it is the process's own line. glog's `E0917 ...` and a word starting with E keep
    theirs."""
    assert parse_line("E       RuntimeError: boom").message == "RuntimeError: boom"
    assert parse_line('E   loc("k.mlir":4:2): error: x').message == 'loc("k.mlir":4:2): error: x'
    glog = parse_line("E0917 11:20:04.512000 4121 worker.cc:88] stream lost")
    assert glog.level == "ERROR"
    assert "E0917" not in glog.message
    assert parse_line("E rror count: 3").message == "E rror count: 3"
    assert parse_line("Epoch 3 done").message == "Epoch 3 done"


# structlog's ConsoleRenderer (its default renderer), as a real run prints it
STRUCTLOG_CONSOLE = [
    (
        "2026-12-05T07:16:03.159215Z [info     ] layer 0 passed                 rank=2",
        ("layer 0 passed", "INFO", 2, datetime(2026, 12, 5, 7, 16, 3, 159215)),
    ),
    (
        "2026-12-05T07:16:03.167540Z [info     ]   norm passed                  rank=2",
        ("  norm passed", "INFO", 2, datetime(2026, 12, 5, 7, 16, 3, 167540)),
    ),
    (
        # an event longer than its 30 columns: one space before the pairs
        "2026-12-05T07:16:03.167615Z [error    ] model run failed: mat1 and mat2 shapes cannot "
        "be multiplied (8x8 and 32x32) rank=3 job='decode'",
        (
            "model run failed: mat1 and mat2 shapes cannot be multiplied (8x8 and 32x32)",
            "ERROR",
            3,
            datetime(2026, 12, 5, 7, 16, 3, 167615),
        ),
    ),
    (
        # a TimeStamper given a time of day only (`fmt="%H:%M:%S"`): no date to read
        "07:16:03 [info     ] load weights passed            checkpoint='load weights passed' rank=2",
        ("load weights passed", "INFO", 2, None),
    ),
    (
        "07:16:03.167 [info     ] norm passed                    checkpoint=norm layer=3 rank=1",
        ("norm passed", "INFO", 1, None),
    ),
    (
        # prose that ends in pairs inside the first 30 columns is the event's own text
        "2026-12-05 07:16:03 [warning  ] init: backend=gloo rank=1",
        ("init: backend=gloo rank=1", "WARNING", None, datetime(2026, 12, 5, 7, 16, 3)),
    ),
]


@pytest.mark.parametrize(("text", "want"), STRUCTLOG_CONSOLE, ids=range(len(STRUCTLOG_CONSOLE)))
def test_structlog_console_lines(text, want):
    line = parse_line(text)
    assert (line.message, line.level, line.rank, line.time) == want
    assert not line.collected  # the renderer's own time, not a collector's stamp


def test_a_collector_stamp_before_a_structlog_console_line_stays_the_collectors():
    line = parse_line(
        "2025-07-03T14:20:51.565839352Z 2026-12-05T07:16:03.167615Z [info     ] layer 1 passed"
        "                 rank=1"
    )
    assert (line.message, line.rank, line.collected) == ("layer 1 passed", 1, True)
    other = parse_line("[info] Downloading model weights")  # no padded level: not structlog's
    assert other.level is None


def test_ranks_sharing_one_structlog_console_file():
    lines = []
    for layer in range(2):
        for part in ("  norm passed", "  attention passed", f"layer {layer} passed"):
            lines += [
                f"2026-12-05T07:16:0{layer}.{rank}00000Z [info     ] {part:<30} rank={rank}"
                for rank in range(4)
            ]
    lines.append(
        "2026-12-05T07:16:03.100000Z [error    ] model run failed: mat1 and mat2 shapes cannot "
        "be multiplied (8x8 and 32x32) rank=2"
    )
    lines += [
        "Traceback (most recent call last):",
        '  File "/srv/job.py", line 187, in main',
        "RuntimeError: mat1 and mat2 shapes cannot be multiplied (8x8 and 32x32)",
    ]
    diagnosis = diagnose_text("train.log", "\n".join(lines) + "\n")
    assert diagnosis.category == "shape_mismatch"
    assert diagnosis.culprit_ranks == [2]


def test_an_engine_child_relayed_by_a_frontend_is_read_without_the_frontends_level():
    """A Rust frontend records each line of its engine child as a tracing record at a level of
    its own choosing, the engine's name in capitals before the child's text: the tag is the
    writer, the child's words (or the child's own header) decide."""
    line = parse_line(
        "2026-02-11T08:01:17.204Z  INFO frontend::engine: VLLM: Failed: "
        "/opt/build/csrc/custom_all_reduce.cuh:291 'invalid argument'"
    )
    assert line.level is None
    assert line.message == "Failed: /opt/build/csrc/custom_all_reduce.cuh:291 'invalid argument'"
    assert "VLLM:" in line.stream_key
    assert (line.time.hour, line.time.minute, line.time.second) == (8, 1, 17)
    own = parse_line(
        "2026-02-11T08:01:18.001Z  WARN frontend::engine: SGLANG: "
        "[2026-02-11 08:01:18 TP3] Scheduler hit an exception: Traceback (most recent call last):"
    )
    assert own.level is None
    assert own.message.startswith("Scheduler hit an exception")
    frontend = parse_line("2026-02-11T08:01:19.000Z  INFO frontend::http: VLLM engine is ready")
    assert frontend.level == "INFO"


def test_an_engine_name_with_no_record_level_before_it_is_no_relay():
    line = parse_line("VLLM: 0.8.4 ready on 4 GPUs")
    assert line.message == "VLLM: 0.8.4 ready on 4 GPUs"
    assert "VLLM" not in line.stream_key


def test_watchdog_lines_numbered_by_a_viewer_keep_their_ranks():
    """A paste whose every line carries a bracketed line number still says which rank timed
    out first."""
    text = "".join(
        f"[{4410 + i}] [rank{rank}]:[E0611 08:15:0{i}.120000000 ProcessGroupNCCL.cpp:607] "
        f"[Rank {rank}] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=77, "
        "OpType=BROADCAST, NumelIn=8, NumelOut=8, Timeout(ms)=600000) ran for 600031 "
        "milliseconds before timing out.\n"
        for i, rank in enumerate((2, 0, 1))
    )
    diagnosis = diagnose_text("train.log", text)
    assert diagnosis.category == "hccl"
    assert diagnosis.first_error is not None
    assert diagnosis.first_error.rank == 2


def test_a_platform_time_before_a_rank_tag_is_the_lines_time_when_it_has_none():
    """The platform's stamp dates a traceback line; a line with its own header keeps that."""
    plain = parse_line("2026-04-02 07:31:09 [rank12]: RuntimeError: y")
    assert (plain.time.hour, plain.time.minute, plain.time.second) == (7, 31, 9)
    own = parse_line("2026-04-02 07:31 [rank5]:[E402 06:10:44.118000000 ProcessGroupNCCL.cpp:1] x")
    assert (own.time.hour, own.time.minute, own.time.second) == (6, 10, 44)
    logging = parse_line("2026-04-02 07:31:09 INFO [rank8] step 3")
    assert logging.source == "logging"


def test_a_scheduler_trial_prefix_gives_time_rank_and_record():
    """A trial log kept by a cluster scheduler: time, container id, the launcher's rank, the
    `||` bar, then what the rank's process wrote, read with its own header."""
    line = parse_line(
        "[2025-03-02T08:14:51.120334Z] 3c9d01ab [rank=5] || [E ProcessGroupNCCL.cpp:610] "
        "[Rank 5] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=7, "
        "OpType=BROADCAST, Timeout(ms)=600000) ran for 600412 milliseconds before timing out."
    )
    assert line.rank == 5
    assert (line.time.hour, line.time.minute, line.time.second) == (8, 14, 51)
    assert line.level == "ERROR"
    assert line.message.startswith("[Rank 5] Watchdog caught collective operation timeout")
    other = parse_line("[2025-03-02T08:14:51.120401Z] 3c9d01ab [rank=6] || boom")
    assert line.stream_key != other.stream_key


def test_a_scheduler_trial_line_of_the_launcher_has_no_rank():
    line = parse_line(
        "[2025-03-02T08:14:55.002113Z] 3c9d01ab || WARNING: torch.distributed.elastic."
        "multiprocessing.api:Sending process 212 closing signal SIGTERM"
    )
    assert line.rank is None
    assert line.message.startswith("WARNING: torch.distributed.elastic")
    blank = parse_line("[2025-03-02T08:14:55.002190Z] 3c9d01ab [rank=2] ||")
    assert (blank.rank, blank.message) == (2, "")


def test_a_bar_inside_a_message_after_a_time_is_no_scheduler_prefix():
    for text in (
        "[2025-03-02T08:14:51Z] retry when a || b is set",
        "[2025-03-02 08:14:51] 3c9d01ab || not a trial log",
        "check a || b",
    ):
        assert parse_line(text).rank is None
        assert "||" in parse_line(text).message


def test_ranks_of_a_scheduler_trial_log_name_the_first_error():
    """The watchdog timeouts of two ranks in one trial log: the earlier one is cited, on its
    rank, and the launcher's shutdown after them is not the cause."""
    text = "".join(
        f"{line}\n"
        for line in (
            "[2025-03-02T08:14:51.120334Z] 3c9d01ab [rank=5] || [E ProcessGroupNCCL.cpp:610] "
            "[Rank 5] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=7, "
            "OpType=BROADCAST, Timeout(ms)=600000) ran for 600412 milliseconds before timing out.",
            "[2025-03-02T08:14:51.131870Z] 3c9d01ab [rank=2] || [E ProcessGroupNCCL.cpp:610] "
            "[Rank 2] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=7, "
            "OpType=BROADCAST, Timeout(ms)=600000) ran for 600419 milliseconds before timing out.",
            "[2025-03-02T08:14:55.002113Z] 3c9d01ab || WARNING: torch.distributed.elastic."
            "agent.server.api:Received 15 death signal, shutting down workers",
        )
    )
    diagnosis = diagnose_text("trial-3c9d01ab.log", text)
    assert diagnosis.category == "hccl"
    assert diagnosis.first_error is not None
    assert diagnosis.first_error.rank == 5
    assert "[Rank 5] Watchdog caught" in diagnosis.first_error.text


def test_an_unnamed_ray_worker_tag_gives_the_pid_and_the_writer():
    """Older Ray releases tag a worker's output with its pid alone; the NCCL header or the
    exception behind it is the worker's own line."""
    line = parse_line(
        "(pid=40211) gpu-a:40211:40877 [1] transport/p2p.cc:238 NCCL WARN failed to open "
        "CUDA IPC handle : 217 peer access is not supported between these two devices"
    )
    assert line.pid == 40211
    assert line.message.startswith("gpu-a:40211:40877 [1] transport/p2p.cc:238 NCCL WARN")
    other = parse_line("(pid=40230, ip=10.2.0.9) RuntimeError: boom")
    assert (other.pid, other.message) == (40230, "RuntimeError: boom")
    assert line.stream_key != other.stream_key


def test_a_cloud_launchers_node_tag_gives_the_pid_but_no_rank():
    """SkyPilot tags each node's output with the node's name and node rank before the pid of
    the command it ran there; the node rank is not a rank of the job's processes."""
    line = parse_line("(worker1, rank=1, pid=5370, ip=10.60.0.9) RuntimeError: boom")
    assert (line.pid, line.message, line.rank) == (5370, "RuntimeError: boom", None)
    head = parse_line("(head, rank=0, pid=6121) KeyboardInterrupt")
    assert (head.pid, head.message, head.rank) == (6121, "KeyboardInterrupt", None)
    assert line.stream_key != head.stream_key
    for text in (
        "(head, rank=0) KeyboardInterrupt",
        "(worker, rank=1, pid=12) x",
        "see (head, rank=0, pid=1) x",
    ):
        assert parse_line(text).message == text


def test_an_interrupt_under_a_cloud_launchers_node_tag_is_read():
    """A line-anchored reading (the bare `KeyboardInterrupt` of an interrupted job) holds behind
    the node tag as it does behind a Ray tag."""
    text = """\
(head, rank=0, pid=6121) epoch 3 step 400 loss 1.2
(head, rank=0, pid=6121) Traceback (most recent call last):
(head, rank=0, pid=6121)   File "/home/sky/sky_workdir/train.py", line 88, in <module>
(head, rank=0, pid=6121)     time.sleep(1)
(head, rank=0, pid=6121) KeyboardInterrupt
"""
    diagnosis = diagnose_text("run.log", text)
    assert diagnosis.category == "hang"
    assert diagnosis.first_error is not None
    assert diagnosis.first_error.text.endswith("KeyboardInterrupt")


def test_a_parenthesised_pid_inside_a_message_is_no_ray_tag():
    for text in ("(pid=abc) is not a number", "worker (pid=4121) exited", "(pid 4121) exited"):
        assert parse_line(text).message == text


def test_a_collectors_local_time_before_a_rank_tag_is_peeled():
    """A platform that stamps each captured line with its local time and no zone: the torch
    rank tag and the record behind it are read as usual, the time is kept."""
    line = parse_line(
        "2025-06-11 09:02:44 [rank6]: torch.OutOfMemoryError: CUDA out of memory. "
        "Tried to allocate 2.00 GiB. GPU 6 has a total capacity of 79.10 GiB"
    )
    assert line.rank == 6
    assert (line.time.hour, line.time.minute, line.time.second) == (9, 2, 44)
    assert line.message.startswith("torch.OutOfMemoryError: CUDA out of memory.")
    record = parse_line("2025-06-11 09:02:44 WARNING:accelerate.utils:Detected kernel version")
    assert (record.level, record.message) == ("WARNING", "Detected kernel version")


def test_a_console_s_time_of_day_before_a_rank_tag_is_peeled():
    """A web console that shows each captured line's time of day alone, to the millisecond:
    the rank tag and torch's own glog header behind it are read as usual."""
    line = parse_line(
        "07:41:09.204 [rank5]:[E1109 07:41:08.902116334 ProcessGroupNCCL.cpp:1614] [PG ID 3 PG "
        "GUID 21 Rank 5] Terminating the process after attempting to dump debug info, due to "
        "ProcessGroupNCCL watchdog hang."
    )
    assert line.rank == 5
    assert "Terminating the process after attempting to dump" in line.message
    assert (line.time.hour, line.time.minute, line.time.second) == (7, 41, 8)


def test_a_time_of_day_before_anything_but_a_rank_tag_stays_in_the_message():
    """Counterexample: a time of day before the program's own words is its own header, and a
    time of day with no fraction is not taken for a console's column."""
    line = parse_line("07:41:09.204 step 12 finished")
    assert line.rank is None
    assert "07:41:09.204" in line.text
    assert parse_line("07:41:09 [rank5]: step 12 finished").message.startswith("07:41:09")


def test_a_logging_header_with_a_space_separated_time_keeps_its_own_reading():
    """A time followed by a level word is the process's own logging header, not a stamp."""
    line = parse_line("2025-06-11 09:02:44 ERROR trainer crashed")
    assert (line.level, line.message) == ("ERROR", "trainer crashed")
    text = "2025-06-11 09:02:44,118 - INFO - step 10"
    assert parse_line(text).rank is None


@pytest.mark.parametrize(
    ("text", "rank"),
    [
        # ranks of one mp.spawn job sharing a console, a bar after the label
        ("rank 3 | model.layers.1.self_attn passed", 3),
        # logging's %(relativeCreated) in front of the label: no wall time, still the writer
        ("[   21768.1ms] rank 1 | init process group: backend=gloo rank=1", 1),
        ("[ 3.217] rank 2: layer 0 passed", 2),
        # the same time bare, padded in a column of its own before a bar (`%(relativeCreated)8.1f
        # ms | rank %d | ...`)
        ("  8831.4 ms | rank 5 | layer 2 attention passed", 5),
        ("17.05s | rank 1 | layer 0 passed", 1),
        # counterexamples: a number in brackets before a sentence, a bar glued to the number,
        # a bare number without its unit before the bar
        ("[12] rank 2 is slow to start", None),
        ("rank 2|layer 0 passed", None),
        ("42 | rank 2 | layer 0 passed", None),
    ],
)
def test_a_rank_label_after_a_bar_or_an_elapsed_time_names_the_writer(text, rank):
    assert parse_line(text).rank == rank


@pytest.mark.parametrize("host", ["trn-b11", "dgx-b", "cn-0418.cluster"])
def test_a_host_column_before_the_rank_tag_keeps_the_lines_rank_and_time(host):
    """A multi-node job's formatter that writes its host between the time and the rank tag
    (`%(asctime)s <host> [rank5] %(levelname)s`) keeps the line's rank, level and time: before,
    the header was not read, so ranks sharing one node's file could not be told apart."""
    line = parse_line(f"2026-12-05 19:08:21,061 {host} [rank5] ERROR model run failed: boom")
    assert (line.rank, line.level) == (5, "ERROR")
    assert line.time == datetime(2026, 12, 5, 19, 8, 21, 61000)
    assert line.message == "model run failed: boom"


def test_a_word_before_the_level_is_no_host_column():
    """Counterexample: without a rank tag after it, a word after the time is no host column
    (it may be the logger's name) and the line keeps no invented rank."""
    line = parse_line("2026-12-05 19:08:21,061 trn-b11 ERROR model run failed: boom")
    assert line.rank is None


@pytest.mark.parametrize("tag", ["[local_rank1]", "[local_rank 1]", "[LOCAL_RANK=1]"])
def test_a_logging_tag_with_only_the_local_rank_keeps_the_lines_time(tag):
    """A multi-node job's formatter that writes only LOCAL_RANK (`[local_rank{LOCAL_RANK}]`,
    torch 2.13 runs under torchrun on a second node): the time and level are read and the
    message starts after the tag; the tag is not taken for a global rank (the file's place
    in its node's tree says which rank wrote it)."""
    line = parse_line(f"2026-12-05 21:58:30,587 {tag} ERROR model run failed: boom")
    assert line.level == "ERROR"
    assert line.time == datetime(2026, 12, 5, 21, 58, 30, 587000)
    assert line.message == "model run failed: boom"
    assert line.rank is None


@pytest.mark.parametrize(
    "text",
    [
        'ts=2026-12-05 23:37:41,714 level=INFO rank=3 msg="  norm passed"',
        'ts=2026-12-05 23:37:41,714 rank=3 level=INFO msg="  norm passed"',
    ],
)
def test_a_logfmt_time_written_unquoted_with_a_space_keeps_the_header(text):
    """`ts=%(asctime)s` in a logging format string writes logging's date, a space and the
    clock, unquoted: the pairs after it are still the header, so the rank, level and time are
    read and the quoted message is the checkpoint. Before, the space ended the time and the
    whole line stayed a message, with no rank and no checkpoint."""
    line = parse_line(text)
    assert (line.rank, line.level, line.message) == (3, "INFO", "  norm passed")
    assert line.time == datetime(2026, 12, 5, 23, 37, 41, 714000)


def test_a_spaced_time_without_pairs_after_it_is_no_logfmt_header():
    line = parse_line("ts=2026-12-05 23:37:41,714 layer 0 passed")
    assert line.rank is None
    assert line.message.startswith("ts=")


def test_a_formatter_in_glogs_order_gives_level_time_and_rank():
    """A job's own Formatter that writes glog's order with logging's fields (`%(levelname)s
    %(asctime)s.%(msecs)03d rank%(rank)s %(module)s:%(lineno)d] %(message)s`): the level, the
    full date, the rank word and glog's `file:line]` location are the header. Before, no
    header read the line: its time was lost and its checkpoints were not recognised (a
    held-out eight-rank gloo run whose ranks logged so showed no progress at all)."""
    line = parse_line("INFO 2026-12-06 05:42:42.726 rank6 train:73] layer 2 passed")
    assert (line.level, line.rank, line.message) == ("INFO", 6, "layer 2 passed")
    assert line.time == datetime(2026, 12, 6, 5, 42, 42, 726000)
    critical = parse_line("CRITICAL 2026-12-06 05:42:59.728 rank6 train:73] NaN loss detected")
    assert (critical.level, critical.message) == ("CRITICAL", "NaN loss detected")


def test_a_rank_word_in_a_glog_ordered_message_is_not_the_writers():
    """Counterexample: without a rank word before the location the rank in the message is a
    peer's, and vLLM's own header (month-day time, bracketed location) keeps its reading."""
    line = parse_line("WARNING 2026-12-06 05:42:42.726 train:73] rank 5 is 2 steps behind")
    assert (line.level, line.rank) == ("WARNING", None)
    assert line.message == "rank 5 is 2 steps behind"
    vllm = parse_line("INFO 04-02 19:33:00 [worker.py:88] # GPU blocks: 9963")
    assert vllm.source == "vllm"


# Guide: "Lines that ranks glued together" / progress bars. A tqdm frame behind torchrun's
# `[defaultN]:` tag with the rank's next print glued to it: the tag gives the rank, the bar is
# peeled, the print is the message.
def test_progress_bar_behind_an_agent_tag_keeps_the_rank():
    from analyzers.formats.lines import parse_line

    line = parse_line(
        "[default0]:Epoch 1:   0%|          | 0/6 [00:01<?, ?it/s, loss=4.300]"
        "epoch 1 step 1 done, loss=4.2999"
    )
    assert line.local_rank == 0
    assert line.message == "epoch 1 step 1 done, loss=4.2999"
    # counterexample: a bar with no tag in front keeps no rank and is peeled as before
    bare = parse_line("Epoch 1:   0%|          | 0/6 [00:01<?, ?it/s]epoch 1 step 1 done")
    assert bare.local_rank is None
    assert bare.message == "epoch 1 step 1 done"


def test_a_placeholder_stamp_gives_the_line_no_time():
    line = parse_line(
        "[ERROR] RUNTIME(5120,python3):YYYY-MM-DD-HH:MM:SS.fff.uuu [stream.cc:1188]5177 GetError:x"
    )
    assert (line.source, line.time) == ("plog", None)


def test_a_stamp_that_is_neither_a_time_nor_the_placeholder_is_no_plog_header():
    line = parse_line("[ERROR] RUNTIME(5120,python3):YYYY-MM-DD [stream.cc:1188]5177 GetError:x")
    assert line.source != "plog"


UNION_LINES = [
    *(case[1] for case in CASES),
    "norm passed",  # what is left of a line once its header is peeled
    '  File "train.py", line 3, in <module>',
    "",
]


@pytest.mark.parametrize("text", UNION_LINES)
def test_the_union_of_the_headers_matches_where_one_of_them_does(text):
    union = header_union(HEADERS)
    assert union is not None
    assert (union.match(text) is not None) == any(head.pattern.match(text) for head in HEADERS)


def test_headers_that_refer_back_to_a_group_are_not_joined():
    doubled = Header("test", re.compile(r"(?P<tag>\w+) (?P=tag) "))
    assert header_union((*HEADERS[:2], doubled)) is None


def test_a_plog_stamp_with_a_colon_before_the_milliseconds_keeps_its_time():
    line = parse_line(
        "[ERROR] HCCL(20417,python):2026-07-03-09:14:05:118.402 [op_base.cc:454][20490]"
        "[Init][CommClusterInfo]HcclCommInitClusterInfo failed,rankNum[2],"
    )
    assert line.time == datetime(2026, 7, 3, 9, 14, 5, 118402)


LAUNCHER_SETTINGS_ONLY = """\
LAUNCH INFO 2026-03-07 08:54:14,880 -----------  Configuration  ----------------------
LAUNCH INFO 2026-03-07 08:54:14,880 elastic_level: -1
LAUNCH INFO 2026-03-07 08:54:14,880 elastic_timeout: 30
LAUNCH INFO 2026-03-07 08:54:14,880 gloo_port: 6767
LAUNCH INFO 2026-03-07 08:54:14,880 ips: 10.0.0.1,10.0.0.2
"""


def test_a_launchers_settings_echoed_at_info_are_no_error() -> None:
    # A setting whose name holds an error word (`elastic_timeout: 30`), echoed at INFO under the
    # launcher's own header, reports nothing: a job that stops after it is a hang with no error.
    diagnosis = diagnose_text("node0.log", LAUNCHER_SETTINGS_ONLY)
    assert diagnosis.first_error is None
    assert diagnosis.category == "hang"


def test_a_line_pasted_as_a_markdown_code_span_is_read_inside_it():
    """An issue writer who formats each pasted line as inline code (one span over the whole
    line) leaves the backticks around it; the words inside are the line the process wrote."""
    assert parse_line("`Killed`").message == "Killed"
    assert parse_line("``Killed``").message == "Killed"
    assert parse_line("`RuntimeError: NPU out of memory. Tried to allocate 2.00 GiB` ").message == (
        "RuntimeError: NPU out of memory. Tried to allocate 2.00 GiB"
    )


def test_code_spans_inside_a_line_or_a_fence_are_left_as_they_are():
    """Only a span that is the whole line is a wrapper: a line that quotes a name in
    backticks, two spans on one line and a code fence keep their text."""
    quoted = "`pydantic.utils:Representation` has been removed."
    assert parse_line(quoted).message == quoted
    two = "`a.py` and `b.py` differ"
    assert parse_line(two).message == two
    assert parse_line("```").message == "```"
    assert parse_line("```text").message == "```text"


@pytest.mark.parametrize(
    ("line", "host"),
    [
        ("node1: [default0]:RuntimeError: x", "node1"),
        ("10.0.0.3: [rank2]: RuntimeError: x", "10.0.0.3"),
        ("gpu-node-07: RuntimeError: x", "gpu-node-07"),
        # a pdsh run on a host that ran pdsh itself: the inner label names where the line began
        ("login-1: node7: RuntimeError: x", "node7"),
    ],
)
def test_a_pdsh_host_label_names_the_host_the_line_came_from(line, host):
    parsed = parse_line(line)
    assert parsed.tags["host"] == host
    assert parsed.message == "RuntimeError: x"


def test_the_rank_tag_behind_a_host_label_is_still_the_lines_rank():
    assert parse_line("10.0.0.3: [rank2]: RuntimeError: x").rank == 2
    assert parse_line("node1: [default3]:RuntimeError: x").local_rank == 3


def test_a_word_with_a_number_before_a_colon_names_no_host():
    assert "host" not in parse_line("layer3: passed").tags


def test_a_rank_label_behind_a_time_of_day_still_names_the_writer():
    assert parse_line("09:41:07 [rank 1] layer 2 passed").rank == 1
    assert parse_line("[09:41:07.123] rank 3: RuntimeError: x").rank == 3
    assert parse_line("09:41:07 layer 2 passed").rank is None
