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
        assert list(got) == list(want)
        for k in want:
            _same(got[k], want[k])
    elif isinstance(want, (list, tuple)):
        assert len(got) == len(want)
        for g, w in zip(got, want):
            _same(g, w)
    elif isinstance(want, np.ndarray):
        assert got.dtype == want.dtype
        np.testing.assert_array_equal(got, want)
    else:
        assert got == want


def test_flatten_order_and_leaves():
    t = _tree()
    leaves, s = nest.flatten(t)
    # Dict insertion order (not sorted), depth first; None and strings are leaves.
    assert len(leaves) == 6 and s.num_leaves == 6
    np.testing.assert_array_equal(leaves[0], np.arange(3.0))
    assert leaves[1:3] == [1, 2.5]
    np.testing.assert_array_equal(leaves[3], np.ones((2, 2)))
    assert leaves[4:] == [None, "s"]
    assert all(a is b for a, b in zip(nest.leaves(t), leaves))
    assert leaves[0] is t["b"][0]  # leaves themselves, not copies


def test_round_trip_keeps_types():
    t = _tree()
    leaves, s = nest.flatten(t)
    back = nest.unflatten(s, leaves)
    _same(back, t)
    assert isinstance(back["a"], Point) and back["a"].x is t["a"].x
    assert type(back["b"][1]) is tuple and type(back["b"]) is list


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
    leaves, s = nest.flatten(t)
    _same(nest.unflatten(s, leaves), t)
    assert s.num_leaves == len(leaves)


def test_unflatten_with_new_leaves():
    t = {"w": np.ones(2), "b": [np.zeros(3), np.zeros(1)]}
    _, s = nest.flatten(t)
    out = nest.unflatten(s, ["W", "B0", "B1"])
    assert out == {"w": "W", "b": ["B0", "B1"]}
    out = nest.unflatten(s, iter([1, 2, 3]))  # any iterable of leaves
    assert out == {"w": 1, "b": [2, 3]}


def test_unflatten_wrong_number_of_leaves():
    _, s = nest.flatten({"a": 1, "b": [2, 3]})
    with pytest.raises(ValueError):
        nest.unflatten(s, [1, 2])
    with pytest.raises(ValueError):
        nest.unflatten(s, [1, 2, 3, 4])


def test_structure_equality():
    s1 = nest.flatten({"a": [1, 2], "b": 3})[1]
    assert s1 == nest.flatten({"a": [np.ones(1), "x"], "b": None})[1]  # leaves do not matter
    assert s1 != nest.flatten({"b": 3, "a": [1, 2]})[1]  # key order does
    assert s1 != nest.flatten({"a": (1, 2), "b": 3})[1]  # list vs tuple
    assert s1 != nest.flatten({"a": [1, 2, 3], "b": 3})[1]
    assert nest.flatten(Point(1, 2))[1] != nest.flatten((1, 2))[1]  # named tuple vs tuple


def test_map_one_and_several_nests():
    t = {"w": np.arange(3.0), "b": [np.ones(2), (np.full(1, 4.0),)]}
    doubled = nest.map(lambda a: a * 2, t)
    _same(doubled, {"w": np.arange(3.0) * 2, "b": [np.ones(2) * 2, (np.full(1, 8.0),)]})
    summed = nest.map(lambda a, b, c: a + b - c, t, doubled, t)
    _same(summed, doubled)
    assert nest.map(lambda a: a + 1, Point(1, 2)) == Point(2, 3)
    assert isinstance(nest.map(lambda a: a, Point(1, 2)), Point)
    # The function sees matching leaves, in order.
    seen = []
    nest.map(lambda a, b: seen.append((a, b)), {"p": 1, "q": [2, 3]}, {"p": "x", "q": ["y", "z"]})
    assert seen == [(1, "x"), (2, "y"), (3, "z")]


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
    leaves, _ = nest.flatten({"box": b})
    assert len(leaves) == 1 and leaves[0] is b
    nest.register_node(Box, lambda x: (list(x.items), x.label), lambda aux, children: Box(aux, list(children)))
    t = {"box": b, "n": [Box("inner", [5.0])]}
    leaves, s = nest.flatten(t)
    assert len(leaves) == 3 and leaves[2] == 5.0
    back = nest.unflatten(s, leaves)
    assert isinstance(back["box"], Box) and back["box"].label == "lbl"
    np.testing.assert_array_equal(back["box"].items[1], np.zeros(3))
    assert isinstance(back["n"][0], Box) and back["n"][0].label == "inner" and back["n"][0].items == [5.0]
    m = nest.map(lambda a: a + 1, t)
    assert isinstance(m["box"], Box) and m["box"].label == "lbl"
    np.testing.assert_array_equal(m["box"].items[0], np.full(2, 2.0))
    assert m["n"][0].items == [6.0]
    # Two boxes with different aux data are different structures.
    with pytest.raises(ValueError):
        nest.map(lambda a, c: a, Box("a", [1]), Box("b", [1]))


def test_arrays_are_leaves_not_containers():
    a = np.arange(6.0).reshape(2, 3)
    leaves, s = nest.flatten([a, np.float64(2.0)])
    assert len(leaves) == 2 and leaves[0] is a and s.num_leaves == 2


def test_defaultdict_round_trip():
    d = collections.defaultdict(list, {"a": 1, "b": [2]})
    leaves, s = nest.flatten(d)
    assert leaves == [1, 2]
    back = nest.unflatten(s, leaves)
    assert type(back) is collections.defaultdict and dict(back) == {"a": 1, "b": [2]}
    assert back.default_factory is list
