"""Loading the diagnosis tree: the shipped file loads, a bad one is refused naming the node."""

from __future__ import annotations

import pytest

from analyzers.tree.loading import TREE_FILE, load_tree, parse_tree
from analyzers.tree.predicates import TreeError


def node(node_id: str, **fields) -> dict:
    return {"id": node_id, "label": "x", "question": "Why?", "guidance": "Look."} | fields


def test_the_shipped_tree_loads_once_per_process():
    assert load_tree() is load_tree()
    assert load_tree(TREE_FILE).root == load_tree().root


def test_a_node_is_refused_with_its_id_and_the_field_it_does_not_know():
    data = {"root": "start", "nodes": [node("start", colour="red")]}

    with pytest.raises(TreeError, match=r"node 'start': unknown field\(s\) \['colour'\]"):
        parse_tree(data, case_ids=frozenset())


def test_a_child_that_is_no_node_is_refused():
    data = {"root": "start", "nodes": [node("start", children=["missing"])]}

    with pytest.raises(TreeError, match="missing"):
        parse_tree(data, case_ids=frozenset())
