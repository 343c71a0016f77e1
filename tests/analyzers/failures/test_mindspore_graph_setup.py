"""MindSpore's Ascend back end refusing a graph's set-up in its own short sentences.

docs/labelling.md#device-streams-run-out: the graph needs more device streams than the chip
offers (`Stream isn't enough`), read like the runtime's own stream shortage: `config`, with the
stream layer beside it. docs/labelling.md#hccl-refuses-the-jobs-settings-at-set-up: the
collective library's graph plugin did not initialise from the rank table it was handed (`Init
plugin so failed, ret = N`, `Init builder failed, ret = N`): `config`, with `hccl` and
`driver_env` beside it. Values are our own.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

STREAMS_SHORT = (
    "[EXCEPTION] DEVICE(4100,ffff9c1d0010,python):2026-03-04-05:06:07.100.200 "
    "[mindspore/ccsrc/plugin/device/ascend/hal/device/ascend_stream_assign.cc:1520] "
    "CheckStreamNum] Stream isn't enough, total stream num 2030 exceeds the limit 2016\n"
)
STREAMS_SHORT_BARE = "RuntimeError: Stream isn't enough\n"
STREAMS_SHORT_NO_CLASS = "Stream isn't enough\n"
STREAMS_COUNTED = (
    "[INFO] DEVICE(4100,ffff9c1d0010,python):2026-03-04-05:06:07.100.100 "
    "[mindspore/ccsrc/plugin/device/ascend/hal/device/ascend_stream_assign.cc:1511] "
    "CheckStreamNum] total stream num 980, the limit is 2016\n"
)
UNRELATED_STREAM = "WARN the capacity of the live stream isn't enough to hold this step\n"


def test_a_graph_with_more_streams_than_the_chip_offers_is_a_setting() -> None:
    diagnosis = diagnose_text("worker_0.log", STREAMS_SHORT)
    assert_reads(diagnosis, "config", first_error="Stream isn't enough", beside=("stream_sync",))


def test_the_bare_stream_sentence_is_read_the_same_way() -> None:
    for text in (STREAMS_SHORT_BARE, STREAMS_SHORT_NO_CLASS):
        diagnosis = diagnose_text("train.log", text)
        assert diagnosis.category == "config"
        assert diagnosis.first_error is not None


def test_a_stream_count_under_the_limit_is_no_failure() -> None:
    assert diagnose_text("worker_0.log", STREAMS_COUNTED).first_error is None


def test_a_media_stream_that_is_too_small_is_not_a_device_stream() -> None:
    assert diagnose_text("player.log", UNRELATED_STREAM).category != "config"


PLUGIN_INIT = (
    "[CRITICAL] DEVICE(7311,ffffb2a4c010,python):2026-03-04-05:06:07.300.400 "
    "[mindspore/ccsrc/plugin/device/ascend/hal/hccl_adapter/hccl_adapter.cc:301] InitKernelInfoStore] "
    "Init plugin so failed, ret = 1343225860\n"
)
BUILDER_INIT = "RuntimeError: Init builder failed, ret = 1343225860\n"
PLUGIN_INIT_DONE = (
    "[INFO] DEVICE(7311,ffffb2a4c010,python):2026-03-04-05:06:07.300.380 "
    "[mindspore/ccsrc/plugin/device/ascend/hal/hccl_adapter/hccl_adapter.cc:296] InitKernelInfoStore] "
    "Init plugin so success\n"
)


def test_the_collective_plugin_that_does_not_initialise_is_the_rank_table() -> None:
    diagnosis = diagnose_text("worker_3.log", PLUGIN_INIT)
    assert_reads(diagnosis, "config", first_error="Init plugin so failed")
    assert {"hccl", "driver_env"} <= {alt.category for alt in diagnosis.alternatives}
    assert diagnosis.confidence < 0.8


def test_the_builder_of_the_collective_plugin_is_read_the_same_way() -> None:
    diagnosis = diagnose_text("worker_3.log", BUILDER_INIT)
    assert diagnosis.category == "config"
    assert diagnosis.first_error is not None


def test_a_plugin_that_initialised_is_no_failure() -> None:
    assert diagnose_text("worker_3.log", PLUGIN_INIT_DONE).first_error is None
