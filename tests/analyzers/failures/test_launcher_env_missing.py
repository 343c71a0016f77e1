"""A torch process started without the launcher whose environment its set-up reads.

docs/labelling.md#a-distributed-start-up-that-finds-no-launcher: a training script that reads
the launcher's variables straight from `os.environ` (`rank = int(os.environ['RANK'])`) ends in
a bare `KeyError` naming the variable when it was run as a plain process. No communicator was
built; the launch has to change: `config`, never `hccl`, and the KeyError is the first error.
Counterexample: a lower-case key of the job's own dictionaries (`KeyError: 'rank'`) and a key
that only begins like a launcher variable name nothing the launcher sets.
"""

from __future__ import annotations

from analyzers.classify.rules import load_knowledge
from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of
from tests.analyzers.failures.test_empty_data_indexed import EMPTY_SPLIT

KNOWLEDGE = load_knowledge()

NO_LAUNCHER = """\
Traceback (most recent call last):
  File "tools/train.py", line 88, in <module>
    main()
  File "tools/train.py", line 61, in main
    init_dist(args.launcher, **cfg.dist_params)
  File "/opt/venv/lib/python3.9/site-packages/mmcv/runner/dist_utils.py", line 40, in init_dist
    _init_dist_pytorch(backend, **kwargs)
  File "/opt/venv/lib/python3.9/site-packages/mmcv/runner/dist_utils.py", line 51, in _init_dist_pytorch
    rank = int(os.environ['RANK'])
  File "/usr/lib/python3.9/os.py", line 679, in __getitem__
    raise KeyError(key) from None
KeyError: 'RANK'
"""

NO_MASTER = """\
Traceback (most recent call last):
  File "train_net.py", line 30, in <module>
    setup(args)
  File "train_net.py", line 17, in setup
    addr = os.environ["MASTER_ADDR"]
  File "/usr/lib/python3.10/os.py", line 680, in __getitem__
    raise KeyError(key) from None
KeyError: 'MASTER_ADDR'
"""


def _rule():
    return next(sig for sig in KNOWLEDGE.signatures if sig.id == "cfg.launcher_env_missing")


def test_a_launcher_variable_missing_from_the_environment_is_a_launch_to_change() -> None:
    diagnosis = diagnose_text("train.log", NO_LAUNCHER)
    assert_reads(diagnosis, "config", first_error="KeyError: 'RANK'")
    assert diagnosis.confidence >= 0.5
    assert "hccl" not in {alt.category for alt in diagnosis.alternatives}


def test_the_rendezvous_address_missing_reads_the_same() -> None:
    diagnosis = diagnose_text("train.log", NO_MASTER)
    assert_reads(diagnosis, "config", first_error="MASTER_ADDR")


def test_keys_the_launcher_does_not_set_are_not_read_as_its_absence() -> None:
    pattern = _rule().regex
    assert not pattern.search("KeyError: 'rank'")
    assert not pattern.search("KeyError: 'RANK_TABLE_PATH'")
    assert not pattern.search("INFO launcher: RANK=0 LOCAL_RANK=0 WORLD_SIZE=8")


# A framework that finds a variable unset and says which default it took instead is logging a
# choice, not a failure: the job goes on with the default. The error the job met later is the
# first error, and the notice must not lend it a configuration reading.
DEFAULTED_NOTICE = (
    "[WARNING] HCCL_ADPT(4120,ffff9a2b3010,python):2024-05-06-07:08:09.101.112 [mindspore/ccsrc/plugin/device/ascend/hal/hccl_adapter/hccl_adapter.cc:47] GenHcclOptions] The environment variable DEPLOY_MODE is not set. Now set to default value 0\n"
    + EMPTY_SPLIT
)

UNSET_REQUIRED = """\
Traceback (most recent call last):
  File "launch.py", line 12, in <module>
    init()
RuntimeError: environment variable MASTER_ADDR is not set
"""


def test_a_variable_given_its_default_is_a_notice_and_the_later_error_comes_first() -> None:
    diagnosis = diagnose_text("train.log", DEFAULTED_NOTICE)
    line = diagnosis.first_error.text if diagnosis.first_error else ""
    assert "index 0 is out of bounds" in line, line
    assert "cfg.env_not_set" not in rules_of(diagnosis)


def test_a_variable_the_job_needs_and_lacks_is_still_the_launch_to_change() -> None:
    diagnosis = diagnose_text("train.log", UNSET_REQUIRED)
    assert_reads(diagnosis, "config", first_error="MASTER_ADDR is not set", rule="cfg.env_not_set")
