"""Siconos's kernel-level rigid bodies and their shapes (``siconos.mechanics.collision``):
``RigidBodyDS`` (a ``NewtonEulerDS`` with contactors), the shapes ``SiconosBox``,
``SiconosSphere``, ``SiconosPlane``, ``SiconosCylinder``, ``SiconosCapsule``, ``SiconosContactor``
and ``SiconosContactorSet`` (the ``BulletBouncingBox`` tutorials). A ``TimeStepping`` whose model
holds such bodies, with a ``SiconosBulletCollisionManager`` inserted, runs on Saltus's mechanics
engine: parry's collision detection instead of Bullet's."""

from __future__ import annotations

from typing import List, Optional

import numpy as np

from saltus.siconos._newton_euler import NewtonEulerDS

_IDENTITY_POSE = (0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0)


class _SiconosShape:
    """A shape of Siconos's collision library: its ``saltus.mechanics`` shape and the primitive
    name and parameters of Siconos's inertia convention."""

    def _saltus(self):
        raise NotImplementedError

    #: Siconos's primitive name and its parameters (``mechanics_run._inertia``'s conventions)
    primitive: str = ""
    params: tuple = ()


class SiconosBox(_SiconosShape):
    """Siconos ``SiconosBox(width, height, depth)``: the full sides along x, y, z."""

    primitive = "Box"

    def __init__(self, w: float, h: float, d: float):
        self.params = (float(w), float(h), float(d))

    def _saltus(self):
        from saltus import mechanics

        return mechanics.Box(*(0.5 * x for x in self.params))


class SiconosSphere(_SiconosShape):
    """Siconos ``SiconosSphere(radius)``."""

    primitive = "Sphere"

    def __init__(self, radius: float):
        self.params = (float(radius),)

    def _saltus(self):
        from saltus import mechanics

        return mechanics.Sphere(self.params[0])


class _AxialShape(_SiconosShape):
    """A shape of radius and length along the local y axis (Siconos's cylinder and capsule)."""

    def __init__(self, radius: float, length: float):
        self.params = (float(radius), float(length))

    def _saltus(self):
        from saltus import mechanics

        return getattr(mechanics, self.primitive)(self.params[0], 0.5 * self.params[1])


class SiconosCylinder(_AxialShape):
    """Siconos ``SiconosCylinder(radius, length)``, along the local y axis."""

    primitive = "Cylinder"


class SiconosCapsule(_AxialShape):
    """Siconos ``SiconosCapsule(radius, length)``, along the local y axis."""

    primitive = "Capsule"


class SiconosPlane(_SiconosShape):
    """Siconos ``SiconosPlane()``: the half-space below the plane ``z = 0`` of its frame (static)."""

    primitive = "Plane"

    def _saltus(self):
        from saltus import mechanics

        return mechanics.Plane((0.0, 0.0, 1.0))


class SiconosContactor:
    """Siconos ``SiconosContactor(shape, offset=(0, 0, 0, 1, 0, 0, 0), collision_group=0)``: a
    shape at a pose (``x y z qw qx qy qz``) in its body's frame."""

    def __init__(self, shape: _SiconosShape, offset=None, collision_group: int = 0):
        if not isinstance(shape, _SiconosShape):
            raise TypeError(f"SiconosContactor: a Siconos shape, got {type(shape).__name__}")
        self.shape = shape
        self.offset = np.array(_IDENTITY_POSE if offset is None else offset, dtype=np.float64).ravel()
        if self.offset.size != 7:
            raise ValueError(f"SiconosContactor: an offset is 7 numbers (x y z qw qx qy qz), got {self.offset.size}")
        self.collision_group = int(collision_group)

    def _saltus(self):
        from saltus import mechanics

        return mechanics.Contactor(self.shape._saltus(), relative_translation=tuple(self.offset[:3]),
                                   relative_orientation=tuple(self.offset[3:]),
                                   collision_group=self.collision_group)


class SiconosContactorSet(list):
    """Siconos ``SiconosContactorSet``: a list of contactors (``append``, ``push_back``)."""

    def push_back(self, c: SiconosContactor) -> None:
        self.append(c)


class RigidBodyDS(NewtonEulerDS):
    """Siconos ``RigidBodyDS(q, twist, mass, inertia=None)``: a ``NewtonEulerDS`` with a set of
    contactors. Without an inertia, the last contactor's shape gives it (Siconos's
    ``useContactorInertia``, Bullet's conventions, as ``MechanicsHdf5Runner`` does)."""

    def __init__(self, q, twist, mass: float, inertia=None, name=None):
        super().__init__(q, twist, mass, np.eye(3) if inertia is None else inertia, name)
        self._contactors = SiconosContactorSet()
        self._contactor_inertia = inertia is None

    def contactors(self) -> SiconosContactorSet:
        return self._contactors

    def setContactors(self, cset) -> None:
        self._contactors = SiconosContactorSet(cset)

    def setUseContactorInertia(self, value: bool) -> None:
        self._contactor_inertia = bool(value)

    def inertia(self) -> np.ndarray:
        if self._contactor_inertia and self._contactors:
            from saltus.siconos.io.mechanics_run import _inertia

            last = self._contactors[-1].shape
            if last.primitive != "Plane":
                return np.diag(_inertia(last.primitive, last.params, self.scalarMass()))
        return self._inertia

    def _saltus_contactors(self) -> List:
        return [c._saltus() for c in self._contactors]


def static_body_contactors(cset) -> Optional[List]:
    """The ``saltus.mechanics`` contactors of a static body's contactor set."""
    return [c._saltus() for c in cset]
