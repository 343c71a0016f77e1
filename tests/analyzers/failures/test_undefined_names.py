"""A name that no scope defines is a plain code bug of the frame that raised it.

A serving engine's device helper that calls an accelerator module it imports only under a
condition fails with `NameError: name 'x' is not defined` on a path where the condition was
never checked. No taxonomy row names a code bug: `other`, with `config` beside it
(docs/labelling.md#a-name-that-no-scope-defines). Values of our own in the real formats.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_files, diagnose_text, rules_of

HELPER_TRACEBACK = """\
[2026-02-11 09:30:10 TP0] Load weight begin. avail mem=58.20 GB
[2026-02-11 09:30:12 TP0] Scheduler hit an exception: Traceback (most recent call last):
  File "/srv/engine/hardware/accel/helpers.py", line 88, in cast_weight_format
    out = accel_ops.format_cast(weight, layout.value)
          ^^^^^^^^^
NameError: name 'accel_ops' is not defined
"""


def test_a_module_used_where_it_was_never_imported_is_a_code_bug() -> None:
    # docs/labelling.md#a-name-that-no-scope-defines
    diagnosis = diagnose_files({"server.log": HELPER_TRACEBACK})
    assert_reads(
        diagnosis,
        "other",
        first_error="name 'accel_ops' is not defined",
        rule="framework.name_not_defined",
        beside=("config",),
    )


MISSING_PACKAGE_FIRST = """\
2026-02-11 09:31:02,114 - engine - ERROR - backend.py:17 - ModuleNotFoundError: No module named 'accel_backend'
Traceback (most recent call last):
  File "/srv/engine/run.py", line 40, in main
    accel_backend.init()
    ^^^^^^^^^^^^^
NameError: name 'accel_backend' is not defined
"""


def test_a_missing_package_reported_first_keeps_its_own_reading() -> None:
    diagnosis = diagnose_files({"server.log": MISSING_PACKAGE_FIRST})
    assert_reads(diagnosis, "config", first_error="No module named 'accel_backend'")


def test_a_handler_for_the_exception_is_no_failure() -> None:
    diagnosis = diagnose_text("server.log", "    except NameError:\n        accel_ops = None\n")
    assert "framework.name_not_defined" not in rules_of(diagnosis)


def test_an_unbound_local_is_not_an_undefined_name() -> None:
    diagnosis = diagnose_text(
        "server.log",
        "UnboundLocalError: cannot access local variable 'accel_ops' where it is not "
        "associated with a value\n",
    )
    assert "framework.name_not_defined" not in rules_of(diagnosis)
    assert "framework.local_variable_unbound" in rules_of(diagnosis)
