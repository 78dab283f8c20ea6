"""Orientations: rotation matrices, quaternions, rotation vectors, (polar) axis-angles, Euler angles.

Conventions (every function: arbitrary leading batch dimensions ``[...]``, angles in radians):

* Rotation matrix ``[..., 3, 3]``, acting on column vectors.
* Quaternion ``[..., 4]`` ``[qi, qj, qk, qr]``, scalar last (SciPy's order), Hamilton product.
  Conversions return canonical unit quaternions (``qr >= 0``) and accept any sign.
* Rotation vector ``[..., 3]``: unit axis times angle.
* Axis-angle ``[..., 4]``: ``[ex, ey, ez, theta]``.
* Polar axis-angle ``[..., 3]``: ``[theta_elev = acos(ez), phi_azim = atan2(ey, ex), angle]``.
* Euler angles ``[..., 3]`` in one of the 12 extrinsic conventions ``VALID_EULER_CONVENTIONS``
  (default ``'zyx'``): ``'abc'`` means ``R = R_c(e2) @ R_b(e1) @ R_a(e0)``.
"""

from ._common import VALID_EULER_CONVENTIONS
from .axis_angle import (
    axis_angle_to_polar_axis_angle,
    euler_to_axis_angle,
    euler_to_polar_axis_angle,
    polar_axis_angle_to_axis_angle,
    quaternion_to_axis_angle,
    quaternion_to_polar_axis_angle,
    rot_mat_to_axis_angle,
    rot_mat_to_polar_axis_angle,
    rotation_vector_to_axis_angle,
    rotation_vector_to_polar_axis_angle,
)
from .euler import (
    axis_angle_to_euler,
    polar_axis_angle_to_euler,
    quaternion_to_euler,
    rot_mat_to_euler,
    rotation_vector_to_euler,
)
from .quaternion import (
    axis_angle_to_quaternion,
    canonicalize_quaternion,
    euler_to_quaternion,
    hamilton_product,
    inverse_quaternion,
    polar_axis_angle_to_quaternion,
    rot_mat_to_quaternion,
    rotation_vector_to_quaternion,
    scale_quaternion_rotation_angle,
)
from .rotation_matrix import (
    axis_angle_to_rot_mat,
    euler_to_rot_mat,
    polar_axis_angle_to_rot_mat,
    quaternion_to_rot_mat,
    rot_vec_to_rot_mat,
    rotation_vector_to_rot_mat,
    target_facing_rotation_matrix,
)
from .rotation_vector import (
    axis_angle_to_rotation_vector,
    euler_to_rotation_vector,
    polar_axis_angle_to_rotation_vector,
    quaternion_to_rotation_vector,
    rot_mat_to_rotation_vector,
)
from .sampling import (
    get_random_axis_angle,
    get_random_euler,
    get_random_quaternion,
    get_random_rot_mat,
    get_random_rotation_vector,
)

__all__ = [
    "VALID_EULER_CONVENTIONS",
    "axis_angle_to_euler",
    "axis_angle_to_polar_axis_angle",
    "axis_angle_to_quaternion",
    "axis_angle_to_rot_mat",
    "axis_angle_to_rotation_vector",
    "canonicalize_quaternion",
    "euler_to_axis_angle",
    "euler_to_polar_axis_angle",
    "euler_to_quaternion",
    "euler_to_rot_mat",
    "euler_to_rotation_vector",
    "get_random_axis_angle",
    "get_random_euler",
    "get_random_quaternion",
    "get_random_rot_mat",
    "get_random_rotation_vector",
    "hamilton_product",
    "inverse_quaternion",
    "polar_axis_angle_to_axis_angle",
    "polar_axis_angle_to_euler",
    "polar_axis_angle_to_quaternion",
    "polar_axis_angle_to_rot_mat",
    "polar_axis_angle_to_rotation_vector",
    "quaternion_to_axis_angle",
    "quaternion_to_euler",
    "quaternion_to_polar_axis_angle",
    "quaternion_to_rot_mat",
    "quaternion_to_rotation_vector",
    "rot_mat_to_axis_angle",
    "rot_mat_to_euler",
    "rot_mat_to_polar_axis_angle",
    "rot_mat_to_quaternion",
    "rot_mat_to_rotation_vector",
    "rot_vec_to_rot_mat",
    "rotation_vector_to_axis_angle",
    "rotation_vector_to_euler",
    "rotation_vector_to_polar_axis_angle",
    "rotation_vector_to_quaternion",
    "rotation_vector_to_rot_mat",
    "scale_quaternion_rotation_angle",
    "target_facing_rotation_matrix",
]
