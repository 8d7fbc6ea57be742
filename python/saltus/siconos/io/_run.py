"""``MechanicsHdf5Runner.run``: reads the scene of the HDF5 file, builds a
:class:`saltus.mechanics.Scene`, steps it and writes Siconos's output datasets."""

from __future__ import annotations

import math
from typing import Dict, List

import numpy as np

from saltus import mechanics as _sm
from saltus.siconos._unsupported import raise_unsupported

# run() keywords: accepted with their Siconos meaning, or accepted and without effect in Saltus
_IGNORED = {
    "with_timer", "Newton_options", "numerics_verbose", "numerics_verbose_level", "violation_verbose",
    "verbose", "verbose_progress", "osnspb_max_size", "display_Newton_convergence", "multipoints_iterations",
    "solver_options_pos", "projection_itermax", "projection_tolerance_unilateral", "Newton_max_iter",
}
_DEFAULTS = dict(t0=0.0, T=10.0, h=0.0005, theta=0.50001, gravity_scale=None, output_frequency=None,
                 solver_options=None, bullet_options=None, projection_tolerance=1e-8)
_REFUSED = {
    "set_external_forces": "user force callbacks (set_external_forces)",
    "controller": "controllers",
    "interaction_manager": "a user interaction manager",
    "body_class": "user body classes",
    "shape_class": "user shape classes",
    "face_class": "face contactor classes",
    "edge_class": "edge contactor classes",
    "friction_contact_trace_params": "friction-contact traces (FCLib output)",
    "start_run_iteration_hook": "run iteration hooks",
    "end_run_iteration_hook": "run iteration hooks",
    "exit_tolerance": "exit_tolerance",
    "output_backup": "output backups",
    "output_backup_frequency": "output backups",
    "explode_Newton_solve": "explode_Newton_solve",
}


def _check_kwargs(kw: Dict) -> Dict:
    from saltus.siconos import kernel as sk

    args = dict(_DEFAULTS)
    for k, v in kw.items():
        if k in _REFUSED:
            if v not in (None, False):
                raise_unsupported(f"MechanicsHdf5Runner.run({k}=...)", _REFUSED[k])
        elif k == "osi":
            if v not in (None, sk.MoreauJeanOSI) and getattr(v, "__name__", "") != "MoreauJeanOSI":
                raise_unsupported(f"MechanicsHdf5Runner.run(osi={getattr(v, '__name__', v)})", "Moreau–Jean only")
        elif k == "time_stepping":
            name = getattr(v, "__name__", str(v))
            if v is not None and name not in ("TimeStepping", "TimeSteppingDirectProjection"):
                raise_unsupported(f"MechanicsHdf5Runner.run(time_stepping={name})")
            args["projection"] = name == "TimeSteppingDirectProjection"
        elif k == "contact_index_set":
            if v != 1:
                raise_unsupported(f"MechanicsHdf5Runner.run(contact_index_set={v})")
        elif k == "constraint_activation_threshold":
            # Siconos's threshold δ of MoreauJeanOSI (active when g + γ h u_N < δ); 0 keeps
            # Saltus's default δ (1e-6 × margin), which tells apart a contact at rest from one
            # whose gap is round-off
            if not float(v) >= 0:
                raise_unsupported(f"MechanicsHdf5Runner.run(constraint_activation_threshold={v})")
            args["activation_threshold"] = float(v) if float(v) > 0 else None
        elif k in _DEFAULTS:
            args[k] = v
        elif k not in _IGNORED:
            raise TypeError(f"run() got an unexpected keyword argument '{k}'")
    return args


def _ordered(group) -> List:
    items = list(group.items())
    if all("saltus_order" in v.attrs for _, v in items):
        items.sort(key=lambda kv: int(kv[1].attrs["saltus_order"]))
    return items


def _shape_inertia(ref, shape_name: str, mass: float) -> np.ndarray:
    from .mechanics_run import _inertia

    d = ref[shape_name]
    if d.attrs["type"] == "primitive":
        return _inertia(str(d.attrs["primitive"]), d[0], mass)
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


def _alive(obj, t: float, eps: float) -> bool:
    """In the step ending at ``t``: Siconos imports a birth, and executes a death, at the start
    of the step whose end time reaches it (``time_of_birth <= t``, ``time_of_death <= t``)."""
    tob, tod = _lifetime(obj)
    return (tob < 0 or tob <= t + eps) and (tod < 0 or tod > t + eps)


