"""``siconos.kernel`` simulation classes on Saltus: one-step nonsmooth problems with Siconos's
default solvers and ``numericsSolverOptions()``, ``TimeStepping`` and ``EventDriven`` with
Siconos's step protocol (``computeOneStep`` computes the state at ``nextTime()``; ``nextStep``
moves on) and the live state vectors."""

from __future__ import annotations

from typing import Optional

import numpy as np

from .. import relations as _r
from .. import simulation as _s
from . import _solvers
from ._constants import KERNEL_INTS
from ._live import VERSION, core_view, live
from ._unsupported import raise_unsupported

# ---------------------------------------------------------------------------------------------
# one-step nonsmooth problems
# ---------------------------------------------------------------------------------------------


class _Osnsp:
    """Siconos ``OneStepNSProblem(numericsSolverId)``: the solver and its ``iparam``/``dparam``
    (``numericsSolverOptions()``) become the Saltus solver element at build time."""

    _family = "lcp"

    def _init_osnsp(self, solver_id: Optional[int]) -> None:
        from .numerics import SolverOptions

        sid = _solvers.FAMILY_DEFAULT[self._family] if solver_id is None else int(solver_id)
        _solvers.lookup(sid, self._family)  # unsupported ids fail here, at construction
        self._options = SolverOptions(sid)

    def numericsSolverOptions(self):
        """The ``SolverOptions`` (``iparam``, ``dparam``) used at every step."""
        return self._options

    def setNumericsSolverId(self, solver_id: int) -> None:
        self._init_osnsp(solver_id)

    setSolverId = setNumericsSolverId

    def setMStorageType(self, storage: int) -> None:
        """Siconos's storage of the problem matrix: ``NM_DENSE`` (0) dense, otherwise sparse."""
        self.problem["storage"] = "dense" if int(storage) == 0 else "sparse"

    def setMaxSize(self, n: int) -> None:
        """Accepted (Saltus sizes its problems as they come)."""

    def setKeepLambdaAndYState(self, keep: bool) -> None:
        """Siconos's warm start of the solver from the previous step's multipliers."""
        self.problem["warm_start"] = bool(keep)

    def setTolerance(self, tol: float) -> None:
        self._options.dparam[0] = float(tol)

    def setMaxIter(self, n: int) -> None:
        self._options.iparam[0] = int(n)

    setMaxIterations = setMaxIter

    def setNumericsVerboseMode(self, verbose) -> None:
        """Accepted (Saltus prints nothing)."""

    def display(self) -> None:
        print(f"{type(self).__name__} (Saltus) solver {_solvers.NAME_OF.get(self._options.solverId)}")

    def _element(self, parent):
        o = self._options
        _, _, element = _solvers.lookup(o.solverId, self._family)
        self.solver = element
        self.options = dict(self.options)
        self.options["tol"] = float(o.dparam[0])
        self.options["max_iter"] = int(o.iparam[0])
        return super()._element(parent)


class LCP(_Osnsp, _s.LCP):
    """Siconos ``LCP(numericsSolverId=SICONOS_LCP_LEMKE)``."""

    _family = "lcp"

    def __init__(self, numericsSolverId: Optional[int] = None):
        _s.LCP.__init__(self)
        self._init_osnsp(numericsSolverId)


class MLCP(_Osnsp, _s.MLCP):
    """Siconos ``MLCP(numericsSolverId=SICONOS_MLCP_ENUM)``."""

    _family = "mlcp"

    def __init__(self, numericsSolverId: Optional[int] = None):
        _s.MLCP.__init__(self)
        self._init_osnsp(numericsSolverId)


class Relay(_Osnsp, _s.Relay):
    """Siconos ``Relay(numericsSolverId=SICONOS_RELAY_AVI_CAOFERRIS)``."""

    _family = "relay"

    def __init__(self, numericsSolverId: Optional[int] = None):
        _s.Relay.__init__(self)
        self._init_osnsp(numericsSolverId)


class AVI(_Osnsp, _s.AVI):
    """Siconos ``AVI(numericsSolverId=SICONOS_AVI_CAOFERRIS)``."""

    _family = "avi"

    def __init__(self, numericsSolverId: Optional[int] = None):
        _s.AVI.__init__(self)
        self._init_osnsp(numericsSolverId)


