"""A sharded inference server's launcher reporting its shards.

text-generation-inference's Rust launcher (and LoRAX, built from it) starts one Python shard
per GPU and its shard manager says how each ended: the signal a shard died of, its captured
stderr under `Shard complete standard error output:`, then `Shard N failed to start` and
`Error: ShardCannotStart`. The signal is read as torchrun's exit code; the launcher's own
report lines around it only say that a shard went. Its attention layer also checks the heads against
the shard count in its own words (`num_shards`), a launch setting that does not fit the model.
The banner over a shard's relayed stderr only introduces it: when the shard's stderr holds
nothing but a signal report, that report is the first error, not the banner.
Guide sections: "A model server's worker that fails to start", "A bare divisibility assertion",
"Wrappers".
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

SHARD_BUS_ERROR = """\
2025-03-02T10:11:04.120031Z  INFO shard-manager: text_generation_launcher: Waiting for shard to be ready... rank=0
2025-03-02T10:11:04.120033Z  INFO shard-manager: text_generation_launcher: Waiting for shard to be ready... rank=1
2025-03-02T10:11:09.402118Z ERROR shard-manager: text_generation_launcher: Shard complete standard error output:

/srv/env/lib/python3.11/site-packages/somelib/setup.py:88: UserWarning: Two copies of the CUDA runtime were found on the library path.
If you get `CUDA error: invalid device function` errors, the above might be the cause and the solution is to keep one copy on the path.
  warn(msg)
 rank=1
2025-03-02T10:11:09.402151Z ERROR shard-manager: text_generation_launcher: Shard process was signaled to shutdown with signal 7 rank=1
Error: ShardCannotStart
2025-03-02T10:11:09.500410Z ERROR text_generation_launcher: Shard 1 failed to start
2025-03-02T10:11:09.500437Z  INFO text_generation_launcher: Shutting down shards
"""

SHARD_KILLED = """\
2025-03-02T10:11:04.120031Z  INFO shard-manager: lorax_launcher: Waiting for shard to be ready... rank=3
2025-03-02T10:12:40.871002Z ERROR shard-manager: lorax_launcher: Shard complete standard error output:
 rank=3
2025-03-02T10:12:40.871020Z ERROR shard-manager: lorax_launcher: Shard process was signaled to shutdown with signal 9 rank=3
Error: ShardCannotStart
"""

SHARD_SIGNAL_JSON = (
    '{"timestamp":"2025-03-02T10:11:09.402151Z","level":"ERROR","fields":{"message":"Shard '
    'process was signaled to shutdown with signal 11"},"target":"text_generation_launcher",'
    '"span":{"rank":0,"name":"shard-manager"},"spans":[{"rank":0,"name":"shard-manager"}]}\n'
)

LAUNCHER_TAIL_ONLY_AFTER_STDERR = """\
2025-03-02T10:11:09.402118Z ERROR shard-manager: text_generation_launcher: Shard complete standard error output:

 rank=0
2025-03-02T10:11:09.402151Z ERROR shard-manager: text_generation_launcher: Shard process was signaled to shutdown with signal 4 rank=0
2025-03-02T10:11:09.500410Z ERROR text_generation_launcher: Shard 0 failed to start
"""

# The shard's stderr, relayed under the banner, holds only torch's report of the signal that
# ended it; the paste stops before the launcher's own lines about the shard.
SIGNAL_REPORT_UNDER_BANNER = """\
2025-03-02T10:11:04.120031Z  INFO shard-manager: text_generation_launcher: Waiting for shard to be ready... rank=0
2025-03-02T10:11:14.121877Z  INFO shard-manager: text_generation_launcher: Waiting for shard to be ready... rank=0
2025-03-02T10:11:19.402118Z ERROR shard-manager: text_generation_launcher: Shard complete standard error output:

Signal 6 (SIGABRT) received by PID 2231
 rank=0
"""

NOTHING_UNDER_BANNER = """\
2025-03-02T10:11:04.120031Z  INFO shard-manager: text_generation_launcher: Waiting for shard to be ready... rank=0
2025-03-02T10:11:19.402118Z ERROR shard-manager: text_generation_launcher: Shard complete standard error output:

 rank=0
"""

HEADS_OVER_SHARDS = """\
  File "/opt/conda/lib/python3.10/site-packages/text_generation_server/models/custom_modeling/flash_neox_modeling.py", line 141, in __init__
    raise ValueError(

ValueError: `num_heads` must be divisible by `num_shards` (got `num_heads`: 25 and `num_shards`: 4
 rank=0
2025-03-02T10:11:09.500410Z ERROR text_generation_launcher: Shard 0 failed to start
2025-03-02T10:11:09.500437Z  INFO text_generation_launcher: Shutting down shards
2025-03-02T10:11:09.519402Z  INFO shard-manager: text_generation_launcher: Shard terminated rank=1
Error: ShardCannotStart
"""


def test_a_shard_that_died_of_a_bus_error_is_its_crash_and_names_it() -> None:
    diagnosis = diagnose_text("launcher.log", SHARD_BUS_ERROR)
    assert_reads(diagnosis, "device_fault", first_error="signaled to shutdown with signal 7 rank=1")
    assert diagnosis.culprit_ranks == [1]
    assert "driver_env" in {a.category for a in diagnosis.alternatives}


def test_a_shard_killed_outright_offers_host_memory() -> None:
    diagnosis = diagnose_text("launcher.log", SHARD_KILLED)
    assert_reads(diagnosis, "device_fault", first_error="with signal 9 rank=3", beside=("oom",))


def test_the_json_record_of_a_shard_signal_is_read_the_same_way() -> None:
    diagnosis = diagnose_text("tgi.log", SHARD_SIGNAL_JSON)
    assert diagnosis.category == "device_fault"
    assert "dev.shard_manager_signal" in rules_of(diagnosis)


def test_an_illegal_instruction_before_the_launchers_report_lines_is_the_first_error() -> None:
    """The launcher's `Shard complete standard error output:` header and `Shard 0 failed to
    start` are logged at ERROR around the signal; they say that the shard went, not why."""
    diagnosis = diagnose_text("launcher.log", LAUNCHER_TAIL_ONLY_AFTER_STDERR)
    assert_reads(diagnosis, "device_fault", first_error="with signal 4 rank=0")
    assert diagnosis.culprit_ranks == [0]


def test_heads_that_the_shard_count_does_not_divide_are_the_launch_setting() -> None:
    diagnosis = diagnose_text("console.txt", HEADS_OVER_SHARDS)
    assert_reads(
        diagnosis,
        "config",
        first_error="must be divisible by `num_shards`",
        rule="cfg.parallel_size_divisible",
    )


def test_a_signal_report_relayed_under_the_banner_is_the_first_error_not_the_banner() -> None:
    diagnosis = diagnose_text("launcher.log", SIGNAL_REPORT_UNDER_BANNER)
    assert diagnosis.first_error is not None
    assert "Signal 6 (SIGABRT) received by PID 2231" in diagnosis.first_error.text
    assert "standard error output" not in diagnosis.first_error.text


def test_a_banner_with_nothing_relayed_under_it_is_still_cited() -> None:
    """Counterexample: with no other line, the banner is the only trace of the shard's end."""
    diagnosis = diagnose_text("launcher.log", NOTHING_UNDER_BANNER)
    assert diagnosis.first_error is not None
    assert "Shard complete standard error output:" in diagnosis.first_error.text
