"""``ivy.losses`` against each backend's own framework losses: torch.nn.functional on torch (and
numpy), Keras losses on tensorflow, optax on jax, paddle.nn.functional on paddle; values and
gradients with respect to the predictions, every reduction, large logits. Where a framework has
no such loss, the formula is written here in torch (autograd gives the gradient)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import ivy
from ivy.testing.convert import has_autodiff, native_to_numpy, to_native

RNG = np.random.default_rng(5)
OWN = {"numpy": "torch", "torch": "torch", "jax": "optax", "tensorflow": "keras", "paddle": "paddle"}
N, C = 6, 4
LOGITS = (RNG.standard_normal((N, C)) * 3).astype(np.float32)
LABELS = RNG.integers(0, C, N)
ONE_HOT = np.eye(C, dtype=np.float32)[LABELS]
SOFT = RNG.dirichlet(np.ones(C), N).astype(np.float32)
BIN_LOGITS = (RNG.standard_normal((N, 3)) * 3).astype(np.float32)
BIN_TARGETS = RNG.integers(0, 2, (N, 3)).astype(np.float32)


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


def _reduce(xp: Any, v: Any, reduction: str) -> Any:
    mean, total = (xp.reduce_mean, xp.reduce_sum) if hasattr(xp, "reduce_mean") else (xp.mean, xp.sum)
    return {"mean": lambda: mean(v), "sum": lambda: total(v), "none": lambda: v}[reduction]()


# ------------------------------------------------------------------ cross-entropy


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
def test_fn_losses_cross_entropy_integer_labels(backend, reduction):
    refs = {
        "torch": lambda m, t, p: m.nn.functional.cross_entropy(p, t, reduction=reduction),
        "paddle": lambda m, t, p: m.nn.functional.cross_entropy(p, t, reduction=reduction),
        "keras": _keras("SparseCategoricalCrossentropy", reduction, from_logits=True),
        "optax": lambda m, t, p: _reduce(
            m, __import__("optax").softmax_cross_entropy_with_integer_labels(p, t), reduction
        ),
    }
    check_loss(backend, lambda t, p: ivy.losses.cross_entropy(t, p, reduction=reduction), [LABELS, LOGITS], refs)


def test_fn_losses_cross_entropy_class_weights_ignore_index_and_smoothing(backend):
    labels = LABELS.copy()
    labels[[1, 4]] = -100
    weight = np.array([0.5, 2.0, 1.0, 3.0], np.float32)
    for kw in (
        {"weight": weight},
        {"ignore_index": -100},
        {"weight": weight, "ignore_index": -100, "label_smoothing": 0.2},
    ):
        t_kw = dict(kw)

        def torch_ref(m: Any, t: Any, p: Any, t_kw: dict[str, Any] = t_kw) -> Any:
            k = dict(t_kw)
            if "weight" in k:
                k["weight"] = m.tensor(k["weight"])
            return m.nn.functional.cross_entropy(p, t, **k)

        lab = labels if "ignore_index" in kw else LABELS
        iw = {**kw, "weight": to_native(backend, weight)} if "weight" in kw else kw
        check_loss(
            backend,
            lambda t, p, iw=iw: ivy.losses.cross_entropy(t, p, **iw),
            [lab, LOGITS],
            {"torch": torch_ref},
            fw="torch",
        )


def test_fn_losses_cross_entropy_probabilities_with_smoothing(backend):
    eps = 0.1
    refs = {
        "torch": lambda m, t, p: m.nn.functional.cross_entropy(p, t, label_smoothing=eps),
        "paddle": lambda m, t, p: m.nn.functional.cross_entropy(p, t * (1 - eps) + eps / C, soft_label=True),
        "keras": _keras("CategoricalCrossentropy", "mean", from_logits=True, label_smoothing=eps),
        "optax": lambda m, t, p: m.mean(__import__("optax").softmax_cross_entropy(p, t * (1 - eps) + eps / C)),
    }
    check_loss(backend, lambda t, p: ivy.losses.cross_entropy(t, p, label_smoothing=eps), [SOFT, LOGITS], refs)


def test_fn_losses_cross_entropy_with_torch_class_axis(backend):
    logits = RNG.standard_normal((2, C, 3, 5)).astype(np.float32)
    labels = RNG.integers(0, C, (2, 3, 5))
    refs = {"torch": lambda m, t, p: m.nn.functional.cross_entropy(p, t, reduction="none")}
    check_loss(
        backend,
        lambda t, p: ivy.losses.cross_entropy(t, p, axis=1, reduction="none"),
        [labels, logits],
        refs,
        fw="torch",
    )


def test_fn_losses_nll(backend):
    logp = np.log(RNG.dirichlet(np.ones(C), N)).astype(np.float32)
    labels = LABELS.copy()
    labels[2] = -1
    weight = np.array([1.0, 0.5, 2.0, 1.5], np.float32)
    refs = {
        "torch": lambda m, t, p: m.nn.functional.nll_loss(p, t, weight=m.tensor(weight), ignore_index=-1),
        "paddle": lambda m, t, p: m.nn.functional.nll_loss(p, t, weight=m.to_tensor(weight), ignore_index=-1),
    }
    check_loss(backend, lambda t, p: ivy.losses.nll(t, p, weight=weight, ignore_index=-1), [labels, logp], refs)


def test_fn_losses_stay_finite_for_huge_logits(backend, request):
    logits = np.array([[1e4, -1e4, 0.0], [-3e4, 3e4, 1e4]], np.float32)
    labels = np.array([1, 0])
    ce = native_to_numpy(
        backend, ivy.losses.cross_entropy(to_native(backend, labels), to_native(backend, logits), reduction="none")
    )
    np.testing.assert_allclose(ce, [2e4, 6e4], rtol=1e-6)
    bce = native_to_numpy(
        backend,
        ivy.losses.binary_cross_entropy(
            to_native(backend, np.array([0.0, 1.0, 1.0], np.float32)),
            to_native(backend, np.array([1e4, -1e4, 1e4], np.float32)),
            reduction="none",
        ),
    )
    np.testing.assert_allclose(bce, [1e4, 1e4, 0.0], rtol=1e-6, atol=1e-6)
    if has_autodiff(backend):
        _, g = ivy.execute_with_gradients(
            lambda z: ivy.losses.cross_entropy(to_native(backend, labels), z), ivy.variable(to_native(backend, logits))
        )
        assert np.isfinite(native_to_numpy(backend, g)).all()


# ------------------------------------------------------------------ binary, focal


@pytest.mark.parametrize("reduction", ["mean", "none"])
def test_fn_losses_binary_cross_entropy_from_logits(backend, reduction):
    refs = {
        "torch": lambda m, t, p: m.nn.functional.binary_cross_entropy_with_logits(p, t, reduction=reduction),
        "paddle": lambda m, t, p: m.nn.functional.binary_cross_entropy_with_logits(p, t, reduction=reduction),
        "keras": lambda tf, t, p: _reduce(
            tf, __import__("keras").losses.binary_crossentropy(t[..., None], p[..., None], from_logits=True), reduction
        ),
        "optax": lambda m, t, p: _reduce(m, __import__("optax").sigmoid_binary_cross_entropy(p, t), reduction),
    }
    check_loss(
        backend,
        lambda t, p: ivy.losses.binary_cross_entropy(t, p, reduction=reduction),
        [BIN_TARGETS, BIN_LOGITS],
        refs,
    )


def test_fn_losses_binary_cross_entropy_weights_and_smoothing(backend):
    pw = np.array([1.0, 2.0, 0.5], np.float32)
    w = RNG.uniform(0.5, 2, (N, 3)).astype(np.float32)
    refs = {
        "torch": lambda m, t, p: m.nn.functional.binary_cross_entropy_with_logits(
            p, t, weight=m.tensor(w), pos_weight=m.tensor(pw)
        ),
        "paddle": lambda m, t, p: m.nn.functional.binary_cross_entropy_with_logits(
            p, t, weight=m.to_tensor(w), pos_weight=m.to_tensor(pw)
        ),
    }
    check_loss(
        backend,
        lambda t, p: ivy.losses.binary_cross_entropy(t, p, pos_weight=pw, weight=w),
        [BIN_TARGETS, BIN_LOGITS],
        refs,
    )
    keras_ref = {
        "keras": _keras("BinaryCrossentropy", "mean", from_logits=True, label_smoothing=0.2),
        "torch": lambda m, t, p: m.nn.functional.binary_cross_entropy_with_logits(p, t * 0.8 + 0.1),
    }
    check_loss(
        backend,
        lambda t, p: ivy.losses.binary_cross_entropy(t, p, label_smoothing=0.2),
        [BIN_TARGETS, BIN_LOGITS],
        keras_ref,
    )
    probs = (1 / (1 + np.exp(-BIN_LOGITS))).astype(np.float32)
    check_loss(
        backend,
        lambda t, p: ivy.losses.binary_cross_entropy(t, p, from_logits=False),
        [BIN_TARGETS, probs],
        {"torch": lambda m, t, p: m.nn.functional.binary_cross_entropy(p, t)},
        fw="torch",
        rtol=1e-4,
    )


def _torch_focal(m: Any, t: Any, p: Any) -> Any:
    """torchvision's sigmoid_focal_loss, written out."""
    prob = m.sigmoid(p)
    ce = m.nn.functional.binary_cross_entropy_with_logits(p, t, reduction="none")
    p_t = prob * t + (1 - prob) * (1 - t)
    return (ce * (1 - p_t) ** 2.0 * (0.25 * t + 0.75 * (1 - t))).mean()