def build_scene(io, margin: float, gravity: float, t: float = 0.0, eps: float = 0.0, states=None):
    """The :class:`saltus.mechanics.Scene` of the objects alive in the step ending at ``t``, the
    Siconos ids, the
    collision groups and the static objects by body index, and the friction coefficients by
    pair of groups. Dynamic objects start from ``states`` (``{id: (translation, orientation,
    velocity)}``), else from the file's last output (Siconos's cold restart), else from their
    input."""
    data = io._data
    scene = _sm.Scene(gravity=(0.0, 0.0, -gravity), margin=margin)
    ref = data["ref"]
    for name, d in ref.items():
        if d.attrs["type"] == "primitive":
            scene.add_primitive_shape(name, str(d.attrs["primitive"]), [float(x) for x in d[0]])
        elif d.attrs["type"] == "convex":
            scene.add_convex_shape(name, d[:])
        else:
            raise_unsupported(f"shape '{name}' of type {d.attrs['type']}")
    laws = {}
    for name, d in data["nslaws"].items():
        g1, g2 = int(d.attrs["gid1"]), int(d.attrs["gid2"])
        if d.attrs["type"] == "NewtonImpactFrictionNSL":
            scene.add_Newton_impact_friction_nsl(name, e=float(d.attrs["e"]), mu=float(d.attrs["mu"]),
                                                 collision_group1=g1, collision_group2=g2)
        elif d.attrs["type"] == "NewtonImpactRollingFrictionNSL":
            scene.add_Newton_impact_rolling_friction_nsl(name, e=float(d.attrs["e"]), mu=float(d.attrs["mu"]),
                                                         mu_r=float(d.attrs["mu_r"]),
                                                         collision_group1=g1, collision_group2=g2)
        else:
            raise_unsupported(f"nonsmooth law {d.attrs['type']}")
        laws[(g1, g2)] = laws[(g2, g1)] = float(d.attrs["mu"])
    ids, groups, statics = [], [], []
    restart = _last_states(data) if states is None else states
    names = []
    for name, obj in _ordered(data["input"]):
        if not _alive(obj, t, eps):
            continue
        names.append(name)
        ctors = _ordered(obj)
        gs = {int(c.attrs.get("group", 0)) for _, c in ctors}
        if len(gs) > 1:
            raise_unsupported(f"object '{name}' with contactors in several collision groups")
        group = gs.pop() if gs else 0
        contactors = [_sm.Contactor(str(c.attrs["shape_name"]), tuple(c.attrs["translation"]),
                                    tuple(c.attrs["orientation"])) for _, c in ctors]
        mass = obj.attrs.get("mass")
        kwargs = {}
        if mass is not None and float(mass) > 0:
            inertia = obj.attrs.get("inertia")
            if inertia is None:
                inertia = _shape_inertia(ref, str(ctors[0][1].attrs["shape_name"]), float(mass))
            kwargs = dict(mass=float(mass), inertia=np.asarray(inertia, dtype=float))
        pose = (tuple(obj.attrs["translation"]), tuple(obj.attrs["orientation"]), tuple(obj.attrs["velocity"]))
        if kwargs and int(obj.attrs["id"]) in restart:  # continues from an earlier state
            pose = restart[int(obj.attrs["id"])]
        scene.add_object(name, contactors, translation=pose[0], orientation=pose[1], velocity=pose[2],
                         collision_group=group, **kwargs)
        ids.append(int(obj.attrs["id"]))
        groups.append(group)
        if not kwargs:
            statics.append(len(ids) - 1)
    for name, d in data["joints"].items():
        a = d.attrs
        if str(a["object1"]) not in names or ("object2" in a and str(a["object2"]) not in names):
            continue
        points, axes = a.get("points"), a.get("axes")
        if not a.get("absolute", True):  # in object1's frame: to the world frame at the initial poses
            o1 = data["input"][str(a["object1"])].attrs
            R = _rotation(o1["orientation"])
            if points is not None:
                points = np.asarray(points, dtype=float) @ R.T + np.asarray(o1["translation"], dtype=float)
            if axes is not None:
                axes = np.asarray(axes, dtype=float) @ R.T
        scene.add_joint(name, str(a["object1"]), str(a["object2"]) if "object2" in a else None,
                        points=points, axes=axes, joint_class=str(a["type"]))
    return scene, ids, groups, statics, laws


