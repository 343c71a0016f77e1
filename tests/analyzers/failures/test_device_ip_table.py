"""A container without the host's NIC address table (`/etc/hccn.conf`) is a machine set-up error.

Multi-server HCCL and the KV-transfer engines of PD-disaggregated serving read each NPU's own
NIC address from that file. HCCL's rank-table check and a transfer engine each say, in their
own format, that it is missing; the label is the machine's, with the collective layer and the
launch setting as the alternatives. Counterexamples: a plog line that read the address
successfully, and an HCCL failure that names no address table, keep their own reading.

docs/labelling.md#config-driver_env-or-weight_load
"""

from __future__ import annotations

import pytest

from tests.analyzers.excerpts import assert_reads, diagnose_text

RANKTABLE_CHECK_IN_PLOG = """\
[INFO] HCCL(40120,python):2026-04-11-02:10:33.100.200 [hccl_communicator.cc:210] [Init] comm group_name_7 ranks[16]
[ERROR] HCCL(40120,python):2026-04-11-02:10:33.100.512 [topoinfo_ranktableParser.cc:410] [RanktablCheck] 'device ip' is not set correctly, must be set when multi Server or HCCL_INTRA_ROCE_ENABLE enabled
"""

# The same check's line as a user quotes it from a plog, without the level header: no level
# and no error word are left on it.
RANKTABLE_CHECK_QUOTED_BARE = """\
[RanktablCheck] 'device ip' is not set correctly, must be set when multi Server or HCCL INTRA ROCE ENABLE enabled
"""

# HCCL's concise rank-table reader, which looks up one device's address at a time, says the
# same in its own words (`device_ip` with an underscore, its own bracket tags), here as a user
# greps it out of a plog directory with the file name and line number in front.
CONCISE_TABLE_READER_IN_PLOG = """\
/root/ascend/log/debug/plog/plog-3307_20260211042005100.log:1:[ERROR] HCCL(3307,):2026-02-11-04:20:05.611.204 [topoinfo_ranktableConcise.cc:446] [3391][Get][SingleDeviceIp]'device_ip' is not set correctly,must be set when multi Server or HCCL_INTRA_ROCE_ENABLE enabled
"""

CONCISE_TABLE_READER_QUOTED_BARE = """\
[Get][SingleDeviceIp]'device_ip' is not set correctly,must be set when multi Server or HCCL_INTRA_ROCE_ENABLE enabled
"""

TRANSFER_ENGINE_WITHOUT_TABLE = """\
I0411 02:10:30.000100 40120 transfer_engine.cpp:44] Transfer Engine starting. Server: 10.0.3.7:16001:npu_2
E0411 02:10:30.000450 40120 ascend_direct_transport.cpp:212] open /etc/hccn.conf failed, errno 2
"""


@pytest.mark.parametrize(
    ("text", "says"),
    [
        (RANKTABLE_CHECK_IN_PLOG, "'device ip' is not set correctly"),
        (RANKTABLE_CHECK_QUOTED_BARE, "'device ip' is not set correctly"),
        (TRANSFER_ENGINE_WITHOUT_TABLE, "open /etc/hccn.conf failed"),
        (CONCISE_TABLE_READER_IN_PLOG, "'device_ip' is not set correctly"),
        (CONCISE_TABLE_READER_QUOTED_BARE, "'device_ip' is not set correctly"),
    ],
    ids=[
        "hccl rank-table check",
        "rank-table check quoted without its header",
        "transfer engine cannot open the table",
        "concise rank-table reader in a grepped plog",
        "concise rank-table reader quoted without its header",
    ],
)
def test_a_missing_nic_address_table_is_the_machine(text: str, says: str) -> None:
    diagnosis = diagnose_text("job/plog-40120.log", text)
    assert_reads(diagnosis, "driver_env", first_error=says)
    assert {"hccl", "config"} <= {alt.category for alt in diagnosis.alternatives}


def test_a_rank_table_check_that_passed_is_no_error() -> None:
    text = "[RanktablCheck] 'device ip' of rank 3 is set, server_count 2\n"
    assert diagnose_text("job/plog-40120.log", text).first_error is None


def test_a_device_address_the_concise_reader_found_is_no_error() -> None:
    text = "[Get][SingleDeviceIp]'device_ip' of rank 3 is 10.0.3.7, server_count 2\n"
    assert diagnose_text("job/plog-3307.log", text).first_error is None


