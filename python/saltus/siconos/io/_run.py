"""``MechanicsHdf5Runner.run``: reads the scene of the HDF5 file, builds a
:class:`saltus.mechanics.Scene`, steps it and writes Siconos's output datasets."""

from __future__ import annotations

import math
from typing import Dict, List

import numpy as np

from saltus import mechanics as _sm
from saltus.siconos._unsupported import raise_unsupported

from ._hooks import Hooks, RunState
from ._vtp import read_polydata

# run() keywords: accepted with their Siconos meaning, or accepted and without effect in Saltus
# (logging, timers, the storage and assembly of Siconos's matrices, the Newton loop's knobs: one
# linearisation per step, see mechanics_run's docstring)
_IGNORED = {
    "with_timer", "Newton_options", "numerics_verbose", "numerics_verbose_level", "violation_verbose",
    "verbose", "verbose_progress", "osnspb_max_size", "display_Newton_convergence", "multipoints_iterations",
    "solver_options_pos", "Newton_max_iter",
    # Siconos >= 4.5 (run_options)
    "Newton_tolerance", "Newton_warning_on_nonconvergence", "Warning_nonsmooth_solver", "skip_last_update_output",
    "skip_last_update_input", "skip_reset_lambdas", "osns_assembly_type", "explode_computeOneStep",
    "explode_computeOneStep_in_python", "explode_computeOneStepNSProblem_in_python", "with_timer_output_at_the_end",
    "output_contact_info", "osi_explicit_Jacobians_of_relations", "vnative_options",
    # Siconos >= 4.5: the same Newton iterations written out in Python (to time their parts), as
    # explode_computeOneStep
    "explode_Newton_solve",
}
_DEFAULTS = dict(t0=0.0, T=10.0, h=0.0005, theta=0.50001, gravity_scale=None, output_frequency=None,
                 solver_options=None, bullet_options=None, projection_tolerance=1e-8,
                 projection_tolerance_unilateral=1e-8, projection_itermax=20,
                 constraint_activation_threshold=0.0, output_contact_index_set=1, output_contact_forces=True,
                 set_external_forces=None, controller=None, start_run_iteration_hook=None,
                 before_next_step_iteration_hook=None, end_run_iteration_hook=None,
                 friction_contact_trace_params=None, output_energy_work=False, output_contact_work=False)
_REFUSED = {
    "body_class": "user body classes",
    "shape_class": "user shape classes",
    "face_class": "face contactor classes",
    "edge_class": "edge contactor classes",
    "exit_tolerance": "exit_tolerance",
    "output_backup": "output backups",
    "output_backup_frequency": "output backups",
}


def RUN_OPTIONS_DEFAULTS() -> Dict:
    """The keys of Siconos >= 4.5's ``MechanicsHdf5Runner_run_options`` and their defaults."""
    from saltus.siconos import kernel as sk

    return dict(
        t0=0.0, T=10.0, h=5e-4, theta=0.50001, gamma=0.0, gravity_scale=1.0, bullet_options=None,
        multipoints_iterations=None, time_stepping=None, interaction_manager=None, body_class=None,
        shape_class=None, face_class=None, edge_class=None, controller=None, set_external_forces=None,
        start_run_iteration_hook=None, before_next_step_iteration_hook=None, end_run_iteration_hook=None,
        osi=sk.MoreauJeanOSI,
        constraint_activation_threshold=0.0, Newton_options=sk.SICONOS_TS_NONLINEAR, Newton_max_iter=20,
        Newton_tolerance=1e-10, display_Newton_convergence=False, skip_last_update_output=False,
        skip_last_update_input=False, skip_reset_lambdas=False, solver_options=None, solver_options_pos=None,
        osnspb_max_size=0, osns_assembly_type=None, exit_tolerance=None, projection_itermax=20,
        projection_tolerance=1e-8, projection_tolerance_unilateral=1e-8, friction_contact_trace_params=None,
        numerics_verbose=False, numerics_verbose_level=0, violation_verbose=False, verbose=True,
        verbose_progress=True, with_timer=False, explode_Newton_solve=False, explode_computeOneStep=False,
        output_frequency=None, output_backup=False, output_backup_frequency=None, output_contact_index_set=1,
        output_contact_forces=True, output_contact_info=True, output_contact_work=True, output_energy_work=False,
    )


_KNOWN = set(_IGNORED) | set(_DEFAULTS) | set(_REFUSED) | {
    "osi", "time_stepping", "contact_index_set", "gamma", "constraint_activation_threshold_velocity",
    "activate_with_negative_relative_velocity"}


def options_to_kwargs(options: Dict) -> Dict:
    """The run keywords of a ``MechanicsHdf5Runner_run_options`` dict: its known keys (Siconos
    reads only those: a misspelt key has no effect there either)."""
    return {k: v for k, v in options.items() if k in _KNOWN}


#: Siconos ≤ 4.2's solver keywords of ``run`` (``modify_normals.py``), replaced since by ``solver_options``
_LEGACY_SOLVER = ("solver", "itermax", "tolerance")


def _legacy_solver_options(legacy: Dict, given):
    """The ``SolverOptions`` of Siconos ≤ 4.2's ``run(solver=ID, itermax=N, tolerance=TOL)``
    (Siconos's defaults where one is left out: ``SICONOS_FRICTION_3D_NSGS``, its own cap and
    tolerance)."""
    from saltus.siconos import numerics as sn

    if given is not None:
        raise TypeError("run(): give solver_options, or Siconos 4.2's solver/itermax/tolerance, not both")
    so = sn.SolverOptions(int(legacy.get("solver", sn.SICONOS_FRICTION_3D_NSGS)))
    if legacy.get("itermax") is not None:
        so.iparam[sn.SICONOS_IPARAM_MAX_ITER] = int(legacy["itermax"])
    if legacy.get("tolerance") is not None:
        so.dparam[sn.SICONOS_DPARAM_TOL] = float(legacy["tolerance"])
    return so