class FrictionContact(_Osnsp, _s.FrictionContact):
    """Siconos ``FrictionContact(dimPb=3, numericsSolverId=SICONOS_FRICTION_3D_NSGS)``
    (``SICONOS_FRICTION_2D_NSGS`` for ``dimPb=2``)."""

    def __init__(self, dimPb: int = 3, numericsSolverId: Optional[int] = None):
        _s.FrictionContact.__init__(self, dimPb)
        if self.dim not in (2, 3):
            raise_unsupported(f"FrictionContact({dimPb})", "dimension 2 or 3 only")
        self._family = "fc2d" if self.dim == 2 else "fc3d"
        self._init_osnsp(numericsSolverId)


class GlobalFrictionContact(_Osnsp, _s.GlobalFrictionContact):
    """Siconos ``GlobalFrictionContact(dimPb=3, numericsSolverId=SICONOS_GLOBAL_FRICTION_3D_NSGS_WR)``
    of a ``MoreauJeanGOSI`` simulation: ``SICONOS_GLOBAL_FRICTION_3D_NSGS_WR`` (condensed, then
    NSGS) or ``SICONOS_GLOBAL_FRICTION_3D_NSGS`` (NSGS on the global problem)."""

    _family = "gfc3d"

    def __init__(self, dimPb: int = 3, numericsSolverId: Optional[int] = None):
        _s.GlobalFrictionContact.__init__(self, dimPb)
        if self.dim not in (2, 3):
            raise_unsupported(f"GlobalFrictionContact({dimPb})", "dimension 2 or 3 only")
        if numericsSolverId is None:
            numericsSolverId = _solvers.INTS["SICONOS_GLOBAL_FRICTION_3D_NSGS_WR"]
        self._init_osnsp(numericsSolverId)
        name, _, element = _solvers.lookup(self._options.solverId, self._family)
        if element is None:
            raise_unsupported(f"{name} in a kernel simulation",
                              "SICONOS_GLOBAL_FRICTION_3D_NSGS_WR or SICONOS_GLOBAL_FRICTION_3D_NSGS")


class Equality(_s.Equality):
    """Siconos ``Equality()``."""


# ---------------------------------------------------------------------------------------------
# integrators
# ---------------------------------------------------------------------------------------------


class MoreauJeanGOSI(_s.MoreauJeanGOSI):
    """Siconos ``MoreauJeanGOSI(theta=0.5, gamma=NaN)``: global Moreau–Jean of Lagrangian systems,
    with a ``GlobalFrictionContact`` problem (also accepted as ``MechanicsHdf5Runner.run(osi=...)``)."""

    def __init__(self, theta: float = 0.5, gamma: Optional[float] = None):
        if gamma is not None and np.isnan(gamma):
            gamma = None
        super().__init__(theta, gamma)


class MoreauJeanOSI(_s.MoreauJeanOSI):
    """Siconos ``MoreauJeanOSI(theta=0.5, gamma=NaN)``."""

    def __init__(self, theta: float = 0.5, gamma: Optional[float] = None):
        if gamma is not None and np.isnan(gamma):
            gamma = None
        super().__init__(theta, gamma)

    def setTheta(self, theta: float) -> None:
        self.attrs["theta"] = float(theta)

    def theta(self) -> float:
        return self.attrs["theta"]

    def setGamma(self, gamma: float) -> None:
        self.attrs["gamma"] = float(gamma)

    def insertDynamicalSystem(self, ds) -> None:
        """Siconos 3 API: every system of the NSDS uses the simulation's integrator."""


class MoreauJeanBilbaoOSI(_s.MoreauJeanBilbaoOSI):
    """Siconos ``MoreauJeanBilbaoOSI()`` (for ``LagrangianLinearDiagonalDS``; attach it with
    ``simulation.associate(osi, ds)`` or give it to ``TimeStepping``)."""

    def insertDynamicalSystem(self, ds) -> None:
        """Siconos 3 API: every system of the NSDS uses the simulation's integrator."""


class ZeroOrderHoldOSI(_s.ZeroOrderHoldOSI):
    """Siconos ``ZeroOrderHoldOSI()``: the exact step of a linear plant with its input held (for a
    ``FirstOrderLinearTIDS`` under a ``ControlManager``; linear first-order relations act through
    ``Ψ B λ``, as Siconos's ``Bd``)."""

    def insertDynamicalSystem(self, ds) -> None:
        """Siconos 3 API: every system of the NSDS uses the simulation's integrator."""


