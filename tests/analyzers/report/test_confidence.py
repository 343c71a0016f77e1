"""How sure a diagnosis is: a figure in the report's range whatever the penalties add up to."""

from __future__ import annotations

from analyzers.causal.chain import CausalChain
from analyzers.classify.matches import Classified
from analyzers.classify.tiers import TIER_CASCADE, TIER_CAUSE, TIER_SYMPTOM
from analyzers.report.confidence import confidence_of
from tests.analyzers.classified import line, signature


def _line(
    category: str,
    weight: int,
    tier: float = TIER_CASCADE,
    rule: str = "",
    exit_record: bool = False,
    warned_by: tuple[str, ...] = (),
    echo: bool = False,
) -> Classified:
    read_by = signature(
        rule or f"{category}.rule",
        category,
        weight=weight,
        cause_if_silent=exit_record,
        warned_by=warned_by,
        echoes_end=echo,
    )
    return line(read_by, tier)


def _chain(first: Classified, *others: Classified) -> CausalChain:
    return CausalChain(first=first, top=[first, *others])


def test_a_weak_first_error_contested_by_another_label_is_not_below_zero() -> None:
    # a launcher's summary (weight 12, trusted 0.4) beside a line of another label at its tier
    first = _line("other", 12)
    chain = _chain(first, _line("device_fault", 20))
    assert confidence_of(chain, "other", None) == 0.0


def test_an_uncontested_first_error_keeps_its_weighted_figure() -> None:
    first = _line("device_fault", 20)
    chain = _chain(first)
    assert confidence_of(chain, "device_fault", None) == 0.08


def test_a_warning_cited_ahead_of_its_own_error_is_as_sure_as_the_error() -> None:
    # a store's per-address warning put first, the same rule's give-up error after it
    warning = _line("hccl", 81, TIER_SYMPTOM, "hccl.store_port")
    error = _line("hccl", 81, TIER_CAUSE, "hccl.store_port")
    chain = _chain(warning, error)
    assert confidence_of(chain, "hccl", None) == 0.81


def test_a_warning_of_another_rule_keeps_its_own_tier() -> None:
    warning = _line("hccl", 81, TIER_SYMPTOM, "hccl.store_port")
    other = _line("hccl", 81, TIER_CAUSE, "hccl.other_rule")
    chain = _chain(warning, other)
    assert confidence_of(chain, "hccl", None) == round(0.81 * 0.8, 2)


def test_a_warning_of_a_rule_the_error_lists_under_warned_by_is_as_sure_as_the_error() -> None:
    # a connect with no route to the store, then c10d's summary that no address answered
    warning = _line("hccl", 81, TIER_SYMPTOM, "hccl.store_no_route")
    error = _line(
        "hccl", 81, TIER_CAUSE, "hccl.store_unreachable", warned_by=("hccl.store_no_route",)
    )
    assert confidence_of(_chain(warning, error), "hccl", None) == 0.81


def test_a_launchers_exit_record_of_a_rank_that_logged_its_error_contests_nothing() -> None:
    # peers lost a rank that left (`Connection closed by peer`, weight 30, trusted 0.4); torchrun's
    # `failed (exitcode: 1) local_rank: 0` sums up the error rank 0 printed itself
    first = _line("hccl", 30, rule="hccl.peer_connection_closed")
    summary = _line("device_fault", 20, rule="dev.launcher_child_exit_code", exit_record=True)
    chain = _chain(first, summary)
    assert confidence_of(chain, "hccl", None) == 0.12


def test_an_exit_record_read_as_a_silent_ranks_own_failure_still_contests() -> None:
    # promoted to a cause: the rank said nothing, so the record is a reading of its own
    first = _line("hccl", 30, rule="hccl.peer_connection_closed")
    death = _line("device_fault", 20, TIER_CAUSE, "dev.launcher_child_exit_code", exit_record=True)
    chain = _chain(first, death)
    assert confidence_of(chain, "hccl", None) == 0.02


def test_a_label_only_the_learned_words_gave_stays_below_the_calibrated_band() -> None:
    # a catch-all rule's `other` at full trust, relabelled by the words alone
    first = _line("other", 90, TIER_CAUSE)
    chain = _chain(first)
    assert confidence_of(chain, "oom", None) == 0.9
    assert confidence_of(chain, "oom", None, by_words=True) == 0.45


def test_a_helper_echoing_that_its_main_process_went_away_contests_nothing() -> None:
    # ranks report their collective's inner-error tail (weight 30, trusted 0.4); the operator
    # compiler's workers then log that their main process disappeared, which says only that
    # the process ended, not why
    first = _line("hccl", 30, rule="hccl.inner_error_collective_op")
    echo = _line("device_fault", 30, rule="dev.compile_worker_parent_gone", echo=True)
    assert confidence_of(_chain(first, echo), "hccl", None) == 0.12


def test_a_line_of_another_label_that_says_what_failed_still_contests() -> None:
    first = _line("hccl", 30, rule="hccl.inner_error_collective_op")
    other = _line("device_fault", 30, rule="dev.segfault_record")
    assert confidence_of(_chain(first, other), "hccl", None) == 0.02


def test_a_line_that_stepped_aside_for_the_first_error_vouches_at_its_own_tier() -> None:
    # a driver's warning of why no device is there (tier lowered for a warning), then the
    # verdict that no device was found, demoted because its rule yields to the warning's
    warning = _line("driver_env", 84, TIER_SYMPTOM, "env.driver_warning")
    verdict = line(
        signature(
            "env.no_device", "driver_env", weight=88, yields_to_bundle=("env.driver_warning",)
        ),
        TIER_CASCADE,
    )
    verdict.demoted = True
    chain = CausalChain(first=warning, top=[warning], cascades=[verdict])
    assert confidence_of(chain, "driver_env", None) == 0.84


def test_a_demoted_line_of_a_rule_that_names_another_reason_vouches_for_nothing() -> None:
    warning = _line("driver_env", 84, TIER_SYMPTOM, "env.driver_warning")
    verdict = line(
        signature("env.no_device", "driver_env", weight=88, yields_to_bundle=("env.other",)),
        TIER_CASCADE,
    )
    verdict.demoted = True
    chain = CausalChain(first=warning, top=[warning], cascades=[verdict])
    assert confidence_of(chain, "driver_env", None) == round(0.84 * 0.8, 2)