def _check_kwargs(kw: Dict) -> Dict:
    from saltus.siconos import kernel as sk

    args, legacy = dict(_DEFAULTS), {}
    for k, v in kw.items():
        if k in _REFUSED:
            if v not in (None, False):
                raise_unsupported(f"MechanicsHdf5Runner.run({k}=...)", _REFUSED[k])
        elif k == "interaction_manager":
            from saltus.siconos.mechanics.collision.bullet import SiconosBulletCollisionManager as M

            if v is not None and not (isinstance(v, M) or (isinstance(v, type) and issubclass(v, M))):
                raise_unsupported(f"MechanicsHdf5Runner.run(interaction_manager={getattr(v, '__name__', v)})",
                                  "a SiconosBulletCollisionManager subclass (its makeBulletR's BulletR may change "
                                  "the contact normals)")
            args[k] = v
        elif k == "osi":
            name = getattr(v, "__name__", "")
            if name == "MoreauJeanDirectProjectionOSI":
                args["projection_osi"] = True
            elif name == "MoreauJeanGOSI":
                args["global"] = True  # Siconos then builds a GlobalFrictionContact problem
            elif v not in (None, sk.MoreauJeanOSI) and name != "MoreauJeanOSI":
                raise_unsupported(f"MechanicsHdf5Runner.run(osi={getattr(v, '__name__', v)})",
                                  "MoreauJeanOSI and MoreauJeanGOSI only")
        elif k == "time_stepping":
            name = getattr(v, "__name__", str(v))
            if v is not None and name not in ("TimeStepping", "TimeSteppingDirectProjection"):
                raise_unsupported(f"MechanicsHdf5Runner.run(time_stepping={name})")
            args["projection"] = name == "TimeSteppingDirectProjection"
        elif k in ("contact_index_set", "output_contact_index_set"):
            if v not in (0, 1):
                raise_unsupported(f"MechanicsHdf5Runner.run({k}={v})", "index sets 0 and 1")
            args["output_contact_index_set"] = int(v)
        elif k == "gamma":
            if v not in (None, 0, 0.0):
                raise_unsupported("MechanicsHdf5Runner.run(gamma=...)", "MoreauJeanOSI's γ (setGamma)")
        elif k == "activate_with_negative_relative_velocity":
            args["negative_velocity"] = bool(v)
        elif k == "constraint_activation_threshold_velocity":
            args["threshold_velocity"] = float(v)  # read with activate_with_negative_relative_velocity
        elif k in _DEFAULTS:
            args[k] = v
        elif k in _LEGACY_SOLVER:
            legacy[k] = v
        elif k not in _IGNORED:
            raise TypeError(f"run() got an unexpected keyword argument '{k}'")
    if legacy:
        args["solver_options"] = _legacy_solver_options(legacy, args["solver_options"])
    if args.pop("projection_osi", False) and not args.get("projection"):
        raise_unsupported("MechanicsHdf5Runner.run(osi=MoreauJeanDirectProjectionOSI) without "
                          "time_stepping=TimeSteppingDirectProjection")
    if args["constraint_activation_threshold"] is None:
        args["constraint_activation_threshold"] = 0.0
    return args


def _ordered(group) -> List:
    items = list(group.items())
    if all("saltus_order" in v.attrs for _, v in items):
        items.sort(key=lambda kv: int(kv[1].attrs["saltus_order"]))
    return items


MESH_SUFFIX = "@mesh"
"""The name under which a mesh shape's triangles are registered for static objects."""


def _mesh(name: str, d):
    """``(vertices, triangles)`` of a mesh shape of ``data/ref``: Siconos's VTK PolyData text
    (``type = 'vtp'``, times its ``scale``), or the vertex table with a ``triangles`` attribute of
    files written before 2026-11-28 (``type = 'mesh'``)."""
    if d.attrs["type"] == "vtp":
        text = d[0].decode() if isinstance(d[0], bytes) else str(d[0])
        v, t = read_polydata(text, f"shape '{name}'")
        return v * float(d.attrs.get("scale", 1.0)), t
    return d[:], np.asarray(d.attrs["triangles"]).reshape(-1, 3)


def _shape_inertia(ref, shape_name: str, mass: float) -> np.ndarray:
    from .mechanics_run import _inertia

    d = ref[shape_name]
    if d.attrs["type"] == "primitive":
        return _inertia(str(d.attrs["primitive"]), d[0], mass)
    if d.attrs["type"] in ("vtp", "mesh"):
        return _inertia("convex", _mesh(shape_name, d)[0], mass)
    return _inertia("convex", d[:], mass)


def _last_states(data) -> Dict:
    """Siconos's cold restart: ``{id: (translation, orientation, velocity)}`` of the dynamic
    objects at the last output time of ``data/dynamic`` and ``data/velocities`` (empty for a
    first run)."""
    if "dynamic" not in data or "velocities" not in data or data["dynamic"].shape[0] == 0:
        return {}
    pos, vel = data["dynamic"][:], data["velocities"][:]
    t = pos[:, 0].max()
    p_last = {int(r[1]): r for r in pos[np.abs(pos[:, 0] - t) < 1e-9]}
    v_last = {int(r[1]): r for r in vel[np.abs(vel[:, 0] - t) < 1e-9]}
    return {i: (tuple(r[2:5]), tuple(r[5:9]), tuple(v_last[i][2:8]) if i in v_last else (0.0,) * 6)
            for i, r in p_last.items()}


