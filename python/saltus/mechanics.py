"""Rigid-body mechanics (the ``saltus-mechanics`` crate): 3D bodies with shapes, contact with
Newton impact and Coulomb friction, Moreau–Jean time stepping with an NSGS friction-contact
solver — the ``mechanics`` layer of Siconos.

Build a :class:`Scene` (Siconos ``MechanicsHdf5Runner`` vocabulary: ``add_primitive_shape``,
``add_convex_shape``, ``add_Newton_impact_friction_nsl``, ``add_object``), then
``scene.simulation(h=...)`` gives a :class:`MechanicsSimulation` with ``step()`` (a report
dict) and ``run(t_end, record_every=k)`` (numpy columns named as the CSV of ``saltus run`` on the
same scene, GIL released)::

    import saltus.mechanics as sm
    scene = sm.Scene(gravity=(0, 0, -9.81), margin=1e-3)
    scene.add_Newton_impact_friction_nsl("contact", e=0.0, mu=0.3)
    scene.add_object("ground", [sm.Plane((0, 0, 1))])
    scene.add_object("ball", [sm.Sphere(0.1)], translation=(0, 0, 1), density=1000)
    out = scene.simulation(h=1e-3).run(1.0)   # out["t"], out["ball.z"], out["ball.qw"], ...

Orientations are quaternions ``(w, x, y, z)``, scalar first as in Siconos; angular velocities are
in the body frame. Errors are ``saltus.ModelError`` (bad scene) and ``saltus.SimulationError``.

2D scenes (Siconos ``RigidBody2dDS``): a scene with gravity ``(gx, gy)`` (or with a :func:`Disk`,
:func:`Box2d` or :func:`ConvexPolygon`; a scene is 2D or 3D as a whole, as in Siconos) takes
``translation=(x, y)``, ``orientation=θ`` (or ``[θ]``), ``velocity=(vx, vy, ω)`` and a scalar
``inertia``; each contact has 2 unknowns (normal, tangent), the run's columns are ``NAME.x``,
``NAME.y``, ``NAME.theta``, ``NAME.vx``, ``NAME.vy``, ``NAME.omega``::

    scene = sm.Scene(gravity=(0, -9.81), margin=0.01)
    scene.add_Newton_impact_friction_nsl("contact", e=0.5, mu=0.3)
    scene.add_object("ground", [sm.Box2d(10, 0.5)], translation=(0, -0.5))
    scene.add_object("disk", [sm.Disk(0.5)], translation=(0, 3), mass=1, inertia=0.125)
"""

from __future__ import annotations

import inspect
from dataclasses import dataclass
from typing import Callable, Dict, List, Optional, Sequence, Tuple, Union

import numpy as np

from . import _saltus
from ._saltus import ModelError

__all__ = [
    "ConvexHull",
    "Mesh",
    "HeightMap",
    "read_mesh",
    "Plane",
    "ConvexPolygon",
    "Contactor",
    "Scene",
    "MechanicsSimulation",
    "spheres_in_a_box",
]

_IDENTITY = (1.0, 0.0, 0.0, 0.0)


@dataclass(frozen=True)
class _Shape:
    kind: str
    params: Tuple[float, ...]


def _primitive(element: str, kind: str, params, doc: str):
    """The constructor of a registered primitive shape (Rust ``saltus_mechanics::shape``): its
    positional or keyword arguments are the numbers of its parameters, in order."""
    sig = inspect.Signature(
        [inspect.Parameter(n, inspect.Parameter.POSITIONAL_OR_KEYWORD) for _, names in params for n in names]
    )

    def make(*args, **kwargs) -> _Shape:
        try:
            bound = sig.bind(*args, **kwargs)
        except TypeError as e:
            raise ModelError(f"invalid {element}: {e} (arguments {', '.join(sig.parameters)})") from None
        return _Shape(kind, tuple(float(x) for x in bound.args))

    make.__name__ = make.__qualname__ = element
    make.__doc__ = doc
    make.__signature__ = sig
    make.__module__ = __name__
    return make


# The registered primitives: Sphere(radius), Box(hx, hy, hz), Capsule(radius, half_height),
# Cylinder(radius, half_height), Cone(radius, half_height), Disk(radius), Box2d(hx, hy), ...
_PRIMITIVES = {e: (k, s, planar) for e, k, _, _, s, planar in _saltus.primitive_shapes()}
for _e, _k, _p, _d, _s, _pl in _saltus.primitive_shapes():
    globals()[_e] = _primitive(_e, _k, _p, _d)
    __all__.append(_e)
del _e, _k, _p, _d, _s, _pl


def ConvexHull(points) -> _Shape:
    """Convex hull of ``points`` (``k × 3``, at least 4 non-coplanar)."""
    p = np.asarray(points, dtype=float)
    if p.ndim != 2 or p.shape[1] != 3:
        raise ModelError(f"invalid convex hull: points must be k × 3, got shape {p.shape}")
    return _Shape("convex_hull", tuple(p.ravel().tolist()))


def Mesh(vertices, triangles) -> _Shape:
    """Triangle mesh (static or kinematic bodies only): ``vertices`` (``k × 3``) and
    ``triangles`` (``m × 3`` vertex indices from 0)."""
    v = np.asarray(vertices, dtype=float)
    t = np.asarray(triangles)
    if v.ndim != 2 or v.shape[1] != 3 or t.ndim != 2 or t.shape[1] != 3:
        raise ModelError(f"invalid mesh: vertices k × 3 and triangles m × 3, got {v.shape} and {t.shape}")
    return _Shape("mesh", (float(len(v)),) + tuple(v.ravel().tolist()) + tuple(float(i) for i in t.ravel()))


