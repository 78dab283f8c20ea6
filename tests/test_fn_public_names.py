"""One name, one meaning: every public ``ivy.X`` that a public submodule also names
(``ivy.losses.X``, ``ivy.linalg.X``...) takes the same arguments and computes the same thing.

The walk finds the pairs itself, so a new submodule function that reuses a top-level name fails
here until it is made to agree (and given sample arguments below) or renamed. Each pair must
match in its signature: the same positional parameters, and every keyword of ``ivy.X`` (but
``backend``) in ``ivy.<sub>.X`` with the same default (the submodule's function may add options);
and in its values, on sample arguments, on the backend under test. The backends' namespaces
(``ivy.torch``, ``ivy.strict``...) are left out: they are the same specs bound to one backend,
which the conformance suite checks op by op.
"""

from __future__ import annotations

import inspect
import types
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import ivy

RNG = np.random.default_rng(3)
_LOGITS = RNG.standard_normal((5, 4)).astype(np.float32) * 2
_PROBS = (np.exp(_LOGITS) / np.exp(_LOGITS).sum(-1, keepdims=True)).astype(np.float32)
_ONE_HOT = np.eye(4, dtype=np.float32)[RNG.integers(0, 4, 5)]
_BINARY = RNG.integers(0, 2, (5, 4)).astype(np.float32)
_SIGMOID = (1 / (1 + np.exp(-_LOGITS))).astype(np.float32)
_OTHER = RNG.dirichlet(np.ones(4), 5).astype(np.float32)
_A, _B = RNG.standard_normal((3, 4)).astype(np.float32), RNG.standard_normal((4, 2)).astype(np.float32)

#: name -> calls ``(args, kwargs)`` on which ``ivy.X`` and ``ivy.<sub>.X`` must agree (NumPy
#: arguments, made native arrays of the backend under test)
SAMPLES: dict[str, list[tuple[tuple[Any, ...], dict[str, Any]]]] = {
    "cross_entropy": [
        ((_ONE_HOT, _PROBS), {}),  # the default of both: probabilities
        ((_ONE_HOT, _LOGITS), {"from_logits": True}),
        ((_OTHER, _PROBS), {"reduction": "none", "epsilon": 1e-3}),
    ],
    "binary_cross_entropy": [
        ((_BINARY, _SIGMOID), {}),
        ((_BINARY, _LOGITS), {"from_logits": True, "reduction": "sum"}),
    ],
    "kl_div": [((_OTHER, _PROBS), {}), ((_OTHER, _PROBS), {"reduction": "none"})],
    "matmul": [((_A, _B), {})],
    "matrix_transpose": [((_A,), {})],
    "tensordot": [((_A, _B), {"axes": 1})],
    "vecdot": [((_A, _A), {})],
}

#: True aliases: one function under two names, by design. Their signatures must be equal.
ALIASES = {
    # the Array API standard declares these linalg functions aliases of the main namespace's
    ("linalg", "matmul"),
    ("linalg", "matrix_transpose"),
    ("linalg", "tensordot"),
    ("linalg", "vecdot"),
}

#: Pairs known to mean two things, to be renamed: each entry says why it is not yet. The test
#: fails once a pair agrees (or is gone), so that its entry is removed.
PENDING: set[tuple[str, str]] = set()


def _submodules() -> dict[str, types.ModuleType]:
    backends = set(ivy.backends())  # ivy.torch...: loading one imports its framework
    out = {}
    for name in dir(ivy):
        if name.startswith("_") or name in backends:
            continue
        value = getattr(ivy, name)
        if isinstance(value, types.ModuleType) and value.__name__.startswith("ivy."):
            out[name] = value
    return out


def _public(module: types.ModuleType) -> list[str]:
    names = getattr(module, "__all__", None)
    if names is None:
        names = [n for n in vars(module) if not isinstance(getattr(module, n), types.ModuleType)]
    return [n for n in names if not n.startswith("_")]


def _pairs() -> list[tuple[str, str]]:
    top = set(dir(ivy))
    found = []
    for sub, module in _submodules().items():
        for name in _public(module):
            # ivy.fft.fft, ivy.transpile.transpile: a package and its own function (numpy.fft.fft)
            if name not in top or name == sub:
                continue
            if getattr(ivy, name) is not getattr(module, name):
                found.append((sub, name))
    return sorted(found)


