"""The package: imports no framework, exports what it documents, documents what it exports."""

from __future__ import annotations

import inspect
import json
import subprocess
import sys
from pathlib import Path

import ivy_mech
from ivy.testing.imports import import_cycles, import_graph

FRAMEWORKS = ("numpy", "torch", "jax", "tensorflow", "paddle")


def test_mech_imports_no_framework():
    code = f"import sys, json, ivy_mech\nprint(json.dumps([m for m in {FRAMEWORKS!r} if m in sys.modules]))\n"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert json.loads(out.stdout.strip().splitlines()[-1]) == []


def test_mech_all_is_complete_and_documented():
    names = set(ivy_mech.__all__)
    assert len(names) == len(ivy_mech.__all__)
    for module in (ivy_mech.orientation, ivy_mech.pose, ivy_mech.position):
        assert set(module.__all__) <= names
    for name in ivy_mech.__all__:
        obj = getattr(ivy_mech, name)
        if inspect.isfunction(obj):
            assert obj.__doc__ and len(obj.__doc__.strip()) > 20, name
            assert obj.__module__.startswith("ivy_mech."), name
    # the original library's function names are all present
    original = (
        "rot_mat_to_axis_angle",
        "euler_to_axis_angle",
        "quaternion_to_axis_angle",
        "quaternion_to_polar_axis_angle",
        "quaternion_to_rotation_vector",
        "get_random_axis_angle",
        "rot_mat_to_euler",
        "quaternion_to_euler",
        "axis_angle_to_euler",
        "get_random_euler",
        "axis_angle_to_quaternion",
        "polar_axis_angle_to_quaternion",
        "rot_mat_to_quaternion",
        "rotation_vector_to_quaternion",
        "euler_to_quaternion",
        "inverse_quaternion",
        "get_random_quaternion",
        "scale_quaternion_rotation_angle",
        "hamilton_product",
        "rot_vec_to_rot_mat",
        "quaternion_to_rot_mat",
        "euler_to_rot_mat",
        "target_facing_rotation_matrix",
        "axis_angle_to_rot_mat",
        "get_random_rot_mat",
        "euler_pose_to_axis_angle_pose",
        "mat_pose_to_rot_vec_pose",
        "quaternion_pose_to_rot_vec_pose",
        "mat_pose_to_euler_pose",
        "quaternion_pose_to_euler_pose",
        "axis_angle_pose_to_euler_pose",
        "quaternion_pose_to_mat_pose",
        "euler_pose_to_mat_pose",
        "rot_vec_pose_to_mat_pose",
        "axis_angle_pose_to_mat_pose",
        "axis_angle_pose_to_quaternion_pose",
        "mat_pose_to_quaternion_pose",
        "euler_pose_to_quaternion_pose",
        "increment_quaternion_pose_with_velocity",
        "polar_to_cartesian_coords",
        "cartesian_to_polar_coords",
        "make_coordinates_homogeneous",
        "make_transformation_homogeneous",
    )
    assert len(original) == 43
    assert set(original) <= names
    assert "VALID_EULER_CONVENTIONS" in names


def test_mech_has_no_import_cycle():
    # no module imports, directly or through others, one that imports it back
    edges = import_graph(Path(ivy_mech.__file__).parent)
    assert len(edges) > 3 and import_cycles(edges) == []
