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
        self._q0 = self._q.copy()
        self._ext_plugins = {}
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

    def setComputeFExtFunction(self, library, function=None) -> None:
        """``fExt(t)`` (world frame) from a Siconos C plugin ``f(t, fExt, nz, z)`` (``FExt_NE``, ``z``
        the initial pose, as Siconos passes it; ``_cplugin``)."""
        self._ext_plugin("fExt", library, function)

    def setComputeMExtFunction(self, library, function=None) -> None:
        """``mExt(t)`` (body frame, or world frame after ``setIsMextExpressedInInertialFrame(True)``)
        from a Siconos C plugin, as :meth:`setComputeFExtFunction`."""
        self._ext_plugin("mExt", library, function)

    def _ext_plugin(self, which: str, library, function) -> None:
        from ._cplugin import library_function, newton_euler_ext

        self._ext_plugins[which] = newton_euler_ext(self, *library_function(library, function, which))

    def computeFExt(self, time: float, fExt=None) -> None:
        """Siconos: the constant ``fExt``, or its plugin's value at ``time`` (a subclass may
        override it)."""
        f = self._ext_plugins.get("fExt")
        if f is not None:
            self.setFExtPtr(f(time))

    def computeMExt(self, time: float, mExt=None) -> None:
        """Siconos: the constant ``mExt``, or its plugin's value at ``time`` (a subclass may
        override it)."""
        m = self._ext_plugins.get("mExt")
        if m is not None:
            self.setMExtPtr(m(time))

    def _constant_wrench(self) -> bool:
        """Neither ``computeFExt`` nor ``computeMExt`` overridden nor plugged, and no world-frame
        moment: the wrench is one constant force and body-frame torque."""
        cls = type(self)
        own = cls.computeFExt is NewtonEulerDS.computeFExt and cls.computeMExt is NewtonEulerDS.computeMExt
        own = own and not self._ext_plugins
        return own and (not self._mext_inertial or not np.any(np.asarray(self._mExt, dtype=float)))

    def _wrench(self, t: float, x) -> List[float]:
        """Force (world frame) and torque (body frame) at ``t`` and the 13 numbers ``x``."""
        self.computeFExt(t)
        self.computeMExt(t)
        f = np.asarray(self._fExt, dtype=np.float64).ravel()
        m = np.asarray(self._mExt, dtype=np.float64).ravel()
        if self._mext_inertial and np.any(m):
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
    without gravity, one body per system (its contactors for a ``RigidBodyDS``), the static
    bodies and laws of an inserted ``SiconosBulletCollisionManager``, stepped by the Siconos
    ``TimeStepping`` protocol (``has_next_event``, ``compute_one_step``, ``t``, ``h``, ``k``). A
    system inserted into the model between steps joins from the next step on."""

    event_driven = False

    def __init__(self, nsds, td, theta: float, manager=None, osnspb=None):
        from saltus.mechanics import Scene

        self.nsds, self.systems = nsds, []
        self.t0, self.h, self.T = float(td.t0), float(td.h), float(nsds.T)
        self.k, self.last, self.manager = 0, None, manager
        margin = 0.04
        if manager is not None:
            o = manager.options
            margin = float(o.contactBreakingThreshold) * float(o.worldScale)
        scene = Scene(gravity=(0.0, 0.0, 0.0), margin=margin)
        self._n_static, self._index = 0, {}
        if manager is not None:
            from saltus.siconos.mechanics.collision._bodies import static_body_contactors

            for k, (law, g1, g2) in enumerate(manager.laws):
                en, mu = getattr(law, "en", None), getattr(law, "mu", None)
                if en is None or mu is None or getattr(law, "dim", 3) != 3:
                    raise_unsupported(f"SiconosBulletCollisionManager.insertNonSmoothLaw({type(law).__name__})",
                                      "a NewtonImpactFrictionNSL of dimension 3")
                scene.add_Newton_impact_friction_nsl(f"law{k}", e=en, mu=mu, collision_group1=g1,
                                                     collision_group2=g2)
            for k, (cset, pose) in enumerate(manager.statics):
                scene.add_object(f"static{k}", static_body_contactors(cset), translation=pose[:3],
                                 orientation=pose[3:7])
                self._n_static += 1
            manager._core = self
        tol, max_iter = 1e-6, 1000
        if osnspb is not None and hasattr(osnspb, "numericsSolverOptions"):
            so = osnspb.numericsSolverOptions()
            tol, max_iter = float(so.dparam[0]), int(so.iparam[0])
        for ds in list(nsds.systems):
            self._add(scene, ds)
        self.sim = scene.simulation(h=self.h, t0=self.t0, theta=theta, tol=tol, max_iter=max_iter)
        for ds in self.systems:
            ds._write(self.sim.state(self._index[id(ds)]))

    def _add(self, target, ds) -> None:
        """Adds the system ``ds`` to the scene or the running simulation ``target``."""
        ds._check()
        q, tw = ds.q(), ds.twist()
        contactors = ds._saltus_contactors() if hasattr(ds, "_saltus_contactors") else []
        i = target.add_object(ds.name, contactors, translation=q[:3], orientation=q[3:7] / np.linalg.norm(q[3:7]),
                              velocity=tw, mass=ds.scalarMass(), inertia=ds.inertia())
        self._index[id(ds)] = self._n_static + len(self.systems) if i is None else int(i)
        self.systems.append(ds)
        if ds._constant_wrench():
            w = ds._wrench(self.t, None)
            target.set_external_force(ds.name, w[:3], w[3:])
        elif not hasattr(target, "add_external_function"):
            raise_unsupported("inserting a NewtonEulerDS with computeFExt/computeMExt between steps",
                              "a constant fExt and mExt")
        else:
            # evaluated at the engine's step times t0 + k h, Siconos's instants
            target.add_external_function(ds.name, ds._wrench)

    @property
    def t(self) -> float:
        return self.t0 + self.k * self.h

    def has_next_event(self) -> bool:
        return self.t < self.T - 1e-9 * self.h

    def system_of(self, body: int):
        """The system of body ``body`` (``None`` for a static body)."""
        for ds in self.systems:
            if self._index[id(ds)] == body:
                return ds
        return None

    def compute_one_step(self) -> None:
        for ds in list(self.nsds.systems):
            if id(ds) not in self._index:
                if not isinstance(ds, NewtonEulerDS):
                    raise_unsupported(f"inserting a {type(ds).__name__} into a model of Newton–Euler systems")
                self._add(self.sim, ds)
        for ds in self.systems:
            ds._check_unchanged()
        self.last = self.sim.step()
        self.k += 1
        for ds in self.systems:
            ds._write(self.sim.state(self._index[id(ds)]))

    def active_contacts(self) -> List["ContactInteraction"]:
        """The contacts of the last step's friction-contact problem (Siconos's index set 1)."""
        r = self.last
        if r is None:
            return []
        return [ContactInteraction(self, r, k) for k in range(len(r["gap"])) if r["contact_active"][k]]


class ContactInteraction:
    """A contact of the last step as a Siconos ``Interaction``: ``lambda_(1)`` the impulse in the
    contact frame (normal, two tangents), ``y(1)`` the relative velocity at the step's end,
    ``y(0)`` the gap, and the two bodies (``None`` for a static one)."""

    def __init__(self, core, report: dict, k: int):
        self._lam = np.array(report["impulse"][k], dtype=np.float64)
        self._u = np.array(report["velocity_end"][k], dtype=np.float64)
        self._gap = float(report["gap"][k])
        self.ds1, self.ds2 = (core.system_of(int(b)) for b in report["bodies"][k])

    def lambda_(self, level: int = 1) -> np.ndarray:
        if level != 1:
            raise_unsupported(f"Interaction.lambda_({level}) of a contact", "lambda_(1), the step's impulse")
        return self._lam

    def y(self, level: int = 1) -> np.ndarray:
        if level == 0:
            return np.array([self._gap, 0.0, 0.0])
        return self._u

    def getSizeOfY(self) -> int:
        return 3


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
    manager = getattr(sim, "_interaction_manager", None)
    if manager is not None and type(sim.osnspb).__name__ != "FrictionContact":
        raise_unsupported(f"rigid bodies with {type(sim.osnspb).__name__}", "FrictionContact(3)")
    core = NewtonEulerCore(sim.nsds, sim.td, float(sim.osi.attrs.get("theta", 0.5)), manager, sim.osnspb)
    sim.nsds._index_sets = 2  # Siconos's topology after initialisation: index sets 0 and 1
    return core


class IndexSet:
    """Siconos ``simulation.indexSet(i)`` of a model of rigid bodies: index set 1 holds the
    contacts of the last step's friction-contact problem, index set 0 every contact detected."""

    def __init__(self, core, level: int):
        self._core, self._level = core, int(level)

    def interactions(self) -> List[ContactInteraction]:
        core, r = self._core, self._core.last
        if r is None:
            return []
        keep = (lambda k: True) if self._level == 0 else (lambda k: r["contact_active"][k])
        return [ContactInteraction(core, r, k) for k in range(len(r["gap"])) if keep(k)]

    def size(self) -> int:
        return len(self.interactions())


class Topology:
    """Siconos ``nsds.topology()`` as far as a script of rigid bodies reads it: the number of
    index sets (2 once a time stepping is built: 0 and 1)."""

    def __init__(self, nsds):
        self._nsds = nsds

    def numberOfIndexSet(self) -> int:
        return int(getattr(self._nsds, "_index_sets", 0))

    def __getattr__(self, name: str):
        if name.startswith("_"):
            raise AttributeError(name)
        raise_unsupported(f"Topology.{name}")


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
