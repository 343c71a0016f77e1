"""CANN host logs (plog), device logs and the same lines printed to the console.

`[Level] Module(PID,PName):yyyy-mm-dd-hh:mm:ss.fff.zzz [file:line]tid message`, e.g.

    [ERROR] RUNTIME(987,):2027-04-02-19:29:32.538.614 [stars_engine.cc:7900]326 ProcLogicCqReport:Task run failed, ...
    [ERROR] HCCL(4644660,python3):2026-03-12-07:49:36.326.808 [hccl_socket.cc:532] [4644660][HcclSocket][Listen] ...
    [ERROR] APP(2014231,):2027-01-13-06:28:48.993.467 2014231 MakeSureQueueEmpty:NPUQueue.cpp:539: ...
    [ERROR] TSCH(-1,null):2023-06-10-13:16:11.401.438 11 (dieid:0,cpuid:0) hwts_plat.c:1931 int_process_hwts_timeout_exception: ...

MindSpore writes its own log lines in the same shape, the C++ side with the thread id after a
comma and the Python side (module `ME`) with it after a colon:

    [ERROR] DEVICE(2201,fffe6effd1e0,python):2024-03-05-16:20:11.402.118 [mindspore/ccsrc/.../ascend_stream_manager.cc:301] SyncAllStreams] Sync default stream failed.
    [WARNING] ME(4310:281473000000001,MainProcess):2025-01-02-03:04:05.006.000 [mindspore/parallel/cluster/process_entity/_api.py:318] ...

Levels: ERROR, WARNING, INFO, DEBUG, EVENT (and TRACE in HCCL). The module name is kept in
`tags["module"]`.

A paste or a guide can lose the space between the level and the module
(`[ERROR]HCCL(3021,python3):2026-...`); the rest of the header is the same, so it is read alike.
Some pastes carry the stamp with a colon between the seconds and the milliseconds
(`...-20:10:17:012.780`); the time reader takes either separator, so the header does too.
HCCL's guide prints some examples with a space between the date and the time
(`HCCL(1265,):2025-10-21 07:56:47.198.454`); the time reader takes that too, and so does the
header.
"""

from __future__ import annotations

from analyzers.formats.base import header

NAME = "plog"

# CANN's manuals print their log examples with the stamp spelled out as a placeholder
# (`YYYY-MM-DD-HH:MM:SS.fff.uuu`, often with non-breaking hyphens), and such examples are pasted
# back as logs. The header is read with no time, so the lines keep their level, module and pid
# and are ordered by position.
DOC_STAMP = r"YYYY[-\u2011]MM[-\u2011]DD[-\u2011]HH:MM:SS\.fff\.uuu"

HEADERS = (
    header(
        NAME,
        r"\[(?P<level>ERROR|WARNING|WARN|INFO|DEBUG|EVENT|TRACE)\] ?"
        r"(?P<module>[A-Za-z][\w-]*)\((?P<pid>-?\d+)[,:][^)]*\):"
        r"(?:(?P<ts>\d{4}-\d\d-\d\d[- ]\d\d:\d\d:\d\d[.:]\d{3}\.\d{3})|" + DOC_STAMP + r")\s*"
        r"(?:\[[^\]\s]+:\d+\])?(?:\[tid:\d+\])?(?:\d+ )?\s*",
    ),
)
