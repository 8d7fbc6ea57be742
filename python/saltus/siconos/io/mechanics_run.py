"""``siconos.io.mechanics_run`` on Saltus: ``MechanicsHdf5Runner``, the Siconos scene file and
its run, over :mod:`saltus.mechanics` (parry3d collision detection instead of Bullet).

The scene (``add_primitive_shape``, ``add_convex_shape``, ``add_object``,
``add_Newton_impact_friction_nsl``, ``add_joint``) is written into the HDF5 file with Siconos's
``mechanics_hdf5`` layout (``data/ref``, ``data/input``, ``data/nslaws``, ``data/joints``), so the
usual two-phase tutorial (``with MechanicsHdf5Runner() as io: io.add_...`` then
``with MechanicsHdf5Runner(mode='r+') as io: io.run(...)``) works; ``run`` reads the scene back,
steps it with Moreau–Jean + NSGS and writes ``data/static``, ``data/dynamic``,
``data/velocities``, ``data/cf`` and ``data/solv`` every ``output_frequency`` steps (and at t0).
As in Siconos, a run on a file that already holds output continues from the poses and
velocities of its last output time (give the matching ``t0``), appending to the datasets.
Objects with a ``time_of_birth`` enter, and with a ``time_of_death`` leave, at the start of the
step whose end reaches that time (Siconos's rule): Saltus's bodies carry these lifetimes (one
simulation for the whole run; outside its lifetime a body neither moves nor collides, and it is
not written to ``data/dynamic``).

Siconos defaults kept: gravity ``-9.80665 / gravity_scale`` along ``z``; the solver
``SICONOS_FRICTION_3D_NSGS`` with its tolerance and iteration cap (``solver_options``); the
inertia of a body given only a mass computed from its last contactor, as Siconos's Bullet manager
leaves it (sphere ``2/5 m r²``, box
and cylinder exact, capsule and convex hull from their bounding box as Bullet does, without
Bullet's margins); ``mass=0`` or no mass: a static object; object ids 1, 2, ... (dynamic) and
-1, -2, ... (static). The collision margin is ``SiconosBulletOptions.contactBreakingThreshold``
(0.02 by default) times its ``worldScale``. In ``data/cf`` the contact points (columns 2-7) and
the relative velocity (17-19) are NaN: Saltus's step report does not give them. Saltus's
Moreau–Jean step solves the free gyroscopic rotation by a fixed point and the contacts once with
it frozen (one linearisation per step, as Siconos with ``Newton_max_iter=1``):
``Newton_max_iter`` and ``Newton_options`` are accepted and have no effect.

``set_external_forces`` (constructor or ``run``) is called once per dynamic body as it is
created, with a body handle whose ``scalarMass()``, ``setFExtPtr(f)`` (world frame) and
``setMExtPtr(m)`` (body frame) set constant loads; as in Siconos it replaces the default gravity
(``lambda body: None``: no force at all). ``add_boundary_condition`` prescribes twist components
(``FixedBC``, ``BoundaryCondition``, ``HarmonicBC``).

Not supported (``SiconosFeatureNotSupported``): state-dependent force plugins
(``setComputeFExtFunction``; ``saltus.mechanics.Scene.add_external_function`` takes a callable or
a Saltus plugin), other integrators or simulations (``osi``, ``time_stepping``), controllers,
meshes, height maps, OCC shapes, 2D scenes, laws other than ``NewtonImpactFrictionNSL``,
``NewtonImpactRollingFrictionNSL`` (rolling friction: 3D only, not with joints), ``NewtonImpactNSL``
(frictionless contacts as μ = 0, and joint stops) and ``RelayNSL`` (joint friction, symmetric
bounds).
"""

from __future__ import annotations

import math
import os
import sys

import numpy as np

from saltus.siconos._unsupported import module_getattr, raise_unsupported
from saltus.siconos.mechanics.collision.tools import Contactor, quaternion_get
from saltus.siconos.io._vtp import polydata, read_polydata