def test_fn_losses_focal(backend):
    refs = {
        "torch": _torch_focal,
        "paddle": lambda m, t, p: m.nn.functional.sigmoid_focal_loss(p, t, alpha=0.25, gamma=2.0, reduction="mean"),
        "keras": _keras(
            "BinaryFocalCrossentropy", "mean", apply_class_balancing=True, alpha=0.25, gamma=2.0, from_logits=True
        ),
        "optax": lambda m, t, p: m.mean(__import__("optax").sigmoid_focal_loss(p, t, alpha=0.25, gamma=2.0)),
    }
    check_loss(backend, lambda t, p: ivy.losses.focal(t, p), [BIN_TARGETS, BIN_LOGITS], refs, rtol=1e-4)


def test_fn_losses_categorical_focal(backend):
    def torch_ref(m: Any, t: Any, p: Any) -> Any:
        logp = m.log_softmax(p, -1)
        return (-(0.25 * (1 - logp.exp()) ** 2.0 * t * logp).sum(-1)).mean()

    refs = {
        "torch": torch_ref,
        "keras": _keras("CategoricalFocalCrossentropy", "mean", alpha=0.25, gamma=2.0, from_logits=True),
    }
    check_loss(backend, lambda t, p: ivy.losses.categorical_focal(t, p), [ONE_HOT, LOGITS], refs, rtol=1e-4)
    check_loss(
        backend,
        lambda t, p: ivy.losses.categorical_focal(t, p),
        [LABELS, LOGITS],
        {"torch": lambda m, t, p: torch_ref(m, m.nn.functional.one_hot(t, C).float(), p)},
        fw="torch",
        rtol=1e-4,
    )


