"""What a traceback's frame line says about the code that ran there: the job's own script,
an installed package, or Python's own machinery.

    File "/usr/lib/python3.10/multiprocessing/connection.py", line 383, in _recv
    File "/opt/venv/lib/python3.10/site-packages/huggingface_hub/file_download.py", line 1456

A bare exception out of the standard library (`EOFError` from `multiprocessing`'s `_recv`)
says only that a connection closed; the deepest frame outside the machinery says whose, so
that is the frame the traceback reader keeps. The installed-package frames nearest the
exception (at most `INNER_PACKAGE_FRAMES`) say which library layers the job's call went
through, such as a model hub's client above the HTTP library whose dropped connection it
raised. A statement typed at Python's interactive prompt runs with no file behind it
(`File "<stdin>", line 1, in <module>`): the prompt printed the exception and waited for the
next statement, so the session did not end there. A paste that wrapped a frame after its path
(`File ".../route.py",` then `line 281, in task_distribute`) is read as one frame.
"""

from __future__ import annotations

from analyzers.core import regex_programs

FRAME = regex_programs.compile(r'\s*File "[^"]+", line \d+')
# a frame a narrow terminal wrapped after its path: the path line, then `line N, in f` alone
WRAPPED_HEAD = regex_programs.compile(r'\s*File "[^"]+",\s*$')
WRAPPED_TAIL = regex_programs.compile(r"\s*line \d+, in \S")
_FRAME_PATH = regex_programs.compile(r'\s*File "(?P<path>[^"]+)"')
# Python's own modules: a lib/pythonX.Y directory that is not a package directory, or frozen
_STDLIB_PATH = regex_programs.compile(
    r"[/\\]lib[/\\]python3(?:\.\d+)?[/\\](?!(?:site|dist)-packages)|^<frozen "
)
# an installed package's directory
_PACKAGE_PATH = regex_programs.compile(r"[/\\](?:site|dist)-packages[/\\]")
# code with no file behind it: `<string>`, `<stdin>`, `<frozen ...>`
_GENERATED_PATH = regex_programs.compile(r"^<[^>]*>$")
# a comprehension's or generator expression's own frame (`in <listcomp>`, before Python 3.12
# inlined them): code that runs inside the function that wrote it, at that function's place
_COMPREHENSION_FRAME = regex_programs.compile(r",? in <(?:listcomp|dictcomp|setcomp|genexpr)>\s*$")
# a statement typed at the interactive prompt (python's own, or `code.interact`)
INTERACTIVE_FRAME = regex_programs.compile(r'\s*File "<(?:stdin|console)>", line \d+')
# the outermost frame of a thread's own code: threading's bootstrap that ran its target. A
# traceback that starts there is an exception that ended a thread other than the main one,
# whoever printed it (threading's hook under `Exception in thread X:`, or a job's own
# `threading.excepthook` that hands it to its logger under a plain header)
THREAD_BOOTSTRAP_FRAME = regex_programs.compile(
    r'\s*File "[^"]*\bthreading\.py", line \d+, in _bootstrap_inner\s*$'
)
# installed-package frames kept nearest the exception: the library layers under the job's call
# (a hub client, then the HTTP library it called), read by rules that hold only where a line
# was raised (`raised_in`)
INNER_PACKAGE_FRAMES = 6


def is_machinery_frame(message: str) -> bool:
    """A frame in the standard library or in generated code: where a call ended up, not which
    layer made it. The frame kept for an exception is the deepest one that is not machinery
    (`multiprocessing`'s `_recv` says nothing; the compiler worker that read its queue does).
    A comprehension's own frame is the function that wrote it, one frame up, and counts the
    same way: that function names the place."""
    found = _FRAME_PATH.match(message)
    return found is not None and (
        is_stdlib_path(found.group("path"))
        or is_generated_path(found.group("path"))
        or _COMPREHENSION_FRAME.search(message) is not None
    )


def is_package_frame(message: str) -> bool:
    """A frame in an installed package (`site-packages`, `dist-packages`): a library's code,
    as opposed to the job's own script or the standard library."""
    found = _FRAME_PATH.match(message)
    return found is not None and _PACKAGE_PATH.search(found.group("path")) is not None


def is_stdlib_path(path: str) -> bool:
    """A frame's file in Python's own library: machinery a package called."""
    return _STDLIB_PATH.search(path) is not None


def is_generated_path(path: str) -> bool:
    """A frame's `file` that is none (`<string>`): code generated at run time, no source."""
    return _GENERATED_PATH.match(path) is not None