G = 9.80665  # scipy.constants.g, Siconos's gravity
_PRIMITIVES = ("Sphere", "Box", "Cylinder", "Capsule", "Cone", "Disk", "Box2d")
_PRIMITIVES_2D = ("Disk", "Box2d")


def _polygon(points):
    """Area, centroid and polar moment ``∫ |r − c|² dA`` about the centroid of the convex hull
    of 2D ``points`` (the shoelace formulas on the hull's vertices, counter-clockwise)."""
    from scipy.spatial import ConvexHull as _Hull

    pts = np.asarray(points, dtype=float)
    v = pts[_Hull(pts).vertices]  # counter-clockwise in 2D
    w = np.roll(v, -1, axis=0)
    cross = v[:, 0] * w[:, 1] - w[:, 0] * v[:, 1]
    area = 0.5 * cross.sum()
    c = ((v + w) * cross[:, None]).sum(axis=0) / (6.0 * area)
    # about the origin: ∫ x² + y² dA = Σ cross (x_i² + x_i x_j + x_j² + y_i² + y_i y_j + y_j²) / 12
    j0 = (cross * ((v * v).sum(axis=1) + (v * w).sum(axis=1) + (w * w).sum(axis=1))).sum() / 12.0
    return float(area), c, float(j0 - area * (c @ c))


def phi(q0, q1, q2, q3):
    """Euler angle φ (roll, about x) of the unit quaternion ``(q0, q1, q2, q3)`` = ``(w, x, y, z)``."""
    return math.atan2(2.0 * (q0 * q1 + q2 * q3), 1.0 - 2.0 * (q1 * q1 + q2 * q2))


def theta(q0, q1, q2, q3):
    """Euler angle θ (pitch, about y) of the unit quaternion ``(w, x, y, z)``."""
    return math.asin(max(-1.0, min(1.0, 2.0 * (q0 * q2 - q3 * q1))))


def psi(q0, q1, q2, q3):
    """Euler angle ψ (yaw, about z) of the unit quaternion ``(w, x, y, z)``."""
    return math.atan2(2.0 * (q0 * q3 + q1 * q2), 1.0 - 2.0 * (q2 * q2 + q3 * q3))


# elementwise over arrays (Siconos's phiv, thetav, psiv)
phiv, thetav, psiv = np.vectorize(phi), np.vectorize(theta), np.vectorize(psi)


def _h5py():
    try:
        import h5py
    except ImportError as e:  # pragma: no cover - h5py is a dependency of this module
        raise_unsupported("MechanicsHdf5Runner without h5py", f"pip install h5py ({e})")
    return h5py


def _inertia(shape_kind: str, params, mass: float) -> np.ndarray:
    """Principal moments of a contactor's shape for ``mass`` (Bullet's conventions); in 2D the
    moment about the centre of the disk, rectangle or polygon (one number)."""
    p = [float(x) for x in params] if shape_kind in _PRIMITIVES else []
    if shape_kind == "Disk":
        return np.array([0.5 * mass * p[0] ** 2])
    if shape_kind == "Box2d":
        return np.array([mass * (p[0] ** 2 + p[1] ** 2) / 12.0])
    if shape_kind == "convex" and np.shape(params)[1] == 2:
        area, _, j = _polygon(params)
        return np.array([mass * j / area])
    if shape_kind == "Sphere":
        return np.full(3, 0.4 * mass * p[0] ** 2)
    if shape_kind == "Cylinder":  # axis y, (radius, length)
        r, L = p
        side = mass * (3 * r * r + L * L) / 12.0
        return np.array([side, mass * r * r / 2.0, side])
    if shape_kind == "Box":
        lx, ly, lz = p
    elif shape_kind == "Capsule":  # Bullet: the bounding box
        r, L = p
        lx, ly, lz = 2 * r, L + 2 * r, 2 * r
    elif shape_kind == "Cone":  # Bullet's btConeShape: the bounding box too
        r, L = p
        lx, ly, lz = 2 * r, L, 2 * r
    else:  # convex hull points: Bullet's bounding-box approximation
        pts = np.asarray(params, dtype=float)
        lx, ly, lz = pts.max(axis=0) - pts.min(axis=0)
    return mass / 12.0 * np.array([ly * ly + lz * lz, lx * lx + lz * lz, lx * lx + ly * ly])



