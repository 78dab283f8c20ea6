"""ivy-robot: motion planning and robot kinematics, written once against ``ivy.*`` for every backend.

* :func:`sample_spline_path`: polyharmonic spline paths through anchors (e.g. poses over time);
  :func:`path_length` and :func:`collision_cost`, the terms of a planning cost.
* :class:`RigidMobile`: a rigid body (a drone) sampled as points at given poses.
* :class:`Manipulator` (Denavit-Hartenberg), :class:`MicoManipulator` (6 joints) and
  :class:`PandaManipulator` (7 joints): link matrices, link poses and points along the links.

Every function takes and returns the native arrays of any Ivy backend, accepts leading batch
dimensions and is differentiable on the backends with autodiff. Importing this package imports no
framework.
"""

from . import manipulator, planning, rigid_mobile
from .manipulator import Manipulator, MicoManipulator, PandaManipulator
from .planning import collision_cost, path_length, sample_spline_path
from .rigid_mobile import RigidMobile

__version__ = "0.1.0"

__all__ = [
    "Manipulator",
    "MicoManipulator",
    "PandaManipulator",
    "RigidMobile",
    "collision_cost",
    "manipulator",
    "path_length",
    "planning",
    "rigid_mobile",
    "sample_spline_path",
]
