"""Signal names as the rank table and the launcher readers give them."""

from __future__ import annotations

from analyzers.core.exits import signal_named


def test_a_signal_this_platform_names_keeps_its_name():
    assert signal_named(9) == "SIGKILL"
    assert signal_named(11) == "SIGSEGV"


def test_a_number_the_platform_does_not_name_still_gets_one():
    assert signal_named(200) == "SIG200"
