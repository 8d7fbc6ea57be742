"""Siconos's ``NewtonEulerDS`` in kernel scripts (``mechanics/NewtonEuler/FastSpinningObjects.py``):
rigid bodies stepped by Saltus's mechanics engine (``saltus.mechanics``, Moreau–Jean with the
gyroscopic fixed point) under a Siconos ``TimeStepping`` with ``MoreauJeanOSI``.

A ``NewtonEulerDS(q, twist, m, I)`` holds ``q = (x y z qw qx qy qz)`` and the twist
``(v, Ω)`` (``v`` in the world frame, ``Ω`` in the body frame), both live arrays that follow the
state after every step; the external force ``fExt`` (world frame) and moment ``mExt`` (body
frame, or the world frame after ``setIsMextExpressedInInertialFrame(True)``) are constant
(``setFExtPtr``, ``setMExtPtr``) or computed by an overriding ``computeFExt(t)``/``computeMExt(t)``
writing into them, evaluated at both ends of each step as Siconos's θ-scheme does. A model of
Newton–Euler systems only, without interactions, runs this way; internal forces
(``computeFInt``, ``computeMInt``) and interactions with Newton–Euler systems are named as
unsupported."""

from __future__ import annotations

from typing import List

import numpy as np

from .. import model as _m
from ._unsupported import raise_unsupported