def _rotation(q) -> np.ndarray:
    """The rotation matrix of the unit quaternion ``(w, x, y, z)``."""
    w, x, y, z = (float(c) for c in q)
    return np.array([
        [1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
        [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
        [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)],
    ])


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

    def __init__(self, sim, ids, groups, statics, laws, h, out):
        self.sim, self.ids, self.groups, self.laws, self.h, self.out = sim, ids, groups, laws, h, out
        self.static_idx = statics
        self.dyn = [i for i in range(len(ids)) if i not in statics]

    def _pose(self, i):
        s = self.sim.state(i)
        return s, list(s["position"]) + list(s["orientation"])

    def statics(self, t):
        for i in self.static_idx:
            self.out["static"].append([t, self.ids[i]] + self._pose(i)[1])

    def states(self) -> Dict:
        """``{id: (translation, orientation, velocity)}`` of the dynamic bodies now."""
        res = {}
        for i in self.dyn:
            s = self.sim.state(i)
            res[self.ids[i]] = (tuple(s["position"]), tuple(s["orientation"]),
                                tuple(s["velocity"]) + tuple(s["angular_velocity"]))
        return res

    def record(self, t, rep):
        out, ids = self.out, self.ids
        for i in self.dyn:
            s, p = self._pose(i)
            out["dynamic"].append([t, ids[i]] + p)
            out["velocities"].append([t, ids[i]] + list(s["velocity"]) + list(s["angular_velocity"]))
        if rep is None:
            return
        out["solv"].append([t, rep["iterations"], rep["residual"], np.nan])
        nan3 = [np.nan] * 3
        for k in range(len(rep.get("gap", []))):
            if not rep["contact_active"][k]:
                continue
            a, b = (int(x) for x in rep["bodies"][k])
            mu = self.laws.get((self.groups[a], self.groups[b]), np.nan)
            imp = list(rep["impulse"][k])
            out["cf"].append([t, mu] + nan3 + nan3 + list(rep["normal"][k]) + [x / self.h for x in imp]
                             + [float(rep["gap"][k]), np.nan, np.nan] + nan3 + imp + [k, ids[a], ids[b]])


def run(io, kw: Dict) -> None:
    from saltus.siconos import numerics as sn

    args = _check_kwargs(kw)
    gs = args["gravity_scale"]
    gravity = 9.80665 / (io._gravity_scale if gs is None else float(gs))
    bo = args["bullet_options"]
    margin = io._collision_margin
    if margin is None:
        margin = 0.02 if bo is None else float(bo.contactBreakingThreshold) * float(bo.worldScale)
    so = args["solver_options"] or sn.SolverOptions(sn.SICONOS_FRICTION_3D_NSGS)
    # ROLLING_FRICTION_3D_NSGS: the scenes with a rolling law (Saltus then solves the rolling
    # problem by NSGS whichever of these is given, with its tolerance and cap)
    if so.solverId not in (sn.SICONOS_FRICTION_3D_NSGS, sn.SICONOS_GENERIC_MECHANICAL_NSGS,
                           sn.SICONOS_ROLLING_FRICTION_3D_NSGS):
        from saltus.siconos._solvers import NAME_OF

        raise_unsupported(f"MechanicsHdf5Runner.run with the solver {NAME_OF.get(so.solverId, so.solverId)}",
                          "Saltus's mechanics solves with NSGS (SICONOS_FRICTION_3D_NSGS, or "
                          "SICONOS_GENERIC_MECHANICAL_NSGS with joints: the same block Gauss-Seidel)")
    tol, max_iter = float(so.dparam[0]), int(so.iparam[0])
    t0, T, h = float(args["t0"]), float(args["T"]), float(args["h"])
    freq = args["output_frequency"] or 1
    projection = float(args["projection_tolerance"]) if args.get("projection") else None
    n = max(0, math.ceil((T - t0) / h - 1e-9))
    eps = 1e-9 * h
    # births and deaths inside the run: the scene is rebuilt at the start of the step whose end
    # reaches each, every surviving body continuing from its state (as Siconos's cold restart)
    events = sorted({x for o in io._data["input"].values() for x in _lifetime(o) if t0 + h + eps < x < T})
    cuts = sorted({min(n, math.ceil((x - t0) / h - 1e-9) - 1) for x in events} - {0}) + [n]
    out = {"static": [], "dynamic": [], "velocities": [], "cf": [], "solv": []}
    k, states, first = 0, None, True
    for stop in cuts:
        if stop <= k:
            continue
        t = t0 + k * h
        scene, ids, groups, statics, laws = build_scene(io, margin, gravity, t + h, eps, states)
        sim = scene.simulation(h=h, t0=t, theta=float(args["theta"]), tol=tol, max_iter=max_iter,
                               projection_tol=projection, activation_threshold=args.get("activation_threshold"))
        rec = _Recorder(sim, ids, groups, statics, laws, h, out)
        rec.statics(t)
        if first:
            rec.record(t0, None)
            first = False
        while k < stop:
            rep = sim.step()
            k += 1
            if k % freq == 0:
                rec.record(t0 + k * h, rep)
        states = rec.states()
    if first:  # no step at all
        scene, ids, groups, statics, laws = build_scene(io, margin, gravity, t0, eps, None)
        rec = _Recorder(scene.simulation(h=h, t0=t0), ids, groups, statics, laws, h, out)
        rec.statics(t0)
        rec.record(t0, None)
    data = io._data
    for name, ncols in (("static", 9), ("dynamic", 9), ("velocities", 8), ("cf", 26), ("solv", 4)):
        _append(data, name, out[name], ncols)
    io._out.flush()
