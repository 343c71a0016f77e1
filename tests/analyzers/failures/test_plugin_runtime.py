"""A framework plugin that checks each ACL runtime call itself (PaddleCustomDevice's runtime)
prints the call as written in its source and the bare code:
`Call aclrtSynchronizeStream(...) failed : 507015 at file ...`. The code must be read and
decide the label like torch_npu's `error code is N`. Scanned and diagnosed end to end.
"""

from __future__ import annotations

from analyzers.formats.codes import extract_codes
from tests.analyzers.excerpts import assert_reads, diagnose_text

PLUGIN_CHECK = """\
[03/11 09:12:40] det.engine INFO: Epoch: [3] [40/120] learning_rate: 0.000210 loss_box: 2.104 loss_cls: 0.913 loss: 3.017 batch_cost: 0.5121 ips: 15.62 images/s
[03/11 09:13:02] det.engine INFO: Epoch: [3] [41/120] learning_rate: 0.000211 loss_box: nan loss_cls: nan loss: nan batch_cost: 0.6630 ips: 12.07 images/s
Call aclrtSynchronizeStream(reinterpret_cast<aclrtStream>(stream)) failed : 507015 at file /opt/plugin/backends/npu/runtime/runtime.cc line 377
E10404: Output indexed [1] requires a 18446744073709551615 buffer, but 4096 (aligned) are allocated.
"""


def test_the_code_of_a_plugin_runtime_check_is_read() -> None:
    line = PLUGIN_CHECK.splitlines()[2]
    assert extract_codes(line) == ("507015",)


def test_a_plugin_runtime_check_is_labelled_by_its_code() -> None:
    diagnosis = diagnose_text("det/train.log", PLUGIN_CHECK)
    assert_reads(diagnosis, "aicore_timeout", first_error="failed : 507015")
