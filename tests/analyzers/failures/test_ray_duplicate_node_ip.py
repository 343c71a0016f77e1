"""Ray nodes that register with the same IP address.

docs/labelling.md#ray-nodes-that-share-one-address: a serving engine's Ray executor counts the
cluster's nodes and their addresses before it places the workers and refuses when two nodes
report one IP (`Every node should have a unique IP address. Got 8 nodes with ... and 7 unique
IP addresses`): two host-network containers on one machine both started Ray, or a host IP was
set by hand to one value everywhere. The cluster was set up wrong: `config`, with
`driver_env` beside it, and the refusal is the first error. Values of our own.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

RULE = "cfg.ray_duplicate_node_ip"

ENGINE_REFUSES = """\
INFO 05-12 10:01:14 [ray_utils.py:330] Connecting to existing Ray cluster at address: 10.2.0.11:6379...
(EngineCore_DP0 pid=4410) ERROR 05-12 10:02:40 [core.py:700] EngineCore failed to start.
(EngineCore_DP0 pid=4410) ERROR 05-12 10:02:40 [core.py:700] RuntimeError: Every node should have a unique IP address. Got 4 nodes with node ids ['a1f0', 'b7c2', 'c9d4', 'd0e8'] and 3 unique IP addresses {'10.2.0.11', '10.2.0.12', '10.2.0.13'}. Please check your network configuration. If you set `VLLM_HOST_IP` environment variable, make sure it is unique for each node.
RuntimeError: Engine core initialization failed. See root cause above. Failed core proc(s): {}
"""

QUOTED_SHORT = """\
RuntimeError: Every node should have a unique IP address. Got 16 nodes with [...] and 15 unique IP addresses.
"""

ADVICE = """\
INFO make sure every node should have a unique IP address before starting Ray
"""


def test_the_executors_refusal_is_the_cluster_setup_and_the_first_error() -> None:
    diagnosis = diagnose_text("serve.log", ENGINE_REFUSES)
    assert_reads(
        diagnosis,
        "config",
        first_error="Every node should have a unique IP address",
        rule=RULE,
        beside=["driver_env"],
    )


def test_the_refusal_quoted_with_its_list_elided_reads_the_same() -> None:
    diagnosis = diagnose_text("vllm.log", QUOTED_SHORT)
    assert_reads(diagnosis, "config", first_error="and 15 unique IP addresses", rule=RULE)


def test_advice_that_names_the_rule_is_no_failure() -> None:
    assert RULE not in rules_of(diagnose_text("serve.log", ADVICE))
