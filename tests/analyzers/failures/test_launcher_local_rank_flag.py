"""A script that does not take the `--local_rank` flag its launcher appends.

The DeepSpeed launcher and torch.distributed.launch start each worker with `--local_rank=N`
(`--local-rank=N` from torch 2.0) in front of the script's own arguments. A script whose
parser does not know the flag refuses it: its own command dispatch (`Unknown command:
--local_rank=0`), or HfArgumentParser's list of arguments it did not use. The launch command
or the script's parser has to change (docs/labelling.md#config-driver_env-or-weight_load).
Fixtures are invented tracebacks of a fine-tuning CLI and a trainer script.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

# A wrapper that hands argv to a CLI whose first argument must be a sub-command.
CLI_SUBCOMMAND = """\
Traceback (most recent call last):
  File "/srv/jobs/ds_entry.py", line 9, in <module>
    run()
  File "/opt/venv/lib/python3.11/site-packages/tunekit/cli.py", line 58, in run
    raise NotImplementedError(f"Unknown command: {command}")
NotImplementedError: Unknown command: --local_rank=2
"""

# HfArgumentParser lists what it could not place, torch 2.x spelling.
HF_PARSER = """\
[rank0]: Traceback (most recent call last):
[rank0]:   File "/srv/jobs/finetune.py", line 211, in <module>
[rank0]:     model_args, data_args, training_args = parser.parse_args_into_dataclasses()
[rank0]:   File "/opt/venv/lib/python3.11/site-packages/transformers/hf_argparser.py", line 348, in parse_args_into_dataclasses
[rank0]:     raise ValueError(f"Some specified arguments are not used by the HfArgumentParser: {remaining_args}")
[rank0]: ValueError: Some specified arguments are not used by the HfArgumentParser: ['--local-rank=0']
"""

# The launcher's own record of the command line, and an INFO line naming the flag: no refusal.
LAUNCH_RECORD = """\
[2026-04-07 10:02:11,415] [INFO] [launch.py:256:main] process 7720 spawned with command: ['/opt/venv/bin/python', '-u', 'finetune.py', '--local_rank=0', '--config', 'sft.yaml']
INFO: parsed --local_rank=0 from the command line
"""


def test_a_cli_that_reads_the_flag_as_its_command_is_the_launch_command() -> None:
    diagnosis = diagnose_text("worker.log", CLI_SUBCOMMAND)
    assert_reads(
        diagnosis,
        "config",
        first_error="Unknown command: --local_rank=2",
        rule="cfg.launcher_local_rank_refused",
    )
    assert diagnosis.confidence >= 0.5


def test_hf_argument_parser_leaving_the_flag_unused_is_the_same_refusal() -> None:
    diagnosis = diagnose_text("rank0.log", HF_PARSER)
    assert_reads(
        diagnosis, "config", first_error="--local-rank=0", rule="cfg.launcher_local_rank_refused"
    )


def test_the_launchers_own_command_line_is_no_refusal() -> None:
    diagnosis = diagnose_text("launcher.log", LAUNCH_RECORD)
    assert "cfg.launcher_local_rank_refused" not in rules_of(diagnosis)
    assert diagnosis.first_error is None
