"""Two copies of one generated protobuf file loaded into a process.

docs/labelling.md#two-copies-of-one-protobuf-file. Every generated `.proto` registers itself
in protobuf's process-wide descriptor database when its library loads. When two libraries
carry their own copy of the same file (a tensor-engine wheel from another CANN release than the
one installed, two builds of one framework side by side), the second registration is refused
(`[libprotobuf ERROR ...] File already exists in database: <file>.proto`) and protobuf then
aborts on its own check (`CHECK failed: GeneratedDatabase()->Add(encoded_file_descriptor,
size)`), which a compile backend re-raises as a `RuntimeError`. The installed packages do not
fit: `config`, with `driver_env` beside it; the duplicate-file line is the first error.
Counterexample: protobuf's warning about a deprecated field is no failure. Fixtures are in the
real shapes with values of our own.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

DUPLICATE_PROTO = """\
[libprotobuf ERROR descriptor_database.cc:641] File already exists in database: op_mapping_info.proto
[libprotobuf FATAL descriptor.cc:1368] CHECK failed: GeneratedDatabase()->Add(encoded_file_descriptor, size):
torch._dynamo.exc.BackendCompilerFailed: backend='npu_backend' raised:
RuntimeError: CHECK failed: GeneratedDatabase()->Add(encoded_file_descriptor, size):
"""

ONLY_THE_CHECK = """\
terminate called after throwing an instance of 'google::protobuf::FatalException'
  what():  CHECK failed: GeneratedDatabase()->Add(encoded_file_descriptor, size):
"""

DEPRECATION_NOTE = """\
[libprotobuf WARNING google/protobuf/text_format.cc:337] Warning parsing text-format model.Config: 12:3: text format contains deprecated field "legacy_mode"
"""


def test_a_proto_file_registered_twice_is_the_installation() -> None:
    diagnosis = diagnose_text("run.log", DUPLICATE_PROTO)
    assert_reads(
        diagnosis,
        "config",
        first_error="File already exists in database: op_mapping_info.proto",
        beside=("driver_env",),
    )


def test_the_check_alone_reads_the_same() -> None:
    diagnosis = diagnose_text("run.log", ONLY_THE_CHECK)
    assert_reads(diagnosis, "config", first_error="GeneratedDatabase()->Add")


def test_a_deprecated_field_warning_is_no_failure() -> None:
    diagnosis = diagnose_text("run.log", DEPRECATION_NOTE)
    assert "cfg.protobuf_file_registered_twice" not in rules_of(diagnosis)