def HeightMap(heights, size: Sequence[float]) -> _Shape:
    """Height field ``z = h(x, y)`` (static or kinematic bodies only; Siconos ``add_height_map``):
    ``heights`` is ``nx × ny`` (at least 2 × 2), ``heights[i, j]`` the height at
    ``x_i = −Lx/2 + i·Lx/(nx−1)``, ``y_j = −Ly/2 + j·Ly/(ny−1)`` in the body frame, with
    ``size = (Lx, Ly)``; the heights are not shifted (a height 0 is at ``z = 0``). Each grid cell
    is two triangles split along its ``(i, j)–(i+1, j+1)`` diagonal, as Bullet's."""
    h = np.asarray(heights, dtype=float)
    sz = [float(x) for x in size]
    if h.ndim != 2 or h.shape[0] < 2 or h.shape[1] < 2 or len(sz) != 2:
        raise ModelError(f"invalid height map: heights nx × ny (at least 2 × 2) and size (Lx, Ly), got {h.shape}")
    return _Shape("heightmap", (float(h.shape[0]), float(h.shape[1]), sz[0], sz[1]) + tuple(h.ravel().tolist()))


def read_mesh(path, scale: float = 1.0):
    """The triangle mesh of an STL (ASCII or binary) or OBJ file, coordinates times ``scale``:
    ``(vertices, triangles)``, ``k × 3`` floats and ``m × 3`` vertex indices (equal vertices
    merged, so a closed STL surface is a closed indexed mesh). For a dynamic body use the convex
    hull of the vertices (:func:`ConvexHull`); a :func:`Mesh` suits static bodies."""
    v, t = _saltus.read_mesh(str(path), float(scale))
    return v.reshape(-1, 3), t.reshape(-1, 3)


def Plane(normal: Sequence[float] = (0.0, 0.0, 1.0)) -> _Shape:
    """Half-space ``{p : n·p ≤ 0}`` (body frame) with outward normal ``n`` (static bodies only)."""
    return _Shape("plane", tuple(float(x) for x in normal))


def ConvexPolygon(points) -> _Shape:
    """2D scenes: convex hull of ``points`` (``k × 2``, at least 3 not collinear; Siconos
    ``ConvexHull2d``)."""
    p = np.asarray(points, dtype=float)
    if p.ndim != 2 or p.shape[1] != 2:
        raise ModelError(f"invalid convex polygon: points must be k × 2, got shape {p.shape}")
    return _Shape("convex_polygon", tuple(p.ravel().tolist()))


_PLANAR_KINDS = tuple(k for k, _, planar in _PRIMITIVES.values() if planar) + ("convex_polygon",)


def _planar_pose(what: str, translation, orientation):
    """``(x, y), θ`` → the 3D position ``(x, y, 0)`` and quaternion ``(cos θ/2, 0, 0, sin θ/2)``."""
    t = [float(x) for x in np.asarray(translation, dtype=float).ravel()]
    if len(t) == 3 and t[2] == 0.0:  # (x, y, 0): a point of the plane
        t = t[:2]
    th = np.asarray(orientation if orientation is not None else 0.0, dtype=float).ravel()
    if len(t) != 2 or len(th) != 1:
        raise ModelError(f"invalid {what}: a 2D pose is translation (x, y) and orientation θ, "
                         f"got {len(t)} and {len(th)} numbers")
    a = 0.5 * float(th[0])
    return t + [0.0], [float(np.cos(a)), 0.0, 0.0, float(np.sin(a))]


@dataclass
class Contactor:
    """A shape (an object or the name of a shape added to the scene) placed in the body frame."""

    shape: Union[_Shape, str]
    relative_translation: Sequence[float] = (0.0, 0.0, 0.0)
    relative_orientation: Sequence[float] = _IDENTITY
    #: Collision group of this shape (``None``: the body's ``collision_group``). A body's
    #: shapes may sit in several groups: the law of a pair of shapes is the law of their groups.
    collision_group: Optional[int] = None


def _contactor(shapes: Dict[str, "_Shape"], c) -> Tuple[str, List[float], List[float], Optional[int]]:
    if not isinstance(c, Contactor):
        c = Contactor(c)
    s = c.shape
    if isinstance(s, str):
        if s not in shapes:
            raise ModelError(f"invalid contactor: no shape named `{s}`")
        s = shapes[s]
    rt, ro = list(np.asarray(c.relative_translation, dtype=float).ravel()), c.relative_orientation
    group = None if c.collision_group is None else int(c.collision_group)
    if group is not None and group < 0:
        raise ModelError(f"invalid contactor: collision_group must be >= 0, got {group}")
    if s.kind in _PLANAR_KINDS and (len(rt) == 2 or np.size(ro) == 1):
        # a 2D contactor: (x, y) and θ (the defaults (0, 0, 0) and the identity are 3D)
        x, q = _planar_pose("contactor", rt[:2], ro if np.size(ro) == 1 else 0.0)
        return (s.kind, list(s.params), x + q, group)
    pose = [float(x) for x in rt] + [float(x) for x in ro]
    return (s.kind, list(s.params), pose, group)


