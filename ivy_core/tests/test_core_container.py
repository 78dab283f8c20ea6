"""ivy.Container and Ivy's safetensors reader/writer, on the numpy backend, against hand-computed
values and the ``safetensors`` package as the independent reference of the file format."""

from __future__ import annotations

import json
import pickle
import struct

import numpy as np
import pytest

import ivy
from ivy import Container


def _c() -> Container:
    return Container({"a": np.array([1.0, 2.0]), "b": {"c": np.array([[3.0]]), "d": np.array(4.0)}})


def test_core_container_nested_dicts_become_containers_with_attribute_access() -> None:
    c = _c()
    assert isinstance(c, dict) and isinstance(c.b, Container)
    np.testing.assert_array_equal(c.b.c, [[3.0]])
    assert c["b"]["d"] == 4.0 and c["b/d"] == 4.0
    c.e = {"f": np.zeros(1)}
    assert isinstance(c.e, Container)
    c["g/h/i"] = np.ones(2)
    assert isinstance(c.g.h, Container) and c.key_chains()[-1] == "g/h/i"
    assert Container(x=1).x == 1 and Container([("y", 2)]).y == 2


def test_core_container_unknown_key_errors_name_the_key() -> None:
    c = _c()
    with pytest.raises(AttributeError, match="'zz'.*'a', 'b'"):
        c.zz  # noqa: B018
    with pytest.raises(KeyError, match="'zz'"):
        c["zz"]
    with pytest.raises(KeyError, match="b/zz"):
        c["b/zz"]
    with pytest.raises(KeyError, match="a/x"):
        c.at_key_chain("a/x")
    with pytest.raises(TypeError):
        Container({1: 2})
    with pytest.raises(ValueError, match="separator"):
        Container({"a/b": 1})


def test_core_container_flat_dict_round_trip_and_order() -> None:
    c = _c()
    flat = c.to_flat_dict()
    assert list(flat) == ["a", "b/c", "b/d"]
    back = Container.from_flat_dict(flat)
    assert back.key_chains() == ["a", "b/c", "b/d"] and isinstance(back.b, Container)
    assert back.all_equal(c)
    plain = c.to_dict()
    assert type(plain) is dict and type(plain["b"]) is dict and plain["b"]["c"] is c.b.c
    assert c.prune_key_chains(["b/c"]).key_chains() == ["a", "b/d"]


def test_core_container_map_with_key_chains() -> None:
    c = _c()
    seen = []
    out = c.map(lambda x, kc: seen.append(kc) or x * 10)
    assert seen == ["a", "b/c", "b/d"]
    np.testing.assert_array_equal(out.a, [10.0, 20.0])
    np.testing.assert_array_equal(out.b.c, [[30.0]])
    part = c.map(lambda x, kc: x + 1, key_chains=["b/d"])
    assert part.b.d == 5.0 and part.a is c.a
    assert isinstance(out.b, Container) and out is not c