def _lifetime(obj):
    return float(obj.attrs.get("time_of_birth", -1.0)), float(obj.attrs.get("time_of_death", -1.0))


class _Body:
    """What Siconos's ``set_external_forces(body)`` receives (a ``NewtonEulerDS``): its mass and
    the setters of its constant force (world frame) and torque (body frame)."""

    def __init__(self, name: str, mass: float, number: int):
        self._name, self._mass, self._number = name, float(mass), int(number)
        self.force, self._mext, self._fext_torque = np.zeros(3), np.zeros(3), np.zeros(3)

    @property
    def torque(self):
        return self._mext + self._fext_torque

    def scalarMass(self) -> float:
        return self._mass

    def number(self) -> int:
        return self._number

    def setFExtPtr(self, f) -> None:
        """3 values; 6 values fill the whole wrench as in Siconos (the last 3: a body-frame torque)."""
        f = np.asarray(f, dtype=float).ravel()
        if f.size not in (3, 6):
            raise ValueError(f"setFExtPtr: 3 or 6 values, got {f.size}")
        self.force = f[:3].copy()
        self._fext_torque = f[3:].copy() if f.size == 6 else np.zeros(3)

    def setMExtPtr(self, m) -> None:
        self._mext = np.asarray(m, dtype=float).reshape(3)

    def fExt(self):
        return self.force

    def mExt(self):
        return self._mext

    def setIsMextExpressedInInertialFrame(self, value) -> None:
        if value:
            raise_unsupported("NewtonEulerDS.setIsMextExpressedInInertialFrame(True)",
                              "torques are in the body frame (Siconos's default)")

    def setComputeFExtFunction(self, *a, **k):
        raise_unsupported("NewtonEulerDS.setComputeFExtFunction (C plugins)",
                          "use saltus.mechanics.Scene.add_external_function (a callable or a Saltus plugin)")

    setComputeMExtFunction = setComputeFExtFunction


def _apply_loads(io, scene, names, forces) -> None:
    """Siconos's ``set_external_forces`` on each dynamic body, then the boundary conditions of
    the bodies present (in the group's order: one per body, the last wins)."""
    data = io._data
    if forces is not None:
        for name in names:
            obj = data["input"][name]
            mass = obj.attrs.get("mass")
            if mass is None or float(mass) <= 0:
                continue
            body = _Body(name, float(mass), int(obj.attrs["id"]))
            forces(body)
            scene.set_external_force(name, body.force, body.torque)
    bcs = data.get("boundary_conditions")
    for _, d in (bcs.items() if bcs is not None else ()):
        a = d.attrs
        if str(a["object1"]) not in names:
            continue
        kind = str(a["type"])
        kw = {}
        if kind == "HarmonicBC":
            kw = {k: a[k] for k in ("a", "b", "omega", "phi")}
        elif kind == "BoundaryCondition":
            kw = {"v": a["v"]}
        scene.add_boundary_condition(str(d.name), str(a["object1"]), [int(i) for i in np.atleast_1d(a["indices"])],
                                     bc_class=kind, **kw)