def rotation(q) -> np.ndarray:
    """The rotation matrix of the pose ``q`` (``x y z qw qx qy qz``; the quaternion normalized)."""
    w, x, y, z = np.asarray(q, dtype=np.float64).ravel()[3:7] / np.linalg.norm(np.asarray(q, dtype=float).ravel()[3:7])
    return np.array([[1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
                     [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
                     [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)]])


class NewtonEulerDS(_m.DynamicalSystem):
    """Siconos ``NewtonEulerDS(q, twist, mass, inertia)``."""

    _kind = "NewtonEulerDS"

    def __init__(self, q, twist, mass: float, inertia, name=None):
        super().__init__(name)
        from .kernel import SiconosVector

        self._q = np.array(q, dtype=np.float64).ravel()
        self._twist = np.array(twist, dtype=np.float64).ravel()
        if self._q.size != 7 or self._twist.size != 6:
            raise ValueError(f"NewtonEulerDS: q has 7 entries and the twist 6, got {self._q.size} and {self._twist.size}")
        self._mass = float(mass)
        self._inertia = np.array(inertia, dtype=np.float64).reshape(3, 3)
        self._fExt, self._mExt = SiconosVector(3), SiconosVector(3)
        self._mext_inertial = False
        self._p = np.zeros(6)
        self._last = None

    # -- state ---------------------------------------------------------------------------------
    def q(self) -> np.ndarray:
        """The pose ``x y z qw qx qy qz`` (live)."""
        return self._q

    def twist(self) -> np.ndarray:
        """``(v, Ω)``: velocity (world frame) and angular velocity (body frame) (live)."""
        return self._twist

    velocity = twist

    def dimension(self) -> int:
        return 6

    def getqDim(self) -> int:
        return 7

    def scalarMass(self) -> float:
        return self._mass

    def inertia(self) -> np.ndarray:
        return self._inertia

    def p(self, level: int = 1) -> np.ndarray:
        """The impulse of the nonsmooth interactions (none: zero)."""
        return self._p

    def display(self) -> None:
        print(f"NewtonEulerDS (Saltus): m = {self._mass}, q = {self._q}, twist = {self._twist}")

    # -- forces --------------------------------------------------------------------------------
    def setFExtPtr(self, f) -> None:
        from .kernel import SiconosVector

        self._fExt = f if isinstance(f, SiconosVector) else SiconosVector(f)

    def setMExtPtr(self, m) -> None:
        from .kernel import SiconosVector

        self._mExt = m if isinstance(m, SiconosVector) else SiconosVector(m)

    def fExt(self):
        return self._fExt

    def mExt(self):
        return self._mExt

    def setIsMextExpressedInInertialFrame(self, value: bool) -> None:
        self._mext_inertial = bool(value)

    def setComputeJacobianMIntqByFD(self, value: bool) -> None:
        """Accepted (Saltus has no internal moment to differentiate)."""

    def setComputeJacobianFIntqByFD(self, value: bool) -> None:
        """Accepted."""

    def computeFExt(self, time: float, fExt=None) -> None:
        """Siconos: the constant ``fExt`` (a subclass may override it)."""

    def computeMExt(self, time: float, mExt=None) -> None:
        """Siconos: the constant ``mExt`` (a subclass may override it)."""

    def _wrench(self, t: float, x) -> List[float]:
        """Force (world frame) and torque (body frame) at ``t`` and the 13 numbers ``x``."""
        self.computeFExt(t)
        self.computeMExt(t)
        f = np.asarray(self._fExt, dtype=np.float64).ravel()
        m = np.asarray(self._mExt, dtype=np.float64).ravel()
        if self._mext_inertial:
            m = rotation(np.asarray(x[:7])).T @ m
        return [float(v) for v in f] + [float(v) for v in m]

    def _check(self) -> None:
        cls = type(self)
        for name in ("computeFInt", "computeMInt", "computeFGyr", "computeMGyr"):
            if getattr(cls, name, None) is not None:
                raise_unsupported(f"NewtonEulerDS.{name} (an internal force)",
                                  "external forces and moments only (computeFExt, computeMExt)")

    # -- the live vectors ------------------------------------------------------------------------
    def _write(self, state: dict) -> None:
        self._q[:3] = state["position"]
        self._q[3:] = state["orientation"]
        self._twist[:3] = state["velocity"]
        self._twist[3:] = state["angular_velocity"]
        self._last = (self._q.tobytes(), self._twist.tobytes())

    def _check_unchanged(self) -> None:
        if self._last is not None and (self._q.tobytes(), self._twist.tobytes()) != self._last:
            raise_unsupported(f"writing {self.name}.q() or twist() between steps",
                              "Saltus changes the state only through the simulation")


class NewtonEulerCore:
    """The compiled simulation of a model of Newton–Euler systems: a ``saltus.mechanics`` scene
    without gravity and without shapes, one body per system, stepped by the Siconos
    ``TimeStepping`` protocol (``has_next_event``, ``compute_one_step``, ``t``, ``h``, ``k``)."""

    event_driven = False

    def __init__(self, nsds, td, theta: float):
        from saltus.mechanics import Scene

        self.systems = list(nsds.systems)
        self.t0, self.h, self.T = float(td.t0), float(td.h), float(nsds.T)
        self.k = 0
        scene = Scene(gravity=(0.0, 0.0, 0.0))
        for ds in self.systems:
            ds._check()
            q, tw = ds.q(), ds.twist()
            scene.add_object(ds.name, [], translation=q[:3], orientation=q[3:7] / np.linalg.norm(q[3:7]),
                             velocity=tw, mass=ds.scalarMass(), inertia=ds.inertia())
            # the wrench at Siconos's instants t0 + k h (the engine's time is a running sum)
            scene.add_external_function(ds.name, lambda t, x, ds=ds: ds._wrench(self._instant(t), x))
        self.sim = scene.simulation(h=self.h, t0=self.t0, theta=theta)
        for i, ds in enumerate(self.systems):
            ds._write(self.sim.state(i))

    @property
    def t(self) -> float:
        return self.t0 + self.k * self.h

    def _instant(self, t: float) -> float:
        """Siconos's ``TimeDiscretisation`` instant nearest to ``t``: ``t0 + h k``."""
        return self.t0 + self.h * round((t - self.t0) / self.h)

    def has_next_event(self) -> bool:
        return self.t < self.T - 1e-9 * self.h

    def compute_one_step(self) -> None:
        for ds in self.systems:
            ds._check_unchanged()
        self.sim.step()
        self.k += 1
        for i, ds in enumerate(self.systems):
            ds._write(self.sim.state(i))


def newton_euler_core(sim):
    """The core of ``sim`` (a compat ``TimeStepping``) when its model holds Newton–Euler systems:
    a :class:`NewtonEulerCore` if they are all the model has, else the refusal; ``None`` when it
    has none."""
    systems = sim.nsds.systems
    ne = [d for d in systems if isinstance(d, NewtonEulerDS)]
    if not ne:
        return None
    if len(ne) != len(systems) or sim.nsds.interactions:
        raise_unsupported("NewtonEulerDS with interactions or other kinds of systems",
                          "a model of Newton–Euler systems alone runs (rigid bodies with contacts: "
                          "siconos.io.mechanics_run or saltus.mechanics)")
    from .. import simulation as _s

    if not isinstance(sim.osi, _s.MoreauJeanOSI) or type(sim.osi).__name__ != "MoreauJeanOSI":
        raise_unsupported(f"NewtonEulerDS with {type(sim.osi).__name__}", "MoreauJeanOSI")
    if sim.osi.attrs.get("gamma") is not None:
        raise_unsupported("NewtonEulerDS with MoreauJeanOSI(theta, gamma)")
    return NewtonEulerCore(sim.nsds, sim.td, float(sim.osi.attrs.get("theta", 0.5)))


class NewtonEulerR:
    """Siconos ``NewtonEulerR``: relations on Newton–Euler systems are not in the kernel."""

    def __init__(self, *a, **k):
        raise_unsupported("NewtonEulerR (relations on Newton–Euler systems)",
                          "contacts and joints of rigid bodies: siconos.io.mechanics_run or saltus.mechanics")


class NewtonEuler1DR(NewtonEulerR):
    """Siconos ``NewtonEuler1DR`` (refused as :class:`NewtonEulerR`)."""


def writable(v) -> np.ndarray:
    """The array an in-place Siconos function writes into: a ``SiconosVector``'s own storage, or
    ``v`` itself (a float numpy array); anything else (a list, an int array) is refused, since
    the result would be lost in a copy."""
    a = getattr(v, "_a", v)
    if not (isinstance(a, np.ndarray) and a.dtype == np.float64):
        raise TypeError(f"expected a SiconosVector or a float64 numpy array to write into, got {type(v).__name__}")
    return a


def changeFrameAbsToBody(q, v) -> None:
    """Siconos ``changeFrameAbsToBody(q, v)``: the world vector ``v`` (a ``SiconosVector``)
    rewritten in place in the frame of the pose ``q`` (``x y z qw qx qy qz``): ``v ← R(q)ᵀ v``."""
    a = writable(v)
    a[:] = rotation(q).T @ a.copy()


rotateAbsToBody = changeFrameAbsToBody


def changeFrameBodyToAbs(q, v) -> None:
    """Siconos ``changeFrameBodyToAbs(q, v)``: the body-frame vector ``v`` rewritten in place in
    the world frame (``v ← R(q) v``)."""
    a = writable(v)
    a[:] = rotation(q) @ a.copy()


def rotationVectorFromQuaternion(q0: float, q1: float, q2: float, q3: float, rotation_vector=None):
    """Siconos ``rotationVectorFromQuaternion``: ``2 asin(|u|) u/|u|`` for ``u = (q1, q2, q3)``
    (zero below 1e-12), into ``rotation_vector`` when given, else returned."""
    u = np.array([q1, q2, q3], dtype=np.float64)
    n = min(float(np.linalg.norm(u)), 1.0)
    r = np.zeros(3) if n < 1e-12 else u * (2.0 * np.arcsin(n) / np.linalg.norm(u))
    if rotation_vector is None:
        return r
    writable(rotation_vector)[:3] = r
    return None


def quaternionFromRotationVector(rotation_vector, q=None):
    """Siconos ``quaternionFromRotationVector``: the unit quaternion of the rotation vector into
    ``q[3:7]`` (a pose, 7 numbers) when given, else the quaternion ``(w, x, y, z)`` returned."""
    r = np.asarray(rotation_vector, dtype=np.float64).ravel()[:3]
    angle = float(np.linalg.norm(r))
    quat = np.array([1.0, 0.0, 0.0, 0.0]) if angle == 0.0 else np.concatenate(
        [[np.cos(angle / 2)], np.sin(angle / 2) * r / angle])
    if q is None:
        return quat
    writable(q)[3:7] = quat
    return None
