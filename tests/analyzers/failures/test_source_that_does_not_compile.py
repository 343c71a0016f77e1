"""A Python file that does not compile is a plain code bug of that file.

Python compiles a module when it is first imported, so a source file with a statement no
interpreter accepts stops the job at that import: `SyntaxError: keyword argument repeated: x`,
`IndentationError: unexpected indent`. Nothing on the device, in the communication layer or in
the job's options failed: `other`, with `config` beside it (an interpreter older than the syntax
the file uses), and the line is the first error ahead of the wrappers that relay it
(docs/labelling.md#a-source-file-that-does-not-compile). Values of our own in the real formats.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_files, diagnose_text, rules_of

EDITED_MODULE_UNDER_RAY = """\
Traceback (most recent call last):
  File "/home/dev/rl/launch/async_main.py", line 214, in <module>
    main()
  File "/home/dev/rl/trainer/main.py", line 88, in run
    ray.get(runner.run.remote(config))
  File "/opt/envs/rl/lib/python3.10/site-packages/ray/_private/worker.py", line 1026, in get_objects
    raise value.as_instanceof_cause()
ray.exceptions.RayTaskError(SyntaxError): ray::TaskRunner.run() (pid=40721, ip=10.3.0.17, actor_id=9f03b1c2aa7e44d0e1c5d20b01000000, repr=<async_main.TaskRunner object at 0xffe0c1a2b3d0>)
  File "/home/dev/rl/launch/async_main.py", line 131, in run
    from rl.launch.weight_sync import WeightSynchronizer
  File "/home/dev/rl/launch/weight_sync.py", line 64
    group_name='actor_rollout',
    ^^^^^^^^^^^^^^^^^^^^^^^^^^
SyntaxError: keyword argument repeated: group_name
[ERROR] 2026-03-04-11:20:31 (PID:40712, Device:-1, RankID:-1) ERR99999 UNKNOWN applicaiton exception
"""


def test_a_module_that_does_not_compile_is_a_code_bug_ahead_of_its_wrappers() -> None:
    # docs/labelling.md#a-source-file-that-does-not-compile
    diagnosis = diagnose_files({"driver.log": EDITED_MODULE_UNDER_RAY})
    assert_reads(
        diagnosis,
        "other",
        first_error="SyntaxError: keyword argument repeated: group_name",
        rule="framework.source_does_not_compile",
        beside=("config",),
    )


INDENTED_RANK_SCRIPT = """\
[rank1]: Traceback (most recent call last):
[rank1]:   File "/work/train_npu.py", line 12, in <module>
[rank1]:     from model_parts import build_decoder
[rank1]:   File "/work/model_parts.py", line 57
[rank1]:     return layers
[rank1]: IndentationError: unexpected indent
"""


def test_an_indentation_error_in_a_rank_s_import_is_the_same_reading() -> None:
    diagnosis = diagnose_text("rank1.log", INDENTED_RANK_SCRIPT)
    assert_reads(
        diagnosis,
        "other",
        first_error="IndentationError: unexpected indent",
        rule="framework.source_does_not_compile",
    )


def test_a_handler_or_a_template_error_is_not_this_rule() -> None:
    handler = diagnose_text("worker.log", "    except SyntaxError:\n        plugin = None\n")
    assert "framework.source_does_not_compile" not in rules_of(handler)
    template = diagnose_text(
        "server.log",
        "jinja2.exceptions.TemplateSyntaxError: expected token 'end of print statement', "
        "got 'name'\n",
    )
    assert "framework.source_does_not_compile" not in rules_of(template)


def test_a_syntax_warning_is_no_failure() -> None:
    diagnosis = diagnose_text(
        "train.log",
        '/work/utils.py:40: SyntaxWarning: invalid escape sequence "\\d"\n'
        '  pattern = re.compile("\\d+")\n',
    )
    assert "framework.source_does_not_compile" not in rules_of(diagnosis)