class EulerMoreauOSI(_s.EulerMoreauOSI):
    """Siconos ``EulerMoreauOSI(theta=0.5[, gamma])``."""

    def __init__(self, theta: float = 0.5, gamma: Optional[float] = None):
        super().__init__(theta)
        # Siconos: (theta, gamma) weights the input by gamma (useGamma) until
        # setUseGammaForRelation(True) moves gamma onto the relations (the theta-gamma scheme)
        self._gamma, self._gamma_for_input = gamma, gamma is not None

    def setTheta(self, theta: float) -> None:
        self.attrs["theta"] = float(theta)

    def theta(self) -> float:
        return self.attrs["theta"]

    def setGamma(self, gamma: float) -> None:
        self._gamma, self._gamma_for_input = float(gamma), "gamma" not in self.attrs
        if "gamma" in self.attrs:
            self.attrs["gamma"] = float(gamma)

    def gamma(self) -> float:
        return 1.0 if self._gamma is None else float(self._gamma)

    def setUseGammaForRelation(self, use: bool) -> None:
        """The θ-γ scheme: the relations at ``x_{k+γ}`` (Saltus's ``<EulerMoreauOSI gamma>``)."""
        if use:
            self.attrs["gamma"] = 1.0 if self._gamma is None else float(self._gamma)
        else:
            self.attrs.pop("gamma", None)
        self._gamma_for_input = not use and self._gamma is not None

    def _check(self) -> None:
        """Called when a simulation is built on this integrator."""
        if self._gamma_for_input:
            raise_unsupported("EulerMoreauOSI(theta, gamma) weighting the input by gamma (useGamma)",
                              "call setUseGammaForRelation(True): Saltus has the theta-gamma scheme on the "
                              "relations")

    def insertDynamicalSystem(self, ds) -> None:
        """Siconos 3 API: every system of the NSDS uses the simulation's integrator."""


class LsodarOSI(_s.LsodarOSI):
    """Siconos ``LsodarOSI()``; ``setTol(itol, rtol, atol)``."""

    def setTol(self, itol, rtol, atol) -> None:
        self.attrs["rtol"] = float(np.max(rtol))
        self.attrs["atol"] = float(np.max(atol))


class TimeDiscretisation(_s.TimeDiscretisation):
    """Siconos ``TimeDiscretisation(t0, h)``."""

    def __init__(self, t0: float, h):
        if not np.isscalar(h):
            raise_unsupported("TimeDiscretisation(t0, list of times)", "constant step h only")
        super().__init__(t0, h)

    def currentTimeStep(self, k: int = 0) -> float:
        return self.h


# ---------------------------------------------------------------------------------------------
# inputs p / r of the systems (Σ Jᵀ λ, Σ B λ) for the live ``ds.p(level)`` and ``ds.r()``
# ---------------------------------------------------------------------------------------------


def _split(m: np.ndarray, sizes, which: int) -> np.ndarray:
    start = sum(sizes[:which])
    return m[:, start:start + sizes[which]]


def _input(sim, ds, what: str, level: int) -> np.ndarray:
    """``p(level) = Σ Jᵀ λ(level)`` (Lagrangian) or ``r = Σ B λ(0)`` (first order) over the
    interactions of ``ds``, from the kernel's multipliers."""
    n = ds.dimension()
    out = np.zeros(n)
    for inter in sim.nsds.interactions:
        if not any(d is ds for d in inter.ds):
            continue
        which = next(i for i, d in enumerate(inter.ds) if d is ds)
        sizes = [d.dimension() for d in inter.ds]
        lam = inter._core.view("lambda", inter._index, level if what == "p" else 0)
        if lam is None:
            raise_unsupported(f"DynamicalSystem.{what}({level})", "the kernel has no multiplier at that level")
        rel = inter.relation
        if isinstance(rel, _r.LagrangianLinearTIR):
            out += _split(rel.H, sizes, which).T @ lam
        elif isinstance(rel, _r.LagrangianCompliantLinearTIR):
            out += _split(rel.C, sizes, which).T @ lam
        elif isinstance(rel, _r.FirstOrderLinearTIR):
            rows = np.cumsum([0] + sizes)
            out += (rel.B @ lam)[rows[which]:rows[which + 1]]
        elif isinstance(rel, _r.FirstOrderNonLinearR) and not rel._fns.library:
            # r = g(t, x, λ) at the state just computed (Siconos: its last linearization, equal
            # to it within the Newton tolerance)
            x = np.concatenate([np.asarray(core_view(d, "x"), dtype=float) for d in inter.ds])
            rows = np.cumsum([0] + sizes)
            out += rel._input_of(sim.core.t, x, np.asarray(lam, dtype=float))[rows[which]:rows[which + 1]]
        elif isinstance(rel, _r.LagrangianScleronomousR) and not rel.plugin:
            q = np.concatenate([np.asarray(d.q(), dtype=float) for d in inter.ds])
            out += _split(np.atleast_2d(np.asarray(rel.jacobian_q(q), dtype=float)), sizes, which).T @ lam
        else:
            raise_unsupported(
                f"DynamicalSystem.{what}() for a {type(rel).__name__}",
                "Saltus computes the input from linear relations and Python-callable scleronomous and "
                "FirstOrderNonLinearR ones only",
            )
    return out


