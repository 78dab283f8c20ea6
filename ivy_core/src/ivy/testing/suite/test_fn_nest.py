"""``ivy.nest``: flatten / unflatten / map / leaves over dict, list, tuple and named-tuple nests,
structure mismatches, and registered container types. Backend-free: these tests take no backend
fixture and use NumPy arrays and Python objects as leaves.
"""

from __future__ import annotations

import collections
from typing import NamedTuple

import numpy as np
import pytest

import ivy
from ivy.testing._helpers.facts import expect, expect_cmp, expect_is, expect_type

nest = getattr(ivy, "nest", None)  # None under the old core (the module skips)


class Point(NamedTuple):
    x: object
    y: object


def _tree():
    return {
        "b": [np.arange(3.0), (1, 2.5)],
        "a": Point(x=np.ones((2, 2)), y={"deep": [None, "s"]}),
        "c": (),
        "d": {},
    }


def _same(got, want):
    """Deep equality with exact container types (arrays compared by value and dtype)."""
    assert type(got) is type(want), f"{type(got).__name__} != {type(want).__name__}"
    if isinstance(want, dict):
        expect(list(got), list(want), "ivy.nest: list(got)")
        for k in want:
            _same(got[k], want[k])
    elif isinstance(want, (list, tuple)):
        expect(len(got), len(want), "ivy.nest: len(got)")
        for g, w in zip(got, want):
            _same(g, w)
    elif isinstance(want, np.ndarray):
        expect(got.dtype, want.dtype, "ivy.nest: got.dtype")
        np.testing.assert_array_equal(got, want)
    else:
        expect(got, want, "ivy.nest: got")


def test_flatten_order_and_leaves():
    t = _tree()
    leaves, s = nest.tree_flatten(t)
    # Dict insertion order (not sorted), depth first; None and strings are leaves.
    expect(len(leaves), 6, "ivy.nest.tree_flatten: len(leaves)")
    expect(s.num_leaves, 6, "ivy.nest.tree_flatten: s.num_leaves")
    np.testing.assert_array_equal(leaves[0], np.arange(3.0))
    expect(leaves[1:3], [1, 2.5], "ivy.nest.tree_flatten: leaves[1:3]")
    np.testing.assert_array_equal(leaves[3], np.ones((2, 2)))
    expect(leaves[4:], [None, "s"], "ivy.nest.tree_flatten: leaves[4:]")
    assert all((a is b for a, b in zip(nest.leaves(t), leaves))), (
        "ivy.nest.tree_flatten: expected all((a is b for a, b in zip(nest.leaves(t), leaves)))"
    )
    # leaves themselves, not copies
    expect_is(leaves[0], t["b"][0], "ivy.nest.tree_flatten: leaves[0]")


def test_round_trip_keeps_types():
    t = _tree()
    leaves, s = nest.tree_flatten(t)
    back = nest.tree_unflatten(s, leaves)
    _same(back, t)
    expect_type(back["a"], Point, "ivy.nest.tree_unflatten: back['a']")
    expect_is(back["a"].x, t["a"].x, "ivy.nest.tree_unflatten: back['a'].x")
    expect_is(type(back["b"][1]), tuple, "ivy.nest.tree_unflatten: type(back['b'][1])")
    expect_is(type(back["b"]), list, "ivy.nest.tree_unflatten: type(back['b'])")


@pytest.mark.parametrize(
    "t",
    [
        np.arange(2.0),  # a bare leaf
        [],
        (),
        {},
        [[], [[]]],
        {"x": ()},
        (np.zeros(1),),
        Point(1, 2),
        collections.OrderedDict([("z", 1), ("a", [2, 3])]),
    ],
)
def test_round_trip_edge_cases(t):
    leaves, s = nest.tree_flatten(t)
    _same(nest.tree_unflatten(s, leaves), t)
    expect(s.num_leaves, len(leaves), "ivy.nest.tree_unflatten: s.num_leaves")


def test_unflatten_with_new_leaves():
    t = {"w": np.ones(2), "b": [np.zeros(3), np.zeros(1)]}
    _, s = nest.tree_flatten(t)
    out = nest.tree_unflatten(s, ["W", "B0", "B1"])
    expect(out, {"w": "W", "b": ["B0", "B1"]}, "ivy.nest.tree_unflatten: out")
    out = nest.tree_unflatten(s, iter([1, 2, 3]))  # any iterable of leaves
    expect(out, {"w": 1, "b": [2, 3]}, "ivy.nest.tree_unflatten: out")


def test_unflatten_wrong_number_of_leaves():
    _, s = nest.tree_flatten({"a": 1, "b": [2, 3]})
    with pytest.raises(ValueError):
        nest.tree_unflatten(s, [1, 2])
    with pytest.raises(ValueError):
        nest.tree_unflatten(s, [1, 2, 3, 4])


def test_structure_equality():
    s1 = nest.tree_flatten({"a": [1, 2], "b": 3})[1]
    # leaves do not matter
    expect(s1, nest.tree_flatten({"a": [np.ones(1), "x"], "b": None})[1], "ivy.nest.tree_flatten (structures): s1")
    # key order does
    expect_cmp(s1, "!=", nest.tree_flatten({"b": 3, "a": [1, 2]})[1], "ivy.nest.tree_flatten (structures): s1")
    # list vs tuple
    expect_cmp(s1, "!=", nest.tree_flatten({"a": (1, 2), "b": 3})[1], "ivy.nest.tree_flatten (structures): s1")
    expect_cmp(s1, "!=", nest.tree_flatten({"a": [1, 2, 3], "b": 3})[1], "ivy.nest.tree_flatten (structures): s1")
    # named tuple vs tuple
    expect_cmp(
        nest.tree_flatten(Point(1, 2))[1],
        "!=",
        nest.tree_flatten((1, 2))[1],
        "ivy.nest.tree_flatten: the structure of a named tuple",
    )


