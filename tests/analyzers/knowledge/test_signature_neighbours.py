"""The neighbours a signature declares (`also`, `also_if` in analyzers/knowledge/signatures.yaml)
are the ones docs/labelling.md names for its class of line.

Which label the guide calls defensible beside another is written in prose, often for several
rules in one section and with counterexamples that offer nothing, so it cannot be read off the
guide by a pattern. The signatures below were reviewed by hand against the guide: each row
quotes the words that name the neighbours (kept in the guide, so the quote cannot drift) and
the labels the signature has to declare; an empty tuple records a review that found none.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from analyzers.classify.rules import load_knowledge
from tests.analyzers.excerpts import alternative_labels, diagnose_text

GUIDE = Path(__file__).resolve().parents[3] / "docs" / "labelling.md"
SIGNATURES = {sig.id: sig for sig in load_knowledge().signatures}
CONFIDENT = 0.8  # the calibrated band a line the guide leaves open must stay below

REVIEWED = [
    # (signature, the guide's words for its class of line, neighbours it declares)
    (
        "hccl.store_unreachable",
        "the first of them is the first error, `hccl` with `hang` as the alternative",
        ("hang",),
    ),
    (
        "hccl.store_timeout",
        "All of these are waits and read as the store's (`hccl`), with `hang` beside them",
        ("hang",),
    ),
    (
        "hccl.store_clients_missing",
        "All of these are waits and read as the store's (`hccl`), with `hang` beside them",
        ("hang",),
    ),
    (
        "hccl.cluster_exception_location",
        "says nothing about a crash: `hccl`, with `hang` beside it",
        ("hang",),
    ),
    (
        "hccl.peer_heartbeat_lost",
        "`device_fault` (a rank that went away) is the alternative the line itself suggests",
        ("device_fault",),
    ),
    (
        "hccl.named_timeout",
        "never reached its root or its peers",
        ("hang",),
    ),
    (
        "hccl.topo_exchange_timeout",
        "never reached its root or its peers",
        ("hang",),
    ),
    (
        "hccl.rank_info_detect_timeout",
        "never reached its root or its peers",
        ("hang",),
    ),
    (
        "hccl.nccl_collective_mismatch_may_hang",
        "the count only suggests why, so `hang` is offered beside it",
        ("hang",),
    ),
    (
        "oom.implausible_allocation_size",
        "with `operator` (an op's workspace or tiling size) and `shape_mismatch`",
        ("operator", "shape_mismatch"),
    ),
    (
        "op.atb_context_create_failed",
        "so `config` is offered beside it and the answer stays below the confident band",
        ("config",),
    ),
    # reviewed, and the guide names no neighbour for the class: ATB's input check at setup is
    # the op's own refusal, torchrun's rendezvous timeout is read as the wait for other nodes
    ("op.atb_setup_failed", "", ()),
    ("hccl.elastic_rendezvous_timeout", "", ()),
]


def _guide_text() -> str:
    return " ".join(GUIDE.read_text(encoding="utf-8").split())


def _declared(signature_id: str) -> tuple[str, ...]:
    signature = SIGNATURES[signature_id]
    return (*signature.also, *(label for label, _ in signature.also_if))


@pytest.mark.parametrize(
    ("signature_id", "quote", "neighbours"), REVIEWED, ids=[row[0] for row in REVIEWED]
)
def test_a_reviewed_signature_declares_the_neighbours_its_guide_paragraph_names(
    signature_id: str, quote: str, neighbours: tuple[str, ...]
) -> None:
    assert sorted(_declared(signature_id)) == sorted(neighbours)
    assert quote in _guide_text()


STORE_KEY_WAIT = (
    "torch.distributed.DistStoreError: wait timeout after 1800000ms, keys: /default_pg/0//cuda//0\n"
)
STORE_CLIENTS = (
    "torch.distributed.DistStoreError: Timed out after 601 seconds waiting for clients. "
    "2/4 clients joined.\n"
)
STORE_CONNECT = (
    "torch.distributed.DistNetworkError: The client socket has timed out after 1800000ms "
    "while trying to connect to (10.0.0.1, 29500).\n"
)
CLUSTER_ROW = (
    "Cluster Exception Location[IP/ID]:[192.0.2.11/6], Arrival Time:[Thu Nov 13 17:08:45 2025], "
    "ExceptionType:[{kind}], Possible Reason:1.{reason}\n"
)
STUCK_ROW = CLUSTER_ROW.format(kind="Stuck Occurred", reason="Host process is stuck")
HEARTBEAT_ROW = CLUSTER_ROW.format(kind="Heartbeat Lost Occurred", reason="Process has exited")
CONNECT_TIMEOUT = (
    "[ERROR] HCCL(77,python):2026-01-01-01:01:01.001.001 [topoinfo_exchange_agent.cc:91] [77]"
    "[Connect] connect to server timeout, please check HCCL_CONNECT_TIMEOUT (120s) and the "
    "network\n"
)
ROOT_TIMEOUT = (
    "[ERROR] HCCL(22310,python):2026-05-14-08:02:41.118.402 [topoinfo_exchange_server.cc:113] "
    "[22544][Get][Connection]topo exchange server get socket timeout! timeout[600 s]\n"
)
ROOT_DETECT = (
    "EI0015: [PID: 310] 2026-05-02-11:00:01.000.002 Failed to collect cluster information of "
    "the communicator based on rootInfo detection.\n"
)

OPEN_WAITS = [
    # (case, log, the neighbour the guide names)
    ("a store key wait", STORE_KEY_WAIT, "hang"),
    ("a store that counted too few clients", STORE_CLIENTS, "hang"),
    ("a connect to the store that timed out", STORE_CONNECT, "hang"),
    ("a stuck peer HCCL located", STUCK_ROW, "hang"),
    ("a set-up connect past HCCL_CONNECT_TIMEOUT", CONNECT_TIMEOUT, "hang"),
    ("a root whose ranks never came", ROOT_TIMEOUT, "hang"),
    ("EI0015's root detection", ROOT_DETECT, "hang"),
]


@pytest.mark.parametrize(
    ("text", "neighbour"), [row[1:] for row in OPEN_WAITS], ids=[row[0] for row in OPEN_WAITS]
)
def test_a_wait_the_log_cannot_explain_offers_its_neighbour_below_the_confident_band(
    text: str, neighbour: str
) -> None:
    diagnosis = diagnose_text("job/rank0.log", text)
    assert diagnosis.category == "hccl"
    assert neighbour in alternative_labels(diagnosis)
    assert diagnosis.confidence < CONFIDENT
    offered = next(alt for alt in diagnosis.alternatives if alt.category == neighbour)
    assert 0 < offered.score < diagnosis.confidence


def test_a_heartbeat_lost_row_offers_a_rank_that_went_away_not_a_stall() -> None:
    diagnosis = diagnose_text("job/rank0.log", HEARTBEAT_ROW)
    assert diagnosis.category == "hccl"
    assert alternative_labels(diagnosis) == ["device_fault"]


def test_a_stuck_row_is_read_by_the_locating_rule_not_the_heartbeat_one() -> None:
    located = SIGNATURES["hccl.cluster_exception_location"]
    assert located.regex.search(STUCK_ROW)
    assert not located.regex.search(HEARTBEAT_ROW)
