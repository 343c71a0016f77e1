"""Model widths a log's head states, keyed by the width's name (`formats.size_said`)."""

from __future__ import annotations

from analyzers.formats.size_said import size_statements


def test_each_width_is_kept_under_its_name_whatever_stands_before_it() -> None:
    low = b"09:51:03 [rank 3] config /srv/cfg/base_v2.json: hidden=48 layers=4 d_model: 48\n"
    assert size_statements(low) == [["hidden", "48"], ["d_model", "48"]]
    quoted = b'model args {"hidden_size": 4096, "num_attention_heads": 32, "vocab_size": 32000}\n'
    assert size_statements(quoted) == [
        ["hidden_size", "4096"],
        ["num_attention_heads", "32"],
        ["vocab_size", "32000"],
    ]


def test_counts_and_rates_are_no_widths() -> None:
    assert size_statements(b"step 3 hidden states saved, lr=0.001 dim_reduce=2 layers=4\n") == []
    assert size_statements(b"hidden=48.5 d_model=12abc\n") == []


def test_statements_stop_at_the_limit() -> None:
    assert len(size_statements(b"hidden=8 " * 40, limit=3)) == 3


def test_an_expert_capacity_is_a_width_and_its_factor_is_not() -> None:
    low = b"17:41:44 | info     | rank 4/6 | building toy decoder: hidden=32 moe_capacity=10\n"
    assert size_statements(low) == [["hidden", "32"], ["moe_capacity", "10"]]
    assert size_statements(b"router: capacity_factor=1.25 experts=8\n") == []