def _add_object(core, shapes, name, contactors, translation, orientation, velocity, mass, inertia, density,
                collision_group, time_of_birth, time_of_death, planar=False) -> int:
    """``Scene.add_object`` and ``MechanicsSimulation.add_object``: the core's ``add_body``; a 2D
    body (``planar``) takes ``(x, y)``, ``θ``, ``(vx, vy, ω)`` and a scalar inertia."""
    v = [float(x) for x in velocity]
    if planar:
        if len(v) != 3:
            raise ModelError(f"invalid body `{name}`: a 2D velocity is (vx, vy, ω), got {len(v)} numbers")
        translation, orientation = _planar_pose(f"body `{name}`", translation, orientation)
        v = [v[0], v[1], 0.0, 0.0, 0.0, v[2]]
        if inertia is not None:
            i = np.asarray(inertia, dtype=float).ravel()
            if len(i) != 1:
                raise ModelError(f"invalid body `{name}`: a 2D inertia is one number, got {len(i)}")
            inertia = [float(i[0])] * 3
    if len(v) != 6:
        raise ModelError(f"invalid body `{name}`: velocity is (vx, vy, vz, wx, wy, wz), got {len(v)} numbers")
    dynamic = mass is not None or density is not None
    if mass is not None and inertia is None:
        raise ModelError(f"invalid body `{name}`: a mass needs an inertia (or give a density)")
    inert = None if inertia is None else [float(x) for x in np.asarray(inertia, dtype=float).ravel()]
    return core.add_body(dict(
        name=name,
        kind="dynamic" if dynamic else "static",
        shapes=[_contactor(shapes, c) for c in contactors],
        position=[float(x) for x in translation],
        orientation=[float(x) for x in orientation],
        velocity=v[:3],
        angular_velocity=v[3:],
        group=int(collision_group),
        mass=None if mass is None else float(mass),
        inertia=inert,
        density=None if density is None else float(density),
        birth=None if time_of_birth is None else float(time_of_birth),
        death=None if time_of_death is None else float(time_of_death),
    ))


@dataclass(frozen=True)
class QueryHit:
    """A shape met by a geometric query (Siconos ``SiconosCollisionQueryResult``): the index of
    its body (static ones included), its number in the body, the point that answers the query
    and its distance to the query's reference point (a segment's start, a centre)."""

    body: int
    shape: int
    point: np.ndarray
    distance: float


