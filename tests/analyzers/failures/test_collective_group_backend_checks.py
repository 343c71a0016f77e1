"""A collective group asked for a backend the process cannot offer, refused by the library that
creates the group before any rank joins it: Ray's collective API checks the backend named in
`create_collective_group` and raises `RuntimeError: NCCL is not available` (or GLOO) when the
package behind it is missing, which is what a trainer written for GPUs meets on NPUs where only
HCCL exists. The setting that names the backend is what has to change: `config`.

Fixtures are written here in the shape a Ray driver's traceback takes; paths, ids and addresses
are made up.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

# docs/labelling.md#config-driver_env-or-weight_load


def test_ray_collective_group_without_its_backend_is_config() -> None:
    log = (
        "Traceback (most recent call last):\n"
        '  File "/srv/rl/trainer/main.py", line 88, in main\n'
        "    ray.get(runner.run.remote(cfg))\n"
        "ray.exceptions.RayTaskError(RuntimeError): ray::Runner.run() (pid=41022, "
        "ip=10.1.2.3, actor_id=0a1b2c3d)\n"
        '  File "/srv/rl/trainer/sync.py", line 57, in build_sync_group\n'
        "    collective.create_collective_group(\n"
        '  File "/opt/py/lib/python3.10/site-packages/ray/util/collective/collective.py", '
        "line 230, in create_collective_group\n"
        "    _check_backend_availability(backend)\n"
        '  File "/opt/py/lib/python3.10/site-packages/ray/util/collective/collective.py", '
        "line 802, in _check_backend_availability\n"
        '    raise RuntimeError("NCCL is not available.")\n'
        "RuntimeError: NCCL is not available.\n"
    )
    diagnosis = diagnose_text("driver.log", log)
    assert_reads(
        diagnosis,
        "config",
        first_error="RuntimeError: NCCL is not available",
        rule="cfg.backend_not_built",
    )


def test_the_gloo_check_reads_the_same() -> None:
    log = "(Runner pid=902) RuntimeError: GLOO is not available.\n"
    diagnosis = diagnose_text("driver.log", log)
    assert_reads(
        diagnosis, "config", first_error="GLOO is not available", rule="cfg.backend_not_built"
    )


def test_a_notice_that_picks_another_backend_is_no_refusal() -> None:
    # A library that finds no NCCL and carries on with another backend has not failed; the
    # real error of the log keeps the answer.
    log = (
        "WARNING 05-02 09:10:11 [comm.py:41] NCCL is not available, using gloo for this group\n"
        "RuntimeError: NPU out of memory. Tried to allocate 2.00 GiB (NPU 1; 60.00 GiB total "
        "capacity; 58.30 GiB already allocated; 0 bytes free)\n"
    )
    diagnosis = diagnose_text("train.log", log)
    assert diagnosis.category == "oom"
    assert "cfg.backend_not_built" not in rules_of(diagnosis)


def test_a_missing_kv_transfer_library_keeps_its_own_reading() -> None:
    diagnosis = diagnose_text("serve.log", "RuntimeError: NIXL is not available\n")
    assert "cfg.backend_not_built" not in rules_of(diagnosis)
