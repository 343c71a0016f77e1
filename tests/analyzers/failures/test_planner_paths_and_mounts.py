"""Set-up failures of embedding and speech trainers run on several ranks.

docs/labelling.md#a-sharding-planner-left-with-no-option: a planner that has no sharding type
and kernel left for a table after the user's constraints is the plan's settings, `config`.
docs/labelling.md#config-driver_env-or-weight_load: a folder, file or link every rank creates
that exists already (EEXIST on a real path) is the housekeeping race, `config`.
docs/labelling.md#a-shared-file-system-that-refuses-a-file-operation: a file call on a mount
that lost its server (ENOTCONN) is the storage, `driver_env`.
docs/labelling.md#a-tensor-left-on-the-cpu-of-an-npu-job: torch 1.x's "arguments are located
on different GPUs" is the two-accelerators refusal, the op's reading with `config` beside it.
"""

from __future__ import annotations

from tests.analyzers.excerpts import alternative_labels, assert_reads, diagnose_text

SITE = "/srv/venv/lib/python3.9/site-packages"

# A recommendation model planned inside spawned workers; the constraints ask for a kernel the
# CPU topology does not offer.
PLANNER_NO_OPTION = f"""\
No available compute kernels after applying user provided constraints for clicks_table
Process SpawnProcess-2:
Traceback (most recent call last):
  File "{SITE}/torchrec/distributed/planner/planners.py", line 221, in plan
    search_space = self._enumerator.enumerate(
  File "{SITE}/torchrec/distributed/planner/enumerators.py", line 170, in enumerate
    raise RuntimeError(
RuntimeError: No available sharding type and compute kernel combination after applying user provided constraints for clicks_table
"""

# Counterexample: the planner reporting which constraints it applies is progress.
PLANNER_NOTE = """\
INFO:planner: applying user provided constraints for clicks_table: sharding_types=[row_wise]
RuntimeError: CUDA error: an illegal memory access was encountered
"""

# Every rank of a speech fine-tuning run creates the checkpoint folder with a plain mkdir.
FOLDER_EVERY_RANK = f"""\
[rank1]: Traceback (most recent call last):
[rank1]:   File "{SITE}/asrkit/core/model.py", line 371, in save_to
[rank1]:     path.parent.mkdir(parents=True)
[rank1]:   File "/usr/lib/python3.9/pathlib.py", line 1323, in mkdir
[rank1]:     self._accessor.mkdir(self, mode)
[rank1]: FileExistsError: [Errno 17] File exists: '/runs/ft-conformer/checkpoints'
"""

# Every rank links the fetched pretrained files into one save folder.
LINK_EVERY_RANK = """\
FileExistsError: [Errno 17] File exists: '/work/recipes/ft/../pretrained/src/tokenizer.ckpt' -> '../pretrained/save/tokenizer.ckpt'
"""

# A streaming dataset's shared-memory segment name is /dev/shm's business.
SHM_NAME = """\
[rank0]: FileExistsError: [Errno 17] File exists: '/000001_locals'
"""

# torch's file store on a FUSE mount whose daemon lost its server.
FILE_STORE_ON_FUSE = """\
2023/05/02 09:11:20 INFO Added key: store_based_barrier_key:1 to store for rank: 3
2023/05/02 10:41:22 Traceback (most recent call last):
2023/05/02 10:41:22   File "/usr/lib/python3/dist-packages/torch/distributed/distributed_c10d.py", line 525, in init_process_group
2023/05/02 10:41:22     worker_count = store.add(store_key, 0)
2023/05/02 10:41:22 RuntimeError: flock: Transport endpoint is not connected
"""

# Counterexample: a socket call's ENOTCONN names neither a file call nor a path.
SOCKET_NOT_CONNECTED = """\
Traceback (most recent call last):
  File "/srv/bench/client.py", line 40, in close
    self.sock.shutdown(socket.SHUT_RDWR)
OSError: [Errno 107] Transport endpoint is not connected
"""

# torch 1.x under DDP on three GPUs: a buffer left on the first GPU meets a rank's input.
THC_TWO_GPUS = f"""\
Traceback (most recent call last):
  File "{SITE}/asrkit/features.py", line 358, in forward
    x = torch.matmul(self.fb.to(x.dtype), x)
RuntimeError: arguments are located on different GPUs at /pytorch/aten/src/THC/generic/THCTensorMathBlas.cu:25
"""


def test_a_planner_with_no_option_left_is_the_plan_settings() -> None:
    diagnosis = diagnose_text("logs/trainer.log", PLANNER_NO_OPTION)
    assert_reads(diagnosis, "config", first_error="No available sharding type and compute kernel")
    assert "operator" not in alternative_labels(diagnosis)


def test_a_planner_note_is_no_failure() -> None:
    diagnosis = diagnose_text("logs/trainer.log", PLANNER_NOTE)
    assert diagnosis.first_error is not None
    assert "illegal memory access" in diagnosis.first_error.text


def test_a_folder_every_rank_creates_is_the_housekeeping_race() -> None:
    diagnosis = diagnose_text("logs/rank1.log", FOLDER_EVERY_RANK)
    assert_reads(diagnosis, "config", first_error="File exists")
    assert {"other", "driver_env"} <= {alt.category for alt in diagnosis.alternatives}


def test_a_link_every_rank_makes_is_the_housekeeping_race() -> None:
    diagnosis = diagnose_text("logs/train.log", LINK_EVERY_RANK)
    assert diagnosis.category == "config"


def test_a_segment_name_keeps_the_shared_memory_reading() -> None:
    diagnosis = diagnose_text("logs/rank0.log", SHM_NAME)
    assert diagnosis.category == "driver_env"


def test_a_file_store_on_a_disconnected_mount_is_the_storage() -> None:
    diagnosis = diagnose_text("logs/node3.log", FILE_STORE_ON_FUSE)
    assert_reads(
        diagnosis,
        "driver_env",
        first_error="flock: Transport endpoint is not connected",
        beside=("config",),
    )


def test_a_socket_not_connected_is_not_the_storage() -> None:
    diagnosis = diagnose_text("logs/client.log", SOCKET_NOT_CONNECTED)
    assert diagnosis.category != "driver_env"


def test_the_thc_wording_of_two_gpus_is_the_two_accelerators_refusal() -> None:
    diagnosis = diagnose_text("logs/rank2.log", THC_TWO_GPUS)
    assert_reads(
        diagnosis,
        "operator",
        first_error="arguments are located on different GPUs",
        beside=("config",),
    )
