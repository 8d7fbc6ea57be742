"""The run hooks of ``MechanicsHdf5Runner.run`` (``start_run_iteration_hook``,
``before_next_step_iteration_hook``, ``end_run_iteration_hook``) and what a hook reaches through
the runner: ``io._simulation``, ``io._nsds``, ``io._io`` (``MechanicsIO``) and ``io._interman``.

Siconos >= 4.5 calls ``hook.initialize(io)`` once before the first step and ``hook.call(k)`` at
step ``k`` (1, 2, ...): the start hook before the step is computed, the before-next-step hook
after its output and before ``nextStep``, the end hook after ``nextStep``; a hook returning
``False`` ends the run there. Siconos 4.4 called a hook as ``hook(io)``: a callable without a
``call`` method is called that way.

The views give what the tutorials' hooks use — the positions and velocities of the dynamic
objects (``MechanicsIO.positions/velocities``: rows ``[number, q...]``), their contact points
(``contactPoints``: the 25 columns of Siconos's ``cf`` rows without the time), the dynamic
objects as ``NewtonEulerDS`` (``number``, ``q``, ``velocity``, ``scalarMass``) and their
removal between steps (``NonSmoothDynamicalSystem.removeDynamicalSystem``: the body is frozen and
collides with nothing from the next step on, as :meth:`saltus.mechanics.MechanicsSimulation.remove_body`).
Anything else a hook asks for raises ``SiconosFeatureNotSupported`` naming it."""

from __future__ import annotations

from typing import Callable, Dict, List, Optional

import numpy as np

from saltus.siconos._unsupported import raise_unsupported


class _View:
    """A Siconos object as a hook sees it: an attribute the view lacks is refused by name."""

    _siconos_name = "?"

    def __getattr__(self, name: str):
        if name.startswith("_"):
            raise AttributeError(name)
        raise_unsupported(f"{self._siconos_name}.{name} in a run hook")


class RunState:
    """The running segment as the hooks see it: the simulation, the Siconos numbers (ids) of the
    objects by body index, the static ones, and the recorder's lifetimes (a removed body's death
    is written there so that the output stops at its removal)."""

    def __init__(self, sim, ids: List[int], statics: List[int], lifetimes: List, masses, t0: float, h: float):
        self.sim, self.ids, self.lifetimes, self.t0, self.h = sim, ids, lifetimes, t0, h
        self.statics = set(statics)
        self.dynamic = [i for i in range(len(ids)) if i not in self.statics]
        self.index_of: Dict[int, int] = {n: i for i, n in enumerate(ids)}
        self.masses = masses
        self.k = 0
        self.last_report: Optional[dict] = None
        self.contact_rows: Callable[[int], List] = lambda index_set: []
        self.removed: set = set()
        self.collision_removed: set = set()
        #: a step is being prepared (a controller's ``step()`` runs before it is computed)
        self.pending = False

    @property
    def t(self) -> float:
        return self.t0 + self.k * self.h

    def current_time(self) -> float:
        """Siconos's ``current_time()``: the start before the first step, then the time the
        step being prepared reaches (while a controller runs) or the last step reached."""
        return self.t + (self.h if self.pending else 0.0)

    def alive(self, i: int) -> bool:
        tob, tod = self.lifetimes[i]
        eps = 1e-9 * self.h
        return i not in self.removed and (tob < 0 or tob <= self.t + eps) and (tod < 0 or tod > self.t + eps)

    def ds(self, i: int) -> "NewtonEulerDSView":
        return NewtonEulerDSView(self, i)

    def remove(self, i: int) -> None:
        if i in self.removed:
            return
        self.sim.remove_body(i)
        self.removed.add(i)
        tob, _ = self.lifetimes[i]
        self.lifetimes[i] = (tob, self.t)