# ---------------------------------------------------------------------------------------------
# simulations
# ---------------------------------------------------------------------------------------------


class _Event:
    """A Siconos ``Event``: its time and type (``TD_EVENT`` = 1 for a time-discretisation event).
    It compares equal to its type number, as scripts written ``nextEvent() == 1`` mean (Siconos
    4.4's Python ``Event`` compares by identity, so such a loop never computes a step there)."""

    TD_EVENT = 1

    def __init__(self, t: float, kind: int):
        self._t, self._kind = float(t), int(kind)

    def getType(self) -> int:
        return self._kind

    def getDoubleTimeOfEvent(self) -> float:
        return self._t

    getTimeOfEvent = getDoubleTimeOfEvent

    def __eq__(self, other) -> bool:
        if isinstance(other, _Event):
            return (self._t, self._kind) == (other._t, other._kind)
        if isinstance(other, (int, np.integer)) and not isinstance(other, bool):
            return self._kind == int(other)
        return NotImplemented

    def __hash__(self) -> int:
        return hash((self._t, self._kind))


class _EventsManager:
    """Siconos ``EventsManager`` of a time stepping: the current and next events."""

    def __init__(self, sim):
        self._sim = sim

    def nextEvent(self) -> _Event:
        return _Event(self._sim.nextTime(), _Event.TD_EVENT)

    def currentEvent(self) -> _Event:
        return _Event(self._sim.startingTime(), _Event.TD_EVENT)

    def startingTime(self) -> float:
        return self._sim.startingTime()

    def nextTime(self) -> float:
        return self._sim.nextTime()