def build_scene(io, margin: float, gravity: float, states=None, forces=None, h=None):
    """The :class:`saltus.mechanics.Scene` of every object, each with its lifetime
    (``time_of_birth`` / ``time_of_death``: Saltus's bodies exist in the steps ``[t, t + h]``
    with ``birth ≤ t + h < death``, Siconos's rule), the Siconos ids, the collision groups, the
    static objects and the lifetimes by body index, and the friction coefficients by pair of
    groups. Dynamic objects start from ``states`` (``{id: (translation, orientation,
    velocity)}``), else from the file's last output (Siconos's cold restart), else from their
    input."""
    data = io._data
    planar = int(io._out.attrs.get("dimension", 3)) == 2
    # a set_external_forces callback replaces the default gravity, as in Siconos
    g = 0.0 if forces is not None else -gravity
    scene = _sm.Scene(gravity=(0.0, g) if planar else (0.0, 0.0, g), margin=margin)
    ref = data["ref"]
    for name, d in ref.items():
        if d.attrs["type"] == "primitive":
            scene.add_primitive_shape(name, str(d.attrs["primitive"]), [float(x) for x in d[0]])
        elif d.attrs["type"] == "convex":
            scene.add_convex_shape(name, d[:])
        elif d.attrs["type"] in ("vtp", "mesh"):
            # dynamic objects collide with the hull, static ones with the mesh (MESH_SUFFIX)
            v, t = _mesh(name, d)
            scene.add_convex_shape(name, v)
            scene.add_mesh_shape(name + MESH_SUFFIX, v, t)
        elif d.attrs["type"] == "heightmap":
            # Siconos's layout: heights nx × ny (row i along x), rect = (Lx, Ly), centred on the
            # contactor's origin, heights unshifted (Siconos compensates Bullet's centring)
            rect = [float(x) for x in np.ravel(d.attrs["rect"])]
            if len(rect) != 2:
                raise AssertionError("len(r) != 2")
            scene.add_height_map(name, d[:], rect)
        else:
            raise_unsupported(f"shape '{name}' of type {d.attrs['type']}")
    laws = {}
    for name, d in data["nslaws"].items():
        kind = str(d.attrs["type"])
        if kind == "RelayNSL":  # joint friction (add_joint(friction=...)), never between contact groups
            if int(d.attrs["gid1"]) >= 0 or int(d.attrs["gid2"]) >= 0:
                raise_unsupported(f"RelayNSL '{name}' between collision groups", "relay laws on joint coordinates")
            continue
        if kind not in ("NewtonImpactFrictionNSL", "NewtonImpactNSL", "NewtonImpactRollingFrictionNSL",
                        "FremondImpactFrictionNSL"):
            raise_unsupported(f"nonsmooth law {kind}")
        g1, g2 = int(d.attrs["gid1"]), int(d.attrs["gid2"])
        if g1 < 0 or g2 < 0:  # a law for joint stops only (Siconos: not inserted for contacts)
            continue
        if kind == "NewtonImpactRollingFrictionNSL":
            mu = float(d.attrs["mu"])
            scene.add_Newton_impact_rolling_friction_nsl(name, e=float(d.attrs["e"]), mu=mu,
                                                         mu_r=float(d.attrs["mu_r"]),
                                                         collision_group1=g1, collision_group2=g2)
        elif kind == "FremondImpactFrictionNSL":
            mu = float(d.attrs["mu"])
            scene.add_Fremond_impact_friction_nsl(name, e=float(d.attrs["e"]), mu=mu,
                                                  collision_group1=g1, collision_group2=g2)
        else:
            # a NewtonImpactNSL between groups: frictionless contacts, friction contacts with mu = 0
            mu = float(d.attrs["mu"]) if kind == "NewtonImpactFrictionNSL" else 0.0
            scene.add_Newton_impact_friction_nsl(name, e=float(d.attrs["e"]), mu=mu,
                                                 collision_group1=g1, collision_group2=g2)
        laws[(g1, g2)] = laws[(g2, g1)] = mu
    ids, groups, statics, lifetimes = [], [], [], []
    restart = _last_states(data) if states is None else states
    if planar and states is None:  # the output's 3D rows of a 2D scene: (x, y), θ, (vx, vy, ω)
        restart = {i: (x[:2], (2.0 * math.atan2(q[3], q[0]),), (v[0], v[1], v[5])) for i, (x, q, v) in restart.items()}
    names = []
    # Siconos's groups may be negative (a contactor that never collides: no law is inserted for
    # a negative group); Saltus's are not: they all go to one group beyond every law's
    no_law = 1 + max([g for pair in laws for g in pair]
                     + [int(c.attrs.get("group", 0)) for _, o in data["input"].items() for c in o.values()] + [0])

    def group_of(c) -> int:
        g = int(c.attrs.get("group", 0))
        return g if g >= 0 else no_law

    for name, obj in _ordered(data["input"]):
        names.append(name)
        ctors = _ordered(obj)
        # each contactor in its own group (Siconos picks the law per pair of contactors)
        group = group_of(ctors[0][1]) if ctors else 0
        mass = obj.attrs.get("mass")
        static = mass is None or float(mass) <= 0

        def shape_of(c):
            s = str(c.attrs["shape_name"])
            return s + MESH_SUFFIX if static and ref[s].attrs["type"] in ("vtp", "mesh") else s

        contactors = [_sm.Contactor(shape_of(c), tuple(c.attrs["translation"]), tuple(c.attrs["orientation"]),
                                    collision_group=group_of(c))
                      for _, c in ctors]
        kwargs = {}
        if mass is not None and float(mass) > 0:
            inertia = obj.attrs.get("inertia")
            if inertia is None:
                # Siconos's Bullet manager sets the body's inertia from each contactor's shape in
                # turn (updateContactorInertia), so the last contactor's wins (its message says
                # "the first": MultipleContactorsAndNSlaws.py's free flight shows the last)
                inertia = _shape_inertia(ref, str(ctors[-1][1].attrs["shape_name"]), float(mass))
            kwargs = dict(mass=float(mass), inertia=np.asarray(inertia, dtype=float))
        pose = (tuple(obj.attrs["translation"]), tuple(obj.attrs["orientation"]), tuple(obj.attrs["velocity"]))
        if kwargs and int(obj.attrs["id"]) in restart:  # continues from an earlier state
            pose = restart[int(obj.attrs["id"])]
        tob, tod = _lifetime(obj)
        scene.add_object(name, contactors, translation=pose[0], orientation=pose[1], velocity=pose[2],
                         collision_group=group, time_of_birth=tob if tob >= 0 else None,
                         time_of_death=tod if tod >= 0 else None, **kwargs)
        lifetimes.append((tob, tod))
        ids.append(int(obj.attrs["id"]))
        groups.append(group)
        if not kwargs:
            statics.append(len(ids) - 1)
    joint_ids, couplers = {}, []
    for name, d in data["joints"].items():
        a = d.attrs
        if str(a["type"]) == "CouplerJointR":  # once every joint it names exists
            couplers.append(name)
            continue
        for o in (a["object1"], a.get("object2")):
            if o is not None and _lifetime(data["input"][str(o)]) != (-1.0, -1.0):
                raise_unsupported(f"joint '{name}' on a body with a time of birth or death")
        points, axes = a.get("points"), a.get("axes")
        if not a.get("absolute", True):  # in object1's frame: to the world frame at the initial poses
            o1 = data["input"][str(a["object1"])].attrs
            R = _rotation(o1["orientation"])
            if points is not None:
                points = np.asarray(points, dtype=float) @ R.T + np.asarray(o1["translation"], dtype=float)
            if axes is not None:
                axes = np.asarray(axes, dtype=float) @ R.T
        j = scene.add_joint(name, str(a["object1"]), str(a["object2"]) if "object2" in a else None,
                            points=points, axes=axes, joint_class=str(a["type"]),
                            allow_self_collide=bool(a.get("allow_self_collide", False)))
        joint_ids[name] = j
        _add_stops(scene, data, name, j)
        _add_frictions(scene, data, name, j, h)
        for dof1, dof2, ratio in np.asarray(a.get("coupled", np.zeros((0, 3))), dtype=float).reshape(-1, 3):
            scene.add_joint_coupler(j, int(dof1), j, int(dof2), float(ratio))
    for name in couplers:
        _add_coupler(scene, data, name, joint_ids)
    _apply_loads(io, scene, names, forces)
    return scene, ids, groups, statics, laws, lifetimes