def _params(fn: Callable[..., Any]) -> tuple[list[inspect.Parameter], dict[str, Any]]:
    sig = inspect.signature(fn)
    positional = [p for p in sig.parameters.values() if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    keywords = {n: p.default for n, p in sig.parameters.items() if p.kind is p.KEYWORD_ONLY and n != "backend"}
    return positional, keywords


def test_fn_public_names_the_walk_finds_the_known_pairs():
    pairs = set(_pairs())
    assert {("losses", "cross_entropy"), ("losses", "binary_cross_entropy"), ("linalg", "matmul")} <= pairs
    unknown = sorted(p for p in pairs if p not in ALIASES and p not in PENDING and p[1] not in SAMPLES)
    assert not unknown, (
        f"ivy.<sub>.X sharing a name with ivy.X: {unknown}; make the two one meaning (and add sample "
        "arguments to SAMPLES here), or rename one"
    )
    resolved = sorted(PENDING - pairs)
    assert not resolved, f"no longer two meanings: remove {resolved} from PENDING"
    stale = sorted(a for a in ALIASES if a not in pairs)
    assert not stale, f"not a pair of the public surface any more: {stale}"


@pytest.mark.parametrize("pair", [p for p in _pairs() if p not in PENDING], ids="{0[0]}.{0[1]}".format)
def test_fn_public_names_agree(backend, pair):
    sub, name = pair
    top_fn, sub_fn = getattr(ivy, name), getattr(getattr(ivy, sub), name)
    top_pos, top_kw = _params(top_fn)
    sub_pos, sub_kw = _params(sub_fn)
    assert [p.kind for p in top_pos] == [p.kind for p in sub_pos], f"ivy.{sub}.{name}: other positional parameters"
    for key, default in top_kw.items():
        assert key in sub_kw, f"ivy.{sub}.{name} lacks ivy.{name}'s keyword {key!r}"
        assert sub_kw[key] == default, f"ivy.{sub}.{name}: {key}={sub_kw[key]!r}, ivy.{name}: {key}={default!r}"
    if pair in ALIASES:
        assert top_kw == sub_kw, f"the alias ivy.{sub}.{name} has other keywords than ivy.{name}"
    for args, kwargs in SAMPLES[name]:
        native = [ivy.asarray(a, backend=backend) for a in args]
        want = ivy.to_numpy(top_fn(*native, **kwargs))
        got = ivy.to_numpy(sub_fn(*native, **kwargs))
        np.testing.assert_allclose(got, want, rtol=2e-6, atol=1e-7, err_msg=f"ivy.{sub}.{name}{kwargs}")


def test_fn_cross_entropy_means_probabilities_by_default(backend):
    # the reference, written here: -sum(t log p); _PROBS is softmax(_LOGITS), so the logits with
    # from_logits=True give the same loss, and a logit read as a probability would not
    t, p, z = (ivy.asarray(a, backend=backend) for a in (_ONE_HOT, _PROBS, _LOGITS))
    want = -(_ONE_HOT * np.log(_PROBS)).sum(-1).mean()
    for fn in (ivy.cross_entropy, ivy.losses.cross_entropy, ivy.CrossEntropyLoss()):
        np.testing.assert_allclose(ivy.to_numpy(fn(t, p)), want, rtol=1e-5)
    for fn in (ivy.cross_entropy, ivy.losses.cross_entropy, ivy.CrossEntropyLoss(from_logits=True).__call__):
        got = fn(t, z) if fn.__name__ == "__call__" else fn(t, z, from_logits=True)
        np.testing.assert_allclose(ivy.to_numpy(got), want, rtol=1e-5)
    labels = ivy.asarray(_ONE_HOT.argmax(-1), backend=backend)
    np.testing.assert_allclose(ivy.to_numpy(ivy.sparse_cross_entropy(labels, p)), want, rtol=1e-5)
    np.testing.assert_allclose(ivy.to_numpy(ivy.sparse_cross_entropy(labels, z, from_logits=True)), want, rtol=1e-5)
    assert abs(float(ivy.to_numpy(ivy.losses.cross_entropy(t, z))) - want) > 0.1
