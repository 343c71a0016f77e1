"""A job's own start-up check finds that the ranks were given different configurations.

Trainers and serving engines compare what each rank read before they build anything that
spans ranks (gather each rank's hidden size, layer count, vocabulary or parallel sizes, then
compare), and stop with a sentence of their own that says the configuration differs across
ranks and usually names the rank that holds the odd value. Every rank runs the comparison,
so every rank prints the same sentence: the rank it names is the culprit, not the ranks that
printed it. No collective failed; the ranks' configurations differ: `config`
(docs/labelling.md#a-start-up-check-finds-the-ranks-configured-differently).

Fixtures follow the shape of a gloo job's per-rank logs with Python logging and torchrun's
`[rankN]:` traceback prefix, with wording and values of our own.
"""

from __future__ import annotations

from tests.analyzers.excerpts import diagnose_files, diagnose_text, rules_of


def _check_failed(rank: int, odd: int) -> str:
    p = f"[rank{rank}]: "
    return (
        f"2026-03-02 11:04:17,512 [rank{rank}] INFO trainer: init process group: backend=gloo "
        f"rank={rank} world_size=4\n"
        f"{p}Traceback (most recent call last):\n"
        f'{p}  File "/srv/train/main.py", line 156, in main\n'
        f"{p}    check_config_across_ranks(cfg)\n"
        f'{p}  File "/srv/train/main.py", line 132, in check_config_across_ranks\n'
        f"{p}    raise ValueError(\n"
        f"{p}ValueError: model config differs across ranks: rank {odd} has hidden_size=1024, "
        "num_layers=24; rank 0 has hidden_size=2048, num_layers=24\n"
    )


def test_the_rank_a_config_check_names_is_the_culprit() -> None:
    diagnosis = diagnose_files({f"log_{r}.log": _check_failed(r, 1) for r in range(4)})
    assert diagnosis.category == "config", diagnosis.root_cause
    assert "cfg.ranks_configured_differently" in rules_of(diagnosis)
    assert diagnosis.first_error is not None
    assert "differs across ranks" in diagnosis.first_error.text
    assert diagnosis.culprit_ranks == [1]
    assert diagnosis.confidence >= 0.5


def test_a_check_that_names_no_rank_is_still_config() -> None:
    text = (
        "[rank0]: AssertionError: tensor_model_parallel_size must be the same across all "
        "ranks, got [2, 2, 4, 2]\n"
    )
    diagnosis = diagnose_text("rank0.log", text)
    assert diagnosis.category == "config", diagnosis.root_cause
    assert "cfg.ranks_configured_differently" in rules_of(diagnosis)


def test_a_note_that_a_value_may_differ_across_ranks_is_no_failure() -> None:
    # counterexample: a log line that describes a setting, with no exception in front of it
    text = (
        "INFO trainer: data seed differs across ranks by design (seed + rank)\n"
        "INFO trainer: step 10 loss 2.31\n"
    )
    diagnosis = diagnose_text("rank0.log", text)
    assert "cfg.ranks_configured_differently" not in rules_of(diagnosis)


def _layer_prints(layers: int, stop_in: int | None = None) -> str:
    lines = ["load weights passed"]
    for i in range(layers):
        lines += ["  norm passed", "  attention passed", "  mlp passed", f"layer {i} passed"]
    if stop_in is not None:
        lines.append("  norm passed")
    return "\n".join(lines) + "\n"


PEER_ABORT = (
    "terminate called after throwing an instance of 'gloo::EnforceNotMet'\n"
    "  what():  [enforce fail at /opt/src/gloo/transport/tcp/pair.cc:456] op.preamble.length "
    "<= op.nbytes. 4096 vs 128. Received data size doesn't match expected size. Is there a "
    "distributed collective mismatch in your code?\n"
)
LOST = (
    "[rank{r}]: RuntimeError: [/opt/src/gloo/transport/tcp/pair.cc:553] Connection closed by "
    "peer [127.0.0.1]:40112. This is typically caused by a remote worker crashing.\n"
)


def _override_job(override: str) -> dict[str, str]:
    head = "init process group: backend=gloo world_size=4\n"
    return {
        "log_0.log": head + _layer_prints(3, stop_in=3) + LOST.format(r=0),
        "log_1.log": head + _layer_prints(3, stop_in=3) + LOST.format(r=1),
        "log_2.log": head + _layer_prints(3, stop_in=3) + PEER_ABORT,
        "log_3.log": head + override + _layer_prints(3) + LOST.format(r=3),
    }


def test_a_rank_that_alone_overrode_its_model_size_comes_before_the_size_abort() -> None:
    # The overriding rank runs fewer layers, so its gradient sync meets the peers' layer
    # collective and a peer aborts on the size: the override is the first error.
    files = _override_job(
        "WARNING: NUM_LAYERS=3 overrides num_hidden_layers=4 from model_config.json\n"
    )
    diagnosis = diagnose_files(files)
    assert diagnosis.first_error is not None
    assert "overrides num_hidden_layers=4" in diagnosis.first_error.text
    assert diagnosis.category == "config", diagnosis.root_cause
    assert diagnosis.culprit_ranks == [3]


def test_an_override_of_a_setting_that_shapes_nothing_is_not_read() -> None:
    # counterexample: a log level overridden from the environment changes no collective
    files = _override_job("WARNING: LOG_LEVEL=debug overrides log_level=info from config\n")
    diagnosis = diagnose_files(files)
    assert diagnosis.first_error is not None
    assert "op.preamble.length" in diagnosis.first_error.text
    assert "cfg.rank_overrides_model_size" not in rules_of(diagnosis)
