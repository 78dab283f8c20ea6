"""Inputs that are no rotation: every conversion gives NaN for them, never a made-up rotation.

A zero quaternion and a matrix with ``det <= 0`` (the zero matrix, a reflection) describe no
rotation; nor does an input holding NaN. Conversions never branch on values (they compile), so
instead of raising they return NaN in the orientation part of their result, quietly (no NumPy
warning), and leave the other entries of a batch exact. The valid entries are checked with
SciPy's ``Rotation`` by turning each output back into a matrix.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from scipy.spatial.transform import Rotation

import ivy
import ivy_mech

VALID = Rotation.from_rotvec([[0.3, -0.2, 0.5], [-1.0, 2.0, 0.4]])
# the second valid quaternion with a negative scalar part and norm 3: the same rotation
QUATS = np.concatenate([VALID.as_quat() * np.array([[1.0], [-3.0]]), np.zeros((1, 4)), np.full((1, 4), np.nan)])
REFLECTION = np.diag([1.0, 1.0, -1.0])
MATS = np.concatenate([VALID.as_matrix(), np.zeros((1, 3, 3)), REFLECTION[None], np.full((1, 3, 3), np.nan)])
TRANSLATIONS = np.array([[1.0, 2.0, 3.0], [-1.0, 0.5, 0.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0], [0.0, -1.0, 2.0]])


def _polar_to_rotvec(p: np.ndarray) -> np.ndarray:
    el, az, angle = p[..., 0], p[..., 1], p[..., 2]
    axis = np.stack([np.sin(el) * np.cos(az), np.sin(el) * np.sin(az), np.cos(el)], axis=-1)
    return axis * angle[..., None]


# the output representation -> matrices, by SciPy
TO_MATRIX = {
    "rot_mat": lambda x: x,
    "quaternion": lambda x: Rotation.from_quat(x).as_matrix(),
    "rotation_vector": lambda x: Rotation.from_rotvec(x).as_matrix(),
    "axis_angle": lambda x: Rotation.from_rotvec(x[..., :3] * x[..., 3:]).as_matrix(),
    "polar_axis_angle": lambda x: Rotation.from_rotvec(_polar_to_rotvec(x)).as_matrix(),
    "euler": lambda x: Rotation.from_euler("zyx", x).as_matrix(),
}
POSE_KIND = {
    "mat": "rot_mat",
    "rot_vec": "rotation_vector",
    "quaternion": "quaternion",
    "axis_angle": "axis_angle",
    "euler": "euler",
}


def _conversions(source: str) -> list[str]:
    """Every public conversion from ``source`` (``quaternion`` or ``rot_mat``, and their poses)."""
    pose = {"quaternion": "quaternion_pose", "rot_mat": "mat_pose"}[source]
    return sorted(n for n in ivy_mech.__all__ if n.startswith((f"{source}_to_", f"{pose}_to_")))


def _check(name: str, out: np.ndarray, translations: np.ndarray, n_valid: int) -> None:
    if "_pose_to_" in name:
        kind = POSE_KIND[name.split("_pose_to_")[1].removesuffix("_pose")]
        if kind == "rot_mat":
            np.testing.assert_allclose(out[..., 3], translations, atol=1e-12)  # kept for every entry
            rot = out[..., :3]
        else:
            np.testing.assert_allclose(out[..., :3], translations, atol=1e-12)
            rot = out[..., 3:]
    else:
        kind, rot = name.split("_to_")[1], out
    assert np.all(np.isnan(rot[n_valid:])), f"{name}: no NaN for an input that is no rotation"
    assert np.all(np.isfinite(rot[:n_valid])), name
    np.testing.assert_allclose(TO_MATRIX[kind](rot[:n_valid]), VALID.as_matrix(), atol=1e-12, err_msg=name)


@pytest.mark.parametrize("source", ["quaternion", "rot_mat"])
def test_every_conversion_gives_nan_for_no_rotation(backend, to_native, to_numpy, source):
    names = _conversions(source)
    assert len(names) == 9, names  # the walk finds them all: 5 orientations, 4 poses
    inputs = QUATS if source == "quaternion" else MATS
    translations = TRANSLATIONS[: len(inputs)]
    poses = (
        np.concatenate([translations, QUATS], axis=-1)
        if source == "quaternion"
        else np.concatenate([MATS, translations[..., None]], axis=-1)
    )
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)  # NumPy: no division by zero, no invalid value

        def convert_all(x: object, pose: object) -> list[object]:
            return [getattr(ivy_mech, n)(pose if "_pose_to_" in n else x) for n in names]

        # jax's eager mode compiles each op for each new shape: one jit of all of them is faster
        outs = (ivy.compile(convert_all) if backend == "jax" else convert_all)(to_native(inputs), to_native(poses))
        for name, out in zip(names, outs):
            _check(name, np.asarray(to_numpy(out)), translations, 2)


def test_quaternion_algebra_with_the_zero_quaternion(backend, to_native, to_numpy):
    def algebra(q: object, pose: object, velocity: object) -> list[object]:
        return [
            ivy_mech.inverse_quaternion(q),
            ivy_mech.scale_quaternion_rotation_angle(q, 0.5),
            ivy_mech.increment_quaternion_pose_with_velocity(pose, velocity, 0.5),
            ivy_mech.hamilton_product(q, q),  # algebra, not a conversion: the product with zero is zero
        ]

    args = (QUATS, np.concatenate([TRANSLATIONS[:4], QUATS], axis=-1), np.tile([0.1, 0, 0, 0, 0, 0, 1.0], (4, 1)))
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        outs = (ivy.compile(algebra) if backend == "jax" else algebra)(*(to_native(a) for a in args))
    inverse, halfway, stepped, product = (np.asarray(to_numpy(o)) for o in outs)
    np.testing.assert_allclose(inverse[:2], (VALID.inv().as_quat() * np.array([[1.0], [-1 / 3]])), atol=1e-12)
    np.testing.assert_allclose(Rotation.from_quat(halfway[:2]).as_rotvec(), VALID.as_rotvec() / 2, atol=1e-12)
    np.testing.assert_allclose(stepped[:, :3], TRANSLATIONS[:4] + [0.05, 0.0, 0.0], atol=1e-12)
    np.testing.assert_allclose(Rotation.from_quat(stepped[:2, 3:]).as_matrix(), VALID.as_matrix(), atol=1e-12)
    for got in (inverse, halfway, stepped[:, 3:]):
        assert np.all(np.isnan(got[2:])) and np.all(np.isfinite(got[:2]))
    np.testing.assert_array_equal(product[2], 0.0)
