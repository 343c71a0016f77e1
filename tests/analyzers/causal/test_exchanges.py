"""A ring exchange whose ranks said whom they send to and whom they wait for.

docs/labelling.md#a-wait-that-names-its-peer: ranks of a ring or pipeline exchange that log
both ends of it (`sending kv to rank 3, waiting for kv from rank 1`) say who should meet whom.
When one rank sends to a peer that waits for someone else, or waits for a peer that sends
elsewhere, every rank times out and the waits alone form a cycle that singles no one out;
the pairs that do not meet do: the one rank every unmatched pair holds is the culprit. Values
are our own, in torch 2.13's and gloo's real wording.
"""

from __future__ import annotations

from tests.analyzers.excerpts import diagnose_files

SEND = (
    "[/__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp/unbound_buffer.cc:129] Timed "
    "out waiting 10000ms for send operation to complete"
)
RECV = (
    "[/__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp/unbound_buffer.cc:78] Timed out "
    "waiting 10000ms for recv operation to complete"
)


def rank_log(rank: int, to: int, frm: int, sends_first: bool) -> str:
    stamp = f"2026-12-06 21:40:1{rank},{300 + rank:03d} [rank{rank}] INFO"
    lines = [f"{stamp} prefill start: 8 tokens"]
    for layer in range(2):
        lines += [
            f"{stamp}  norm passed",
            f"{stamp} layer {layer} kv ring: sending kv to rank {(rank + 1) % 4}, "
            f"waiting for kv from rank {(rank - 1) % 4}",
            f"{stamp}  attention passed",
            f"{stamp}  MoE passed",
            f"{stamp} layer {layer} passed",
        ]
    lines += [
        f"{stamp}  norm passed",
        f"{stamp} layer 2 kv ring: sending kv to rank {to}, waiting for kv from rank {frm}",
        f"2026-12-06 21:40:2{rank},{100 + rank:03d} [rank{rank}] ERROR model run failed: "
        f"{SEND if sends_first else RECV}",
    ]
    return "\n".join(lines) + "\n"


def job(to: dict[int, int], frm: dict[int, int]) -> dict[str, str]:
    return {
        f"job-a41c/log_{rank}.log": rank_log(rank, to[rank], frm[rank], rank in (1, 2))
        for rank in range(4)
    }


RING_TO = {0: 1, 1: 2, 2: 3, 3: 0}
RING_FROM = {0: 3, 1: 0, 2: 1, 3: 2}


def test_the_rank_that_sent_to_a_peer_waiting_for_another_is_the_culprit() -> None:
    diagnosis = diagnose_files(job(RING_TO | {2: 0}, RING_FROM))
    assert diagnosis.category == "hccl"
    assert diagnosis.culprit_ranks == [2]
    assert "sent to rank 0, which waited for rank 3" in (diagnosis.culprit_reason or "")


def test_the_rank_that_waited_for_a_peer_sending_elsewhere_is_the_culprit() -> None:
    diagnosis = diagnose_files(job(RING_TO, RING_FROM | {3: 1}))
    assert diagnosis.culprit_ranks == [3]
    assert "waited for rank 1, which sent to rank 2" in (diagnosis.culprit_reason or "")


def test_unmatched_pairs_that_share_no_rank_single_no_one_out() -> None:
    # two faults: rank 2 sends to rank 0, rank 1 waits for rank 3
    diagnosis = diagnose_files(job(RING_TO | {2: 0}, RING_FROM | {1: 3}))
    assert "exchange" not in (diagnosis.culprit_reason or "")


def test_a_ring_whose_pairs_all_meet_names_no_one_by_them() -> None:
    diagnosis = diagnose_files(job(RING_TO, RING_FROM))
    assert "exchange" not in (diagnosis.culprit_reason or "")


# A pipeline hand-off whose ranks print each end on its own line, the receive first (plain
# prints, as a job bisecting by hand writes them). A rank that printed its send after its
# receive got what it waited for; the rank whose receive names a peer that sent elsewhere,
# while another rank's send to it is left waiting, posted the wrong receive.
CLOSED = (
    "[/__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp/pair.cc:553] Connection closed "
    "by peer [127.0.0.1]:23251. This is typically caused by a remote worker crashing. Check "
    "the logs of the remote worker before reporting an error. GLHF! \U0001f3d6\ufe0f"
)


def handoff_log(rank: int, frm: int | None, to: int | None, error: str, call: str) -> str:
    lines = [" norm passed", " attention passed", " MoE passed", "layer 3 passed"]
    if frm is not None:
        lines.append(f"recv hidden from rank {frm}")
    if to is not None:
        lines.append(f"send hidden to rank {to}")
    lines += [
        "model run failed",
        "Traceback (most recent call last):",
        '  File "/home/user/llm-infer/infer.py", line 184, in pipeline_handoff',
        f"    dist.{call}(buf)",
        '  File "/opt/venv/lib/python3.11/site-packages/torch/distributed/distributed_c10d.py", '
        f"line 2753, in {call}",
        "    work.wait()",
        f"RuntimeError: {error}",
    ]
    return "\n".join(lines) + "\n"


def handoff_job(frm: dict[int, int], to: dict[int, int], errors: dict[int, str]) -> dict[str, str]:
    call = {SEND: "send", RECV: "recv", CLOSED: "barrier"}
    return {
        f"job-c624/log_{rank}.log": handoff_log(
            rank, frm.get(rank), to.get(rank), errors[rank], call[errors[rank]]
        )
        for rank in range(4)
    }


def test_a_stage_that_received_from_a_peer_sending_elsewhere_is_the_culprit() -> None:
    # rank 2 receives from rank 0 (two stages back); rank 1's send to it is never taken
    diagnosis = diagnose_files(
        handoff_job({1: 0, 2: 0, 3: 2}, {0: 1, 1: 2}, {0: CLOSED, 1: SEND, 2: RECV, 3: RECV})
    )
    assert diagnosis.category == "hccl"
    assert diagnosis.culprit_ranks == [2]
    assert "waited for rank 0, which sent to rank 1" in (diagnosis.culprit_reason or "")


def test_a_stage_that_sent_to_a_peer_receiving_from_another_is_the_culprit() -> None:
    # rank 0 sends to rank 2; rank 1 waits for it, rank 2 waits for rank 1
    diagnosis = diagnose_files(
        handoff_job({1: 0, 2: 1, 3: 2}, {0: 2}, {0: SEND, 1: RECV, 2: RECV, 3: RECV})
    )
    assert diagnosis.culprit_ranks == [0]


def test_a_handoff_whose_ends_all_meet_names_no_one_by_them() -> None:
    diagnosis = diagnose_files(
        handoff_job({1: 0, 2: 1, 3: 2}, {0: 1, 1: 2}, {0: CLOSED, 1: SEND, 2: RECV, 3: RECV})
    )
    assert "exchange" not in (diagnosis.culprit_reason or "")
    assert "which sent to" not in (diagnosis.culprit_reason or "")