def test_map_one_and_several_nests():
    t = {"w": np.arange(3.0), "b": [np.ones(2), (np.full(1, 4.0),)]}
    doubled = nest.map(lambda a: a * 2, t)
    _same(doubled, {"w": np.arange(3.0) * 2, "b": [np.ones(2) * 2, (np.full(1, 8.0),)]})
    summed = nest.map(lambda a, b, c: a + b - c, t, doubled, t)
    _same(summed, doubled)
    expect(
        nest.map(lambda a: a + 1, Point(1, 2)),
        Point(2, 3),
        "ivy.nest.map: nest.map(lambda a: a + 1, Point(1, 2))",
    )
    expect_type(nest.map(lambda a: a, Point(1, 2)), Point, "ivy.nest.map: nest.map(lambda a: a, Point(1, 2))")
    # The function sees matching leaves, in order.
    seen = []
    nest.map(lambda a, b: seen.append((a, b)), {"p": 1, "q": [2, 3]}, {"p": "x", "q": ["y", "z"]})
    expect(seen, [(1, "x"), (2, "y"), (3, "z")], "ivy.nest.map: seen")


@pytest.mark.parametrize(
    "other",
    [
        {"w": 1, "c": [2, 3]},  # a different key
        {"w": 1, "b": (2, 3)},  # tuple instead of list
        {"w": 1, "b": [2, 3, 4]},  # a longer list
        {"w": 1, "b": [2, [3]]},  # deeper
        {"b": [2, 3], "w": 1},  # another key order
        [1, [2, 3]],  # a list instead of a dict
    ],
)
def test_map_structure_mismatch(other):
    with pytest.raises(ValueError):
        nest.map(lambda a, b: a, {"w": 1, "b": [2, 3]}, other)


class Box:
    """A container type nests do not know until registered."""

    def __init__(self, label, items):
        self.label = label
        self.items = items


def test_register_node():
    b = Box("lbl", [np.ones(2), np.zeros(3)])
    # Unregistered: the whole object is one leaf.
    leaves, _ = nest.tree_flatten({"box": b})
    expect(len(leaves), 1, "ivy.nest.register_node: len(leaves)")
    expect_is(leaves[0], b, "ivy.nest.register_node: leaves[0]")
    nest.register_node(Box, lambda x: (list(x.items), x.label), lambda aux, children: Box(aux, list(children)))
    t = {"box": b, "n": [Box("inner", [5.0])]}
    leaves, s = nest.tree_flatten(t)
    expect(len(leaves), 3, "ivy.nest.register_node: len(leaves)")
    expect(leaves[2], 5.0, "ivy.nest.register_node: leaves[2]")
    back = nest.tree_unflatten(s, leaves)
    expect_type(back["box"], Box, "ivy.nest.register_node: back['box']")
    expect(back["box"].label, "lbl", "ivy.nest.register_node: back['box'].label")
    np.testing.assert_array_equal(back["box"].items[1], np.zeros(3))
    expect_type(back["n"][0], Box, "ivy.nest.register_node: back['n'][0]")
    expect(back["n"][0].label, "inner", "ivy.nest.register_node: back['n'][0].label")
    expect(back["n"][0].items, [5.0], "ivy.nest.register_node: back['n'][0].items")
    m = nest.map(lambda a: a + 1, t)
    expect_type(m["box"], Box, "ivy.nest.register_node: m['box']")
    expect(m["box"].label, "lbl", "ivy.nest.register_node: m['box'].label")
    np.testing.assert_array_equal(m["box"].items[0], np.full(2, 2.0))
    expect(m["n"][0].items, [6.0], "ivy.nest.register_node: m['n'][0].items")
    # Two boxes with different aux data are different structures.
    with pytest.raises(ValueError):
        nest.map(lambda a, c: a, Box("a", [1]), Box("b", [1]))


def test_arrays_are_leaves_not_containers():
    a = np.arange(6.0).reshape(2, 3)
    leaves, s = nest.tree_flatten([a, np.float64(2.0)])
    expect(len(leaves), 2, "ivy.nest.tree_flatten (arrays): len(leaves)")
    expect_is(leaves[0], a, "ivy.nest.tree_flatten (arrays): leaves[0]")
    expect(s.num_leaves, 2, "ivy.nest.tree_flatten (arrays): s.num_leaves")


def test_defaultdict_round_trip():
    d = collections.defaultdict(list, {"a": 1, "b": [2]})
    leaves, s = nest.tree_flatten(d)
    expect(leaves, [1, 2], "ivy.nest.tree_unflatten (defaultdict): leaves")
    back = nest.tree_unflatten(s, leaves)
    expect_is(type(back), collections.defaultdict, "ivy.nest.tree_unflatten (defaultdict): type(back)")
    expect(dict(back), {"a": 1, "b": [2]}, "ivy.nest.tree_unflatten (defaultdict): dict(back)")
    expect_is(back.default_factory, list, "ivy.nest.tree_unflatten (defaultdict): back.default_factory")
