"""Ranks that do not agree on their set-up: one rank's environment lacks a variable the job
reads with `os.environ[...]`.

A `KeyError` whose key is spelt like an environment variable (`MODEL_DIR`) is the job's
start-up, `config`, with `driver_env` beside it; the rank that raised it is the culprit and its
peers' lost connections are the cascade. Counterexamples: a lower-case config field keeps the
missing-field reading, a weight name the loader's.

Fixtures are written here in the shapes of real gloo runs with their own values.

docs/labelling.md#config-driver_env-or-weight_load
"""

from __future__ import annotations

from pathlib import Path

from tests.analyzers.excerpts import diagnose_text
from tests.analyzers.job_bundles import CLOSED, analyze_job, ranks

ENV_FRAMES = (
    '  File "/srv/toy/run_decoder.py", line 116, in read_config',
    '    model_dir = os.environ["MODEL_DIR"]',
    '  File "<frozen os>", line 679, in __getitem__',
)


def test_unset_variable_on_one_rank_is_config_and_blames_it(tmp_path: Path) -> None:
    logs = ranks(4)
    for log in logs:
        if log.rank == 1:
            log.log("ERROR", "model run failed: KeyError: 'DATA_ROOT'")
            log.lines += [
                "Traceback (most recent call last):",
                *ENV_FRAMES,
                "KeyError: 'DATA_ROOT'",
            ]
        else:
            log.loaded().at(420).log("ERROR", f"model run failed: {CLOSED}")
    report = analyze_job(tmp_path, logs).to_dict()
    diagnosis = report["diagnosis"]
    assert diagnosis["category"] == "config"
    assert diagnosis["culprit_ranks"] == [1]
    assert "KeyError: 'DATA_ROOT'" in diagnosis["first_error"]["text"]
    assert "driver_env" in [alt["category"] for alt in diagnosis["alternatives"]]


def test_torch_rank_prefixed_env_keyerror_is_config() -> None:
    text = "\n".join(f"[rank3]: {line}" for line in (*ENV_FRAMES, "KeyError: 'MASTER_ADDR'"))
    assert diagnose_text("rank3.log", text + "\n").category == "config"


def test_lower_case_keys_keep_their_readings() -> None:
    field = diagnose_text("a.log", "[rank2]: KeyError: 'num_experts'\n")
    assert field.category == "config"
    weight = diagnose_text("b.log", "KeyError: 'model.layers.3.mlp.down_proj.weight'\n")
    assert weight.category == "weight_load"
