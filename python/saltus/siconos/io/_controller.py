"""``MechanicsHdf5Runner.run(controller=...)`` on Saltus: Siconos calls ``controller.initialize(io)``
once before the first step and ``controller.step()`` before each step; a controller reads the
bodies and joints through ``io._nsds.topology()`` and sets constant loads for the next step.

What it reaches (the subset of Siconos's objects that the JointsTests spring–dampers use):

* ``topology().getDynamicalSystem(name)`` (``cast_NewtonEulerDS`` returns it): a live body,
  ``q()`` (``x y z qw qx qy qz``), ``linearVelocity(absolute)``, ``angularVelocity(absolute)``
  (``True``: world frame; ``False``: body frame), ``scalarMass()``, ``setFExtPtr(f)`` (world
  frame; as in Siconos it *replaces* the weight that the runner's default
  ``set_external_forces`` set), ``setMExtPtr(m)`` (body frame, or world frame after
  ``setIsMextExpressedInInertialFrame(True)``: rotated into the body frame at the start of
  each step, so held constant in the body frame over a step);
* ``topology().getInteraction(name).relation()`` of a joint (``cast_PivotJointR`` and the other
  casts return it): ``numberOfDoF()``, ``typeOfDoF(axis)``, ``computehDoF(t, q0, y, axis)``
  (Siconos's sign: the motion of body 2 relative to body 1, the opposite of Saltus's
  ``NAME.stop[i].s``), ``normalDoF(q0, axis)`` (the world direction along or about which body 2's
  motion relative to body 1 increases the coordinate), ``projectVectorDoF(v, q0, axis)``
  (``(v·n) n``), ``computeh(t, q0, y)`` (the joint's constraint values, zero when it holds) and
  ``computeJachqDoF(t, inter, q0, jachq, axis)`` (the gradient of a coordinate with respect to
  the poses), at the poses of ``q0 = BlockVector(ds1.q(), ds2.q())``.
"""

from __future__ import annotations

from typing import Dict, List, Tuple

import numpy as np

from .._unsupported import raise_unsupported


def _rot(q) -> np.ndarray:
    """The rotation matrix of the unit quaternion ``(w, x, y, z)``."""
    from ._run import _rotation

    return _rotation(q)


class LiveBody:
    """A dynamic body of the running simulation, as a Siconos ``NewtonEulerDS``."""

    def __init__(self, sim, index: int, name: str, mass: float, gravity: np.ndarray):
        self._sim, self._i, self._name, self._mass = sim, int(index), name, float(mass)
        # the scene's weight, which setFExtPtr replaces (Siconos: the weight is an fExt too)
        self._weight = self._mass * np.asarray(gravity, dtype=float)
        self._force, self._torque, self._torque_world = self._weight.copy(), np.zeros(3), False
        self._touched = False

    def _state(self) -> Dict:
        return self._sim.state(self._i)

    def q(self):
        from saltus.siconos.kernel import SiconosVector

        s = self._state()
        return SiconosVector(np.concatenate([s["position"], s["orientation"]]))

    def scalarMass(self) -> float:
        return self._mass

    def number(self) -> int:
        return self._i

    def linearVelocity(self, absoluteRef: bool = True) -> np.ndarray:
        s = self._state()
        v = np.asarray(s["velocity"], dtype=float)
        return v if absoluteRef else _rot(s["orientation"]).T @ v

    def angularVelocity(self, absoluteRef: bool = False) -> np.ndarray:
        s = self._state()
        w = np.asarray(s["angular_velocity"], dtype=float)  # body frame
        return _rot(s["orientation"]) @ w if absoluteRef else w

    def setFExtPtr(self, f) -> None:
        f = np.asarray(f, dtype=float).ravel()
        if f.size not in (3, 6):
            raise ValueError(f"setFExtPtr: 3 or 6 values, got {f.size}")
        self._force = f[:3].copy()
        if f.size == 6:
            self._torque, self._torque_world = f[3:].copy(), False
        self.push()

    def setMExtPtr(self, m) -> None:
        self._torque = np.asarray(m, dtype=float).reshape(3).copy()
        self.push()

    def setIsMextExpressedInInertialFrame(self, value) -> None:
        self._torque_world = bool(value)

    def fExt(self) -> np.ndarray:
        return self._force

    def mExt(self) -> np.ndarray:
        return self._torque

    def push(self) -> None:
        """The loads into the simulation: force minus the scene's weight (added back by Saltus),
        torque in the body frame at the current orientation."""
        tau = self._torque
        if self._torque_world:
            tau = _rot(self._state()["orientation"]).T @ tau
        self._sim.set_external_force(self._i, self._force - self._weight, tau)
        self._touched = True

    def setComputeFExtFunction(self, *a, **k):
        raise_unsupported("NewtonEulerDS.setComputeFExtFunction (C plugins)",
                          "use saltus.mechanics.Scene.add_external_function (a callable or a Saltus plugin)")

    setComputeMExtFunction = setComputeFExtFunction


