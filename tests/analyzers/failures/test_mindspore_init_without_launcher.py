"""A distributed start-up that finds none of its launcher's environment.

docs/labelling.md#a-distributed-start-up-that-finds-no-launcher: MindSpore's `init()` refusing
for want of the role its launcher sets is `config` (the launch must change), with `other`
beside it and never `hccl`: no communicator was built. Counterexample: a launcher variable that
is set to a value the library rejects keeps its own reading.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

REFUSED = """\
Traceback (most recent call last):
  File "train.py", line 52, in <module>
    init()
RuntimeError: Role name '' is invalid. Maybe you are trying to call 'mindspore.communication.init()' without using 'mpirun', which will make MindSpore load several environment variables and check their validation. Please use 'mpirun' to launch this process to fix this issue.
"""

BAD_VALUE = """\
EI0001: [PID: 9912] 2025-03-04-05:06:07.080.900 Environment variable [HCCL_IF_IP] is invalid. Reason: not an address of this host.
"""


def test_an_init_with_no_launcher_role_is_a_launch_to_change() -> None:
    diagnosis = diagnose_text("train.log", REFUSED)
    assert diagnosis.category == "config"
    assert diagnosis.confidence >= 0.5
    assert diagnosis.first_error is not None
    assert "Role name '' is invalid" in diagnosis.first_error.text
    assert "hccl" not in {alt.category for alt in diagnosis.alternatives}


def test_a_launcher_variable_with_a_bad_value_keeps_its_reading() -> None:
    diagnosis = diagnose_text("train.log", BAD_VALUE)
    assert_reads(diagnosis, "config", first_error="HCCL_IF_IP", beside=("hccl",))
