"""A node agent's device-management query refused with the library's -8000-range return code
(docs/labelling.md#config-driver_env-or-weight_load): the node's set-up, with the agent's
settings and a card that stopped answering beside it."""

from __future__ import annotations

import pytest

from tests.analyzers.excerpts import diagnose_files, diagnose_text

PLUGIN = "node/ascend-device-plugin.log"


@pytest.mark.parametrize(
    "line",
    [
        "[2026-01-02 03:04:05.600700][ERROR] 88 server/manager.go:301 failed to get device "
        "health:ret code: -8015,health code: 0",
        "E0102 03:04:05.600700   1 exporter.go:77] card 6: query die temperature failed, "
        "return code: -8003",
        "[WARN] 261 dcmi/dcmi.go:930 get chip network status failed, err: retCode: -8255",
    ],
)
def test_a_refused_card_query_reads_as_the_nodes_set_up(line: str) -> None:
    diagnosis = diagnose_text(PLUGIN, line + "\n")
    assert diagnosis.category == "driver_env"
    assert diagnosis.subsystem == "environment"
    assert {"config", "device_fault"} <= {alt.category for alt in diagnosis.alternatives}
    assert diagnosis.first_error is not None
    assert "-8" in diagnosis.first_error.text


def test_a_library_that_does_not_start_keeps_its_own_reading() -> None:
    """The plugin's refused query beside a tool whose management library did not start: the
    answer is the node's either way, and the query does not push the label elsewhere."""
    diagnosis = diagnose_files(
        {
            PLUGIN: "[2026-01-02 03:04:05.600700][WARN] 261 dcmi/dcmi.go:930 get vDev info "
            "failed, err: retCode: -8255\n",
            "pod/npu-smi.txt": "dcmi module initialize failed. ret is -8005\n",
        }
    )
    assert diagnosis.category == "driver_env"


@pytest.mark.parametrize(
    "line",
    [
        # no return code: a slow answer is not a refusal
        "[2026-01-02 03:04:05.600700][ERROR] 88 server/manager.go:301 failed to get device "
        "health: context deadline exceeded",
        # a code outside the library's range names no library
        "[2026-01-02 03:04:05.600700][ERROR] 88 server/manager.go:301 failed to get device "
        "info, ret code: -1",
    ],
)
def test_a_query_without_the_librarys_code_is_not_read_by_the_rule(line: str) -> None:
    diagnosis = diagnose_text(PLUGIN, line + "\n")
    assert diagnosis.category != "driver_env"