class LiveJoint:
    """A joint of the running simulation, as a Siconos ``NewtonEulerJointR`` (``PivotJointR``,
    ...): its coordinates at given poses."""

    def __init__(self, sim, index: int, name: str, kinds: List[str]):
        self._sim, self._i, self._name, self._kinds = sim, int(index), name, kinds

    def numberOfDoF(self) -> int:
        return len(self._kinds)

    def typeOfDoF(self, axis: int) -> int:
        # Siconos's DOF_TYPE_LINEAR = 1, DOF_TYPE_ANGULAR = 2, DOF_TYPE_INVALID = 0
        if not 0 <= axis < len(self._kinds):
            return 0
        return 1 if self._kinds[axis] == "translation" else 2

    def _poses(self, q0):
        qs = [np.asarray(b, dtype=float).ravel() for b in getattr(q0, "blocks", [q0])]
        flat = np.concatenate(qs) if qs else np.zeros(0)
        if flat.size not in (7, 14):
            raise ValueError(f"joint {self._name}: q0 must hold the poses of its bodies (7 or 14 numbers), "
                             f"got {flat.size}")
        return list(flat[:7]), (list(flat[7:]) if flat.size == 14 else None)

    def _dof(self, q0, axis: int):
        q1, q2 = self._poses(q0)
        value, normal = self._sim.joint_dof(self._i, int(axis), q1, q2)
        return float(value), np.asarray(normal, dtype=float)

    def computeh(self, time, q0, y) -> None:
        """Siconos ``computeh``: the joint's constraint values at the poses of ``q0`` (zero when
        it holds; Saltus's rows: point rows in length, orientation rows as sines, which may be
        ordered and scaled otherwise than Siconos's)."""
        h = self._sim.joint_h(self._i, *self._poses(q0))
        _fill(y, [h], f"computeh of joint {self._name}")

    def computeJachqDoF(self, time, inter, q0, jachq, axis: int = 0) -> None:
        """Siconos ``computeJachqDoF``: row 0 of ``jachq`` is the gradient of coordinate ``axis``
        (Siconos's sign: body 2 relative to body 1) with respect to the poses ``q0``
        (``x y z qw qx qy qz`` per body); its quaternion part is the gradient of the coordinate as a
        function of the normalized quaternion (orthogonal to ``q``)."""
        g = -np.asarray(self._sim.joint_dof_jacobian(self._i, int(axis), *self._poses(q0)), dtype=float)
        _fill(jachq, [g], f"computeJachqDoF of joint {self._name}")

    def computehDoF(self, time, q0, y, axis: int = 0) -> None:
        value, _ = self._dof(q0, axis)
        y.setValue(0, -value)  # Siconos measures body 2 relative to body 1

    def normalDoF(self, q0, axis: int = 0, absoluteRef: bool = True) -> np.ndarray:
        if not absoluteRef:
            raise_unsupported("NewtonEulerJointR.normalDoF(..., absoluteRef=False)", "the world frame only")
        return self._dof(q0, axis)[1]

    def projectVectorDoF(self, v, q0, axis: int = 0, absoluteRef: bool = True) -> np.ndarray:
        n = self.normalDoF(q0, axis, absoluteRef)
        return float(np.dot(np.asarray(v, dtype=float).ravel(), n)) * n


def _fill(out, rows, what: str) -> None:
    """Writes the rows of numbers ``rows`` into ``out``: a Siconos ``SiconosVector`` (the first
    row), ``SimpleMatrix`` or a numpy array, which must be large enough."""
    vals = np.atleast_2d(np.asarray(rows, dtype=float))
    if _is_vector(out):
        if out.size() < vals.shape[1]:
            raise ValueError(f"{what}: a vector of {vals.shape[1]} entries is needed, got {out.size()}")
        for k, v in enumerate(vals[0]):
            out.setValue(k, float(v))
    elif hasattr(out, "setValue"):
        if out.size(0) < vals.shape[0] or out.size(1) < vals.shape[1]:
            raise ValueError(f"{what}: a {vals.shape[0]} × {vals.shape[1]} matrix is needed, "
                             f"got {out.size(0)} × {out.size(1)}")
        for i, row in enumerate(vals):
            for k, v in enumerate(row):
                out.setValue(i, k, float(v))
    else:
        a = np.asarray(out)
        if a.ndim == 1:
            a[: vals.shape[1]] = vals[0]
        else:
            a[: vals.shape[0], : vals.shape[1]] = vals


def _is_vector(out) -> bool:
    """A Siconos vector (``size()`` without an axis) rather than a matrix (``size(i)``)."""
    try:
        out.size()
        return hasattr(out, "setValue")
    except TypeError:
        return False


class _Relation:
    def __init__(self, joint):
        self._joint = joint

    def relation(self):
        return self._joint


class Topology:
    """``nsds.topology()``: the live bodies and joints by name."""

    def __init__(self, bodies: Dict, joints: Dict):
        self._bodies, self._joints = bodies, joints

    def getDynamicalSystem(self, name):
        name = name if isinstance(name, str) else str(name)
        if name not in self._bodies:
            raise_unsupported(f"topology().getDynamicalSystem('{name}') (not a dynamic body)")
        return self._bodies[name]

    def getInteraction(self, name):
        if name not in self._joints:
            raise_unsupported(f"topology().getInteraction('{name}')", "the joints only")
        return _Relation(self._joints[name])


def attach(io, sim, gravity) -> Tuple[List[LiveBody], "Topology"]:
    """The live bodies and the topology (bodies and joints) of ``sim``, which ``io._nsds.topology()``
    returns while the run lasts."""
    data = io._data
    names = sim.body_names()
    masses = sim.masses()
    bodies = {}
    for i, (n, m) in enumerate(zip(names, masses)):
        if np.isfinite(m) and m > 0:
            bodies[n] = LiveBody(sim, i, n, float(m), gravity)
    joints = {}
    k = 0
    for name, d in data["joints"].items():
        if str(d.attrs["type"]) == "CouplerJointR":
            continue
        joints[name] = LiveJoint(sim, k, name, sim.joint_dof_kinds(k))
        k += 1
    return list(bodies.values()), Topology(bodies, joints)
