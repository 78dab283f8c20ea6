"""Composed ops: defaults written against a namespace, bound per backend, overridable natively."""

from __future__ import annotations

import inspect

import numpy as np
import pytest

import ivy
from ivy import _compose, _registry
from ivy._spec import SPECS
from ivy.plugin import BackendImpl, BackendSpec


def test_core_every_composed_default_has_a_spec_and_matching_signature() -> None:
    defaults = _compose.load_defaults()
    assert defaults, "no composed ops registered"
    for name, fn in defaults.items():
        assert name in SPECS, name
        params = list(inspect.signature(fn).parameters.values())[1:]  # drop xp
        spec = list(SPECS[name].signature.parameters.values())
        got = [(p.kind, p.default) + ((p.name,) if p.kind is not p.POSITIONAL_ONLY else ()) for p in params]
        want = [(p.kind, p.default) + ((p.name,) if p.kind is not p.POSITIONAL_ONLY else ()) for p in spec]
        assert got == want, f"{name}: composed {params} vs spec {spec}"


def test_core_bound_compositions_pass_plugin_validation() -> None:
    b = _registry.get_backend("numpy")
    for name in _compose.load_defaults():
        fn = b.ops[name]
        if getattr(fn, "__ivy_composed__", None) is not None:
            assert _registry.signature_mismatch(name, fn) is None, name
            assert str(inspect.signature(fn)) == str(SPECS[name].signature), name


def _fake_backend(overrides: dict) -> _registry.Backend:
    base = _registry.get_backend("numpy")
    impl = BackendImpl(
        # numpy's own ops minus its native versions of composed ops: those stay composed here
        ops={**{k: v for k, v in base.impl.ops.items() if k not in _compose.DEFAULTS}, **overrides},
        array_types=base.impl.array_types,
        dtypes=base.impl.dtypes,
        default_dtypes=base.impl.default_dtypes,
        devices=base.impl.devices,
        default_device=base.impl.default_device,
    )
    spec = BackendSpec(name="fakenp", array_modules=(), load=lambda: impl)
    return _registry.Backend(spec, "fake-np 0", impl)


def test_core_native_implementation_overrides_the_composition() -> None:
    def relu(x, /):  # a native stand-in
        return np.full_like(x, 42.0)

    b = _fake_backend({"relu": relu})
    assert b.ops["relu"] is relu
    assert b.namespace.relu is relu
    assert "relu" in b.native_ops
    # a composed op that uses relu internally would go through the namespace; gelu stays composed
    gelu = b.ops["gelu"]
    assert getattr(gelu, "__ivy_composed__", None) is _compose.DEFAULTS["gelu"]
    assert b.namespace.gelu is gelu
    assert "gelu" not in b.native_ops


def test_core_composition_runs_on_its_backend_namespace() -> None:
    calls = []
    base = _registry.get_backend("numpy")

    def exp(x, /):
        calls.append("exp")
        return base.ops["exp"](x)

    b = _fake_backend({"exp": exp})
    x = np.array([0.0, 1.0, 2.0])
    out = b.calls["softmax"](x)
    np.testing.assert_allclose(out, np.exp(x) / np.exp(x).sum())
    assert calls == ["exp"], "the composition must call the backend's own ops directly"


def test_core_composed_ops_are_in_the_public_namespace_and_documented() -> None:
    for name in _compose.load_defaults():
        ns, _, short = name.rpartition(".")
        public = getattr(getattr(ivy, ns) if ns else ivy, short)
        assert public.__doc__ == SPECS[name].doc


def test_core_missing_primitive_inside_a_composition_says_what_is_missing() -> None:
    base = _registry.get_backend("numpy")
    ops = {k: v for k, v in base.impl.ops.items() if k != "exp" and k not in _compose.DEFAULTS}
    impl = BackendImpl(
        ops=ops,
        array_types=base.impl.array_types,
        dtypes=base.impl.dtypes,
        default_dtypes=base.impl.default_dtypes,
        devices=base.impl.devices,
        default_device=base.impl.default_device,
    )
    b = _registry.Backend(BackendSpec(name="noexp", array_modules=(), load=lambda: impl), "noexp 0", impl)
    # the error names the op the user called, the backend, and the op it lacks
    with pytest.raises(ivy.errors.MissingOpError, match=r"ivy.softmax on the 'noexp' backend needs ivy.exp"):
        b.calls["softmax"](np.array([1.0, 2.0]))
