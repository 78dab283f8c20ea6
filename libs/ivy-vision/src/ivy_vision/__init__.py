"""ivy-vision: 3D vision written once against ``ivy.*``, for every backend.

Camera geometry (pixels, depth, camera and world coordinates, spheres), two-view geometry and
triangulation, optical flow, projective geometry, forward warping (``quantize_to_image``), voxel
grids, signed distance functions, NeRF-style implicit rendering, meshes, smoothing, omni-image
padding and image helpers. Functions take and return the native arrays of any Ivy backend, take
arbitrary leading batch axes and are differentiable on the autodiff backends.

Conventions: images are channels-last ``[..., h, w, c]``; a pixel coordinate is ``(x, y)`` =
(column, row) with integer pixel centres from 0; the camera frame is x right, y down, z forward;
``K = [[fx, 0, px], [0, fy, py], [0, 0, 1]]``; "ds pixel coords" are ``(u·d, v·d, d)``;
``ext_mat`` ``[..., 3, 4]`` is world->camera, ``inv_ext_mat`` camera->world,
``full_mat = K @ ext_mat``. See :mod:`ivy_vision.single_view_geometry` for details.
"""

from . import (
    containers,
    image,
    implicit,
    mesh,
    optical_flow,
    padding,
    projective_geometry,
    quantization,
    sdf,
    single_view_geometry,
    smoothing,
    two_view_geometry,
    voxel_grids,
)
from .containers import *  # noqa: F403
from .image import *  # noqa: F403
from .implicit import *  # noqa: F403
from .mesh import *  # noqa: F403
from .optical_flow import *  # noqa: F403
from .padding import *  # noqa: F403
from .projective_geometry import *  # noqa: F403
from .quantization import *  # noqa: F403
from .sdf import *  # noqa: F403
from .single_view_geometry import *  # noqa: F403
from .smoothing import *  # noqa: F403
from .two_view_geometry import *  # noqa: F403
from .voxel_grids import *  # noqa: F403

__version__ = "0.1.0"

__all__ = sorted(
    set(containers.__all__)
    | set(image.__all__)
    | set(implicit.__all__)
    | set(mesh.__all__)
    | set(optical_flow.__all__)
    | set(padding.__all__)
    | set(projective_geometry.__all__)
    | set(quantization.__all__)
    | set(sdf.__all__)
    | set(single_view_geometry.__all__)
    | set(smoothing.__all__)
    | set(two_view_geometry.__all__)
    | set(voxel_grids.__all__)
)
