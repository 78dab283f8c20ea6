"""``ivy.losses`` against each backend's own framework losses: torch.nn.functional on torch (and
numpy), Keras losses on tensorflow, optax on jax, paddle.nn.functional on paddle; values and
gradients with respect to the predictions, every loss with every reduction, and huge logits (in
float64 torch). Where a framework has no such loss, the formula is written here in torch
(autograd gives the gradient)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import ivy
from ivy.testing.convert import has_autodiff, native_to_numpy, to_native

RNG = np.random.default_rng(5)
OWN = {"numpy": "torch", "torch": "torch", "jax": "optax", "tensorflow": "keras", "paddle": "paddle"}
REDUCTIONS = ["mean", "sum", "none"]
N, C = 6, 4
LOGITS = (RNG.standard_normal((N, C)) * 3).astype(np.float32)
LABELS = RNG.integers(0, C, N)
ONE_HOT = np.eye(C, dtype=np.float32)[LABELS]
SOFT = RNG.dirichlet(np.ones(C), N).astype(np.float32)
BIN_LOGITS = (RNG.standard_normal((N, 3)) * 3).astype(np.float32)
BIN_TARGETS = RNG.integers(0, 2, (N, 3)).astype(np.float32)


def _ctc_case() -> list[np.ndarray]:
    rng = np.random.default_rng(11)
    logits = rng.standard_normal((3, 8, 5)).astype(np.float32)
    labels = np.array([[1, 2, 2, 0], [3, 1, 0, 0], [4, 4, 1, 2]], np.int64)  # padded with 0 (never read)
    return [labels, logits, np.array([8, 6, 8], np.int64), np.array([3, 2, 4], np.int64)]


def _ct(shape: tuple[int, ...]) -> np.ndarray:
    return np.random.default_rng(9).standard_normal(shape).astype(np.float32)


def _run(fw: str, fn: Callable[..., Any], args: list[np.ndarray], diff: int) -> tuple[np.ndarray, np.ndarray]:
    """``fn(module, *args)`` in framework ``fw`` (args as its tensors): the value and the
    gradient of ``sum(value * ct)`` with respect to ``args[diff]``."""
    if fw == "torch":
        import torch

        ts = [torch.tensor(a) for a in args]
        ts[diff].requires_grad_(True)
        v = fn(torch, *ts)
        (g,) = torch.autograd.grad((v * torch.tensor(_ct(tuple(v.shape)))).sum(), ts[diff])
        return v.detach().numpy(), g.numpy()
    if fw == "paddle":
        import paddle

        ts = [paddle.to_tensor(a) for a in args]
        ts[diff].stop_gradient = False
        v = fn(paddle, *ts)
        (v * paddle.to_tensor(_ct(tuple(v.shape)))).sum().backward()
        return v.numpy(), ts[diff].grad.numpy()
    if fw == "keras":
        import tensorflow as tf

        ts = [tf.constant(a) for a in args]
        with tf.GradientTape() as tape:
            tape.watch(ts[diff])
            v = fn(tf, *ts)
            loss = tf.reduce_sum(v * _ct(tuple(v.shape)))
        return np.asarray(v), np.asarray(tape.gradient(loss, ts[diff]))
    import jax
    import jax.numpy as jnp

    ts = [jnp.asarray(a) for a in args]

    def f(x: Any) -> Any:
        v = fn(jnp, *[x if i == diff else t for i, t in enumerate(ts)])
        return jnp.sum(v * _ct(tuple(v.shape))), v

    (_, v), g = jax.jit(jax.value_and_grad(f, has_aux=True))(ts[diff])  # one compilation, not one per op
    return np.asarray(v), np.asarray(g)


def check_loss(
    backend: str,
    ivy_fn: Callable[..., Any],
    args: list[np.ndarray],
    refs: dict[str, Any],
    *,
    diff: int = 1,
    rtol: float = 1e-5,
    atol: float = 1e-5,
    fw: str | None = None,
) -> str:
    """Compare ``ivy_fn(*args)`` (native arrays) with the backend's framework's reference
    (torch's if it has none): value and the gradient for ``args[diff]``."""
    fw = fw or (OWN[backend] if OWN[backend] in refs else "torch")
    want, want_g = _run(fw, refs[fw], args, diff)
    nat = [to_native(backend, a) for a in args]
    # on JAX, compiled (ivy.compile: jax.jit): eagerly, XLA compiles each op of a new shape alone
    got = (ivy.compile(ivy_fn) if backend == "jax" else ivy_fn)(*nat)
    np.testing.assert_allclose(native_to_numpy(backend, got), want, rtol=rtol, atol=atol, err_msg=f"value vs {fw}")
    assert tuple(got.shape) == want.shape
    if has_autodiff(backend):
        ct = to_native(backend, _ct(want.shape))

        def loss(x: Any) -> Any:
            return ivy.sum(ivy_fn(*[x if i == diff else a for i, a in enumerate(nat)]) * ct)

        def grad(x: Any) -> Any:
            return ivy.execute_with_gradients(loss, ivy.variable(x))[1]

        g = (ivy.compile(grad) if backend == "jax" else grad)(nat[diff])
        np.testing.assert_allclose(
            native_to_numpy(backend, g), want_g, rtol=rtol, atol=atol, err_msg=f"gradient vs {fw}"
        )
    return fw


def _keras(name: str, reduction: str, **kw: Any) -> Callable[..., Any]:
    red = {"mean": "sum_over_batch_size", "sum": "sum", "none": None}[reduction]

    def fn(tf: Any, t: Any, p: Any) -> Any:
        import keras

        return getattr(keras.losses, name)(reduction=red, **kw)(t, p)

    return fn


def _keras_per_element(name: str, reduction: str, **kw: Any) -> Callable[..., Any]:
    """Keras' functional loss ``name`` per element (it averages over the last axis: each element
    gets an axis of its own), then reduced."""

    def fn(tf: Any, t: Any, p: Any) -> Any:
        import keras

        return _reduce(tf, getattr(keras.losses, name)(t[..., None], p[..., None], **kw), reduction)

    return fn


def _reduce(xp: Any, v: Any, reduction: str) -> Any:
    mean, total = (xp.reduce_mean, xp.reduce_sum) if hasattr(xp, "reduce_mean") else (xp.mean, xp.sum)
    return {"mean": lambda: mean(v), "sum": lambda: total(v), "none": lambda: v}[reduction]()


# ------------------------------------------------------------------ cross-entropy


@pytest.mark.parametrize("reduction", REDUCTIONS)
def test_fn_losses_cross_entropy_integer_labels(backend, reduction):
    refs = {
        "torch": lambda m, t, p: m.nn.functional.cross_entropy(p, t, reduction=reduction),
        "paddle": lambda m, t, p: m.nn.functional.cross_entropy(p, t, reduction=reduction),
        "keras": _keras("SparseCategoricalCrossentropy", reduction, from_logits=True),
        "optax": lambda m, t, p: _reduce(
            m, __import__("optax").softmax_cross_entropy_with_integer_labels(p, t), reduction
        ),
    }
    fn = ivy.losses.cross_entropy
    check_loss(backend, lambda t, p: fn(t, p, from_logits=True, reduction=reduction), [LABELS, LOGITS], refs)


@pytest.mark.parametrize("reduction", REDUCTIONS)
def test_fn_losses_cross_entropy_of_probabilities(backend, reduction):
    # the default: probabilities, as ivy.cross_entropy (softmax outputs here). Keras' loss divides
    # the probabilities by their sum first: the same values, other gradients; torch's formula is ours.
    probs = np.exp(LOGITS) / np.exp(LOGITS).sum(-1, keepdims=True)
    refs = {"torch": lambda m, t, p: m.nn.functional.nll_loss(m.log(p), t, reduction=reduction)}
    fn = ivy.losses.cross_entropy
    check_loss(backend, lambda t, p: fn(t, p, reduction=reduction), [LABELS, probs], refs, fw="torch", rtol=1e-4)
    refs = {"torch": lambda m, t, p: _reduce(m, -(t * m.log(p)).sum(-1), reduction)}
    check_loss(backend, lambda t, p: fn(t, p, reduction=reduction), [SOFT, probs], refs, fw="torch", rtol=1e-4)
    if backend == "tensorflow":  # the values agree with Keras' (the gradients differ, see above)
        want, _ = _run("keras", _keras("SparseCategoricalCrossentropy", reduction), [LABELS, probs], 1)
        got = fn(to_native(backend, LABELS), to_native(backend, probs), reduction=reduction)
        np.testing.assert_allclose(native_to_numpy(backend, got), want, rtol=1e-5)


@pytest.mark.parametrize("reduction", REDUCTIONS)
def test_fn_losses_cross_entropy_class_weights_ignore_index_and_smoothing(backend, reduction):
    labels = LABELS.copy()
    labels[[1, 4]] = -100
    weight = np.array([0.5, 2.0, 1.0, 3.0], np.float32)
    for kw in (
        {"weight": weight},
        {"ignore_index": -100},
        {"weight": weight, "ignore_index": -100, "label_smoothing": 0.2},
    ):
        t_kw = {**kw, "reduction": reduction}

        def torch_ref(m: Any, t: Any, p: Any, t_kw: dict[str, Any] = t_kw) -> Any:
            k = dict(t_kw)
            if "weight" in k:
                k["weight"] = m.tensor(k["weight"])
            return m.nn.functional.cross_entropy(p, t, **k)

        lab = labels if "ignore_index" in kw else LABELS
        iw = {**t_kw, "weight": to_native(backend, weight)} if "weight" in kw else dict(t_kw)
        iw["from_logits"] = True
        check_loss(
            backend,
            lambda t, p, iw=iw: ivy.losses.cross_entropy(t, p, **iw),
            [lab, LOGITS],
            {"torch": torch_ref},
            fw="torch",
        )


@pytest.mark.parametrize("reduction", REDUCTIONS)
def test_fn_losses_cross_entropy_probabilities_with_smoothing(backend, reduction):
    eps = 0.1
    refs = {
        "torch": lambda m, t, p: m.nn.functional.cross_entropy(p, t, label_smoothing=eps, reduction=reduction),
        "paddle": lambda m, t, p: _reduce(
            m,
            m.nn.functional.cross_entropy(p, t * (1 - eps) + eps / C, soft_label=True, reduction="none")[:, 0],
            reduction,
        ),
        "keras": _keras("CategoricalCrossentropy", reduction, from_logits=True, label_smoothing=eps),
        "optax": lambda m, t, p: _reduce(
            m, __import__("optax").softmax_cross_entropy(p, t * (1 - eps) + eps / C), reduction
        ),
    }
    fn = ivy.losses.cross_entropy
    check_loss(
        backend, lambda t, p: fn(t, p, from_logits=True, label_smoothing=eps, reduction=reduction), [SOFT, LOGITS], refs
    )


def test_fn_losses_cross_entropy_with_torch_class_axis(backend):
    logits = RNG.standard_normal((2, C, 3, 5)).astype(np.float32)
    labels = RNG.integers(0, C, (2, 3, 5))
    refs = {"torch": lambda m, t, p: m.nn.functional.cross_entropy(p, t, reduction="none")}
    check_loss(
        backend,
        lambda t, p: ivy.losses.cross_entropy(t, p, axis=1, from_logits=True, reduction="none"),
        [labels, logits],
        refs,
        fw="torch",
    )


@pytest.mark.parametrize("reduction", REDUCTIONS)
def test_fn_losses_nll(backend, reduction):
    logp = np.log(RNG.dirichlet(np.ones(C), N)).astype(np.float32)
    labels = LABELS.copy()
    labels[2] = -1
    weight = np.array([1.0, 0.5, 2.0, 1.5], np.float32)
    kw = {"ignore_index": -1, "reduction": reduction}
    refs = {
        "torch": lambda m, t, p: m.nn.functional.nll_loss(p, t, weight=m.tensor(weight), **kw),
        "paddle": lambda m, t, p: m.nn.functional.nll_loss(p, t, weight=m.to_tensor(weight), **kw),
    }
    check_loss(backend, lambda t, p: ivy.losses.nll(t, p, weight=weight, **kw), [labels, logp], refs)


# ------------------------------------------------------------------ binary, focal


@pytest.mark.parametrize("reduction", REDUCTIONS)
def test_fn_losses_binary_cross_entropy_from_logits(backend, reduction):
    refs = {
        "torch": lambda m, t, p: m.nn.functional.binary_cross_entropy_with_logits(p, t, reduction=reduction),
        "paddle": lambda m, t, p: m.nn.functional.binary_cross_entropy_with_logits(p, t, reduction=reduction),
        "keras": _keras_per_element("binary_crossentropy", reduction, from_logits=True),
        "optax": lambda m, t, p: _reduce(m, __import__("optax").sigmoid_binary_cross_entropy(p, t), reduction),
    }
    check_loss(
        backend,
        lambda t, p: ivy.losses.binary_cross_entropy(t, p, from_logits=True, reduction=reduction),
        [BIN_TARGETS, BIN_LOGITS],
        refs,
    )


@pytest.mark.parametrize("reduction", REDUCTIONS)
def test_fn_losses_binary_cross_entropy_weights_smoothing_and_probabilities(backend, reduction):
    pw = np.array([1.0, 2.0, 0.5], np.float32)
    w = RNG.uniform(0.5, 2, (N, 3)).astype(np.float32)
    refs = {
        "torch": lambda m, t, p: m.nn.functional.binary_cross_entropy_with_logits(
            p, t, weight=m.tensor(w), pos_weight=m.tensor(pw), reduction=reduction
        ),
        "paddle": lambda m, t, p: m.nn.functional.binary_cross_entropy_with_logits(
            p, t, weight=m.to_tensor(w), pos_weight=m.to_tensor(pw), reduction=reduction
        ),
    }
    check_loss(
        backend,
        lambda t, p: ivy.losses.binary_cross_entropy(
            t, p, from_logits=True, pos_weight=pw, weight=w, reduction=reduction
        ),
        [BIN_TARGETS, BIN_LOGITS],
        refs,
    )
    smooth_ref = {
        "keras": _keras_per_element("binary_crossentropy", reduction, from_logits=True, label_smoothing=0.2),
        "torch": lambda m, t, p: m.nn.functional.binary_cross_entropy_with_logits(
            p, t * 0.8 + 0.1, reduction=reduction
        ),
    }
    check_loss(
        backend,
        lambda t, p: ivy.losses.binary_cross_entropy(t, p, from_logits=True, label_smoothing=0.2, reduction=reduction),
        [BIN_TARGETS, BIN_LOGITS],
        smooth_ref,
    )
    probs = (1 / (1 + np.exp(-BIN_LOGITS))).astype(np.float32)
    check_loss(
        backend,
        lambda t, p: ivy.losses.binary_cross_entropy(t, p, reduction=reduction),  # probabilities: the default
        [BIN_TARGETS, probs],
        {
            "torch": lambda m, t, p: m.nn.functional.binary_cross_entropy(p, t, reduction=reduction),
            "keras": _keras_per_element("binary_crossentropy", reduction),
        },
        rtol=1e-4,
    )


def _torch_focal(m: Any, t: Any, p: Any, gamma: float = 2.0, alpha: float | None = 0.25) -> Any:
    """torchvision's sigmoid_focal_loss, written out (per element)."""
    prob = m.sigmoid(p)
    ce = m.nn.functional.binary_cross_entropy_with_logits(p, t, reduction="none")
    p_t = prob * t + (1 - prob) * (1 - t)
    loss = ce * (1 - p_t) ** gamma
    return loss if alpha is None else loss * (alpha * t + (1 - alpha) * (1 - t))


@pytest.mark.parametrize("reduction", REDUCTIONS)
def test_fn_losses_focal(backend, reduction):
    refs = {
        "torch": lambda m, t, p: _reduce(m, _torch_focal(m, t, p), reduction),
        "paddle": lambda m, t, p: m.nn.functional.sigmoid_focal_loss(p, t, alpha=0.25, gamma=2.0, reduction=reduction),
        "keras": _keras_per_element(
            "binary_focal_crossentropy", reduction, apply_class_balancing=True, alpha=0.25, gamma=2.0, from_logits=True
        ),
        "optax": lambda m, t, p: _reduce(
            m, __import__("optax").sigmoid_focal_loss(p, t, alpha=0.25, gamma=2.0), reduction
        ),
    }
    fn = ivy.losses.focal
    check_loss(
        backend,
        lambda t, p: fn(t, p, from_logits=True, reduction=reduction),
        [BIN_TARGETS, BIN_LOGITS],
        refs,
        rtol=1e-4,
    )
    # probabilities, the default
    probs = (1 / (1 + np.exp(-BIN_LOGITS))).astype(np.float32)
    refs = {
        "torch": lambda m, t, p: _reduce(m, _torch_focal(m, t, m.log(p) - m.log1p(-p)), reduction),
        "keras": _keras_per_element(
            "binary_focal_crossentropy", reduction, apply_class_balancing=True, alpha=0.25, gamma=2.0
        ),
    }
    check_loss(backend, lambda t, p: fn(t, p, reduction=reduction), [BIN_TARGETS, probs], refs, rtol=1e-4, atol=1e-4)
    if reduction == "none":  # another focusing parameter, no class balance
        check_loss(
            backend,
            lambda t, p: fn(t, p, from_logits=True, gamma=1.5, alpha=None, reduction="none"),
            [BIN_TARGETS, BIN_LOGITS],
            {"torch": lambda m, t, p: _torch_focal(m, t, p, 1.5, None)},
            fw="torch",
            rtol=1e-4,
        )


def _torch_categorical_focal(m: Any, t: Any, p: Any) -> Any:
    logp = m.log_softmax(p, -1)
    return -(0.25 * (1 - logp.exp()) ** 2.0 * t * logp).sum(-1)


@pytest.mark.parametrize("reduction", REDUCTIONS)
def test_fn_losses_categorical_focal(backend, reduction):
    refs = {
        "torch": lambda m, t, p: _reduce(m, _torch_categorical_focal(m, t, p), reduction),
        "keras": _keras("CategoricalFocalCrossentropy", reduction, alpha=0.25, gamma=2.0, from_logits=True),
    }
    fn = ivy.losses.categorical_focal
    check_loss(
        backend, lambda t, p: fn(t, p, from_logits=True, reduction=reduction), [ONE_HOT, LOGITS], refs, rtol=1e-4
    )
    # probabilities, the default (Keras divides them by their sum: other gradients)
    probs = np.exp(LOGITS) / np.exp(LOGITS).sum(-1, keepdims=True)
    refs = {"torch": lambda m, t, p: _reduce(m, -(0.25 * (1 - p) ** 2.0 * t * m.log(p)).sum(-1), reduction)}
    check_loss(
        backend, lambda t, p: fn(t, p, reduction=reduction), [ONE_HOT, probs], refs, fw="torch", rtol=1e-4, atol=1e-4
    )
    check_loss(
        backend,
        lambda t, p: fn(t, p, from_logits=True, reduction=reduction),
        [LABELS, LOGITS],
        {
            "torch": lambda m, t, p: _reduce(
                m, _torch_categorical_focal(m, m.nn.functional.one_hot(t, C).float(), p), reduction
            )
        },
        fw="torch",
        rtol=1e-4,
    )


# ------------------------------------------------------------------ huge logits


def _stable_focal(m: Any, t: Any, p: Any, gamma: float) -> Any:
    """Binary focal loss for 0/1 targets with no rounding of ``1 - p_t`` (float64): with ``z = x
    (1 - 2y)``, BCE is ``softplus(z)`` and ``1 - p_t`` is ``sigmoid(z)``."""
    z = p.double() * (1 - 2 * t.double())
    alpha_t = 0.25 * t + 0.75 * (1 - t)
    return alpha_t * m.exp(gamma * m.nn.functional.logsigmoid(z)) * m.nn.functional.softplus(z)


def _stable_categorical_focal(m: Any, t: Any, p: Any, gamma: float) -> Any:
    """Categorical focal loss with ``log(1 - p_c)`` exact (float64): the log-sum-exp of the other
    classes' logits minus that of all of them."""
    z = p.double()
    others = z[..., None, :] + m.log(1 - m.eye(z.shape[-1], dtype=z.dtype))  # row c: every logit but c
    log1m = m.logsumexp(others, -1) - m.logsumexp(z, -1, keepdim=True)
    return -(0.25 * m.exp(gamma * log1m) * t.double() * m.log_softmax(z, -1)).sum(-1)


HUGE = (LOGITS / 3 * 1e4).astype(np.float32)  # |logits| up to ~3e4: exp overflows float32 and float64
HUGE_BIN = (BIN_LOGITS / 3 * 1e4).astype(np.float32)
HUGE_CASES: dict[str, tuple[Callable[..., Any], list[np.ndarray], Callable[..., Any]]] = {
    # name: (ivy loss, its arguments, the reference in float64 torch; "none": one value per sample)
    "cross_entropy_labels_smoothing": (
        lambda t, p: ivy.losses.cross_entropy(t, p, from_logits=True, label_smoothing=0.1, reduction="none"),
        [LABELS, HUGE],
        lambda m, t, p: m.nn.functional.cross_entropy(p.double(), t, label_smoothing=0.1, reduction="none"),
    ),
    "cross_entropy_one_hot_smoothing": (
        lambda t, p: ivy.losses.cross_entropy(t, p, from_logits=True, label_smoothing=0.1, reduction="none"),
        [ONE_HOT, HUGE],
        lambda m, t, p: m.nn.functional.cross_entropy(p.double(), t.double(), label_smoothing=0.1, reduction="none"),
    ),
    "cross_entropy_soft_labels": (
        lambda t, p: ivy.losses.cross_entropy(t, p, from_logits=True, reduction="none"),
        [SOFT, HUGE],
        lambda m, t, p: m.nn.functional.cross_entropy(p.double(), t.double(), reduction="none"),
    ),
    "binary_cross_entropy": (
        lambda t, p: ivy.losses.binary_cross_entropy(
            t,
            p,
            from_logits=True,
            pos_weight=np.array([1.0, 2.0, 0.5], np.float32),
            label_smoothing=0.2,
            reduction="none",
        ),
        [BIN_TARGETS, HUGE_BIN],
        lambda m, t, p: m.nn.functional.binary_cross_entropy_with_logits(
            p.double(), t.double() * 0.8 + 0.1, pos_weight=m.tensor([1.0, 2.0, 0.5], dtype=m.float64), reduction="none"
        ),
    ),
    "focal": (
        lambda t, p: ivy.losses.focal(t, p, from_logits=True, reduction="none"),
        [BIN_TARGETS, HUGE_BIN],
        lambda m, t, p: _torch_focal(m, t.double(), p.double()),
    ),
    "focal_gamma_below_one": (  # (1 - p_t)^0.5: an infinite slope where 1 - p_t rounds to 0
        lambda t, p: ivy.losses.focal(t, p, from_logits=True, gamma=0.5, reduction="none"),
        [  # and confident right predictions at moderate logits, 30 and 60
            np.concatenate([BIN_TARGETS, [[1.0, 0.0, 1.0]]]).astype(np.float32),
            np.concatenate([HUGE_BIN, [[30.0, -30.0, 60.0]]]).astype(np.float32),
        ],
        lambda m, t, p: _stable_focal(m, t, p, 0.5),
    ),
    "categorical_focal_gamma_below_one": (
        lambda t, p: ivy.losses.categorical_focal(t, p, from_logits=True, gamma=0.5, reduction="none"),
        [ONE_HOT, HUGE],
        lambda m, t, p: _stable_categorical_focal(m, t, p, 0.5),
    ),
    "categorical_focal_one_hot": (
        lambda t, p: ivy.losses.categorical_focal(t, p, from_logits=True, reduction="none"),
        [ONE_HOT, HUGE],
        lambda m, t, p: _torch_categorical_focal(m, t.double(), p.double()),
    ),
    "categorical_focal_labels": (
        lambda t, p: ivy.losses.categorical_focal(t, p, from_logits=True, reduction="none"),
        [LABELS, HUGE],
        lambda m, t, p: _torch_categorical_focal(m, m.nn.functional.one_hot(t, C).double(), p.double()),
    ),
    "ctc": (
        lambda lab, z, zl, ll: ivy.losses.ctc(lab, z, zl, ll, reduction="none"),
        [a * np.float32(1e4) if a.dtype == np.float32 else a for a in _ctc_case()],
        lambda m, lab, z, zl, ll: m.nn.functional.ctc_loss(
            m.log_softmax(z.double(), -1).transpose(0, 1), lab, zl, ll, blank=0, reduction="none"
        ),
    ),
    "multi_margin_squared": (
        lambda t, s: ivy.losses.multi_margin(t, s, p=2, reduction="none"),
        [LABELS, HUGE],
        lambda m, t, s: m.nn.functional.multi_margin_loss(s.double(), t, p=2, reduction="none"),
    ),
}


@pytest.mark.parametrize("case", sorted(HUGE_CASES))
def test_fn_losses_are_exact_for_huge_logits(backend, case):
    fn, args, ref = HUGE_CASES[case]
    # the values (finite, to float32's precision) and their gradients, against float64 torch
    check_loss(backend, fn, args, {"torch": ref}, fw="torch", rtol=1e-5, atol=1e-5)


# ------------------------------------------------------------------ similarity and margins


@pytest.mark.parametrize("reduction", REDUCTIONS)
def test_fn_losses_cosine_similarity_and_embedding(backend, reduction):
    a, b = RNG.standard_normal((N, 5)).astype(np.float32), RNG.standard_normal((N, 5)).astype(np.float32)

    def torch_cos(m: Any, t: Any, p: Any) -> Any:
        n = m.nn.functional.normalize
        return _reduce(m, -(n(t, dim=-1, eps=1e-6) * n(p, dim=-1, eps=1e-6)).sum(-1), reduction)

    refs = {
        "torch": torch_cos,
        "keras": _keras("CosineSimilarity", reduction),
        "optax": lambda m, t, p: _reduce(m, -__import__("optax").cosine_similarity(p, t), reduction),
    }
    check_loss(backend, lambda t, p: ivy.losses.cosine_similarity(t, p, reduction=reduction), [a, b], refs, rtol=1e-4)
    y = np.where(RNG.random(N) > 0.5, 1, -1).astype(np.int64)
    refs = {
        "torch": lambda m, x1, x2, t: m.nn.functional.cosine_embedding_loss(x1, x2, t, margin=0.1, reduction=reduction),
        "paddle": lambda m, x1, x2, t: m.nn.functional.cosine_embedding_loss(
            x1, x2, t, margin=0.1, reduction=reduction
        ),
    }
    check_loss(
        backend,
        lambda x1, x2, t: ivy.losses.cosine_embedding(x1, x2, t, margin=0.1, reduction=reduction),
        [a, b, y],
        refs,
        diff=0,
        rtol=1e-4,
    )


@pytest.mark.parametrize("reduction", REDUCTIONS)
@pytest.mark.parametrize("name", ["hinge", "squared_hinge"])
def test_fn_losses_hinge(backend, name, reduction):
    scores = RNG.standard_normal((N, 3)).astype(np.float32)
    signs = np.where(BIN_TARGETS > 0, 1.0, -1.0).astype(np.float32)

    def torch_ref(m: Any, t: Any, p: Any) -> Any:
        h = m.clamp(1 - t * p, min=0)
        return _reduce(m, h if name == "hinge" else h * h, reduction)

    refs = {"torch": torch_ref, "keras": _keras_per_element(name, reduction)}
    if name == "hinge":
        refs["optax"] = lambda m, t, p: _reduce(m, __import__("optax").hinge_loss(p, t), reduction)
    fn = getattr(ivy.losses, name)
    check_loss(backend, lambda t, p: fn(t, p, reduction=reduction), [signs, scores], refs)
    # 0/1 labels mean the same as -1/1
    got = native_to_numpy(backend, fn(to_native(backend, BIN_TARGETS), to_native(backend, scores)))
    want = native_to_numpy(backend, fn(to_native(backend, signs), to_native(backend, scores)))
    np.testing.assert_allclose(got, want, rtol=1e-6)


@pytest.mark.parametrize("reduction", REDUCTIONS)
def test_fn_losses_categorical_hinge_and_multi_margin(backend, reduction):
    refs = {
        "keras": _keras("CategoricalHinge", reduction),
        "torch": lambda m, t, p: _reduce(m, m.clamp(((1 - t) * p).amax(-1) - (t * p).sum(-1) + 1, min=0), reduction),
    }
    check_loss(backend, lambda t, p: ivy.losses.categorical_hinge(t, p, reduction=reduction), [ONE_HOT, LOGITS], refs)
    w = np.array([1.0, 2.0, 0.5, 1.0], np.float32)
    for p in (1, 2):
        kw = {"p": p, "margin": 0.8, "reduction": reduction}
        refs = {
            "torch": lambda m, t, s, kw=kw: m.nn.functional.multi_margin_loss(s, t, weight=m.tensor(w), **kw),
            "paddle": lambda m, t, s, kw=kw: m.nn.functional.multi_margin_loss(s, t, weight=m.to_tensor(w), **kw),
        }
        check_loss(
            backend,
            lambda t, s, kw=kw: ivy.losses.multi_margin(t, s, weight=w, **kw),
            [LABELS, LOGITS],
            refs,
            rtol=1e-4,
        )


# ------------------------------------------------------------------ regression, divergence


def _regression_case() -> list[np.ndarray]:
    rng = np.random.default_rng(13)
    true = rng.standard_normal((N, 3)).astype(np.float32)
    diff = rng.uniform(0.1, 2.0, (N, 3)) * rng.choice([-1.0, 1.0], (N, 3))  # both sides of delta, never on it
    diff = np.where(np.abs(np.abs(diff) - 0.7) < 0.05, diff * 1.2, diff)
    return [true, (true + diff).astype(np.float32)]


@pytest.mark.parametrize("reduction", REDUCTIONS)
@pytest.mark.parametrize("name", ["mse", "mae", "huber"])
def test_fn_losses_mse_l1_huber(backend, name, reduction):
    kw: dict[str, Any] = {"delta": 0.7} if name == "huber" else {}
    torch_name, paddle_name, keras_name = {
        "mse": ("mse_loss", "mse_loss", "mean_squared_error"),
        "mae": ("l1_loss", "l1_loss", "mean_absolute_error"),
        "huber": ("huber_loss", "smooth_l1_loss", "huber"),  # paddle's smooth_l1_loss is Huber's (delta=)
    }[name]
    refs = {
        "torch": lambda m, t, p: getattr(m.nn.functional, torch_name)(p, t, reduction=reduction, **kw),
        "paddle": lambda m, t, p: getattr(m.nn.functional, paddle_name)(p, t, reduction=reduction, **kw),
        "keras": _keras_per_element(keras_name, reduction, **kw),
    }
    if name != "mae":
        refs["optax"] = lambda m, t, p: _reduce(
            m,
            __import__("optax").huber_loss(p, t, delta=0.7)
            if name == "huber"
            else __import__("optax").squared_error(p, t),
            reduction,
        )
    fn = getattr(ivy.losses, name)
    check_loss(backend, lambda t, p: fn(t, p, reduction=reduction, **kw), _regression_case(), refs)


@pytest.mark.parametrize("reduction", REDUCTIONS)
def test_fn_losses_kl_div(backend, reduction):
    rng = np.random.default_rng(17)
    p = rng.dirichlet(np.ones(C), N).astype(np.float32)
    q = rng.dirichlet(np.ones(C), N).astype(np.float32)

    def per_sample(m: Any, t: Any, q: Any) -> Any:
        return m.nn.functional.kl_div(m.log(q), t, reduction="none").sum(-1)

    refs = {
        "torch": lambda m, t, q: _reduce(m, per_sample(m, t, q), reduction),
        "paddle": lambda m, t, q: _reduce(m, per_sample(m, t, q), reduction),
        "keras": _keras("KLDivergence", reduction),
        "optax": lambda m, t, q: _reduce(m, __import__("optax").kl_divergence(m.log(q), t), reduction),
    }
    fn = ivy.losses.kl_div
    check_loss(backend, lambda t, q: fn(t, q, reduction=reduction), [p, q], refs, rtol=1e-4)
    if reduction == "none":  # target probabilities of zero contribute nothing (torch's xlogy)
        p0 = p.copy()
        p0[:, 0] = 0.0
        p0 /= p0.sum(-1, keepdims=True)
        check_loss(backend, lambda t, q: fn(t, q, reduction="none"), [p0, q], {"torch": per_sample}, fw="torch")


# ------------------------------------------------------------------ CTC


@pytest.mark.parametrize("reduction", REDUCTIONS)
def test_fn_losses_ctc(backend, reduction):
    def torch_ref(m: Any, lab: Any, z: Any, zl: Any, ll: Any) -> Any:
        logp = m.log_softmax(z, -1).transpose(0, 1)  # [time, batch, classes]
        return m.nn.functional.ctc_loss(logp, lab, zl, ll, blank=0, reduction=reduction)

    def paddle_ref(m: Any, lab: Any, z: Any, zl: Any, ll: Any) -> Any:
        logp = m.nn.functional.log_softmax(z, -1).transpose([1, 0, 2])
        return m.nn.functional.ctc_loss(logp, lab.astype("int32"), zl, ll, blank=0, reduction=reduction)

    def optax_ref(m: Any, lab: Any, z: Any, zl: Any, ll: Any) -> Any:
        zpad = (m.arange(z.shape[1])[None] >= zl[:, None]).astype(z.dtype)
        lpad = (m.arange(lab.shape[1])[None] >= ll[:, None]).astype(z.dtype)
        per = __import__("optax").ctc_loss(z, zpad, lab, lpad, blank_id=0)
        return m.mean(per / ll) if reduction == "mean" else _reduce(m, per, reduction)

    refs = {"torch": torch_ref, "paddle": paddle_ref, "optax": optax_ref}
    check_loss(
        backend,
        lambda lab, z, zl, ll: ivy.losses.ctc(lab, z, zl, ll, reduction=reduction),
        _ctc_case(),
        refs,
        rtol=1e-4,
        atol=1e-4,
    )


def test_fn_losses_ctc_impossible_alignment(backend):
    labels, logits = np.array([[1, 1, 1]]), RNG.standard_normal((1, 3, 3)).astype(np.float32)  # needs 5 steps
    args = [to_native(backend, a) for a in (labels, logits, np.array([3]), np.array([3]))]
    assert np.isinf(native_to_numpy(backend, ivy.losses.ctc(*args, reduction="none"))).all()
    assert native_to_numpy(backend, ivy.losses.ctc(*args, reduction="none", zero_infinity=True)).tolist() == [0.0]


# ------------------------------------------------------------------ classes, errors


def test_fn_losses_classes_hold_settings(backend):
    loss = ivy.CrossEntropyLoss(from_logits=True, label_smoothing=0.1, reduction="sum")
    assert repr(loss) == "CrossEntropyLoss(from_logits=True, label_smoothing=0.1, reduction='sum')"
    got = native_to_numpy(backend, loss(to_native(backend, LABELS), to_native(backend, LOGITS)))
    want = native_to_numpy(
        backend,
        ivy.losses.cross_entropy(
            to_native(backend, LABELS),
            to_native(backend, LOGITS),
            from_logits=True,
            label_smoothing=0.1,
            reduction="sum",
        ),
    )
    np.testing.assert_allclose(got, want, rtol=1e-6)
    with pytest.raises(TypeError, match=r"takes \[.*'label_smoothing'.*\], got \['smoothing'\]"):
        ivy.CrossEntropyLoss(smoothing=0.1)
    with pytest.raises(ValueError, match="reduction must be 'mean', 'sum' or 'none'"):
        ivy.MSELoss(reduction="avg")
    with pytest.raises(ValueError, match="do not match scores of shape"):
        ivy.losses.cross_entropy(to_native(backend, LABELS[:3]), to_native(backend, LOGITS))


def test_fn_losses_binary_cross_entropy_keeps_tiny_losses(backend):
    # confident right predictions: the loss is log(1 + e^-|x|), not a difference of large terms
    x = np.array([30.0, -30.0, 60.0, -60.0], np.float32)
    y = np.array([1.0, 0.0, 1.0, 0.0], np.float32)
    got = ivy.losses.binary_cross_entropy(
        to_native(backend, y), to_native(backend, x), from_logits=True, reduction="none"
    )
    np.testing.assert_allclose(
        native_to_numpy(backend, got), np.log1p(np.exp(-np.abs(x.astype(np.float64)))), rtol=1e-6
    )


def test_fn_losses_reject_bad_settings(backend):
    nat = {k: to_native(backend, v) for k, v in {"l": LABELS, "z": LOGITS, "s": SOFT, "b": BIN_TARGETS}.items()}
    ctc_args = [to_native(backend, a) for a in _ctc_case()]
    calls: dict[str, tuple[Any, ...]] = {
        "cross_entropy": (nat["l"], nat["z"]),
        "nll": (nat["l"], nat["z"]),
        "binary_cross_entropy": (nat["s"], nat["z"]),
        "focal": (nat["s"], nat["z"]),
        "categorical_focal": (nat["l"], nat["z"]),
        "cosine_similarity": (nat["s"], nat["z"]),
        "cosine_embedding": (nat["s"], nat["z"], to_native(backend, np.ones(N, np.int64))),
        "hinge": (nat["s"], nat["z"]),
        "squared_hinge": (nat["s"], nat["z"]),
        "categorical_hinge": (nat["l"], nat["z"]),
        "multi_margin": (nat["l"], nat["z"]),
        "ctc": tuple(ctc_args),
        "mse": (nat["s"], nat["z"]),
        "mae": (nat["s"], nat["z"]),
        "huber": (nat["s"], nat["z"]),
        "kl_div": (nat["s"], nat["s"]),
    }
    assert sorted(calls) == sorted(n for n in ivy.losses.__all__ if n.islower())  # every loss function
    for name, args in calls.items():
        with pytest.raises(ValueError, match=r"reduction must be 'mean', 'sum' or 'none', got 'batchmean'"):
            getattr(ivy.losses, name)(*args, reduction="batchmean")
    with pytest.raises(ValueError, match=r"^focal: gamma must be >= 0, got -1.0$"):
        ivy.losses.focal(nat["b"], to_native(backend, BIN_LOGITS), gamma=-1.0)
    with pytest.raises(ValueError, match=r"^categorical_focal: alpha must be in \[0, 1\], got 1.5$"):
        ivy.losses.categorical_focal(nat["l"], nat["z"], alpha=1.5)


@pytest.mark.parametrize("bad", [-1, C])
def test_fn_losses_integer_labels_outside_the_classes_raise(backend, bad):
    """A label outside [0, C) raises IndexError (torch's rule), from logits or probabilities and
    in nll: a negative one would otherwise pick a class from the end, silently."""
    labels = LABELS.copy()
    labels[2] = bad
    z = to_native(backend, LOGITS)
    y = to_native(backend, labels)
    for call in (
        lambda: ivy.losses.cross_entropy(y, z, from_logits=True),
        lambda: ivy.losses.cross_entropy(y, z),
        lambda: ivy.losses.nll(y, z),
        lambda: ivy.losses.cross_entropy(y, z, from_logits=True, weight=np.ones(C, np.float32)),
    ):
        with pytest.raises(IndexError):
            call()
    ok = labels.copy()
    ok[2] = -100
    got = ivy.losses.cross_entropy(to_native(backend, ok), z, from_logits=True, ignore_index=-100, reduction="sum")
    keep = ok != -100
    logp = LOGITS - np.log(np.exp(LOGITS).sum(-1, keepdims=True))
    want = -logp[np.arange(N)[keep], ok[keep]].sum()
    np.testing.assert_allclose(native_to_numpy(backend, got), want, rtol=1e-5)