class MechanicsSimulation:
    """A running rigid-body simulation (Moreau–Jean + NSGS)."""

    def __init__(self, core, t_end: Optional[float] = None, shapes: Optional[Dict[str, "_Shape"]] = None):
        self._core = core
        #: Final time of a ready-made scene (``None`` otherwise).
        self.t_end = t_end
        self._shapes = {} if shapes is None else shapes

    @property
    def t(self) -> float:
        return self._core.t

    @property
    def h(self) -> float:
        return self._core.h

    @property
    def n_bodies(self) -> int:
        return self._core.n_bodies

    def body_names(self) -> List[str]:
        return self._core.body_names()

    def masses(self) -> np.ndarray:
        """Masses by body index (``inf`` for static bodies)."""
        return self._core.masses()

    def kinetic_energy(self) -> float:
        return self._core.kinetic_energy()

    def joint_dof_kinds(self, joint: int) -> List[str]:
        """The kinds of the coordinates of the joint of index ``joint``: ``"translation"`` or
        ``"rotation"`` each (a cylindrical joint: the translation, then the angle)."""
        return self._core.joint_dof_kinds(int(joint))

    def joint_dof(self, joint: int, dof: int, q1: Sequence[float], q2: Optional[Sequence[float]] = None):
        """Coordinate ``dof`` of the joint of index ``joint`` at the poses ``q1`` and ``q2``
        (``x y z qw qx qy qz`` each; ``q2`` ``None`` for a joint to the world): ``(s, n)``, ``s``
        the motion of body 1 relative to body 2 (an angle's principal value) and ``n`` the world
        direction along or about which body 1's motion increases ``s`` (Siconos ``normalDoF``)."""
        v, n = self._core.joint_dof(int(joint), int(dof), [float(x) for x in q1],
                                    None if q2 is None else [float(x) for x in q2])
        return float(v), np.asarray(n, dtype=float)

    def joint_h(self, joint: int, q1: Sequence[float], q2: Optional[Sequence[float]] = None) -> np.ndarray:
        """The constraint values ``h(q)`` of the joint of index ``joint`` at the poses ``q1``,
        ``q2`` (zero when the joint holds; Siconos ``computeh``)."""
        return np.asarray(self._core.joint_h(int(joint), [float(x) for x in q1],
                                             None if q2 is None else [float(x) for x in q2]), dtype=float)

    def joint_dof_jacobian(self, joint: int, dof: int, q1: Sequence[float],
                           q2: Optional[Sequence[float]] = None) -> np.ndarray:
        """The gradient of coordinate ``dof`` (as :meth:`joint_dof`) with respect to the poses
        ``q1``, ``q2`` (7 or 14 numbers, ``x y z qw qx qy qz`` each; Siconos ``computeJachqDoF``):
        the quaternion part is the gradient of the coordinate as a function of the normalized
        quaternion (orthogonal to it)."""
        return np.asarray(self._core.joint_dof_jacobian(int(joint), int(dof), [float(x) for x in q1],
                                                        None if q2 is None else [float(x) for x in q2]),
                          dtype=float)

    def _query(self, kind: str, a, b, closest_only: bool) -> List[QueryHit]:
        rows = self._core.query(kind, [float(x) for x in a], [float(x) for x in b], bool(closest_only))
        return [QueryHit(int(i), int(k), np.asarray(p, dtype=float), float(d)) for i, k, p, d in rows]

    def query_segment(self, start: Sequence[float], end: Sequence[float], closest_only: bool = False) -> List[QueryHit]:
        """The shapes the segment ``[start, end]`` crosses, at the point where it enters each
        (``distance = |point - start|``, 0 when ``start`` is inside), nearest first (ties: body,
        then shape); the bodies are those of the next step, static ones included, whatever their
        collision group (Siconos ``lineIntersectionQuery``). ``closest_only``: the first only."""
        return self._query("segment", start, end, closest_only)

    def query_ball(self, center: Sequence[float], radius: float, closest_only: bool = False) -> List[QueryHit]:
        """The shapes within ``radius`` of ``center``, each with its point nearest to the centre
        and their distance (0 inside), nearest first (Siconos ``inSphereQuery``)."""
        return self._query("ball", center, [radius], closest_only)

    def query_box(self, center: Sequence[float], half_extents: Sequence[float],
                  closest_only: bool = False) -> List[QueryHit]:
        """The shapes overlapping the axis-aligned box ``|p - center|_i <= half_extents_i``, each
        with its point nearest to the centre and their distance, nearest first (Siconos
        ``inBoxQuery``, whose ``dimensions`` are the full sides)."""
        return self._query("box", center, half_extents, closest_only)

    def set_external_force(self, body: Union[int, str], force: Sequence[float], torque: Sequence[float] = (0, 0, 0)) -> None:
        """Sets the constant force (world frame, added to ``m g``) and torque (body frame) of a
        dynamic body from the next step on: what a Siconos controller does with
        ``setFExtPtr``/``setMExtPtr`` between steps."""
        if isinstance(body, str):
            body = self.body_names().index(body)
        self._core.set_external_force(int(body), [float(x) for x in force], [float(x) for x in torque])

    def add_event(
        self,
        name: str,
        body: Union[int, str],
        a: Optional[Sequence[float]] = None,
        b: float = 0.0,
        function: Optional[Callable] = None,
        direction: str = "both",
        action: str = "record",
        reset: Optional[Callable] = None,
        window: Optional[float] = None,
    ) -> None:
        """A user event on a body (as ``<Events>`` in a model file): the trigger ``g(t, s)`` of
        the body's 13 numbers ``s = (x y z, qw qx qy qz, vx vy vz, wx wy wz)`` (velocity in the
        world frame, angular velocity in the body frame), linear ``g = a·s + b`` or
        ``function(t, s) -> float``; ``direction`` ``"rising"``, ``"falling"`` or ``"both"``;
        ``action`` ``"record"`` (a row with ``event`` = its number), ``"stop"`` (``run`` ends
        there) or ``"reset"`` with ``reset(t, s) -> s⁺`` (a dynamic body's new pose and twist at
        the end of the step). Events are located on each step's linear interpolant;
        :meth:`user_events` lists those of the last :meth:`step`, and ``run`` writes their rows."""
        if isinstance(body, str):
            body = self.body_names().index(body)
        a = None if a is None else [float(x) for x in a]
        self._core.add_event(name, int(body), a, float(b), function, direction, action, reset, window)

    def add_object(
        self,
        name: str,
        shapes: Sequence[Union[Contactor, "_Shape", str]],
        translation: Sequence[float] = (0.0, 0.0, 0.0),
        orientation: Sequence[float] = _IDENTITY,
        velocity: Sequence[float] = (0.0, 0.0, 0.0, 0.0, 0.0, 0.0),
        mass: Optional[float] = None,
        inertia=None,
        density: Optional[float] = None,
        collision_group: int = 0,
        time_of_birth: Optional[float] = None,
        time_of_death: Optional[float] = None,
    ) -> int:
        """Adds a body between steps (as :meth:`Scene.add_object`; shapes by name are those of
        the scene the simulation was built from): it exists from the current time on (an
        earlier ``time_of_birth`` becomes now) and collides from the next step; returns its
        index, after every body so far. The next ``run`` writes its columns."""
        return _add_object(self._core, self._shapes, name, shapes, translation, orientation, velocity, mass, inertia,
                           density, collision_group, time_of_birth, time_of_death)

    def remove_body(self, body: Union[int, str]) -> None:
        """Removes a body from the next step on (Siconos ``removeDynamicalSystem`` between steps):
        its time of death becomes the current time, so it is frozen and collides with nothing; the
        next ``run`` writes its ``NAME.alive`` column."""
        if isinstance(body, str):
            body = self.body_names().index(body)
        self._core.remove_body(int(body))

    def set_capture_problem(self, on: bool = True) -> None:
        """Keep each step's friction-contact problem, warm start and solution (what Siconos's
        ``FrictionContactTrace`` dumps to FCLib files; a copy of the problem per step)."""
        self._core.set_capture_problem(bool(on))

    def captured(self) -> Optional[dict]:
        """The last step's friction-contact problem, when captured and the step solved one:
        ``t``, ``kind`` (``"local"``: ``u = W r + q``; ``"global"``: ``M v = H r + q``,
        ``u = Hᵀ v + b``), ``dim``, ``iterations``, ``mu``, ``q``, the warm start ``r0``, the
        solution ``r``, ``u`` (and ``v``), and the matrices ``W`` or ``M``, ``H`` as dicts
        ``{"shape", "rows", "cols", "values"}`` of their nonzero entries. Rolling friction and
        scenes with joints are solved as other problems and not captured."""
        return self._core.captured()

    def user_events(self) -> List[dict]:
        """The user events the last :meth:`step` found: ``{"t", "t_low", "events", "stop", "reset"}``."""
        return self._core.user_events()

    def state(self, body: Union[int, str]) -> Dict[str, np.ndarray]:
        """``position``, ``orientation`` (w, x, y, z), ``velocity``, ``angular_velocity`` of a body."""
        if isinstance(body, str):
            body = self.body_names().index(body)
        return self._core.state(body)

    def step(self) -> dict:
        """One step. Report: ``t``, ``contacts`` (closer than the margin), ``active`` (in the
        friction-contact problem), ``pairs``, ``iterations``, ``residual``, ``status``, and the
        step's contacts: ``bodies (k × 2)``, ``impulse (k × 3`` normal, tangents; contact frame),
        ``normal``, ``gap``, ``contact_active``, ``mu`` (the friction coefficient of the contact's
        law, from its two shapes' groups), ``e`` (its restitution), ``velocity_start`` and
        ``velocity_end`` (k × 3: the relative velocity in the contact frame at the step's start
        and end, ``H v_k`` and ``H v_{k+1}``; NaN for a contact not in the problem), ``energy``
        (8 numbers: the kinetic energy at the step's end, the work of the smooth forces, the
        normal and tangent contact work ``½ (u⁻ + u⁺)·p``, the same θ-weighted, and the negative
        parts of the two contact works: Siconos's ``energy_work`` row; at θ = ½ the kinetic
        energy changes by the forces' and contacts' work); with a projection,
        ``projection_iterations``, ``projection_converged`` and ``projection_violation`` (the
        largest joint violation or contact penetration left)."""
        return self._core.step()

    def run(self, t_end: Optional[float] = None, record_every: int = 1, energy: bool = False) -> Dict[str, np.ndarray]:
        """Steps to ``t_end`` (default: the scene's) with the GIL released, through the runtime's
        run loop (as ``saltus run``). Records the initial state, every ``record_every``-th step and
        the last, under the column names of ``saltus run`` on the same scene: ``t``, then per
        moving body ``NAME.x/y/z``, ``NAME.qw/qx/qy/qz``, ``NAME.vx/vy/vz``, ``NAME.wx/wy/wz`` (body
        frame), joint, stop and ``NAME.alive`` columns; ``out["steps"]`` holds per-step arrays
        ``t``, ``contacts``, ``active``, ``iterations``, ``residual``, ``converged``. With
        ``energy``, each row also holds the step's energy and work (``energy.kinetic``,
        ``energy.work_forces``, ``energy.work_normal``, …: the columns of a model file's
        ``<Output energy="true">``). :func:`body_array` stacks columns into ``(n_out × 3)`` arrays."""
        if t_end is None:
            if self.t_end is None:
                raise ModelError("invalid run: give t_end")
            t_end = self.t_end
        return self._core.run(float(t_end), int(record_every), bool(energy))


