"""A driver package without a network call the toolkit's HCCL needs.

HCCL reaches the NPU's RoCE side through the driver's calls. When the driver package is older
than the toolkit, HCCL's adapter names the missing call (`this package does not support hrtRaXxx
for device, please change new package`); the queue pair it was creating then fails and the
framework reports a transport it could not create. The adapter's line is the first error and
the machine (`driver_env`) the label, with `hccl` and `config` beside it.

docs/labelling.md#config-driver_env-or-weight_load
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_files

PLOG = """\
[ERROR] HCCL(71220,python3):2026-03-14-09:20:31.502.110 [adapter_hccp.cc:2301] [71390]this package does not support hrtRaSetQpAttrTc for device, please change new package
[ERROR] HCCL(71220,python3):2026-03-14-09:20:31.502.180 [transport_ibverbs.cc:571] [71390][Creat][Qp]creat qp failed, localDeviceId[3], qpMode[2]
[ERROR] HCCL(71220,python3):2026-03-14-09:20:31.502.184 [transport_ibverbs.cc:602] [71390][CreateSingleQp]call trace: hcclRet -> 12
"""

WORKER = """\
(EngineWorker rank=3 pid=71220) ERROR 03-14 09:20:31 [executor.py:310]         TraceBack (most recent call last):
(EngineWorker rank=3 pid=71220) ERROR 03-14 09:20:31 [executor.py:310]         Transport init error. Reason: [Create][DestLink]Create Dest error! creakLink para:rank[3]-localUserrank[3]-localIpAddr[10.8.1.21], dst_rank[1]-remoteUserrank[1]-remote_ip_addr[10.8.1.22]
"""

# Counterexample: a link that times out with no word about the package stays the collective's.
TIMEOUT_ONLY = """\
[ERROR] HCCL(71220,python3):2026-03-14-09:22:31.502.110 [hccl_socket_manager.cc:780] [71390][Wait][LinkEstablish]wait socket establish timeout, role[0] rank[3] timeout[120]
"""


def test_the_adapters_line_about_the_package_is_the_first_error() -> None:
    diagnosis = diagnose_files(
        {"node0/plog/plog-71220_20260314092030.log": PLOG, "node0/worker_3.log": WORKER}
    )
    assert_reads(diagnosis, "driver_env", first_error="does not support hrtRaSetQpAttrTc")
    assert {alt.category for alt in diagnosis.alternatives} >= {"hccl"}


def test_a_link_timeout_alone_keeps_the_collectives_reading() -> None:
    diagnosis = diagnose_files({"node0/plog/plog-71220_20260314092230.log": TIMEOUT_ONLY})
    assert diagnosis.category == "hccl"