class NewtonEulerDSView(_View):
    """A dynamic object (Siconos ``NewtonEulerDS``): ``q = (x, y, z, qw, qx, qy, qz)``,
    ``velocity = (v, ω)`` (ω in the body frame, Siconos's convention)."""

    _siconos_name = "NewtonEulerDS"

    def __init__(self, run: RunState, i: int):
        self._run, self._i = run, i

    def number(self) -> int:
        return self._run.ids[self._i]

    def q(self) -> np.ndarray:
        s = self._run.sim.state(self._i)
        return np.concatenate([s["position"], s["orientation"]])

    def velocity(self) -> np.ndarray:
        s = self._run.sim.state(self._i)
        return np.concatenate([s["velocity"], s["angular_velocity"]])

    def scalarMass(self) -> float:
        return float(self._run.masses[self._i])

    def __eq__(self, other) -> bool:
        return isinstance(other, NewtonEulerDSView) and other._i == self._i and other._run is self._run

    def __hash__(self) -> int:
        return hash(self._i)


class NonSmoothDynamicalSystemView(_View):
    """``io._nsds``: the dynamic objects alive in the current step, by Siconos number."""

    _siconos_name = "NonSmoothDynamicalSystem"

    def __init__(self, run: RunState):
        self._run = run
        self._topology = None

    def set_topology(self, topology) -> None:
        """The bodies and joints a controller reaches (``run(controller=...)``, ``_controller.py``)."""
        self._topology = topology

    def topology(self):
        if self._topology is None:
            raise_unsupported("NonSmoothDynamicalSystem.topology() in a run hook", "with run(controller=...)")
        return self._topology

    def _alive(self) -> List[int]:
        return [i for i in self._run.dynamic if self._run.alive(i)]

    def getNumberOfDS(self) -> int:
        return len(self._alive())

    def dynamicalSystemsVector(self) -> List[NewtonEulerDSView]:
        return [self._run.ds(i) for i in self._alive()]

    def dynamicalSystem(self, number: int) -> NewtonEulerDSView:
        i = self._run.index_of.get(int(number))
        if i is None or i not in self._run.dynamic or not self._run.alive(i):
            raise IndexError(f"NonSmoothDynamicalSystem.dynamicalSystem({number}): no such dynamical system")
        return self._run.ds(i)

    def name(self, ds: NewtonEulerDSView) -> str:
        """The object's name (``add_object``'s first argument)."""
        if not isinstance(ds, NewtonEulerDSView):
            raise TypeError("NonSmoothDynamicalSystem.name: a dynamical system of this run")
        return self._run.sim.body_names()[ds._i]

    def interaction(self, number: int) -> "ContactView":
        """The contact numbered ``number`` in the last step's ``cf`` rows (column 23, the
        interaction id ``io._io.contactPoints`` gives)."""
        rep = self._run.last_report
        k = int(number)
        if rep is None or not 0 <= k < len(rep.get("gap", [])):
            raise IndexError(f"NonSmoothDynamicalSystem.interaction({number}): no such contact in the last step")
        return ContactView(self._run, rep, k)

    def removeDynamicalSystem(self, ds: NewtonEulerDSView) -> None:
        if not isinstance(ds, NewtonEulerDSView):
            raise TypeError("removeDynamicalSystem: a dynamical system of this run")
        self._run.remove(ds._i)


class StaticBodyView(_View):
    """A static object of the run (Siconos's ``StaticBody`` of the Bullet manager): its
    ``number`` (the object's id)."""

    _siconos_name = "StaticBody"

    def __init__(self, run: RunState, i: int):
        self._run, self._i = run, i
        self.number = run.ids[i]


class BodyShapeRecordView(_View):
    """One side of a contact (Siconos ``BodyShapeRecord``): ``ds`` (the dynamic object, else
    ``None``) and ``staticBody`` (the static object, else ``None``)."""

    _siconos_name = "BodyShapeRecord"

    def __init__(self, run: RunState, i: int):
        static = i in run.statics
        self.ds = None if static else run.ds(i)
        self.staticBody = StaticBodyView(run, i) if static else None


