"""A KeyError for a model hyperparameter's name is a configuration field that is missing.

docs/labelling.md#config-driver_env-or-weight_load: a `KeyError` whose key names a model
hyperparameter (`num_key_value_heads`, `rope_theta`, ...) is the config the job was given
lacking that field, `config`, with `other` as the alternative. A request or data field is not
such a key and is not read this way.

Fixtures follow torch's `[rankN]:` traceback prefixes with keys, paths and line numbers of our
own.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

# A model builder reading its hyperparameters from a dict that lacks one of them.
CONFIG_FIELD_MISSING = """\
init process group: backend=gloo rank=3 world_size=8 master=10.0.0.5:29500 timeout=30s
building decoder: layers=24 hidden=2048
[rank3]: Traceback (most recent call last):
[rank3]:   File "/srv/llm/serve.py", line 120, in <module>
[rank3]:     main()
[rank3]:   File "/srv/llm/serve.py", line 97, in main
[rank3]:     kv_heads = cfg["num_key_value_heads"]
[rank3]:                ~~~^^^^^^^^^^^^^^^^^^^^^^^
[rank3]: KeyError: 'num_key_value_heads'
"""

# A batch without the field a preprocessing step expects: data, not configuration.
REQUEST_FIELD_MISSING = """\
[rank0]: Traceback (most recent call last):
[rank0]:   File "/srv/llm/batching.py", line 41, in collate
[rank0]:     texts = [item["prompt"] for item in batch]
[rank0]:              ~~~~^^^^^^^^^^
[rank0]: KeyError: 'prompt'
"""


def test_a_missing_hyperparameter_key_is_config() -> None:
    diagnosis = diagnose_text("attempt_0/3/stderr.log", CONFIG_FIELD_MISSING)
    assert_reads(
        diagnosis, "config", first_error="KeyError: 'num_key_value_heads'", beside=("other",)
    )


def test_a_missing_request_field_is_not_config() -> None:
    """Counterexample: a data field's name is no configuration field."""
    diagnosis = diagnose_text("rank_0.log", REQUEST_FIELD_MISSING)
    assert diagnosis.category != "config", diagnosis.root_cause
    assert diagnosis.first_error is not None
    assert "KeyError: 'prompt'" in diagnosis.first_error.text