def _add_stops(scene, data, name: str, joint: int) -> None:
    """The stops of joint ``name`` (rows ``(dof, position, direction)``: ``direction < 0`` an
    upper stop, else a lower one, as Siconos's ``JointStopR(joint, pos, dir < 0, dof)``), each
    with its Newton impact law (default ``e = 0``)."""
    a = data["joints"][name].attrs
    if "stops" not in a:
        return
    stops = np.asarray(a["stops"], dtype=float).reshape(-1, 3)
    names = a.get("nslaws")
    if names is None:
        names = [None] * len(stops)
    elif isinstance(names, (str, bytes)):
        names = [names] * len(stops)
    names = [n.decode() if isinstance(n, bytes) else n for n in names]
    if len(names) != len(stops):
        raise ValueError(f"joint {name}: {len(names)} nslaws for {len(stops)} stops")
    for (dof, pos, direction), law in zip(stops, names):
        e = 0.0
        if law is not None:
            d = data["nslaws"][law]
            if str(d.attrs["type"]) != "NewtonImpactNSL":
                raise_unsupported(f"joint stops with a {d.attrs['type']} law", "NewtonImpactNSL only")
            e = float(d.attrs["e"])
        upper = direction < 0
        scene.add_joint_stop(joint, int(dof), lower=None if upper else float(pos),
                             upper=float(pos) if upper else None, e=e)


def _add_coupler(scene, data, name: str, joint_ids: Dict) -> None:
    """A ``CouplerJointR`` joint: coordinate ``dof2`` of ``references[1]`` (default
    ``references[0]``) = ``ratio`` times coordinate ``dof1`` of ``references[0]``. Siconos links
    it to ``object1`` and ``object2`` and reads the common frame (``references[2]``, or the body
    the two joints share) as a fixed reference; here the row acts on every body of both joints.
    As in Siconos, ``object1`` must be a body of the first joint and ``object2`` of the second,
    and the two no longer collide (unless ``allow_self_collide``)."""
    a = data["joints"][name].attrs
    refs = [r.decode() if isinstance(r, bytes) else str(r) for r in a["references"]]
    dof1, dof2, ratio = np.asarray(a["coupled"], dtype=float).reshape(-1, 3)[0]
    j1, j2 = refs[0], refs[1] if len(refs) > 1 else refs[0]
    for j in (j1, j2):
        if j not in joint_ids:
            raise ValueError(f"joint {name}: references an unknown joint '{j}'")
    bodies = lambda j: {str(data["joints"][j].attrs["object1"]), str(data["joints"][j].attrs.get("object2"))}
    if len(refs) > 1 and not (str(a["object1"]) in bodies(j1) and str(a.get("object2")) in bodies(j2)):
        raise AssertionError(f"joint {name}: object1 must be a body of {j1} and object2 a body of {j2}")
    # the exclusion below is Siconos's, between object1 and object2 (not the joints' first bodies)
    scene.add_joint_coupler(joint_ids[j1], int(dof1), joint_ids[j2], int(dof2), float(ratio), allow_self_collide=True)
    # Siconos's coupler is a joint between object1 and object2: they no longer collide
    if "object2" in a and not a.get("allow_self_collide", False):
        scene.exclude_collision(str(a["object1"]), str(a["object2"]))


def _add_frictions(scene, data, name: str, joint: int, h) -> None:
    """The friction of joint ``name`` on each coordinate that names a ``RelayNSL`` (Siconos
    ``JointFrictionR``): Siconos bounds the step's impulse by ``[lb, ub]``, Saltus the force by
    ``T``, so ``T = ub / h`` (symmetric bounds only)."""
    a = data["joints"][name].attrs
    if "friction" not in a:
        return
    names = a["friction"]
    names = [names] if isinstance(names, (str, bytes)) else list(np.ravel(names))
    for dof, law in enumerate(n.decode() if isinstance(n, bytes) else str(n) for n in names):
        if law == "":
            continue
        d = data["nslaws"][law]
        if str(d.attrs["type"]) != "RelayNSL":
            raise_unsupported(f"joint friction with a {d.attrs['type']} law", "RelayNSL only")
        lb, ub = float(d.attrs["lb"]), float(d.attrs["ub"])
        if lb != -ub:
            raise_unsupported(f"RelayNSL '{law}' with lb = {lb}, ub = {ub} on a joint", "symmetric bounds, lb = -ub")
        if h is None:
            raise ValueError("joint friction needs the time step (build_scene(..., h=...))")
        scene.add_joint_friction(joint, dof, ub / float(h))


