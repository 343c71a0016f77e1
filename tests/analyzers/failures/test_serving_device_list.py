"""A serving daemon that refuses its own device list is the job's configuration.

MindIE's backend configuration gives each model instance a list of NPUs (`npuDeviceIds`) beside
the instance count and the world size, and its start-up check refuses a list that does not fit
them, printing a bare sentence with no level and no error word. The config file is what must
change: `config`, and that sentence is the first error. Counterexamples: the daemon's note that
it rewrote the list for multi-node serving, and the list as the config file spells it, are no
errors.

docs/labelling.md#config-driver_env-or-weight_load
"""

from __future__ import annotations

import pytest

from tests.analyzers.excerpts import assert_reads, diagnose_text

REPEATED_DEVICE = """\
MIES_CONTAINER_IP=10.1.2.3 bin/mindieservice_daemon
npuDeviceID does not allow repetitive element
The size of npuDeviceIds does not equal to modelInstanceNumber
"""

SUBSET_AGAINST_WORLD_SIZE = """\
[2026-03-02 10:11:12.100+08:00] [4410] [4410] [server] [INFO] [config_manager.cpp:88] : Loading config from /usr/local/mindie/conf/config.json
The size of npuDeviceIds (subset) does not equal to worldSize
ERR: Failed to init endpoint! Please check the service log or console output.
"""


@pytest.mark.parametrize(
    ("text", "says"),
    [
        (REPEATED_DEVICE, "npuDeviceID does not allow repetitive element"),
        (SUBSET_AGAINST_WORLD_SIZE, "does not equal to worldSize"),
    ],
    ids=["repeated device", "sub-list against the world size"],
)
def test_a_refused_device_list_is_the_config(text: str, says: str) -> None:
    diagnosis = diagnose_text("mindie/daemon.log", text)
    assert_reads(diagnosis, "config", first_error=says)


@pytest.mark.parametrize(
    "line",
    [
        "Updated worldSize and npuDeviceIds of the backend config for multi-node inference.\n",
        '            "npuDeviceIds" : [[0,1,2,3]],\n',
    ],
    ids=["multi-node update note", "the config file's own field"],
)
def test_the_device_list_named_without_a_refusal_is_no_error(line: str) -> None:
    assert diagnose_text("mindie/daemon.log", line).first_error is None
