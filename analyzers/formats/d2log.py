"""detectron2's logger (and fvcore's, which detectron2 sets up alike), on its console and in
its `log.txt`:

    ERROR [03/12 10:11:12 d2.engine.launch]: Process group URL: tcp://127.0.0.1:50152
    [03/12 10:11:12 d2.engine.train_loop]: Starting training from iteration 0
    [03/12 10:11:15] d2.engine.hooks INFO: Overall training speed: 8 iterations in 0:00:04

The console's coloured formatter writes a level word in front only for a warning or an error
(a critical record reads `ERROR` too), so a line with none was logged at INFO or DEBUG. The
time has month and day but no year (`formats.year_less`); the logger's name is kept as the
line's `module` tag.
"""

from __future__ import annotations

from analyzers.formats.base import header

NAME = "logging"  # a levelled header like Python logging's: the level field is the writer's

_TIME = r"(?P<ts>\d\d/\d\d \d\d:\d\d:\d\d)"
_LOGGER = r"(?P<module>(?:d2|detectron2|fvcore)(?:\.\w+)*|[a-z_]\w*(?:\.\w+)+)"
# no level word on the console is the formatter's INFO (or DEBUG: either is quiet)
_CONSOLE_LEVELS = (("", "INFO"), ("WARNING", "WARNING"), ("ERROR", "ERROR"))

HEADERS = (
    header(
        NAME,
        rf"(?:(?P<level>WARNING|ERROR) )?\[{_TIME} {_LOGGER}\]: ",
        _CONSOLE_LEVELS,
    ),
    header(
        NAME,
        rf"\[{_TIME}\] {_LOGGER} (?P<level>DEBUG|INFO|WARNING|ERROR|CRITICAL): ",
    ),
)