def test_an_address_read_from_the_table_is_no_error() -> None:
    text = (
        "[INFO] HCCL(40120,python):2026-04-11-02:10:33.100.200 [ranktable.cc:88] "
        "device ip of rank 3 is 10.0.3.7, read from hccn.conf\n"
    )
    assert diagnose_text("job/plog-40120.log", text).first_error is None


def test_an_hccl_failure_naming_no_address_table_keeps_its_label() -> None:
    text = (
        "[ERROR] HCCL(40120,python):2026-04-11-02:10:33.100.512 [hccl_socket.cc:120] "
        "Getting socket times out. Reason: Remote Rank did not send the data in time.\n"
    )
    assert diagnose_text("job/plog-40120.log", text).category != "driver_env"


# A KV store's transfer engine that found the address neither in the file nor from the tool.
STORE_ENGINE_WITHOUT_TABLE = """\
[2026-04-11 02:14:08.512] [info] [kv_store] starting transfer engine, protocol=device_roce
Traceback (most recent call last):
  File "/opt/py311/lib/python3.11/site-packages/kv_store/engine.py", line 88, in setup
    self._engine.initialize(local_host, meta_url, protocol)
RuntimeError: Failed to get device ip from hccn.conf and hccn_tool
"""

# Counterexample: the address was read; the engine then could not reach its peer.
STORE_ENGINE_PEER_DOWN = """\
[2026-04-11 02:16:40.104] [info] [kv_store] device ip 10.0.3.7 read from hccn.conf
RuntimeError: Failed to connect to target 10.0.3.9:16001
"""


def test_an_engine_that_cannot_get_the_device_address_from_the_table_is_the_machine() -> None:
    diagnosis = diagnose_text("store/worker.log", STORE_ENGINE_WITHOUT_TABLE)
    assert_reads(diagnosis, "driver_env", first_error="Failed to get device ip from hccn.conf")


def test_an_address_read_from_the_table_does_not_make_a_peer_failure_the_machine() -> None:
    diagnosis = diagnose_text("store/worker.log", STORE_ENGINE_PEER_DOWN)
    assert diagnosis.category != "driver_env", diagnosis.root_cause


# A serving daemon checks the rank table it was handed before it starts its backends. When a
# deployment tool could not read the NPUs' NIC addresses it writes a placeholder in their place,
# and the daemon refuses the field for every device, then its endpoint gives up with a code.
PLACEHOLDER_ADDRESSES_REFUSED = """\
Updated worldSize and npuDeviceIds of the backend config for multi-node inference.
Input device_ip [-.-.-.-] is invalid
Parameter device_ip is invalid in ranktable file.
Input device_ip [-.-.-.-] is invalid
Parameter device_ip is invalid in ranktable file.
[2026-05-06 03:12:40.118+08:00] [812] [815] [server] [ERROR] [endpoint.cpp:37] : [MIE04E02011C] [endpoint] Failed to init infer backend manager
[2026-05-06 03:12:40.118+08:00] [812] [node-b3] [system] [server] [Start mindie server] [fail]
"""

# A real address that the check refuses is a typing mistake in a hand-written table: the job's.
MALFORMED_ADDRESS_REFUSED = """\
Input device_ip [10.20.0.300] is invalid
Parameter device_ip is invalid in ranktable file.
[2026-05-06 03:12:40.118+08:00] [812] [815] [server] [ERROR] [endpoint.cpp:37] : [MIE04E02011C] [endpoint] Failed to init infer backend manager
"""


def test_a_rank_table_without_device_addresses_is_the_machine() -> None:
    diagnosis = diagnose_text("mindie/log/debug/daemon.log", PLACEHOLDER_ADDRESSES_REFUSED)
    assert_reads(diagnosis, "driver_env", first_error="Input device_ip [-.-.-.-] is invalid")
    assert {"config", "hccl"} <= {alt.category for alt in diagnosis.alternatives}


def test_a_malformed_address_in_the_rank_table_is_the_job_setting() -> None:
    diagnosis = diagnose_text("mindie/log/debug/daemon.log", MALFORMED_ADDRESS_REFUSED)
    assert_reads(
        diagnosis,
        "config",
        first_error="Input device_ip [10.20.0.300] is invalid",
        beside=("driver_env",),
    )


def test_the_rank_table_itself_is_no_error() -> None:
    text = '            "device_ip": "-.-.-.-",\n            "rank_id": "3"\n'
    assert diagnose_text("job/ranktable.json.log", text).first_error is None