def body_array(out: Dict[str, np.ndarray], name: str, what: str = "position") -> np.ndarray:
    """Columns of body ``name`` in a run's output stacked as an ``(n_out × k)`` array: ``what`` is
    ``position`` (x, y, z), ``orientation`` (qw, qx, qy, qz), ``velocity`` (vx, vy, vz) or
    ``angular_velocity`` (wx, wy, wz, body frame)."""
    cols = {"position": "x y z", "orientation": "qw qx qy qz", "velocity": "vx vy vz", "angular_velocity": "wx wy wz"}
    if what not in cols:
        raise KeyError(f"{what!r}: one of {', '.join(cols)}")
    return np.stack([out[f"{name}.{c}"] for c in cols[what].split()], axis=-1)


class Scene:
    """Bodies, shapes, contact laws, gravity and collision margin (Siconos mechanics vocabulary)."""

    def __init__(self, gravity: Sequence[float] = (0.0, 0.0, -9.81), margin: float = 0.04):
        g = [float(x) for x in gravity]
        #: 2 for a 2D scene (gravity ``(gx, gy)``, or planar shapes), 3 otherwise
        self.dimension = 2 if len(g) == 2 else 3
        self._core = _saltus.CoreMechanicsModel(g + [0.0] if len(g) == 2 else g, float(margin))
        self._shapes: Dict[str, _Shape] = {}

    def _add_shape(self, name: str, s: _Shape) -> None:
        if s.kind in _PLANAR_KINDS:
            self.dimension = 2
        self._shapes[name] = s

    def add_primitive_shape(self, name: str, primitive: str, params: Sequence[float]) -> None:
        """Siconos's primitives with its conventions: ``Sphere (r)``, ``Box (lx, ly, lz)`` full
        lengths, ``Capsule (r, length)``, ``Cylinder (r, length)`` and ``Cone (r, length)`` along ``y``, plus
        ``Plane (nx, ny, nz)``; in 2D ``Disk (r)`` and ``Box2d (lx, ly)`` full lengths (the
        registered primitives that Siconos has, ``_saltus.primitive_from_siconos``)."""
        p = [float(x) for x in params]
        element = next((e for e in _PRIMITIVES if e.lower() == primitive.lower()), None)
        made = _saltus.primitive_from_siconos(element, p) if element else None
        if made is not None:
            s = _Shape(made[0], tuple(made[1]))
        elif primitive.lower() == "plane" and len(p) == 3:
            s = Plane(p)
        else:
            raise ModelError(f"invalid shape `{name}`: unknown primitive {primitive} with {len(p)} parameters")
        self._add_shape(name, s)

    def add_convex_shape(self, name: str, points) -> None:
        """A named convex hull of ``points`` (``k × 3``; ``k × 2``: a 2D convex polygon)."""
        p = np.asarray(points, dtype=float)
        self._add_shape(name, ConvexPolygon(p) if p.ndim == 2 and p.shape[1] == 2 else ConvexHull(p))

    def add_mesh_shape(self, name: str, vertices, triangles) -> None:
        """A named triangle mesh (static or kinematic bodies only; see :func:`read_mesh`)."""
        self._shapes[name] = Mesh(vertices, triangles)

    def add_height_map(self, name: str, heights, size: Sequence[float]) -> None:
        """A named height field (static or kinematic bodies only; see :func:`HeightMap`)."""
        self._shapes[name] = HeightMap(heights, size)

    def add_Newton_impact_friction_nsl(
        self, name: str = "contact", e: float = 0.0, mu: float = 0.0, collision_group1: int = 0, collision_group2: int = 0
    ) -> None:
        """Newton impact (restitution ``e``) + Coulomb friction (``mu``) between two groups
        (pairs of groups without a law do not interact)."""
        self._core.set_law(int(collision_group1), int(collision_group2), float(e), float(mu))

    def add_Fremond_impact_friction_nsl(
        self, name: str = "contact", e: float = 0.0, mu: float = 0.0, collision_group1: int = 0, collision_group2: int = 0
    ) -> None:
        """Frémond's impact law (restitution ``e``) + Coulomb friction (``mu``) between two groups
        (Siconos ``FremondImpactFrictionNSL``): the friction law holds on the tangential θ-velocity
        ``(1 − θ) u_k + θ u_{k+1}`` of the step, so friction never works positively
        (``docs/model-format.md``, ``<FremondImpactFrictionNSL>``)."""
        self._core.set_law(int(collision_group1), int(collision_group2), float(e), float(mu), 0.0, True)

    def add_Newton_impact_rolling_friction_nsl(
        self,
        name: str = "contact",
        e: float = 0.0,
        mu: float = 0.0,
        mu_r: float = 0.0,
        collision_group1: int = 0,
        collision_group2: int = 0,
    ) -> None:
        """Newton impact (``e``), Coulomb friction (``mu``) and rolling friction (``mu_r``, a
        length: the rolling torque is at most ``mu_r`` times the normal reaction) between two
        groups (Siconos ``NewtonImpactRollingFrictionNSL``). A scene with such a law solves the
        5-unknown rolling friction-contact problem at every contact."""
        self._core.set_law(int(collision_group1), int(collision_group2), float(e), float(mu), float(mu_r))

    def _contactor(self, c) -> Tuple[str, List[float], List[float], Optional[int]]:
        return _contactor(self._shapes, c)

    def add_object(
        self,
        name: str,
        shapes: Sequence[Union[Contactor, _Shape, str]],
        translation: Sequence[float] = (0.0, 0.0, 0.0),
        orientation: Sequence[float] = _IDENTITY,
        velocity: Sequence[float] = (0.0, 0.0, 0.0, 0.0, 0.0, 0.0),
        mass: Optional[float] = None,
        inertia=None,
        density: Optional[float] = None,
        collision_group: int = 0,
        time_of_birth: Optional[float] = None,
        time_of_death: Optional[float] = None,
    ) -> int:
        """Adds a body; returns its index. Dynamic when ``mass`` (with ``inertia``: 3 diagonal
        values or a 3 × 3 matrix, about the centre of mass in the body frame; default a ball's
        ``2/5 m r²`` is NOT assumed — give it) or ``density`` is given, static otherwise (unlike
        Siconos, ``mass=0`` is an error, not a static body). ``velocity`` is ``(vx, vy, vz, ωx,
        ωy, ωz)`` (ω in the body frame). ``time_of_birth`` / ``time_of_death`` (Siconos
        ``add_object(..., time_of_birth=...)``): the body exists from one to the other; before, it
        waits at its initial state, after, it stays where it was, and in neither does it move or
        collide (as Siconos, a step ``[t, t + h]`` includes it when ``birth ≤ t + h < death``).
        In a 2D scene: ``translation=(x, y)``, ``orientation=θ``, ``velocity=(vx, vy, ω)`` (default
        at rest), ``inertia`` one number."""
        planar = self.dimension == 2
        if planar:
            if orientation is _IDENTITY:
                orientation = 0.0
            if tuple(velocity) == (0.0,) * 6:
                velocity = (0.0, 0.0, 0.0)
        return _add_object(self._core, self._shapes, name, shapes, translation, orientation, velocity, mass, inertia,
                           density, collision_group, time_of_birth, time_of_death, planar)

    def add_joint(
        self,
        name: str,
        object1: str,
        object2: Optional[str] = None,
        points=None,
        axes=None,
        joint_class: str = "PivotJointR",
        absolute: Optional[bool] = None,
        allow_self_collide: bool = False,
    ) -> int:
        """A joint between the bodies named ``object1`` and ``object2`` (``None``: the world), as
        Siconos's ``add_joint``: ``joint_class`` one of ``KneeJointR`` (ball: a point),
        ``PivotJointR`` (hinge: point and axis), ``PrismaticJointR`` (axis),
        ``CylindricalJointR`` (point and axis), ``FixedJointR`` (neither). ``points[0]`` and
        ``axes[0]`` are in the world frame at the initial poses (Siconos ``absolute=True``;
        ``absolute=False`` is refused); they default to Siconos's ``(0, 0, 0)`` and
        ``(0, 1, 0)`` when the type takes them. Jointed bodies do not collide, unless
        ``allow_self_collide`` (Siconos's keyword). Returns the
        joint's index."""
        if absolute is not None and not absolute:
            raise ModelError(
                f"invalid joint `{name}`: points and axes are in the world frame at the initial poses (absolute=True)"
            )

        def first(v, word):
            if v is None:
                return None
            a = np.asarray(v, dtype=float)
            if a.ndim == 1:
                a = a[None, :]
            if a.ndim != 2 or a.shape[1] != 3 or a.shape[0] == 0:
                raise ModelError(f"invalid joint `{name}`: {word} is a list of 3-vectors, got shape {a.shape}")
            return [float(x) for x in a[0]]

        return self._core.add_joint(
            name, object1, object2, joint_class, first(points, "points"), first(axes, "axes"), bool(allow_self_collide)
        )

    def add_joint_friction(self, joint: int, dof: int, max_force: float) -> int:
        """Coulomb friction on coordinate ``dof`` of the joint of index ``joint``: a force (or
        torque) of magnitude at most ``max_force`` opposing the coordinate's motion (Siconos
        ``JointFrictionR``; XML ``<JointFrictionR>``). Returns the friction's index."""
        return self._core.add_joint_friction(int(joint), int(dof), float(max_force))

    def add_joint_stop(
        self, joint: int, dof: int = 0, lower: Optional[float] = None, upper: Optional[float] = None, e: float = 0.0
    ) -> int:
        """Stops ``lower ≤ s ≤ upper`` (either may be ``None``) on coordinate ``dof`` of the joint
        of index ``joint`` (what :meth:`add_joint` returned), with Newton impacts of restitution
        ``e`` (Siconos ``JointStopR``; XML ``<JointStopR>``). ``s`` is the motion of body 1
        relative to body 2 (or the world) along or about the joint's axis, zero at the initial
        poses (a cylindrical joint: ``dof`` 0 the translation, 1 the angle). Returns the stop's
        index."""
        return self._core.add_joint_stop(
            int(joint), int(dof), None if lower is None else float(lower), None if upper is None else float(upper), float(e)
        )

    def add_joint_coupler(self, joint1: int, dof1: int, joint2: int, dof2: int, ratio: float,
                          allow_self_collide: bool = False) -> int:
        """Couples coordinate ``dof2`` of the joint of index ``joint2`` to coordinate ``dof1`` of
        the joint of index ``joint1`` (Siconos ``CouplerJointR``; XML ``<CouplerJointR>``):
        ``θ₂ = ratio · θ₁ + c``, ``c`` the value at the initial poses (0). Two hinges: a gear
        pair; a hinge and a slider: a rack and pinion; ``joint1 == joint2`` with ``dof1=0``,
        ``dof2=1`` on a ``CylindricalJointR``: a screw of ``ratio`` radians per unit length. The
        run writes the columns ``NAME.coupler[i].s1`` and ``NAME.coupler[i].s2`` (``NAME`` the
        joint of ``θ₂``). The first bodies of the two joints no longer collide (Siconos's
        coupler is a joint between them), unless ``allow_self_collide``. Returns the coupler's
        index."""
        return self._core.add_joint_coupler(int(joint1), int(dof1), int(joint2), int(dof2), float(ratio),
                                            bool(allow_self_collide))

    def set_contact_hook(self, function: Optional[Callable] = None) -> None:
        """A function that may change the normal of each contact after the collision detection
        of every step (rapier's contact modification hooks; Siconos: a ``BulletR`` subclass
        overriding ``updateContactPointsFromManifoldPoint``), e.g. noise on the normals to model
        rough ground. ``function(t, contact)`` gets a dict — ``body1``, ``body2`` (names),
        ``point1``, ``point2``, ``normal`` (world frame, from body 1 to body 2), ``gap``, ``key``
        (a tuple, the same while the contact persists), ``x1``, ``x2`` (the bodies' 13 numbers
        ``x y z qw qx qy qz vx vy vz wx wy wz`` at the step's start) — and returns the new normal
        (3 numbers, normalized for it) or ``None`` to keep it. The normal sets the contact frame,
        hence the directions of the normal and friction impulses; the gap stays the detected
        one. 3D scenes; ``None`` removes the hook. Called with the GIL for every contact of every
        step: for small scenes."""
        self._core.set_contact_hook(function)

    def exclude_collision(self, object1: str, object2: str) -> None:
        """The bodies named ``object1`` and ``object2`` no longer collide with each other, as two
        bodies linked by a joint (Siconos: a joint between them, such as a ``CouplerJointR``,
        without ``allow_self_collide``)."""
        self._core.exclude_collision(str(object1), str(object2))

    def set_external_force(self, name: str, force: Sequence[float] = (0.0, 0.0, 0.0),
                           torque: Sequence[float] = (0.0, 0.0, 0.0)) -> None:
        """Constant force (world frame, added to the weight ``m g``) and torque (body frame, as
        Siconos's ``mExt``) of the dynamic body ``name`` (Siconos ``setFExtPtr``/``setMExtPtr``)."""
        self._core.set_external_force(name, [float(x) for x in force], [float(x) for x in torque])

    def add_external_function(self, name: str, function: Optional[Callable] = None, library: Optional[str] = None,
                              symbol: Optional[str] = None, params: Sequence[float] = (),
                              plugin_dirs: Sequence[str] = ()) -> None:
        """A user force and torque of ``(t, pose, twist)`` on the dynamic body ``name``, added
        every step to its constant force, torque and weight: ``function(t, x)`` with ``x`` the 13
        numbers ``x y z qw qx qy qz vx vy vz wx wy wz`` (velocity in the world frame, angular
        velocity in the body frame) returns 6 numbers, the force in the world frame and the torque
        in the body frame. A Python callable costs about a microsecond per call (it takes the
        GIL): for speed, give instead the plugin function ``symbol`` of ``library`` (a
        ``saltus_vector_field_fn`` with the same layout, found in ``plugin_dirs``) and its
        ``params``. Moreau–Jean evaluates it at ``(t_k, state_k)`` and at ``t_{k+1}`` on the pose
        advanced by ``h`` with the twist of ``t_k``."""
        if (function is None) == (library is None or symbol is None):
            raise ModelError(f"invalid force of `{name}`: give a function, or a library and a symbol")
        self._core.set_force_function(name, function, library, symbol, [float(x) for x in params],
                                      [str(d) for d in plugin_dirs])

    def add_boundary_condition(self, name: str, object1: str, indices: Sequence[int], bc_class: str = "FixedBC",
                               v=None, a=None, b=None, omega=None, phi=None,
                               function: Optional[Callable] = None) -> None:
        """Prescribed velocity on the twist components ``indices`` of the dynamic body
        ``object1`` (Siconos ``add_boundary_condition``; ``name`` only labels it): ``0, 1, 2`` the
        velocity in the world frame, ``3, 4, 5`` the angular velocity in the body frame.
        ``bc_class``: ``FixedBC`` (0), ``BoundaryCondition`` (constant ``v``, one value per index),
        ``HarmonicBC`` (``a + b cos(omega t + phi)``, one value or one per index), or a callable
        ``function(t)`` returning one value per index. The prescribed components hold at every
        step end; contacts see the body as of infinite mass along them. One condition per body
        (the last one set wins, as Siconos)."""

        def vals(x):
            return None if x is None else [float(y) for y in np.atleast_1d(np.asarray(x, dtype=float))]

        self._core.set_boundary_condition(object1, [int(i) for i in indices], str(bc_class), vals(v), vals(a),
                                          vals(b), vals(omega), vals(phi), function)

    @property
    def n_bodies(self) -> int:
        return self._core.n_bodies()

    def simulation(
        self,
        h: float,
        t0: float = 0.0,
        theta: float = 0.5,
        tol: float = 1e-6,
        max_iter: int = 1000,
        projection_tol: Optional[float] = None,
        activation_threshold: Optional[float] = None,
        formulation: str = "local",
        global_solver: str = "gfc3d-nsgs",
        projection_contacts: Optional[bool] = None,
        projection_tol_unilateral: Optional[float] = None,
        projection_max_iter: Optional[int] = None,
        activation_velocity: Optional[float] = None,
    ) -> MechanicsSimulation:
        """The Moreau–Jean simulation (θ, step ``h``; the solver's tolerance and sweep cap: NSGS
        on the contacts, and with joints the ``GenericMechanical`` block Gauss–Seidel).
        ``projection_tol`` projects the bodies back onto the joints after each step (positions,
        then velocities; Siconos ``TimeSteppingDirectProjection``) and, with
        ``projection_contacts`` (default: when the scene has no joints), onto the contacts: the
        positions only (Siconos ``MoreauJeanDirectProjectionOSI``), until every gap is at least
        ``-projection_tol`` (or ``-projection_tol_unilateral``), the gaps recomputed by the narrow
        phase at every iterate; ``projection_max_iter`` Gauss–Newton iterations (default 10); a
        projection that does not converge is reported in the step (``projection_converged``).
        ``activation_threshold``
        (Siconos ``constraint_activation_threshold``, a length below the margin): a contact
        enters the step's problem when its gap predicted half a step ahead is below it (default:
        1e-6 of the margin). ``formulation``: ``"local"`` (Siconos ``MoreauJeanOSI`` +
        ``FrictionContact``: ``W = H M⁻¹ Hᵀ`` solved by NSGS) or ``"global"`` (``MoreauJeanGOSI`` +
        ``GlobalFrictionContact``: ``M`` and ``H`` kept apart, solved by ``global_solver``, a name of
        ``saltus.numerics``' global catalogue: ``gfc3d-nsgs`` condensed then NSGS, ``gfc3d-nsgs-global``,
        ``gfc3d-newton``, ``gfc3d-prox``, ``gfc3d-admm-wr``; not with joints; with rolling friction only
        ``gfc3d-nsgs``, which then solves Siconos's ``GlobalRollingFrictionContact`` as
        ``GLOBAL_ROLLING_FRICTION_3D_NSGS_WR``).
        ``activation_velocity`` (Siconos ``activate_with_negative_relative_velocity`` with
        ``constraint_activation_threshold_velocity``): a contact enters the step's problem only if
        its normal relative velocity at the start of the step is at most this too (an opening
        contact within reach is left out). The scene is moved into it (build a new scene for
        another run)."""
        pt = None if projection_tol is None else float(projection_tol)
        at = None if activation_threshold is None else float(activation_threshold)
        if formulation not in ("local", "global"):
            raise ValueError(f"formulation must be 'local' or 'global', got {formulation!r}")
        gs = str(global_solver) if formulation == "global" else None
        pc = None if projection_contacts is None else bool(projection_contacts)
        pu = None if projection_tol_unilateral is None else float(projection_tol_unilateral)
        pn = None if projection_max_iter is None else int(projection_max_iter)
        return MechanicsSimulation(
            self._core.simulation(float(h), float(t0), float(theta), float(tol), int(max_iter), pt, at, gs, pc, pu, pn,
                                  None if activation_velocity is None else float(activation_velocity)),
            shapes=self._shapes,
        )


def spheres_in_a_box(n: int = 27, seed: int = 0) -> MechanicsSimulation:
    """The Siconos tutorial ``GranularMaterial/spheres_in_a_box.py`` (deterministic): ``n``
    spheres of radius 0.01 m on a lattice above the floor of a box, μ = 0.3, e = 0, h = 1e-3,
    θ = 0.50001. Its ``t_end`` (0.5 s up to 125 spheres, else 1 s) is ``run()``'s default. Bodies
    ``0..n`` are the spheres, then ``ground`` and ``walls``."""
    core, t_end = _saltus.spheres_in_a_box(int(n), int(seed))
    return MechanicsSimulation(core, t_end)
