"""A set or a dict view indexed as if it were a list.

docs/labelling.md#config-driver_env-or-weight_load: a package that indexes an attribute of
another package (`x[0]`) meets a set or a dict view where its code expected a list when the
other package changed the type between releases (a model's list of modules it must not split
became a set; `dict.keys()` is a view since Python 3). Python says `'set' object is not
subscriptable`. The packages do not fit: `config`, with `other` beside it, and the line is the
first error. An unset value indexed (`'NoneType' object is not subscriptable`) keeps its own
reading.

The fixtures are written in the shape of a trainer's stderr, with our own paths.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text


def test_a_set_indexed_by_another_package_is_the_package_set() -> None:
    text = (
        "Traceback (most recent call last):\n"
        '  File "/opt/venv/lib/python3.11/site-packages/trainer/sharding.py", line 77, in wrap_policy\n'
        "    layer_cls = model._no_split_modules[0]\n"
        "TypeError: 'set' object is not subscriptable\n"
    )
    diagnosis = diagnose_text("train.log", text)
    assert_reads(
        diagnosis, "config", first_error="'set' object is not subscriptable", beside=["other"]
    )


def test_a_dict_view_indexed_reads_the_same() -> None:
    text = "[rank1]: TypeError: 'dict_keys' object is not subscriptable\n"
    diagnosis = diagnose_text("train.log", text)
    assert_reads(diagnosis, "config", first_error="'dict_keys' object is not subscriptable")


def test_an_unset_value_indexed_keeps_its_reading() -> None:
    text = "TypeError: 'NoneType' object is not subscriptable\n"
    diagnosis = diagnose_text("train.log", text)
    assert_reads(diagnosis, "other", first_error="'NoneType' object is not subscriptable")
