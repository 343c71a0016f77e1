"""The AWS Neuron runtime's own log lines (libnrt under torch-neuronx, neuronx-distributed,
transformers-neuronx), written to the job's stderr:

    2024-May-23 11:42:07.244955 61500:61500 ERROR  TDRV:tdrv_init_mla_phase1    Could not open the nd3
    2021-Nov-01 06:02:18.0992 13660:14125 ERROR  NMGR:dlr_infer       Inference completed with err: 1004

A date with the month's name, the time, `pid:thread`, the level padded to five, and the
runtime component with its function (`NRT:nrt_init`, `TDRV:...`, `NMGR:...`) in a padded
column; the message follows. The component is kept as the line's `module` tag.

When a runtime call fails the runtime also dumps a report through `NRT:nrt_infodump`, every
line of it at ERROR: versions, the instance, the kernel, the driver, the environment. Only its
`Failure: ...` line says what failed; the rest is the machine's description, read as plain
text so that a report printed before the failing line of another process is not taken for a
failure of its own.
"""

from __future__ import annotations

from analyzers.formats.base import header

NAME = "logging"  # a levelled header like Python logging's: the level field is the writer's

_STAMP = r"(?P<ts>\d{4}-[A-Z][a-z]{2}-\d\d \d\d:\d\d:\d\d\.\d+)\s+(?P<pid>\d+):\d+\s+"
_DUMP = r"NRT:nrt_infodump\s+(?!\s|Failure:)"  # a report line that is not its Failure line

# The two never match the same line: the scanner tries the last one that matched first.
HEADERS = (
    header(NAME, _STAMP + r"(?:ERROR|WARN|WARNING)\s+" + _DUMP),
    header(
        NAME,
        _STAMP + r"(?P<level>DEBUG|INFO|WARN|WARNING|ERROR|FATAL)\s+"
        r"(?P<module>(?!" + _DUMP + r")[A-Z]+:\w+)\s+",
    ),
)