class _SiconosStepping:
    """Siconos's step protocol and the live vectors over a Saltus ``_Built`` simulation."""

    _pending = False

    def _build(self):
        for d in self.nsds.systems:
            if hasattr(d, "_push_initial"):
                d._push_initial()
        core = super()._build()
        return core

    def _bind(self, core) -> None:
        _s.Simulation._bind(self, core)
        # the compiled methods must not bypass the synchronisation of the live vectors
        for name in ("has_next_event", "hasNextEvent", "compute_one_step", "computeOneStep",
                     "advance_to_event", "advanceToEvent"):
            self.__dict__.pop(name, None)
        self._sync()

    def initialize(self) -> None:
        """Builds the simulation (Siconos: optional before the first step)."""
        self.core  # noqa: B018 (builds)

    def _input(self, ds, what: str, level: int) -> np.ndarray:
        return _input(self, ds, what, level)

    _plan_version = -1

    def _sync(self) -> None:
        """Copies the kernel's state into the live vectors (a plan of copies from the kernel's
        views, rebuilt when a new live vector appears)."""
        if self._plan_version != VERSION[0]:
            for d in self.nsds.systems:
                if hasattr(d, "_sync"):
                    d._sync(self)
            for i in self.nsds.interactions:
                if hasattr(i, "_sync"):
                    i._sync()
            self._plan = self._make_plan()
            self._plan_version = VERSION[0]
            return
        copy = np.copyto
        for dst, src, last, key in self._copies:
            copy(dst, src)
            last[key] = dst.tobytes()
        for d, key in self._computed:
            d._sync_one(self, key)

    def _make_plan(self):
        core = self.core
        self._copies, self._computed = [], []
        for objs, kind in ((self.nsds.systems, "ds"), (self.nsds.interactions, "inter")):
            for o in objs:
                lv = live(o)
                for key, dst in lv.bufs.items():
                    what, level = key
                    if kind == "ds" and what in ("q", "v", "x"):
                        self._copies.append((dst, core.view(what, o._index), lv.last, key))
                    elif kind == "inter":
                        self._copies.append((dst, core.view(what, o._index, level), lv.last, key))
                    else:
                        self._computed.append((o, key))
        return True

    def _check_writes(self) -> None:
        for d in self.nsds.systems:
            if hasattr(d, "_flush_inputs"):
                d._flush_inputs()
            live(d).check_unchanged(d.name)
        for i in self.nsds.interactions:
            live(i).check_unchanged(i.name)

    def hasNextEvent(self) -> bool:
        return self.core.has_next_event()

    def eventsManager(self) -> "_EventsManager":
        """Siconos ``eventsManager()``: the next event of a time stepping is the end of the step
        (a time-discretisation event, whose controllers' instants are processed with it)."""
        return _EventsManager(self)

    def computeOneStep(self) -> None:
        """Computes the state at ``nextTime()`` (the live vectors follow)."""
        core = self.core
        if self._pending:
            raise_unsupported(
                "computeOneStep() twice without nextStep()",
                "Saltus moves to the next step when it computes one",
            )
        self._check_writes()
        core.compute_one_step()
        self._pending = True
        self._sync()

    def nextStep(self) -> None:
        """Moves to the next step (``startingTime()`` becomes the time just computed)."""
        self._pending = False

    advanceToEvent = computeOneStep

    def processEvents(self) -> None:
        self._pending = False

    def startingTime(self) -> float:
        c = self.core
        return c.t - c.h if self._pending and not c.event_driven else c.t

    def nextTime(self) -> float:
        """The time of the state the last ``computeOneStep`` computed (before ``nextStep``),
        else the end of the next step."""
        c = self.core
        if self._pending or c.event_driven:
            return c.t
        return c.t0 + (c.k + 1) * c.h

    getTk = startingTime
    getTkp1 = nextTime

    def display(self) -> None:
        """Prints the simulation."""
        print(f"{type(self).__name__} (Saltus): h = {self.td.h}")

    def timeStep(self) -> float:
        return self.td.h

    def currentTimeStep(self) -> float:
        return self.td.h

    def run(self, *args, **kwargs):
        """Siconos ``run()``: steps to the final time (Saltus: in Rust)."""
        out = _s.Simulation.run(self, *args, **kwargs)
        self._pending = False
        self._sync()
        return out if args or kwargs else None

    def setNewtonTolerance(self, tol: float) -> None:
        self.newton["tol"] = float(tol)

    def setNewtonMaxIteration(self, n: int) -> None:
        self.newton["max_iter"] = int(n)

    def setNewtonOptions(self, opt: int) -> None:
        if int(opt) not in (KERNEL_INTS["SICONOS_TS_NONLINEAR"], KERNEL_INTS["SICONOS_TS_LINEAR"]):
            raise_unsupported("TimeStepping.setNewtonOptions(SICONOS_TS_LINEAR_IMPLICIT)")

    def setComputeResiduY(self, flag: bool) -> None:
        """Siconos's output residual test of the Newton loop (nonlinear first-order relations)."""
        self.newton["residu_y"] = bool(flag)

    def setComputeResiduR(self, flag: bool) -> None:
        """Siconos's input residual test of the Newton loop (nonlinear first-order relations)."""
        self.newton["residu_r"] = bool(flag)

    def setDisplayNewtonConvergence(self, flag: bool) -> None:
        """Accepted (Saltus prints nothing)."""

    def setWarnOnNonConvergence(self, flag: bool) -> None:
        """Accepted (non-convergence is in ``summary()``)."""

    def setNewtonWarningOnNonConvergence(self, flag: bool) -> None:
        """Accepted (non-convergence is in ``summary()``)."""

    def insertIntegrator(self, osi) -> None:
        self.osi = osi

    def nonSmoothDynamicalSystem(self):
        return self.nsds


