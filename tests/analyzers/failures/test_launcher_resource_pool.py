"""A multi-node launcher that refuses the hosts and slots it was given.

docs/labelling.md#a-hostfile-or-resource-list-the-launcher-refuses: DeepSpeed's runner turns
the hostfile and the include/exclude options into a pool of hosts and slots before it starts
anything, and refuses a line it cannot read, a host listed twice, an empty file, or a host or
slot the options name that the pool lacks; DeepSpeed-MII places its replicas on that pool and
refuses a request larger than it. Nothing ran yet: the job's launch settings, `config`, and the
refusal is the first error. A plain Python error raised while the runner parses those settings
(a slot list that is not a number) is read the same way. Hosts, slots and paths are our own, in
the tools' real wordings.
"""

from __future__ import annotations

import pytest

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

REFUSALS = [
    "ValueError: Hostfile contains a bad entry: gpu-b12 slot=8, unable to proceed with launching",
    "ValueError: Hostfile contains multiple entries for gpu-b12, unable to proceed with launching",
    "ValueError: Hostfile is empty or not formatted correctly, unable to proceed with launching.",
    "ValueError: Hostname 'gpu-b13' not found in hostfile",
    "ValueError: No slot '6' specified on host 'gpu-b12'",
]


@pytest.mark.parametrize("line", REFUSALS)
def test_a_hostfile_or_resource_list_the_runner_refuses_is_config(line: str) -> None:
    diagnosis = diagnose_text("launcher.log", line + "\n")
    assert_reads(
        diagnosis,
        "config",
        first_error=line.removeprefix("ValueError: ")[:30],
        rule="cfg.launcher_resource_pool_refused",
    )


# Newer runners log the file's text at ERROR level before they raise: the same refusal, stated
# first.
LOGGED_THEN_RAISED = """\
[2026-05-02 10:11:09,871] [ERROR] [runner.py:231:_parse_hostfile] Bad hostfile text: ['gpu-b11 slots=8\\n', 'gpu-b12 slot=8\\n']
Traceback (most recent call last):
  File "/opt/venv/bin/deepspeed", line 6, in <module>
    main()
  File "/opt/venv/lib/python3.11/site-packages/deepspeed/launcher/runner.py", line 430, in main
    resource_pool = fetch_hostfile(args.hostfile)
ValueError: Hostfile contains a bad entry: gpu-b12 slot=8, unable to proceed with launching
"""


def test_the_runner_logging_the_bad_file_first_is_the_same_refusal() -> None:
    diagnosis = diagnose_text("launcher.log", LOGGED_THEN_RAISED)
    assert_reads(
        diagnosis,
        "config",
        first_error="Bad hostfile text",
        rule="cfg.launcher_resource_pool_refused",
    )


# The runner's note that it found no hostfile is no refusal: it runs on the local GPUs.
NO_HOSTFILE_NOTE = (
    "[2026-05-02 10:11:09,871] [WARNING] [runner.py:202:fetch_hostfile] Unable to find "
    "hostfile, will proceed with training with local resources only.\n"
)


def test_the_runner_noting_no_hostfile_is_no_refusal() -> None:
    diagnosis = diagnose_text("launcher.log", NO_HOSTFILE_NOTE)
    assert "cfg.launcher_resource_pool_refused" not in rules_of(diagnosis)


# A slot list with nothing after the host's colon: Python's int() refuses the empty text inside
# the runner's own parsing of the include option.
SLOT_LIST_NOT_A_NUMBER = """\
Traceback (most recent call last):
  File "/opt/venv/bin/deepspeed", line 6, in <module>
    main()
  File "/opt/venv/lib/python3.11/site-packages/deepspeed/launcher/runner.py", line 441, in main
    active_resources = parse_inclusion_exclusion(resource_pool, args.include, args.exclude)
  File "/opt/venv/lib/python3.11/site-packages/deepspeed/launcher/runner.py", line 351, in parse_inclusion_exclusion
    return parse_resource_filter(active_resources, include_str=inclusion, exclude_str=exclusion)
  File "/opt/venv/lib/python3.11/site-packages/deepspeed/launcher/runner.py", line 297, in parse_resource_filter
    slots = [int(x) for x in slots.split(SLOT_SEP)]
ValueError: invalid literal for int() with base 10: ''
"""

# Python before 3.12 adds the list comprehension's own frame below the runner's function.
SLOT_LIST_IN_A_COMPREHENSION = """\
  File "/opt/venv/lib/python3.9/site-packages/deepspeed/launcher/runner.py", line 297, in parse_resource_filter
    slots = [int(x) for x in slots.split(SLOT_SEP)]
  File "/opt/venv/lib/python3.9/site-packages/deepspeed/launcher/runner.py", line 297, in <listcomp>
    slots = [int(x) for x in slots.split(SLOT_SEP)]
ValueError: invalid literal for int() with base 10: ''
"""

# Counterexample: the same refusal while a sample is read keeps the number rule's reading.
SAMPLE_NOT_A_NUMBER = """\
Traceback (most recent call last):
  File "/srv/job/data.py", line 57, in __getitem__
    label = int(row["label"])
ValueError: invalid literal for int() with base 10: ''
"""


def test_a_number_refused_while_the_runner_parses_its_slots_is_config() -> None:
    diagnosis = diagnose_text("launcher.log", SLOT_LIST_NOT_A_NUMBER)
    assert_reads(diagnosis, "config", first_error="invalid literal for int()")


def test_the_comprehension_frame_under_the_runner_is_still_the_runner_parsing() -> None:
    diagnosis = diagnose_text("launcher.log", SLOT_LIST_IN_A_COMPREHENSION)
    assert_reads(diagnosis, "config", first_error="invalid literal for int()")


def test_a_number_refused_while_reading_a_sample_is_not_a_launch_setting() -> None:
    diagnosis = diagnose_text("train.log", SAMPLE_NOT_A_NUMBER)
    assert diagnosis.category == "other", diagnosis.root_cause


def test_replicas_the_pool_cannot_hold_are_config() -> None:
    line = "ValueError: Only able to place 1 replicas, but 4 replicas were requested.\n"
    diagnosis = diagnose_text("serve.log", line)
    assert_reads(
        diagnosis,
        "config",
        first_error="Only able to place 1 replicas",
        rule="cfg.serving_replicas_exceed_resource_pool",
    )


def test_a_placement_that_fit_is_no_refusal() -> None:
    line = "[2026-05-02 10:11:09,871] [INFO] [server.py:88] placed 2 replicas on 16 GPUs\n"
    diagnosis = diagnose_text("serve.log", line)
    assert "cfg.serving_replicas_exceed_resource_pool" not in rules_of(diagnosis)