def _is_angle(o):
    """Whether a contactor's orientation is one angle θ (2D) rather than a quaternion or an
    axis–angle pair ``[(x, y, z), angle]`` (ragged: not an array)."""
    if np.isscalar(o):
        return True
    return isinstance(o, (list, tuple, np.ndarray)) and len(o) == 1 and np.isscalar(np.ravel(o)[0])

class MechanicsHdf5Runner:
    """Siconos ``MechanicsHdf5Runner(io_filename=None, io_filename_backup=None, mode='w', ...)``:
    a context manager over the HDF5 scene file (default: the script's name with ``.hdf5``)."""

    def __init__(self, io_filename=None, io_filename_backup=None, mode="w", interaction_manager=None,
                 nsds=None, simulation=None, osi=None, shape_filename=None, set_external_forces=None,
                 gravity_scale=None, collision_margin=None, use_compression=False, output_domains=False,
                 verbose=True):
        if io_filename is None:
            io_filename = os.path.splitext(os.path.basename(sys.argv[0]))[0] + ".hdf5"
        self._io_filename = io_filename
        self._mode = mode
        self._verbose = verbose
        self._gravity_scale = 1.0 if gravity_scale is None else float(gravity_scale)
        self._collision_margin = collision_margin
        self._set_external_forces = set_external_forces
        for what, v in (("interaction_manager", interaction_manager), ("nsds", nsds), ("simulation", simulation),
                        ("osi", osi), ("shape_filename", shape_filename)):
            if v is not None:
                raise_unsupported(f"MechanicsHdf5Runner({what}=...)")
        if output_domains:
            raise_unsupported("MechanicsHdf5Runner(output_domains=True)")
        self._out = None

    # -- the file --------------------------------------------------------------------------
    def __enter__(self):
        h5py = _h5py()
        self._out = h5py.File(self._io_filename, self._mode)
        self._data = self._out.require_group("data")
        for g in ("ref", "input", "nslaws", "joints"):
            self._data.require_group(g)
        if self._mode in ("w", "w-", "x"):
            self._out.attrs["dimension"] = 3
        # Siconos infers the dimension from the shapes (Disk, Box2d, 2D convex points: 2)
        self._dimension = int(self._out.attrs.get("dimension", 3))
        return self

    def _set_dimension(self, planar: bool) -> None:
        # Siconos refuses a 3D shape after a 2D one; a 2D shape after 3D ones is refused too
        # (Siconos would then run a 2D scene with 3D shapes)
        if planar != (self._dimension == 2) and len(self._data["ref"]) > 0:
            raise ValueError("It is not yet possible to mix 2D and 3D primitives shapes")
        self._dimension = 2 if planar else 3
        self._out.attrs["dimension"] = self._dimension

    def __exit__(self, type_, value, traceback):
        self._out.close()

    def print_verbose(self, *args, **kwargs):
        if self._verbose:
            print("[io.mechanics]", *args, **kwargs)

    def dimension(self) -> int:
        return self._dimension

    def shapes(self):
        return self._data["ref"]

    def instances(self):
        return self._data["input"]

    def nonsmooth_laws(self):
        return self._data["nslaws"]

    def joints(self):
        return self._data["joints"]

    def static_data(self):
        return self._data.get("static")

    def dynamic_data(self):
        return self._data.get("dynamic")

    def velocities_data(self):
        return self._data.get("velocities")

    def contact_forces_data(self):
        return self._data.get("cf")

    def solver_data(self):
        return self._data.get("solv")

    # -- the scene -------------------------------------------------------------------------
    def add_primitive_shape(self, name, primitive, params, insideMargin=None, outsideMargin=None):
        """A named primitive with Siconos's parameters (``Box``: full lengths; ``Cylinder`` and
        ``Capsule``: radius and length along ``y``)."""
        if primitive not in _PRIMITIVES:
            raise_unsupported(f"add_primitive_shape(..., '{primitive}', ...)", f"Saltus has {', '.join(_PRIMITIVES)}")
        self._set_dimension(primitive in _PRIMITIVES_2D)
        ref = self._data["ref"]
        if name not in ref:
            d = ref.create_dataset(name, data=np.asarray([params], dtype=float))
            d.attrs.update(id=len(ref) - 1, type="primitive", primitive=primitive)
            self._margins(d, insideMargin, outsideMargin)

    def add_convex_shape(self, name, points, insideMargin=None, outsideMargin=None):
        """A named convex hull of ``points`` (k × 3, in the body frame; k × 2: a 2D scene's polygon)."""
        pts = np.asarray(points, dtype=float)
        if pts.ndim != 2 or pts.shape[1] not in (2, 3):
            raise ValueError(f"add_convex_shape: points must be k × 3 (or k × 2 in 2D), got {pts.shape}")
        self._set_dimension(pts.shape[1] == 2)
        ref = self._data["ref"]
        if name not in ref:
            d = ref.create_dataset(name, data=pts)
            d.attrs.update(id=len(ref) - 1, type="convex")
            self._margins(d, insideMargin, outsideMargin)

    @staticmethod
    def _margins(d, inside, outside):
        if inside is not None:
            d.attrs["insideMargin"] = inside
        if outside is not None:
            d.attrs["outsideMargin"] = outside

    def add_mesh_from_file(self, name, filename, scale=None, insideMargin=None, outsideMargin=None):
        """A named triangle mesh read from an STL (ASCII or binary) or OBJ file, coordinates
        times ``scale`` (Saltus reads the file itself; Siconos goes through VTK), stored as
        Siconos stores it: the VTK XML PolyData text (``type = 'vtp'``), which ``siconos_vview``
        draws. A dynamic object collides with the convex hull of the mesh, a static one with the
        mesh."""
        from saltus.mechanics import read_mesh

        ext = os.path.splitext(str(filename))[1].lower()
        if ext not in (".stl", ".obj"):
            raise_unsupported(f"add_mesh_from_file('{filename}')", "meshes from .stl or .obj files")
        v, t = read_mesh(filename, 1.0 if scale is None else float(scale))
        self._add_vtp(name, polydata(v, t), None, insideMargin, outsideMargin)

    def add_mesh_from_string(self, name, shape_data, scale=None, insideMargin=None, outsideMargin=None):
        """Siconos ``add_mesh_from_string``: a mesh given as VTK XML PolyData text (ASCII data
        arrays; its polygons triangles), stored as given, with ``scale`` applied when it is read."""
        read_polydata(str(shape_data), f"mesh '{name}'")  # refuse what the run could not read, now
        self._add_vtp(name, str(shape_data), scale, insideMargin, outsideMargin)

    def _add_vtp(self, name, text, scale, inside, outside):
        import h5py

        ref = self._data["ref"]
        if name not in ref:
            d = ref.create_dataset(name, (1,), dtype=h5py.string_dtype())
            d[0] = text
            d.attrs.update(id=len(ref) - 1, type="vtp")
            if scale is not None:
                d.attrs["scale"] = float(scale)
            self._margins(d, inside, outside)

    def add_shape_data_from_file(self, name, filename):
        """Siconos stores the file for OpenCascade (BREP, STEP) or VTK: Saltus reads STL and OBJ
        meshes (as :meth:`add_mesh_from_file`); CAD formats need OpenCascade."""
        if os.path.splitext(str(filename))[1].lower() in (".stl", ".obj"):
            self.add_mesh_from_file(name, filename)
        else:
            raise_unsupported(f"MechanicsHdf5Runner.add_shape_data_from_file('{filename}') (BREP, STEP: OpenCascade)",
                              "meshes from .stl or .obj files")

    def add_height_map(self, name, heightmap, rectangle, insideMargin=None, outsideMargin=None):
        """A named height field (Siconos's layout: the ``nx × ny`` heights as the dataset, attribute
        ``rect = (Lx, Ly)``): ``heightmap[i, j]`` is the height at ``x_i = −Lx/2 + i·Lx/(nx−1)``,
        ``y_j = −Ly/2 + j·Ly/(ny−1)`` in the contactor's frame, unshifted; each cell is two
        triangles split along its ``(i, j)–(i+1, j+1)`` diagonal (Bullet's). Static objects only.
        Saltus's surface is the field itself; Siconos 4.4's Bullet contacts sit ``insideMargin``
        (default 2 % of the smallest of ``Lx``, ``Ly`` and the height range) below it."""
        h = np.asarray(heightmap, dtype=float)
        if h.ndim != 2 or h.shape[0] < 2 or h.shape[1] < 2:
            raise AssertionError(f"a height map needs at least 2 × 2 heights, got shape {h.shape}")
        if len(rectangle) != 2:
            raise AssertionError("len(rectangle) != 2")
        ref = self._data["ref"]
        if name not in ref:
            d = ref.create_dataset(name, data=h)
            d.attrs.update(id=len(ref) - 1, type="heightmap", rect=np.asarray(rectangle, dtype=float))
            self._margins(d, insideMargin, outsideMargin)

    def add_occ_shape(self, *a, **k):
        raise_unsupported("MechanicsHdf5Runner.add_occ_shape (OpenCASCADE)")

    add_brep_from_string = add_occ_shape

    def add_object(self, name, shapes, translation, orientation=None, velocity=None,
                   use_volume_centroid_as_initial_translation=False, mass=None, center_of_mass=(0, 0, 0),
                   inertia=None, time_of_birth=-1, time_of_death=-1, fext=None, allow_self_collide=False):
        """A body with its contactors; dynamic when ``mass > 0`` (inertia from the first
        contactor when not given), static otherwise."""
        if fext is not None:
            raise_unsupported("add_object(fext=...)")
        if np.any(np.asarray(center_of_mass, dtype=float) != 0):
            raise_unsupported("add_object(center_of_mass != 0)")
        inp = self._data["input"]
        if name in inp:
            return inp[name]
        if self._dimension == 2:  # Siconos's 2D attributes: (x, y), [θ], (vx, vy, ω), I
            orientation = [0.0] if orientation is None else list(np.ravel(orientation))
            velocity = [0.0] * 3 if velocity is None else velocity
            if len(translation) != 2 or len(orientation) != 1 or len(velocity) != 3:
                raise AssertionError("a 2D object has translation (x, y), orientation [θ], velocity (vx, vy, ω)")
        dynamic = mass is not None and float(mass) > 0
        # the numbers of dynamic and static objects so far, counted once from the file (a count
        # per call read every object's attributes again: 20 s for the 402 objects of heightmap.py)
        counts = getattr(self, "_object_counts", None)
        if counts is None:
            ids = [o.attrs.get("id", 0) for o in inp.values()]
            counts = self._object_counts = [sum(1 for i in ids if i > 0), sum(1 for i in ids if i < 0)]
        ndyn, nsta = counts
        counts[0 if dynamic else 1] += 1
        obj = inp.create_group(name)
        obj.attrs.update(
            type="dynamic" if dynamic else "static",
            translation=np.asarray(translation, dtype=float),
            orientation=np.asarray(orientation if self._dimension == 2 else
                                   quaternion_get(orientation or (1, 0, 0, 0)), dtype=float),
            velocity=np.asarray(velocity if velocity is not None else [0.0] * 6, dtype=float),
            center_of_mass=np.zeros(3),
            id=(ndyn + 1) if dynamic else -(nsta + 1),
            allow_self_collide=bool(allow_self_collide),
            saltus_order=len(inp) - 1,
        )
        if dynamic:
            obj.attrs["mass"] = float(mass)
        if inertia is not None:
            obj.attrs["inertia"] = np.asarray(inertia, dtype=float)
        if time_of_birth >= 0:
            obj.attrs["time_of_birth"] = float(time_of_birth)
        if time_of_death >= 0:
            obj.attrs["time_of_death"] = float(time_of_death)
        for num, c in enumerate(shapes):
            if not isinstance(c, Contactor):
                raise_unsupported(f"add_object with a {type(c).__name__} (Volume shapes)")
            iname = c.instance_name if c.instance_name is not None else f"{c.shape_name}-{num}"
            d = obj.create_dataset(iname, shape=(0,), dtype=float)
            d.attrs.update(instance_name=iname, shape_name=c.shape_name, group=int(c.group), saltus_order=num,
                           translation=np.asarray(c.translation, dtype=float),
                           orientation=np.asarray(quaternion_get(c.orientation) if not _is_angle(c.orientation)
                                                  else [np.cos(0.5 * float(np.ravel(c.orientation)[0])), 0, 0,
                                                        np.sin(0.5 * float(np.ravel(c.orientation)[0]))],
                                                  dtype=float))
            if self._dimension == 2:  # Contactor's 3D defaults: the offset (x, y), θ about z
                q = d.attrs["orientation"]
                d.attrs["translation"] = np.asarray(c.translation, dtype=float).ravel()[:2]
                d.attrs["orientation"] = np.array([2.0 * np.arctan2(q[3], q[0])])
        return obj

    def add_Newton_impact_friction_nsl(self, name, mu, e=0, collision_group1=0, collision_group2=0):
        """Newton impact + Coulomb friction between two collision groups."""
        laws = self._data["nslaws"]
        if name not in laws:
            d = laws.create_dataset(name, shape=(0,), dtype=float)
            d.attrs.update(type="NewtonImpactFrictionNSL", mu=float(mu), e=float(e),
                           gid1=int(collision_group1), gid2=int(collision_group2))

    def add_Newton_impact_nsl(self, name, e=0, collision_group1=-1, collision_group2=-1):
        """A Newton impact law without friction: between two collision groups (frictionless
        contacts, solved as friction contacts with μ = 0) when both are given (≥ 0), else (the
        default -1) only for the joint stops that name it (``add_joint(..., nslaws=name)``)."""
        laws = self._data["nslaws"]
        if name not in laws:
            d = laws.create_dataset(name, shape=(0,), dtype=float)
            d.attrs.update(type="NewtonImpactNSL", e=float(e), gid1=int(collision_group1), gid2=int(collision_group2))

    def add_relay_nsl(self, name, lb, ub, size=1, collision_group1=-1, collision_group2=-1):
        """A relay law ``lb ≤ λ ≤ ub`` (Siconos ``RelayNSL``), for joint friction
        (``add_joint(friction=name)``): λ is the step's impulse along the joint coordinate."""
        nsl = self._data["nslaws"]
        if name not in nsl:
            d = nsl.create_dataset(name, shape=(0,), dtype=float)
            d.attrs.update(type="RelayNSL", size=int(size), lb=float(lb), ub=float(ub), gid1=int(collision_group1),
                           gid2=int(collision_group2))

    def add_Fremond_impact_friction_nsl(self, name, mu, e=0, collision_group1=0, collision_group2=0):
        """Frémond's impact law + Coulomb friction on the θ-velocity between two collision groups
        (Siconos ``FremondImpactFrictionNSL``)."""
        laws = self._data["nslaws"]
        if name not in laws:
            d = laws.create_dataset(name, shape=(0,), dtype=float)
            d.attrs.update(type="FremondImpactFrictionNSL", mu=float(mu), e=float(e),
                           gid1=int(collision_group1), gid2=int(collision_group2))

    def add_Newton_impact_rolling_friction_nsl(self, name, mu, mu_r, e=0, collision_group1=0, collision_group2=0):
        """Newton impact + Coulomb friction + rolling friction between two collision groups."""
        laws = self._data["nslaws"]
        if name not in laws:
            d = laws.create_dataset(name, shape=(0,), dtype=float)
            d.attrs.update(type="NewtonImpactRollingFrictionNSL", mu=float(mu), mu_r=float(mu_r), e=float(e),
                           gid1=int(collision_group1), gid2=int(collision_group2))

    def add_joint(self, name, object1, object2=None, points=((0, 0, 0),), axes=((0, 1, 0),),
                  joint_class="PivotJointR", absolute=None, allow_self_collide=None, nslaws=None,
                  stops=None, friction=None, coupled=None, references=None):
        """A joint (``KneeJointR``, ``PivotJointR``, ``PrismaticJointR``, ``CylindricalJointR``,
        ``FixedJointR``) with points and axes in the world frame (``absolute=True``, the default)
        or in ``object1``'s frame (``absolute=False``), both taken at the initial poses.
        ``stops``: rows ``(dof, position, direction)``, a lower stop at ``position`` when
        ``direction > 0``, an upper one when ``< 0`` (Siconos ``JointStopR``), each with the
        Newton impact law ``nslaws`` (one name, or one per stop; default ``e = 0``).
        ``friction``: a ``RelayNSL`` name (``add_relay_nsl``), or one per coordinate (``''``: none),
        Coulomb friction on that coordinate (Siconos ``JointFrictionR``: the step's impulse in
        ``[lb, ub]``). ``coupled``: rows ``(dof1, dof2, ratio)`` coupling two coordinates of this joint,
        ``θ_dof2 = ratio · θ_dof1`` (Siconos ``CouplerJointR(joint, dof1, joint, dof2, ratio)``,
        e.g. a screw on a ``CylindricalJointR``). ``joint_class="CouplerJointR"`` with
        ``references=[joint1, joint2(, frame)]`` and ``coupled=[(dof1, dof2, ratio)]`` couples
        coordinate ``dof2`` of ``joint2`` to coordinate ``dof1`` of ``joint1`` (a gear pair, a
        rack and pinion); ``object1`` must be a body of ``joint1`` and ``object2`` of ``joint2``."""
        if coupled is not None:
            coupled = np.asarray(coupled, dtype=float)
            if coupled.ndim == 1:
                coupled = coupled[None, :]
            if coupled.ndim != 2 or coupled.shape[1] != 3:
                raise AssertionError("coupled.shape[1] != 3")
        if joint_class == "CouplerJointR":
            if references is None:
                raise AssertionError("references is None")
            if coupled is None or coupled.shape != (1, 3):
                raise AssertionError("np.shape(coupled) != (1, 3)")
        if references is not None and not 1 <= len(references) <= 3:
            raise AssertionError("references: one or two joint names and an optional body name")
        if nslaws is not None and stops is None:
            raise_unsupported("add_joint(nslaws=...) without stops")
        joints = self._data["joints"]
        if name in joints:
            raise ValueError(f"Joint {name} already in simulation!")
        d = joints.create_dataset(name, shape=(0,), dtype=float)
        d.attrs.update(object1=object1, type=joint_class)
        if object2 is not None:
            d.attrs["object2"] = object2
        if points is not None:
            d.attrs["points"] = np.asarray(points, dtype=float)
        if axes is not None:
            d.attrs["axes"] = np.asarray(axes, dtype=float)
        if absolute in (True, False):
            d.attrs["absolute"] = bool(absolute)
        if allow_self_collide is not None:
            d.attrs["allow_self_collide"] = bool(allow_self_collide)
        if stops is not None:
            st = np.asarray(stops, dtype=float).reshape(-1, 3)
            d.attrs["stops"] = st
            if nslaws is not None:
                d.attrs["nslaws"] = nslaws if isinstance(nslaws, str) else [str(n) for n in nslaws]
        if friction is not None:
            d.attrs["friction"] = np.array([friction] if isinstance(friction, str) else list(friction), dtype="S")
        if coupled is not None:
            d.attrs["coupled"] = coupled
        if references is not None:
            d.attrs["references"] = [str(r) for r in references]

    def boundary_conditions(self):
        return self._data.get("boundary_conditions")

    def add_boundary_condition(self, name, object1, indices=None, bc_class="HarmonicBC", v=None, a=None, b=None,
                               omega=None, phi=None):
        """Prescribed velocity on the twist components ``indices`` of ``object1`` (``0..2`` the
        velocity in the world frame, ``3..5`` the angular velocity in the body frame): ``FixedBC``
        (0), ``BoundaryCondition`` (``v``), ``HarmonicBC`` (``a + b cos(omega t + phi)``). Stored
        in ``data/boundary_conditions`` as Siconos does; at run time the conditions are applied
        in the group's order (one per body: the last wins)."""
        if bc_class not in ("HarmonicBC", "BoundaryCondition", "FixedBC"):
            raise_unsupported(f"add_boundary_condition(bc_class={bc_class!r})")
        bcs = self._data.require_group("boundary_conditions")
        if name in bcs:
            return
        d = bcs.create_dataset(name, (0,), dtype=float)
        d.attrs.update(object1=object1, indices=np.asarray(indices, dtype=int), type=bc_class)
        if bc_class == "HarmonicBC":
            d.attrs.update(a=a, b=b, omega=omega, phi=phi)
        elif bc_class == "BoundaryCondition":
            d.attrs["v"] = v

    def add_interaction(self, *a, **k):
        raise_unsupported("add_interaction (permanent interactions)")

    def add_plugin_source(self, *a, **k):
        raise_unsupported("add_plugin_source (C plugins)")

    add_external_function = add_plugin_source

    # -- the run ---------------------------------------------------------------------------
    def current_time(self) -> float:
        """Siconos's ``current_time()`` during a run (a controller's or a hook's): the start time
        before the first step, the time the coming step reaches while a controller prepares it,
        otherwise the time the last step reached."""
        sim = self.__dict__.get("_simulation")
        if sim is None:
            raise RuntimeError("MechanicsHdf5Runner.current_time(): no run is in progress")
        return sim._run.current_time()

    def run(self, run_options=None, **kw):
        """Siconos's ``run(t0=0, T=10, h=0.0005, theta=0.50001, solver_options=None,
        output_frequency=None, gravity_scale=1.0, bullet_options=None, ...)``, or Siconos ≥ 4.5's
        ``run(run_options)`` with a :class:`MechanicsHdf5Runner_run_options` dict (its keys are
        the keywords; the keywords are then ignored, as in Siconos)."""
        from ._run import options_to_kwargs, run

        if run_options is not None:
            if not isinstance(run_options, dict):
                raise TypeError("run(run_options): a MechanicsHdf5Runner_run_options dict")
            kw = options_to_kwargs(run_options)
        return run(self, kw)


class MechanicsHdf5Runner_run_options(dict):
    """Siconos ≥ 4.5's options of :meth:`MechanicsHdf5Runner.run`: a ``dict`` of the run
    keywords with their defaults, filled by the script (``run_options['T'] = 2``) and given as
    ``io.run(run_options)``. Keys at their defaults change nothing; the others are read as the
    keywords of the same names (see ``_run.py``: accepted, accepted without effect in Saltus, or
    refused by name); keys that Siconos does not read either (misspelt ones) are ignored, as
    Siconos ignores them."""

    def __init__(self):
        from ._run import RUN_OPTIONS_DEFAULTS

        super().__init__(RUN_OPTIONS_DEFAULTS())

    def display(self):
        """Prints the options, one a line."""
        for k, v in self.items():
            print(f"{k} = {v}")


__getattr__ = module_getattr("siconos.io.mechanics_run")