class ContactView(_View):
    """A contact of the last step as a Siconos ``Interaction``: ``number()``, ``relation()``
    (its ``BulletR`` view: ``bodyShapeRecordA``, the moving side, and ``bodyShapeRecordB``)."""

    _siconos_name = "Interaction"

    def __init__(self, run: RunState, rep: dict, k: int):
        self._k = k
        a, b = (int(x) for x in rep["bodies"][k])
        if a in run.statics:
            a, b = b, a
        self._relation = BulletRView(BodyShapeRecordView(run, a), BodyShapeRecordView(run, b))

    def number(self) -> int:
        return self._k

    def relation(self) -> "BulletRView":
        return self._relation


class BulletRView(_View):
    """Siconos ``BulletR`` of a contact as a hook reads it: the two ``BodyShapeRecord`` sides."""

    _siconos_name = "BulletR"

    def __init__(self, a: BodyShapeRecordView, b: BodyShapeRecordView):
        self.bodyShapeRecordA, self.bodyShapeRecordB = a, b


class MechanicsIOView(_View):
    """``io._io`` (Siconos ``MechanicsIO``): tables of the current state."""

    _siconos_name = "MechanicsIO"

    def __init__(self, run: RunState):
        self._run = run

    def _rows(self, key: Callable[[dict], List[float]]) -> Optional[np.ndarray]:
        run = self._run
        rows = [[float(run.ids[i])] + key(run.sim.state(i)) for i in run.dynamic if run.alive(i)]
        return np.array(rows) if rows else None

    def positions(self, nsds=None) -> Optional[np.ndarray]:
        """Rows ``[number, x, y, z, qw, qx, qy, qz]`` of the dynamic objects (``None`` if none)."""
        return self._rows(lambda s: list(s["position"]) + list(s["orientation"]))

    def velocities(self, nsds=None) -> Optional[np.ndarray]:
        """Rows ``[number, vx, vy, vz, ωx, ωy, ωz]`` of the dynamic objects (``None`` if none)."""
        return self._rows(lambda s: list(s["velocity"]) + list(s["angular_velocity"]))

    def contactPoints(self, nsds=None, index_set: int = 1) -> Optional[np.ndarray]:
        """The contacts of the last step: the columns of Siconos's ``cf`` rows without the time
        (``None`` if none)."""
        rows = self._run.contact_rows(int(index_set))
        return np.array(rows)[:, 1:] if rows else None


class CollisionQueries:
    """Siconos's ``SiconosCollisionManager`` queries over a ``saltus.mechanics`` simulation
    (``_query_sim()``), each hit's body named by ``_query_body(index)`` (``None`` for a static
    body). Saltus sorts the hits by distance whether ``sorted`` is asked or not (Bullet's order
    otherwise)."""

    def _query_sim(self):
        raise NotImplementedError

    def _query_body(self, index: int):
        raise NotImplementedError

    def _results(self, hits, closest_only: bool) -> List["_QueryResult"]:
        hits = hits[:1] if closest_only else hits
        return [_QueryResult(self._query_body(h.body), h) for h in hits]

    def lineIntersectionQuery(self, start, end, closestOnly: bool = False, sorted: bool = True):
        """The shapes the segment ``[start, end]`` crosses, where it enters each, nearest first."""
        return self._results(self._query_sim().query_segment(_vec3(start), _vec3(end), closestOnly), closestOnly)

    def inSphereQuery(self, center, radius: float, closestOnly: bool = False, sorted: bool = True):
        """The shapes within ``radius`` of ``center``, nearest first."""
        return self._results(self._query_sim().query_ball(_vec3(center), float(radius), closestOnly), closestOnly)

    def inBoxQuery(self, center, dimensions, closestOnly: bool = False, sorted: bool = True):
        """The shapes overlapping the axis-aligned box of sides ``dimensions`` around ``center``."""
        half = 0.5 * np.asarray(_vec3(dimensions))
        return self._results(self._query_sim().query_box(_vec3(center), half, closestOnly), closestOnly)