# ------------------------------------------------------------------ similarity and margins


def test_fn_losses_cosine_similarity_and_embedding(backend):
    a, b = RNG.standard_normal((N, 5)).astype(np.float32), RNG.standard_normal((N, 5)).astype(np.float32)

    def torch_cos(m: Any, t: Any, p: Any) -> Any:
        n = m.nn.functional.normalize
        return -(n(t, dim=-1, eps=1e-6) * n(p, dim=-1, eps=1e-6)).sum(-1).mean()

    refs = {
        "torch": torch_cos,
        "keras": _keras("CosineSimilarity", "mean"),
        "optax": lambda m, t, p: m.mean(-__import__("optax").cosine_similarity(p, t)),
    }
    check_loss(backend, lambda t, p: ivy.losses.cosine_similarity(t, p), [a, b], refs, rtol=1e-4)
    y = np.where(RNG.random(N) > 0.5, 1, -1).astype(np.int64)
    refs = {
        "torch": lambda m, x1, x2, t: m.nn.functional.cosine_embedding_loss(x1, x2, t, margin=0.1),
        "paddle": lambda m, x1, x2, t: m.nn.functional.cosine_embedding_loss(x1, x2, t, margin=0.1),
    }
    check_loss(
        backend,
        lambda x1, x2, t: ivy.losses.cosine_embedding(x1, x2, t, margin=0.1),
        [a, b, y],
        refs,
        diff=0,
        rtol=1e-4,
    )