def _rotation(q) -> np.ndarray:
    """The rotation matrix of the unit quaternion ``(w, x, y, z)``."""
    w, x, y, z = (float(c) for c in q)
    return np.array([
        [1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
        [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
        [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)],
    ])


#: the ``info`` attributes of Siconos >= 4.5's work tables
_WORK_INFO = {
    "cf_work": "[0] : time,\n [1] : interaction id,\n [2] : normal contact work,\n [3] : tangent contact work,\n"
               " [4] : normal contact work theta average,\n [5] : tangent contact work theta average,\n"
               " [6] : contact status,\n [7] : positive norma contact work,\n",
    "energy_work": "[0] : time,\n [1] : kinetic energy,\n [2] : force work, \n [3] : normal contact work,\n"
                   " [4] : tangent contact work,\n [5] : normal contact work theta average,\n"
                   " [6] tangent contact work theta average \n[7,8] only negative part ",
}


def _append(group, name: str, rows: List, ncols: int) -> None:
    a = np.asarray(rows, dtype=float).reshape(-1, ncols)
    if name not in group:
        group.create_dataset(name, data=a, maxshape=(None, ncols), chunks=True)
        return
    d = group[name]
    n = d.shape[0]
    d.resize(n + a.shape[0], axis=0)
    d[n:] = a


class _Recorder:
    """The output rows of one simulation segment (Siconos's datasets and columns)."""

    def __init__(self, sim, ids, groups, statics, laws, lifetimes, h, out, index_set=1, contact_forces=True,
                 theta=0.5, contact_work=False, energy_work=False):
        self.sim, self.ids, self.groups, self.laws, self.h, self.out = sim, ids, groups, laws, h, out
        self.lifetimes, self.eps = lifetimes, 1e-9 * h
        self.index_set, self.contact_forces = index_set, contact_forces
        self.theta, self.contact_work, self.energy_work = theta, contact_work, energy_work
        self.static_idx, self.static_set = statics, set(statics)
        self.dyn = [i for i in range(len(ids)) if i not in statics]

    def _pose(self, i):
        s = self.sim.state(i)
        return s, list(s["position"]) + list(s["orientation"])

    def statics(self, t, t_alive):
        for i in self.static_idx:
            if self.alive(i, t_alive):
                self.out["static"].append([t, self.ids[i]] + self._pose(i)[1])

    def alive(self, i, t) -> bool:
        """Body ``i`` in the step ending at ``t`` (Siconos writes only those)."""
        tob, tod = self.lifetimes[i]
        return (tob < 0 or tob <= t + self.eps) and (tod < 0 or tod > t + self.eps)

    def record(self, t, rep, t_alive=None):
        out, ids = self.out, self.ids
        for i in self.dyn:
            if not self.alive(i, t if t_alive is None else t_alive):
                continue
            s, p = self._pose(i)
            out["dynamic"].append([t, ids[i]] + p)
            out["velocities"].append([t, ids[i]] + list(s["velocity"]) + list(s["angular_velocity"]))
        if rep is None:
            return
        out["solv"].append([t, rep["iterations"], rep["residual"], np.nan])
        if self.contact_forces:
            out["cf"].extend(self.contact_rows(t, rep, self.index_set))
        if self.contact_work:
            out["cf_work"].extend(_contact_work_rows(t, rep, self.theta))
        if self.energy_work:
            # Siconos >= 4.5's energy_work row: t, the kinetic energy at the step's end, the work
            # of the forces, of the normal and tangent impulses (½ (u⁻ + u⁺)·p, then θ-weighted),
            # and the negative parts of the contact works (mechanics' StepEnergy)
            out["energy_work"].append([t] + [float(x) for x in rep["energy"]])

    def contact_rows(self, t, rep, index_set: int) -> List:
        """Siconos's ``cf`` rows of the step's contacts: index set 1, those of the step's
        problem; 0, every contact detected."""
        rows, nan3, ids = [], [np.nan] * 3, self.ids
        for k in range(len(rep.get("gap", []))):
            if index_set == 1 and not rep["contact_active"][k]:
                continue
            a, b = (int(x) for x in rep["bodies"][k])
            # the contact's own law (its contactors' groups, which may differ from the objects')
            mu = float(rep["mu"][k]) if "mu" in rep else self.laws.get((self.groups[a], self.groups[b]), np.nan)
            imp = list(rep["impulse"][k])
            # a static object is not a dynamical system: Siconos writes the body's number twice
            da, db = ids[b if a in self.static_set else a], ids[a if b in self.static_set else b]
            # [17:19]: the relative velocity at the step's end (Siconos's y(1)), active contacts
            u = [float(x) for x in rep["velocity_end"][k]] if "velocity_end" in rep else nan3
            rows.append([t, mu] + nan3 + nan3 + list(rep["normal"][k]) + [x / self.h for x in imp]
                        + [float(rep["gap"][k]), np.nan, np.nan] + u + imp + [k, da, db])
        return rows


def _contact_work_rows(t: float, rep: dict, theta: float, tol: float = 1e-8) -> List:
    """Siconos >= 4.5's ``cf_work`` rows of the step's active contacts: time, interaction
    (the ``cf`` rows' number), normal and tangent work ``½ (u⁻ + u⁺)·p``, the same θ-weighted
    (``(1 - θ) u⁻ + θ u⁺``), the status (0 take-off, 1 sticking, 2 sliding, -3 outside the
    cone, -1 undetermined; Siconos writes 1 for a sticking impulse whatever the sliding
    velocity) and the normal work of an impulse at a separating velocity ``u⁻_N > 0``."""
    rows = []
    for k in range(len(rep.get("gap", []))):
        if not rep["contact_active"][k]:
            continue
        u0, u1, p = (np.asarray(rep[key][k], dtype=float) for key in ("velocity_start", "velocity_end", "impulse"))
        mu, e = float(rep["mu"][k]), float(rep["e"][k])
        half, th = 0.5 * (u0 + u1), (1.0 - theta) * u0 + theta * u1
        wn, wt = half[0] * p[0], half[1] * p[1] + half[2] * p[2]
        pn, pt = p[0], math.hypot(p[1], p[2])
        closing = u1[0] + e * u0[0]
        if pn < tol and closing > tol:
            status = 0
        elif pn > tol and closing < tol:
            status = -3 if pt - mu * pn > tol else (1 if pt - mu * pn < -tol else 2)
        else:
            status = -1
        rows.append([t, k, wn, wt, th[0] * p[0], th[1] * p[1] + th[2] * p[2], status,
                     wn if (pn > tol and u0[0] > tol) else 0.0])
    return rows


def _planar(io) -> bool:
    """A 2D scene (Siconos's ``dimension`` attribute, inferred from its shapes)."""
    return int(io._out.attrs.get("dimension", 3)) == 2


def _global_solver(io, so) -> str:
    """The Saltus global solver of ``MoreauJeanGOSI``'s ``solver_options`` (a
    ``SICONOS_GLOBAL_FRICTION_3D_*`` id, or ``SICONOS_GLOBAL_ROLLING_FRICTION_3D_NSGS_WR`` for a
    scene with rolling friction: condensed, then the rolling NSGS); refuses the scenes Saltus's
    global formulation does not have (joints)."""
    from saltus.siconos._constants import INTS
    from saltus.siconos._solvers import NAME_OF, lookup

    if len(io._data["joints"]) > 0:
        raise_unsupported("MechanicsHdf5Runner.run(osi=MoreauJeanGOSI) with joints",
                          "Siconos refuses it too (one nonsmooth law type with MoreauJeanGOSI)")
    rolling_id = INTS["SICONOS_GLOBAL_ROLLING_FRICTION_3D_NSGS_WR"]
    rolling = any(str(d.attrs["type"]) == "NewtonImpactRollingFrictionNSL" for d in io._data["nslaws"].values())
    if so.solverId == rolling_id:
        return "gfc3d-nsgs"
    if rolling:
        raise_unsupported("MechanicsHdf5Runner.run(osi=MoreauJeanGOSI) with rolling friction and "
                          f"{NAME_OF.get(so.solverId, so.solverId)}",
                          "the global rolling problem is solved by SICONOS_GLOBAL_ROLLING_FRICTION_3D_NSGS_WR "
                          "(as in Siconos, its only global rolling solver)")
    return lookup(so.solverId, "gfc3d")[1]


def _normal_hook(io, scene, manager, options, statics):
    """A user interaction manager whose ``makeBulletR`` makes its own ``BulletR``s: their
    normals, through the scene's contact hook (before the simulation is made from the scene)."""
    from saltus.siconos.mechanics.collision.bullet import ContactNormalHook, _makes_relations

    if manager is None or not _makes_relations(manager):
        return None
    if _planar(io):
        raise_unsupported("a BulletR subclass in a 2D scene", "contact normals change in 3D scenes")
    made = manager(options) if isinstance(manager, type) else manager  # Siconos: interaction_manager(options)
    static = set(statics)
    dynamic = {name for i, (name, _) in enumerate(_ordered(io._data["input"])) if i not in static}
    hook = ContactNormalHook(made, dynamic)
    scene.set_contact_hook(hook)
    return hook


def run(io, kw: Dict) -> None:
    from saltus.siconos import numerics as sn

    args = _check_kwargs(kw)
    forces = args["set_external_forces"] or getattr(io, "_set_external_forces", None)
    gs = args["gravity_scale"]
    gravity = 9.80665 / (io._gravity_scale if gs is None else float(gs))
    bo = args["bullet_options"]
    margin = io._collision_margin
    if margin is None:
        margin = 0.02 if bo is None else float(bo.contactBreakingThreshold) * float(bo.worldScale)
    is_global = bool(args.pop("global", False))
    if is_global and _planar(io):
        # a 2D MoreauJeanGOSI scene: GlobalFrictionContact of dimension 2 (or the rolling one of
        # dimension 3) solved by condensation and NSGS with the given tolerance and cap (Siconos's
        # scripts give a 2D solver id, e.g. SICONOS_FRICTION_2D_NSGS, which Siconos >= 4.5 maps
        # the same way)
        so = args["solver_options"] or sn.SolverOptions(sn.SICONOS_FRICTION_2D_NSGS)
        global_solver = "gfc3d-nsgs"
    elif is_global:
        # MoreauJeanGOSI: Siconos's runner builds GlobalFrictionContact(3) (GFC3D_NSGS by default)
        so = args["solver_options"] or sn.SolverOptions(sn.SICONOS_GLOBAL_FRICTION_3D_NSGS)
        global_solver = _global_solver(io, so)
    else:
        so = args["solver_options"] or sn.SolverOptions(sn.SICONOS_FRICTION_3D_NSGS)
        global_solver = None
    # ROLLING_FRICTION_3D_NSGS: the scenes with a rolling law (Saltus then solves the rolling
    # problem by NSGS whichever of these is given, with its tolerance and cap)
    # 2D scenes: FRICTION_2D_NSGS and ROLLING_FRICTION_2D_NSGS (Siconos's 2D solvers); the 3D ids
    # are accepted too (2d_flow.py gives FRICTION_3D_NSGS to its 2D scene): Saltus solves the
    # 2D problem by NSGS with the given tolerance and cap
    if not is_global and so.solverId not in (sn.SICONOS_FRICTION_3D_NSGS, sn.SICONOS_GENERIC_MECHANICAL_NSGS,
                                             sn.SICONOS_ROLLING_FRICTION_3D_NSGS, sn.SICONOS_FRICTION_2D_NSGS,
                                             sn.SICONOS_ROLLING_FRICTION_2D_NSGS):
        from saltus.siconos._solvers import NAME_OF

        raise_unsupported(f"MechanicsHdf5Runner.run with the solver {NAME_OF.get(so.solverId, so.solverId)}",
                          "Saltus's mechanics solves with NSGS (SICONOS_FRICTION_3D_NSGS, or "
                          "SICONOS_GENERIC_MECHANICAL_NSGS with joints: the same block Gauss-Seidel)")
    tol, max_iter = float(so.dparam[0]), int(so.iparam[0])
    t0, T, h = float(args["t0"]), float(args["T"]), float(args["h"])
    freq = args["output_frequency"] or 1
    # TimeSteppingDirectProjection: the joints (and the stops they violate) and the contacts,
    # positions only for the contacts (MoreauJeanDirectProjectionOSI), Siconos's tolerances and cap
    projection = float(args["projection_tolerance"]) if args.get("projection") else None
    proj = {}
    if projection is not None:
        proj = dict(projection_contacts=True,
                    projection_tol_unilateral=float(args["projection_tolerance_unilateral"]),
                    projection_max_iter=int(args["projection_itermax"]))
    threshold = float(args["constraint_activation_threshold"])
    threshold = threshold if threshold > 0 else None  # Saltus's default (1e-6 of the margin)
    n = max(0, math.ceil((T - t0) / h - 1e-9))
    # births and deaths: the bodies' lifetimes in Saltus's scene (one simulation for the run)
    out = {"static": [], "dynamic": [], "velocities": [], "cf": [], "solv": [], "cf_work": [], "energy_work": []}
    scene, ids, groups, statics, laws, lifetimes = build_scene(io, margin, gravity, forces=forces, h=h)
    normals = _normal_hook(io, scene, args.get("interaction_manager"), bo, statics)
    sim = scene.simulation(h=h, t0=t0, theta=float(args["theta"]), tol=tol, max_iter=max_iter,
                           projection_tol=projection, activation_threshold=threshold,
                           formulation="global" if is_global else "local",
                           global_solver=global_solver or "gfc3d-nsgs",
                           # Siconos >= 4.5's MoreauJeanOSI.setActivateWithNegativeRelativeVelocity: also
                           # u_N <= constraint_activation_threshold_velocity (default 0) to activate
                           activation_velocity=(float(args.get("threshold_velocity", 0.0))
                                                if args.get("negative_velocity") else None),
                           **proj)
    rec = _Recorder(sim, ids, groups, statics, laws, lifetimes, h, out, int(args["output_contact_index_set"]),
                    bool(args["output_contact_forces"]), float(args["theta"]), bool(args["output_contact_work"]),
                    bool(args["output_energy_work"]))
    state = RunState(sim, ids, statics, lifetimes, sim.masses(), t0, h)
    hooks = Hooks(io, state, args["start_run_iteration_hook"], args["before_next_step_iteration_hook"],
                  args["end_run_iteration_hook"])
    state.contact_rows = lambda index_set: ([] if state.last_report is None else
                                            rec.contact_rows(state.t, state.last_report, index_set))
    ctrl, live = args["controller"], []
    if ctrl is not None:
        # Siconos: initialize(io) before the first output (and before the hooks'), step() before each step
        from ._controller import attach

        live, topology = attach(io, sim, (0.0, 0.0, 0.0 if forces is not None else -gravity))
        io._nsds.set_topology(topology)
        ctrl.initialize(io)
    hooks.initialize()
    tracer = None
    if args["friction_contact_trace_params"] is not None:
        from .FrictionContactTrace import Tracer

        tracer = Tracer(args["friction_contact_trace_params"], max_iter)
        sim.set_capture_problem(True)
    rec.record(t0, None, t0 + h if n > 0 else t0)  # the bodies of the first step
    t_out = t0
    try:
        k0 = 1 + int(t0 / h)  # Siconos's step counter: 1 at the first step from t = 0
        for k in range(1, n + 1):
            kg = k0 + k - 1
            if not hooks.call("start", kg):
                break
            if ctrl is not None:
                state.pending = True
                ctrl.step()
                state.pending = False
                for b in live:  # world-frame torques into the body frame of the step's start
                    if b._touched and b._torque_world:
                        b.push()
            rep = state.last_report = sim.step()
            state.k = k
            if tracer is not None:
                tracer.after_step(sim)
            if kg % freq == 0 or kg == 1:  # Siconos writes the very first step's output too
                t_out = t0 + k * h
                rec.record(t_out, rep)
            if not hooks.call("before_next", kg) or not hooks.call("end", kg):
                break
    finally:
        hooks.close()
        if normals is not None:
            normals.close()
    # Siconos rewrites the static objects at each output: those alive then, with its time
    rec.statics(t_out, t_out)
    data = io._data
    if "static" in data:
        data["static"].resize(0, axis=0)
    for name, ncols in (("static", 9), ("dynamic", 9), ("velocities", 8), ("cf", 26), ("solv", 4)):
        _append(data, name, out[name], ncols)
    for name, ncols, flag in (("cf_work", 8, "output_contact_work"), ("energy_work", 9, "output_energy_work")):
        if args[flag]:
            _append(data, name, out[name], ncols)
            data[name].attrs["info"] = _WORK_INFO[name]
    io._out.flush()