class InteractionManagerView(CollisionQueries, _View):
    """``io._interman``: ``removeBody(ds)`` takes the body out of the collision detection, which
    Saltus does only with its removal from the system (checked after the hook); the queries."""

    _siconos_name = "InteractionManager"

    def __init__(self, run: RunState):
        self._run = run

    def removeBody(self, ds: NewtonEulerDSView) -> None:
        self._run.collision_removed.add(ds._i)

    def removeStaticBody(self, static_body: StaticBodyView) -> None:
        """Siconos's ``removeStaticBody``: the static object collides no more from the next
        step on (and is no longer written in ``data/static``)."""
        if not isinstance(static_body, StaticBodyView):
            raise TypeError("removeStaticBody: a static body of this run (a contact's bodyShapeRecord.staticBody)")
        self._run.remove(static_body._i)

    def _query_sim(self):
        return self._run.sim

    def _query_body(self, index: int):
        return None if index in self._run.statics else self._run.ds(index)


def _vec3(v) -> List[float]:
    """A 3-vector from a list, a numpy array or a ``SiconosVector``."""
    return [float(x) for x in np.asarray(v, dtype=float).ravel()]


class _QueryResult(_View):
    """Siconos ``SiconosCollisionQueryResult``: one shape met by a query, ``body`` (the
    dynamical system, ``None`` for a static object, as Siconos's Bullet manager gives), ``point``
    (world frame) and ``distance`` (to the segment's start or the centre)."""

    _siconos_name = "SiconosCollisionQueryResult"

    def __init__(self, body, hit):
        from saltus.siconos.kernel import SiconosVector

        self.body = body
        self.point = SiconosVector(hit.point)
        self.distance = hit.distance


class SimulationView(_View):
    """``io._simulation``: the times of the running step."""

    _siconos_name = "TimeStepping"

    def __init__(self, run: RunState):
        self._run = run

    def startingTime(self) -> float:
        return self._run.t0 + max(self._run.k - 1, 0) * self._run.h

    def nextTime(self) -> float:
        return self._run.t

    def timeStep(self) -> float:
        return self._run.h


class Hooks:
    """The hooks of one ``run`` and the views they reach through the runner."""

    def __init__(self, io, run: RunState, start=None, before_next=None, end=None):
        self.io, self.run = io, run
        self.hooks = {"start": start, "before_next": before_next, "end": end}
        io._simulation = SimulationView(run)
        io._nsds = NonSmoothDynamicalSystemView(run)
        io._io = MechanicsIOView(run)
        io._interman = InteractionManagerView(run)
        # Siconos's runner keeps its static objects by name (a hook may read and pop them)
        names = run.sim.body_names()
        io._static = {names[i]: {"number": run.ids[i]} for i in sorted(run.statics)}

    def initialize(self) -> None:
        """Each hook's ``initialize(io)`` (Siconos >= 4.5), after a controller's."""
        for h in self.hooks.values():
            if h is not None and hasattr(h, "initialize"):
                h.initialize(self.io)

    def __bool__(self) -> bool:
        return any(h is not None for h in self.hooks.values())

    def call(self, which: str, k: int) -> bool:
        """Calls hook ``which`` at step ``k``; ``False`` when it asks the run to end."""
        h = self.hooks[which]
        if h is None:
            return True
        r = h.call(k) if hasattr(h, "call") else h(self.io)
        left = self.run.collision_removed - self.run.removed
        if left:
            names = ", ".join(str(self.run.ids[i]) for i in sorted(left))
            raise_unsupported(f"InteractionManager.removeBody without NonSmoothDynamicalSystem.removeDynamicalSystem "
                              f"(objects {names})", "a body leaves the collision detection when it is removed")
        self.run.collision_removed.clear()
        return r is not False

    def close(self) -> None:
        for name in ("_simulation", "_nsds", "_io", "_interman", "_static"):
            self.io.__dict__.pop(name, None)
