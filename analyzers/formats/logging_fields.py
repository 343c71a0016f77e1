"""The pieces Python logging headers are built from: level names, dates, rank tags, hosts.

    2026-11-29 07:25:37,216 [gpu-n02 rank3] INFO layer 0 passed
    ^ DATE                  ^ HOST_IN_RANK_TAG  ^ LEVEL

Each is a regex fragment, most with the named group a header reads (`level`, `ts`, `rank`),
joined into whole headers by `formats.logging_headers`; one fragment written once keeps the
many headers that share it reading a level or a date alike.
"""

from __future__ import annotations

from analyzers.formats.base import CANN_RECORD_AFTER_LEVEL

LEVEL = r"(?P<level>DEBUG|INFO|WARNING|WARN|ERROR|CRITICAL|FATAL)"
BARE_LEVEL = r"(?:DEBUG|INFO|WARNING|WARN|ERROR|CRITICAL|FATAL)\b"
LEVEL_OR_LETTER = r"(?P<level>[DIWEFC]|DEBUG|INFO|WARNING|WARN|ERROR|CRITICAL|FATAL)"
TRACING_LEVEL = r"(?P<level>TRACE|DEBUG|INFO|WARN|ERROR)"
ANY_CASE_LEVEL = r"(?P<level>(?i:debug|info|warning|warn|error|critical|fatal))"
DATE = r"\d{4}-\d\d-\d\d[ T]\d\d:\d\d:\d\d(?:[,.:]\d+)?"
ZONED_DATE = DATE + r"(?:[+-]\d\d:?\d\d|Z)?"
# a logfmt time written unquoted by `ts=%(asctime)s`: logging's date, a space, then the clock
SPACED_TS = r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(?:[,.]\d+)?(?= )"
LOGFMT_TS = r"(?:ts|time)=(?P<ts>" + SPACED_TS + r"|[^\"\s]\S*)"
LOGFMT_PAIR = r" (?!msg=|rank=)[\w.]+=(?:\"[^\"]*\"|\S+)"

# a logger named per rank, `getLogger(f"train.rank{rank}")`, shown in brackets after the level
RANK_LOGGER = r"\[(?:[A-Za-z_][\w-]*\.)*(?i:rank)[_-]?(?P<rank>\d+)\]\s"
NO_RANK_LOGGER = r"(?!\s*" + RANK_LOGGER.replace("(?P<rank>", "(?:") + ")"

# the host a multi-node job writes between the time and the rank tag (`%(asctime)s <host>
# [rank5] INFO ...`): one word, only right before the rank tag
HOST_BEFORE_RANK = r"(?:[A-Za-z][\w.-]*\s+(?=\[(?i:rank)[ _]?\d+\]\s))?"
# the host inside the rank tag's own brackets, as a multi-node job's format writes both
# (`%(asctime)s [node1 rank3] INFO ...`, `[gpu-n02/rank 5]`): one word and a space or slash
HOST_IN_RANK_TAG = r"(?:[A-Za-z][\w.-]*[ /])?"
# a multi-node job's Formatter that writes the host and the rank as words after the level,
# then the logger's name and a colon (`%(asctime)s %(levelname)s node1 rank4 %(name)s: ...`):
# the host word carries a digit (`node1`, `gpu-n02`, an address), so a sentence such as
# `model rank 3 failed: ...` is not taken for a header
HOST_RANK_LOGGER = r"[A-Za-z][\w.-]*\d[\w.-]*\s+(?i:rank)[ _=]?(?P<rank>\d+)\s+[A-Za-z_][\w.]*:\s"
NO_HOST_RANK_LOGGER = r"(?!\s*" + HOST_RANK_LOGGER.replace("(?P<rank>", "(?:") + ")"
# only the node-local rank in the tag (`%(asctime)s [local_rank1] INFO ...`, LOCAL_RANK of a
# torchrun worker): read past, not taken for the rank; the file's place in its node's tree
# says which rank wrote it
LOCAL_RANK_TAG = r"\[(?i:local[_ ]?rank)[ _=]?\d+\]\s+"

# what follows a bracketed level in the other formats that open with one (`formats.plog`,
# `formats.torch_npu`, a tool's logger naming its module file), and an operator's or plugin's
# writer tag in brackets (`[ERROR] [AscPlugin] ...`: its runs of lines are read as a block,
# `knowledge/blocks.yaml`, and keep their reading)
NOT_ANOTHER_BRACKETED_LEVEL = (
    r"(?!" + CANN_RECORD_AFTER_LEVEL + r"|[\w.-]+\.py(?::\d+)?: |\[[A-Za-z_][\w.:-]*\]\s)"
)