def test_core_container_arithmetic_matches_hand_computed_values() -> None:
    c = _c()
    d = Container({"a": np.array([10.0, 20.0]), "b": {"c": np.array([[2.0]]), "d": np.array(8.0)}})
    s = c + d
    np.testing.assert_array_equal(s.a, [11.0, 22.0])
    np.testing.assert_array_equal(s.b.c, [[5.0]])
    np.testing.assert_array_equal((d - c).b.d, 4.0)
    np.testing.assert_array_equal((c * d).a, [10.0, 40.0])
    np.testing.assert_array_equal((d / c).a, [10.0, 10.0])
    np.testing.assert_array_equal((c * 2).a, [2.0, 4.0])
    np.testing.assert_array_equal((2 * c).b.c, [[6.0]])
    np.testing.assert_array_equal((1 - c).a, [0.0, -1.0])
    np.testing.assert_array_equal((12 / c).a, [12.0, 6.0])
    np.testing.assert_array_equal((c**2).a, [1.0, 4.0])
    np.testing.assert_array_equal((2**c).a, [2.0, 4.0])
    np.testing.assert_array_equal((-c).b.d, -4.0)
    np.testing.assert_array_equal(abs(-c).a, [1.0, 2.0])
    np.testing.assert_array_equal((d // c).b.c, [[0.0]])
    np.testing.assert_array_equal((d % c).a, [0.0, 0.0])
    # a plain dict of the same structure works too; an array broadcasts to every leaf
    np.testing.assert_array_equal((c + {"a": 1.0, "b": {"c": 1.0, "d": 1.0}}).a, [2.0, 3.0])
    np.testing.assert_array_equal((c + np.array([1.0, 1.0])).a, [2.0, 3.0])


def test_core_container_arithmetic_with_mismatched_structures_names_the_key_chains() -> None:
    c = _c()
    other = Container({"a": np.ones(2), "b": {"c": np.ones((1, 1)), "x": np.ones(1)}})
    with pytest.raises(ValueError, match=r"only in the first: \['b/d'\]; only in the second: \['b/x'\]"):
        c + other


def test_core_container_comparison_helpers() -> None:
    c = _c()
    assert c.all_equal(c.copy()) and c.all_close(c + 1e-9)
    assert not c.all_close(c + 1e-3)
    assert Container.identical_structure(c, c * 3)
    assert not Container.identical_structure(c, Container(a=1))
    assert Container.structure_diff(c, Container(a=1, z=2)) == (["b/c", "b/d"], ["z"])
    assert not c.all_equal(Container({"a": np.ones(3), "b": {"c": np.ones((1, 1)), "d": np.array(4.0)}}))


def test_core_container_is_a_nest_and_unflatten_rebuilds_containers() -> None:
    c = _c()
    leaves, s = ivy.nest.tree_flatten(c)
    assert len(leaves) == 3
    back = ivy.nest.tree_unflatten(s, [x * 2 for x in leaves])
    assert type(back) is Container and type(back.b) is Container
    np.testing.assert_array_equal(back.b.c, [[6.0]])
    mapped = ivy.nest.map(lambda x, y: x + y, c, c)
    assert type(mapped) is Container and mapped.all_equal(c * 2)


def test_core_container_pytree_hooks_round_trip() -> None:
    c = _c()
    children, aux = ivy.container.pytree_flatten(c)
    assert aux == ("a", "b") and children[1] is c.b
    back = ivy.container.pytree_unflatten(aux, children)
    assert type(back) is Container and back.all_equal(c)


def test_core_container_pretty_print_shows_the_tree_with_shapes_and_dtypes() -> None:
    text = repr(_c())
    assert "a: <array shape=(2,) dtype=float64>" in text
    assert "    b: {\n        c: <array shape=(1, 1) dtype=float64>" in text
    assert repr(Container()) == "Container({})"
    assert str(Container(n=3)) == "Container({\n    n: 3\n})"


def test_core_container_pickles_and_moves_to_a_device() -> None:
    c = _c()
    back = pickle.loads(pickle.dumps(c))
    assert type(back) is Container and back.all_equal(c)
    moved = c.to_device("cpu")
    assert moved.all_equal(c)
    assert c.shapes.to_flat_dict() == {"a": (2,), "b/c": (1, 1), "b/d": ()}
    assert c.num_arrays == 3


# ---------------------------------------------------------------------------------- safetensors

DTYPES = ["float32", "float64", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "bool"]


def _arrays() -> dict:
    rng = np.random.default_rng(0)
    out = {f"t/{d}": (rng.standard_normal((2, 3)) * 50).astype(d) for d in DTYPES}
    out["scalar"] = np.array(3.5, dtype="float32")
    out["empty"] = np.zeros((0, 4), dtype="float32")
    return out


def test_core_safetensors_files_we_write_load_with_the_reference_package(tmp_path) -> None:
    from safetensors.numpy import load_file

    arrays = _arrays()
    c = Container.from_flat_dict(arrays)
    c.save(tmp_path / "c.safetensors")
    ref = load_file(str(tmp_path / "c.safetensors"))
    assert set(ref) == set(arrays)
    for k, a in arrays.items():
        assert ref[k].dtype == a.dtype and ref[k].shape == a.shape, k
        np.testing.assert_array_equal(ref[k], a)
    raw = (tmp_path / "c.safetensors").read_bytes()
    (n,) = struct.unpack("<Q", raw[:8])
    header = json.loads(raw[8 : 8 + n])
    assert header["__metadata__"]["separator"] == "/"
    assert header["t/float32"]["dtype"] == "F32" and header["t/float32"]["shape"] == [2, 3]
    assert (8 + n) % 8 == 0


def test_core_safetensors_files_of_the_reference_package_load_into_a_container(tmp_path) -> None:
    from safetensors.numpy import save_file

    arrays = _arrays()
    save_file(arrays, str(tmp_path / "r.safetensors"), metadata={"who": "reference"})
    c = Container.load(tmp_path / "r.safetensors", backend="numpy")
    assert sorted(c.key_chains()) == sorted(arrays)
    for k, a in arrays.items():
        got = c[k]
        assert got.dtype == a.dtype and got.shape == a.shape, k
        np.testing.assert_array_equal(got, a)
    _, meta = ivy.safetensors.read_header(tmp_path / "r.safetensors")
    assert meta == {"who": "reference"}


def test_core_safetensors_reads_16_bit_floats_as_float32(tmp_path) -> None:
    from safetensors.numpy import save_file

    a = np.array([1.5, -2.25, 65504.0], dtype="float16")
    save_file({"h": a}, str(tmp_path / "h.safetensors"))
    got = ivy.safetensors.load_file(tmp_path / "h.safetensors", backend="numpy")["h"]
    assert got.dtype == np.float32
    np.testing.assert_array_equal(got, a.astype("float32"))


def test_core_safetensors_rejects_bad_files_and_non_arrays(tmp_path) -> None:
    p = tmp_path / "bad.safetensors"
    p.write_bytes(b"\x05\x00")
    with pytest.raises(ValueError, match="not a valid safetensors file: header length"):
        ivy.safetensors.load_file(p)
    with pytest.raises(TypeError, match="'x'"):
        Container(x=3).save(tmp_path / "n.safetensors")