@pytest.mark.parametrize("name", ["hinge", "squared_hinge"])
def test_fn_losses_hinge(backend, name):
    scores = RNG.standard_normal((N, 3)).astype(np.float32)
    signs = np.where(BIN_TARGETS > 0, 1.0, -1.0).astype(np.float32)

    def torch_ref(m: Any, t: Any, p: Any) -> Any:
        h = m.clamp(1 - t * p, min=0)
        return (h if name == "hinge" else h * h).mean()

    refs = {"torch": torch_ref, "keras": _keras({"hinge": "Hinge", "squared_hinge": "SquaredHinge"}[name], "mean")}
    if name == "hinge":
        refs["optax"] = lambda m, t, p: m.mean(__import__("optax").hinge_loss(p, t))
    fn = getattr(ivy.losses, name)
    check_loss(backend, lambda t, p: fn(t, p), [signs, scores], refs)
    # 0/1 labels mean the same as -1/1
    got = native_to_numpy(backend, fn(to_native(backend, BIN_TARGETS), to_native(backend, scores)))
    want = native_to_numpy(backend, fn(to_native(backend, signs), to_native(backend, scores)))
    np.testing.assert_allclose(got, want, rtol=1e-6)


def test_fn_losses_categorical_hinge_and_multi_margin(backend):
    refs = {
        "keras": _keras("CategoricalHinge", "mean"),
        "torch": lambda m, t, p: m.clamp(((1 - t) * p).amax(-1) - (t * p).sum(-1) + 1, min=0).mean(),
    }
    check_loss(backend, lambda t, p: ivy.losses.categorical_hinge(t, p), [ONE_HOT, LOGITS], refs)
    w = np.array([1.0, 2.0, 0.5, 1.0], np.float32)
    for p in (1, 2):
        refs = {
            "torch": lambda m, t, s, p=p: m.nn.functional.multi_margin_loss(s, t, p=p, margin=0.8, weight=m.tensor(w)),
            "paddle": lambda m, t, s, p=p: m.nn.functional.multi_margin_loss(
                s, t, p=p, margin=0.8, weight=m.to_tensor(w)
            ),
        }
        check_loss(
            backend,
            lambda t, s, p=p: ivy.losses.multi_margin(t, s, p=p, margin=0.8, weight=w),
            [LABELS, LOGITS],
            refs,
            rtol=1e-4,
        )


# ------------------------------------------------------------------ CTC


def _ctc_case() -> list[np.ndarray]:
    rng = np.random.default_rng(11)
    logits = rng.standard_normal((3, 8, 5)).astype(np.float32)
    labels = np.array([[1, 2, 2, 0], [3, 1, 0, 0], [4, 4, 1, 2]], np.int64)  # padded with 0 (never read)
    return [labels, logits, np.array([8, 6, 8], np.int64), np.array([3, 2, 4], np.int64)]


@pytest.mark.parametrize("reduction", ["mean", "none"])
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
        return m.mean(per / ll) if reduction == "mean" else per

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


# ------------------------------------------------------------------ classes


def test_fn_losses_classes_hold_settings(backend):
    loss = ivy.CrossEntropyLoss(label_smoothing=0.1, reduction="sum")
    assert repr(loss) == "CrossEntropyLoss(label_smoothing=0.1, reduction='sum')"
    got = native_to_numpy(backend, loss(to_native(backend, LABELS), to_native(backend, LOGITS)))
    want = native_to_numpy(
        backend,
        ivy.losses.cross_entropy(
            to_native(backend, LABELS), to_native(backend, LOGITS), label_smoothing=0.1, reduction="sum"
        ),
    )
    np.testing.assert_allclose(got, want, rtol=1e-6)
    with pytest.raises(TypeError, match=r"takes \[.*'label_smoothing'.*\], got \['smoothing'\]"):
        ivy.CrossEntropyLoss(smoothing=0.1)
    with pytest.raises(ValueError, match="reduction must be 'mean', 'sum' or 'none'"):
        ivy.MSELoss(reduction="avg")
    with pytest.raises(ValueError, match="do not match scores of shape"):
        ivy.losses.cross_entropy(to_native(backend, LABELS[:3]), to_native(backend, LOGITS))
    assert ivy.losses.mse(to_native(backend, SOFT), to_native(backend, SOFT)).shape == ()
