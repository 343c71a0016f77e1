"""Tenstorrent's runtime logger (tt-metal and its UMD driver, under ttnn, tt-xla's PJRT
plugin and vLLM's Tenstorrent worker):

    2025-11-21 09:14:03.389 | critical |          Always | Error during physical chip discovery: ... (assert.hpp:103)
    2025-11-13 17:26:15.436 | info     |          Device | Opening user mode device driver (tt_cluster.cpp:189)

Time with milliseconds, the level in lower case padded to eight, the component right-aligned
in its own column, each closed by ` | `; the source place closes the message in parentheses.
The component is kept as the line's `module` tag.
"""

from __future__ import annotations

from analyzers.formats.base import header

NAME = "logging"  # a levelled header like Python logging's: the level field is the writer's

HEADERS = (
    header(
        NAME,
        r"(?P<ts>\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d+) \| "
        r"(?P<level>trace|debug|info|warning|error|critical|fatal)\s*\| +(?P<module>\w+) \| ",
    ),
)