class TimeStepping(_SiconosStepping, _s.TimeStepping):
    """Siconos ``TimeStepping(nsds, td[, osi, osnspb])`` (or ``insertIntegrator``,
    ``insertNonSmoothProblem`` afterwards)."""

    def __init__(self, nsds, td, osi=None, osnspb=None):
        _s._Built.__init__(self, nsds, td)
        # Siconos scripts pass 0 (a null pointer) for "none yet"
        self.osi = None if isinstance(osi, int) and osi == 0 else osi
        self.osnspb = None if isinstance(osnspb, int) and osnspb == 0 else osnspb
        self.newton = {}
        self.projection = None
        self._associated = []

    def insertInteractionManager(self, manager) -> None:
        """Siconos's interaction manager: a ``SiconosBulletCollisionManager`` over a model of
        ``RigidBodyDS`` bodies (contact detection by Saltus's mechanics engine)."""
        from .mechanics.collision.bullet import SiconosBulletCollisionManager

        if not isinstance(manager, SiconosBulletCollisionManager):
            raise_unsupported(f"TimeStepping.insertInteractionManager({type(manager).__name__})")
        self._interaction_manager = manager

    def indexSet(self, level: int):
        """Siconos ``indexSet(i)`` of a model of rigid bodies (``interactions(indexSet(1))``)."""
        from ._newton_euler import IndexSet, NewtonEulerCore

        core = self.core
        if not isinstance(core, NewtonEulerCore) or int(level) not in (0, 1):
            raise_unsupported(f"TimeStepping.indexSet({level})", "index sets 0 and 1 of a model of rigid bodies")
        return IndexSet(core, level)

    def insertNonSmoothProblem(self, osnspb, number: int = 0) -> None:
        if int(number) != KERNEL_INTS["SICONOS_OSNSP_TS_VELOCITY"]:
            raise_unsupported("TimeStepping.insertNonSmoothProblem(problem, SICONOS_OSNSP_TS_POS)")
        self.osnspb = osnspb

    def _build(self):
        if self.osnspb is None and not self.nsds.interactions:
            # Siconos steps a model without interactions without a one-step problem; the
            # model file names one, never solved
            self.osnspb = LCP()
        if self.osi is None or self.osnspb is None:
            raise_unsupported("TimeStepping without an integrator or a nonsmooth problem")
        from ._newton_euler import newton_euler_core

        ne = newton_euler_core(self)
        if ne is not None:
            return ne
        kinds = (_s.MoreauJeanOSI, _s.MoreauJeanGOSI, _s.EulerMoreauOSI, _s.MoreauJeanBilbaoOSI, _s.ZeroOrderHoldOSI)
        if not isinstance(self.osi, kinds):
            raise_unsupported(f"TimeStepping with {type(self.osi).__name__}")
        check = getattr(self.osi, "_check", None)
        if check is not None:
            check()
        return super()._build()


class TimeSteppingDirectProjection(_SiconosStepping, _s.TimeSteppingDirectProjection):
    """Siconos ``TimeSteppingDirectProjection(nsds, td, osi, osnspb_velo, osnspb_pos)``."""

    def __init__(self, nsds, td, osi, osnspb, osnspb_pos=None, level: int = 0):
        _s.TimeSteppingDirectProjection.__init__(self, nsds, td, osi, osnspb)

    def setProjectionMaxIteration(self, n: int) -> None:
        self.projection["max_iter"] = int(n)

    def setConstraintTol(self, tol: float) -> None:
        self.projection["tol"] = float(tol)


class EventDriven(_SiconosStepping, _s.EventDriven):
    """Siconos ``EventDriven(nsds, td)`` with ``insertIntegrator(LsodarOSI())`` and
    ``insertNonSmoothProblem(lcp, SICONOS_OSNSP_ED_IMPACT or SICONOS_OSNSP_ED_SMOOTH_ACC)``."""

    def __init__(self, nsds, td, nb_osnsp: int = 2):
        _s.EventDriven.__init__(self, nsds, td)

    def insertNonSmoothProblem(self, problem, level: int) -> None:
        level = int(level)
        if level == KERNEL_INTS["SICONOS_OSNSP_ED_IMPACT"]:
            self.impact = problem
        elif level == KERNEL_INTS["SICONOS_OSNSP_ED_SMOOTH_ACC"]:
            self.acceleration = problem
        else:
            raise_unsupported("EventDriven.insertNonSmoothProblem(problem, SICONOS_OSNSP_ED_SMOOTH_POS)")

    def _sim_element(self, root):
        # the solver elements: the problems' Siconos solver choice and options
        for p in (self.impact, self.acceleration):
            if isinstance(p, _Osnsp):
                o = p._options
                p.solver = _solvers.lookup(o.solverId, p._family)[2]
                p.options = {**p.options, "tol": float(o.dparam[0]), "max_iter": int(o.iparam[0])}
        return super()._sim_element(root)
