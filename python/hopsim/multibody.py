"""The multibody system from Python: bodies, hinges, nodes, frame queries, energies, dynamics.

Every :class:`Simulation` owns one :class:`MultibodySystem`, ``sim.multibody``. Build the tree on
it while the simulation is unlocked, then lock and run; Q and U are integrated with the models'
states::

    import numpy as np
    import hopsim

    sim = hopsim.Simulation(0.01, integrator="rkf45")
    mb = sim.multibody
    mb.gravity = [0, 0, -9.81]
    rod = hopsim.rod_inertia(1.0, [0, 0, -1.0])            # 1 kg, 1 m along -z
    mb.add_body("arm", "world", hopsim.Hinge.pin([1, 0, 0]), rod)
    mb.add_node("tip", "arm", hopsim.RigidTransform.from_translation([0, 0, -1.0]))
    mb.set_body_q("arm", [0.3])
    sim.lock()
    sim.advance_time_to(1.0)
    print(mb.relative_pose("tip").translation, mb.energy_and_momentum().total_energy)

Conventions (docs/conventions.md): poses are :class:`RigidTransform` X_AB (R_AB, p_AoBo_A);
quaternions are scalar first; spatial vectors are 6 numbers [angular; linear]; mass properties
(:class:`SpatialInertia`) are about the body frame origin in the body's axes, built from the
inertia about the center of mass.

The helpers below build the :class:`SpatialInertia` of common solids.
"""

import numpy as _np

from hopsim._hopsim import (
    EnergyAndMomentum,
    Hinge,
    HingeType,
    InputError,
    MultibodySystem,
    RigidTransform,
    SpatialInertia,
    SubhingeType,
    cpu_kernels,
)

__all__ = [
    "EnergyAndMomentum",
    "Hinge",
    "HingeType",
    "MultibodySystem",
    "RigidTransform",
    "SpatialInertia",
    "SubhingeType",
    "box_inertia",
    "cpu_kernels",
    "cylinder_inertia",
    "rod_inertia",
    "sphere_inertia",
]

# Report the classes as hopsim.X, as the package's other classes.
for _public in (EnergyAndMomentum, Hinge, HingeType, MultibodySystem, RigidTransform,
                SpatialInertia, SubhingeType):
    _public.__module__ = "hopsim"
del _public


def _com(com):
    return _np.zeros(3) if com is None else com


def box_inertia(mass, size, com=None):
    """A solid box of ``mass`` (kg) and edge lengths ``size`` = (a, b, c) (m) along the body's
    x, y, z axes, centered at ``com`` (m; None: the body origin).

    Inertia about the center: m/12 diag(b² + c², a² + c², a² + b²).
    """
    a, b, c = (float(x) for x in size)
    inertia = mass / 12.0 * _np.diag([b * b + c * c, a * a + c * c, a * a + b * b])
    return SpatialInertia(mass, _com(com), inertia)


def sphere_inertia(mass, radius, com=None):
    """A solid sphere of ``mass`` (kg) and ``radius`` (m) centered at ``com`` (None: the origin).

    Inertia about the center: 2/5 m r² in every direction.
    """
    return SpatialInertia(mass, _com(com), 0.4 * mass * radius * radius * _np.eye(3))


def cylinder_inertia(mass, radius, length, axis=2, com=None):
    """A solid cylinder of ``mass`` (kg), ``radius`` and ``length`` (m) whose axis is the body's
    x, y or z axis (``axis`` = 0, 1 or 2), centered at ``com`` (None: the origin).

    Inertia about the center: m r²/2 about the axis, m (3 r² + l²)/12 about the other two.
    """
    if axis not in (0, 1, 2):
        raise InputError(f"cylinder_inertia: axis {axis!r}; expected 0, 1 or 2 (x, y or z)")
    transverse = mass * (3.0 * radius * radius + length * length) / 12.0
    moments = _np.full(3, transverse)
    moments[axis] = 0.5 * mass * radius * radius
    return SpatialInertia(mass, _com(com), _np.diag(moments))


def rod_inertia(mass, end):
    """A thin uniform rod of ``mass`` (kg) from the body origin to the point ``end`` (m, in the
    body frame): CM at end/2, inertia about the CM m l²/12 about every axis perpendicular to the
    rod and zero along it.
    """
    end = _np.asarray(end, dtype=float)
    if end.shape != (3,):
        raise InputError(f"rod_inertia: end has shape {end.shape}; expected (3,)")
    length = float(_np.linalg.norm(end))
    if not length > 0.0:
        raise InputError("rod_inertia: end is the origin; expected a rod of positive length")
    n = end / length
    inertia = mass * length * length / 12.0 * (_np.eye(3) - _np.outer(n, n))
    return SpatialInertia(mass, end / 2.0, inertia)
