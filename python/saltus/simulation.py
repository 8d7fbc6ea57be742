"""Simulations with the Siconos vocabulary: one-step integrators, one-step nonsmooth problems,
the time discretisation, ``TimeStepping`` and ``EventDriven``; ``load`` and ``to_xml``."""

from __future__ import annotations

import os
import xml.etree.ElementTree as ET
from typing import Dict, List, Optional, Sequence, Tuple

import numpy as np

from . import _saltus
from .model import NonSmoothDynamicalSystem, _Host, _num
from ._events import UserEvents
from ._xml import _siconos_plugin

SaltusError = _saltus.SaltusError


def _attrs(d: Dict[str, object]) -> Dict[str, str]:
    out = {}
    for k, v in d.items():
        if v is None:
            continue
        if isinstance(v, bool):
            out[k] = "true" if v else "false"
        elif isinstance(v, float):
            out[k] = _num(v)
        else:
            out[k] = str(v)
    return out


# ---------------------------------------------------------------------------------------------
# Integrators and one-step problems
# ---------------------------------------------------------------------------------------------



def _xml_text(root: "ET.Element") -> str:
    """A model tree as the text of a model file (indented, with the XML declaration)."""
    ET.indent(root, space="  ")
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"

class OneStepIntegrator:
    """Base class of the one-step integrators."""

    _kind = "OneStepIntegrator"

    def __init__(self, **attrs):
        self.attrs = attrs

    def _element(self, parent):
        return ET.SubElement(parent, self._kind, _attrs(self.attrs))


class MoreauJeanOSI(OneStepIntegrator):
    """Moreau–Jean θ-scheme for Lagrangian systems (velocity-level Newton impact law);
    ``gamma`` as in Siconos (default: none)."""

    _kind = "MoreauJeanOSI"

    def __init__(self, theta: float = 0.5, gamma: Optional[float] = None):
        super().__init__(theta=float(theta), gamma=None if gamma is None else float(gamma))


class MoreauJeanGOSI(OneStepIntegrator):
    """Global Moreau–Jean (Siconos ``MoreauJeanGOSI``) for Lagrangian systems: the one-step
    problem keeps ``M`` and ``H`` apart (a :class:`GlobalFrictionContact`) instead of forming the
    Delassus matrix ``W = H M⁻¹ Hᵀ``; ``gamma`` as in Siconos (default: none)."""

    _kind = "MoreauJeanGOSI"

    def __init__(self, theta: float = 0.5, gamma: Optional[float] = None):
        super().__init__(theta=float(theta), gamma=None if gamma is None else float(gamma))


class EulerMoreauOSI(OneStepIntegrator):
    """Euler–Moreau θ-scheme for first-order systems. With ``gamma`` (the θ-γ scheme), the
    relations are written at ``x_{k+γ} = γ x_{k+1} + (1−γ) x_k`` (Siconos
    ``EulerMoreauOSI(theta, gamma)`` with ``setUseGammaForRelation(True)``; linear systems and
    relations only)."""

    _kind = "EulerMoreauOSI"

    def __init__(self, theta: float = 0.5, gamma: Optional[float] = None):
        super().__init__(theta=float(theta), gamma=None if gamma is None else float(gamma))


class SemiExplicitEuler(OneStepIntegrator):
    """Semi-explicit (symplectic) Euler for Lagrangian systems:
    ``u_{k+1} = u_k + h M⁻¹ F(t_k, q_k, u_k) + M⁻¹ p_{k+1}``, ``q_{k+1} = q_k + h u_{k+1}``;
    ``velocity`` is ``"explicit"`` (default) or ``"implicit"`` (F at ``u_{k+1}``), ``gamma`` the
    activation rule of Moreau–Jean (Saltus-only: Siconos has no such integrator)."""

    _kind = "SemiExplicitEuler"

    def __init__(self, velocity: Optional[str] = None, gamma: Optional[float] = None):
        super().__init__(velocity=velocity, gamma=None if gamma is None else float(gamma))


class MoreauJeanBilbaoOSI(OneStepIntegrator):
    """Moreau–Jean–Bilbao (Siconos ``MoreauJeanBilbaoOSI``): Bilbao's exact scheme for diagonal
    linear Lagrangian systems (a ``LagrangianLinearTIDS`` with diagonal ``M``, ``K``, ``C``;
    Siconos ``LagrangianLinearDiagonalDS``): every free damped mode exact at the step times,
    ``q_{k+1} = q_k + h v_{k+1}``, impacts through the one-step problem (``γ = ½``)."""

    _kind = "MoreauJeanBilbaoOSI"

    def __init__(self):
        super().__init__()


class ZeroOrderHoldOSI(OneStepIntegrator):
    """Zero-order hold (Siconos ``ZeroOrderHoldOSI``): the exact step
    ``x_{k+1} = exp(A h) x_k + Ψ (b + g)`` of a ``FirstOrderLinearTIDS`` (or a ``FirstOrderLinearDS``
    with a constant ``A``; ``b(t)`` held at ``t_{k+1}``), identity mass; ``g`` is the input of the
    simulation's ``ControlManager``, ``Ψ = ∫₀ʰ exp(A s) ds``. Linear first-order relations (relays,
    diodes) act through ``Ψ r``, ``r = B λ_{k+1}`` held over the step (Siconos's ``Bd = Ψ B``)."""

    _kind = "ZeroOrderHoldOSI"

    def __init__(self):
        super().__init__()


class LsodarOSI(OneStepIntegrator):
    """The LSODAR-class integrator of event-driven simulations (``rtol``, ``atol``, and the
    ``<LsodarOSI>`` attributes of the schema: ``method``, ``hmax``, ``max_steps``, ...)."""

    _kind = "LsodarOSI"

    def __init__(self, rtol: Optional[float] = None, atol: Optional[float] = None, **attrs):
        super().__init__(rtol=rtol, atol=atol, **attrs)


#: The integrators of a time stepping (``TimeStepping`` and ``associate``).
_TS_INTEGRATORS = (MoreauJeanOSI, MoreauJeanGOSI, EulerMoreauOSI, SemiExplicitEuler, MoreauJeanBilbaoOSI, ZeroOrderHoldOSI)


class OneStepNSProblem:
    """A one-step nonsmooth problem with a solver element of the schema (``solver``) and its
    attributes (``tol``, ``max_iter``, ...). Problem attributes: ``storage``,
    ``sparse_threshold``, ``warm_start``, ``on_non_convergence``."""

    _kind = "OneStepNSProblem"
    _problem_attrs = ("storage", "sparse_threshold", "warm_start", "on_non_convergence")
    _default_solver = "Lemke"

    def __init__(self, solver: Optional[str] = None, **options):
        self.solver = solver or self._default_solver
        self.problem = {k: options.pop(k) for k in list(options) if k in self._problem_attrs}
        self.options = options
        self._check()

    @classmethod
    def _solvers(cls) -> Dict[str, Tuple[str, List[str]]]:
        """The problem's solver elements: ``{element: (description, option names)}``, from the
        solvers' declarations in the compiled core (the model files' own)."""
        return {e: (d, list(o)) for e, d, o in _saltus.solver_elements().get(cls._kind, [])}

    def _check(self) -> None:
        """A solver this problem has, and options that solver takes (``ValueError`` naming the
        choices otherwise)."""
        solvers = self._solvers()
        if self.solver is None or not solvers:
            return
        if self.solver not in solvers:
            raise ValueError(f"{self._kind}: no solver {self.solver!r}; the solvers are {', '.join(solvers)}")
        names = solvers[self.solver][1]
        for k in self.options:
            if k not in names:
                raise ValueError(f"{self._kind}: {k!r} is not an option of {self.solver}; its options are {', '.join(names)}")

    def setTolerance(self, tol: float) -> None:
        """Solver tolerance."""
        self.options["tol"] = float(tol)

    def setMaxIterations(self, n: int) -> None:
        """Solver iteration cap."""
        self.options["max_iter"] = int(n)

    def _extra(self) -> Dict[str, object]:
        return {}

    def _element(self, parent):
        self._check()
        el = ET.SubElement(parent, self._kind, _attrs({**self._extra(), **self.problem}))
        if self.solver is not None:
            ET.SubElement(el, self.solver, _attrs(self.options))
        return el


class LCP(OneStepNSProblem):
    """Linear complementarity problem; solver ``Lemke`` by default."""

    _kind = "LCP"


class MLCP(OneStepNSProblem):
    """Mixed LCP; solver ``Enum`` by default."""

    _kind = "MLCP"
    _default_solver = "Enum"


class Relay(OneStepNSProblem):
    """Relay problem; solver ``Lemke`` by default."""

    _kind = "Relay"


class AVI(OneStepNSProblem):
    """Affine variational inequality of ``NormalConeNSL`` / ``RelayNSL`` (Siconos ``AVI``); solver
    ``CaoFerris`` by default. Problem attribute: ``on_non_convergence``."""

    _kind = "AVI"
    _problem_attrs = ("on_non_convergence",)
    _default_solver = "CaoFerris"


class Equality(OneStepNSProblem):
    """Linear system of bilateral constraints only (no solver options)."""

    _kind = "Equality"

    def __init__(self):
        super().__init__()
        self.solver = None


class FrictionContact(OneStepNSProblem):
    """Friction-contact problem of dimension ``dim`` (2 or 3); solver ``NsgsAc`` by default."""

    _kind = "FrictionContact"
    _default_solver = "NsgsAc"

    def __init__(self, dim: int = 3, solver: Optional[str] = None, **options):
        super().__init__(solver, **options)
        self.dim = int(dim)

    def _extra(self):
        return {"dim": self.dim}


class GlobalFrictionContact(OneStepNSProblem):
    """Global friction-contact problem of dimension ``dim`` (2 or 3) of :class:`MoreauJeanGOSI`:
    ``M v = H r + q``, ``u = Hᵀ v + b`` with a Coulomb cone per contact (Siconos
    ``GlobalFrictionContact``); solver ``NsgsWr`` by default. Problem attributes: ``warm_start``,
    ``on_non_convergence``."""

    _kind = "GlobalFrictionContact"
    _problem_attrs = ("warm_start", "on_non_convergence")
    _default_solver = "NsgsWr"

    def __init__(self, dim: int = 3, solver: Optional[str] = None, **options):
        super().__init__(solver, **options)
        self.dim = int(dim)

    def _extra(self):
        return {"dim": self.dim}


class GenericMechanical(OneStepNSProblem):
    """Siconos ``GenericMechanical``: one block per active interaction — equalities, complementarity
    rows and friction contacts in one problem — solved by block Gauss–Seidel (``GaussSeidel``)."""

    _kind = "GenericMechanical"
    _default_solver = "GaussSeidel"


def _document_solvers(*classes) -> None:
    """Appends each problem class's solvers, with their options, to its docstring (from the
    declarations, so a new solver needs no edit here)."""
    for cls in classes:
        lines = [f"    ``{e}``: {d}; options {', '.join(f'``{o}``' for o in opts)}." for e, (d, opts) in cls._solvers().items()]
        cls.__doc__ = (cls.__doc__ or "") + "\n\n    Solvers:\n\n" + "\n".join(lines) + "\n"


_document_solvers(LCP, MLCP, Relay, AVI, FrictionContact, GlobalFrictionContact, GenericMechanical)


class TimeDiscretisation:
    """Constant step ``h`` from ``t0`` (Siconos ``TimeDiscretisation(t0, h)``)."""

    def __init__(self, t0: float, h: float):
        self.t0, self.h = float(t0), float(h)


# ---------------------------------------------------------------------------------------------
# Simulations
# ---------------------------------------------------------------------------------------------


class Simulation:
    """What every simulation offers: stepping (``has_next_event``, ``compute_one_step``,
    ``next_step``), the fast ``run`` into numpy, ``run_to_file`` and state access by name.
    The compiled simulation is built on first use, so options may be set after construction."""

    def __init__(self):
        self._core_obj = None

    # -- built lazily --------------------------------------------------------------------------
    def _build(self):
        raise NotImplementedError

    def _core_or_none(self):
        return self._core_obj

    @property
    def core(self):
        """The compiled simulation (built on first access)."""
        if self._core_obj is None:
            self._bind(self._build())
        return self._core_obj

    def _bind(self, core) -> None:
        """Keeps the compiled simulation and calls its stepping methods directly from now on
        (no Python frame per call in a step loop)."""
        self._core_obj = core
        self.has_next_event = self.hasNextEvent = core.has_next_event
        self.compute_one_step = self.computeOneStep = core.compute_one_step
        self.advance_to_event = self.advanceToEvent = core.compute_one_step

    # -- stepping ------------------------------------------------------------------------------
    def has_next_event(self) -> bool:
        """``True`` while the final time is not reached."""
        return (self._core_obj or self.core).has_next_event()

    def compute_one_step(self) -> None:
        """One time step with every Siconos phase (event driven: up to the next event).
        Raises ``SimulationError`` if the step fails."""
        (self._core_obj or self.core).compute_one_step()

    def next_step(self) -> None:
        """Kept for Siconos scripts: ``compute_one_step`` already moved to the next step."""

    def user_events(self) -> list:
        """The user events (``<Events>``) the last ``compute_one_step`` found, in time order:
        one dict per located window, ``{"t", "t_low", "events": [names], "stop", "reset"}``.
        Their resets are already applied; after a ``stop`` event ``has_next_event()`` is
        ``False``. (``run`` reports them as rows of its ``event`` column instead.)"""
        return self.core.user_events()

    advance_to_event = compute_one_step

    def process_events(self) -> None:
        """Kept for Siconos event-driven scripts (``advance_to_event`` processed the event)."""

    hasNextEvent = has_next_event
    computeOneStep = compute_one_step
    nextStep = next_step
    advanceToEvent = advance_to_event
    processEvents = process_events

    def t(self) -> float:
        """Current time (time stepping: ``t0 + k h`` exactly as the CSV writes it)."""
        return self.core.t

    startingTime = t

    def nextTime(self) -> float:
        """Time at the end of the next step (time stepping)."""
        c = self.core
        return c.t0 + (c.k + 1) * c.h

    # -- runs ----------------------------------------------------------------------------------
    def columns(self) -> List[str]:
        """The column names of ``run`` (those of the CSV of ``saltus run``)."""
        return self.core.columns()

    def run(self, record: Optional[Sequence[str]] = None, every: Optional[int] = None, strict: bool = False):
        """Runs to the final time in Rust (no Python call per step, the GIL released) and
        returns ``{column: numpy array}`` keyed exactly like the CSV columns (``"t"``,
        ``"ball.q[0]"``, ...). ``record``: the columns to keep (default all); ``every``: keep
        every N-th step (row 0 and the last always). ``strict``: a step whose solver did not
        converge raises ``SimulationError``. Continues from the current step. Ctrl-C (in the
        main thread) stops the run at a step boundary with ``KeyboardInterrupt``."""
        import threading

        main = threading.current_thread() is threading.main_thread()
        return self.core.run(None if record is None else list(record), every, strict, main)

    def run_to_file(self, out: str, every: Optional[int] = None, strict: bool = False) -> Dict[str, float]:
        """Runs from t0 to T writing ``out`` (CSV, or ``.npy``) exactly as ``saltus run``."""
        return self.core.run_to_file(os.fspath(out), every, strict)

    def summary(self) -> Optional[Dict[str, float]]:
        """Counters of the last ``run``: steps, events, solver iterations, largest residual..."""
        return self.core.summary()

    # -- state by name -------------------------------------------------------------------------
    def _ds_index(self, name: str) -> int:
        names = self.core.ds_names()
        if name not in names:
            raise KeyError(f"no dynamical system `{name}` (known: {', '.join(names)})")
        return names.index(name)

    def _inter_index(self, name: str) -> int:
        names = self.core.interaction_names()
        if name not in names:
            raise KeyError(f"no interaction `{name}` (known: {', '.join(names)})")
        return names.index(name)

    # The arrays below are read-only views updated in place after every step (as Siconos
    # returns views): `.copy()` keeps a value.
    def q(self, ds: str) -> np.ndarray:
        """Positions (Lagrangian) or state (first order) of the system called ``ds`` (a live
        read-only view)."""
        return self.core.view("q", self._ds_index(ds))

    x = q

    def velocity(self, ds: str) -> Optional[np.ndarray]:
        """Velocities of the Lagrangian system called ``ds`` (a live read-only view)."""
        return self.core.view("v", self._ds_index(ds))

    def y(self, inter: str, level: int = 0) -> Optional[np.ndarray]:
        """Output ``y`` at ``level`` of the interaction called ``inter`` (a live read-only view)."""
        return self.core.view("y", self._inter_index(inter), level)

    def lambda_(self, inter: str, level: int = 1) -> Optional[np.ndarray]:
        """Multiplier ``λ`` at ``level`` of the interaction called ``inter`` (a live read-only
        view)."""
        return self.core.view("lambda", self._inter_index(inter), level)


class ModelSimulation(Simulation):
    """A simulation loaded from a model file (``saltus.load``)."""

    def __init__(self, core):
        super().__init__()
        self._bind(core)

    def _build(self):  # pragma: no cover - always built
        return self._core_obj


class FileRunSimulation:
    """A ``<Mechanics>`` (rigid bodies), ``<Control>`` (zero-order-hold control) or ``<NullSpace>``
    (projection method) model file loaded by ``saltus.load``: run it to the final time with ``run``; its columns are those of
    the CSV of ``saltus run`` on the same file (``saltus.write_csv(path, sim.run())`` writes
    that CSV byte for byte). No stepping from Python (use ``saltus.mechanics`` for that)."""

    def __init__(self, core):
        self.core = core

    @property
    def kind(self) -> str:
        """``"mechanics"``, ``"control"`` or ``"nullspace"``."""
        return self.core.kind

    @property
    def t0(self) -> float:
        return self.core.t0

    @property
    def t_end(self) -> float:
        return self.core.t_end

    @property
    def h(self) -> float:
        """Time step (control: the plant step)."""
        return self.core.h

    @property
    def steps(self) -> int:
        return self.core.steps

    def columns(self) -> List[str]:
        """The column names of ``run`` (those of the CSV of ``saltus run``)."""
        return self.core.columns()

    def run(self, record: Optional[Sequence[str]] = None, every: Optional[int] = None, strict: bool = False):
        """Runs from t0 to the final time in Rust (the GIL released; every call starts again at
        t0) and returns ``{column: numpy array}`` keyed exactly like the CSV columns.
        ``record``: the columns to keep (default all); ``every``: keep every N-th step (default
        the model's ``<Output every>``; row 0 and the last always). ``strict`` (mechanics): a
        step whose friction-contact problem did not converge raises ``SimulationError``. Ctrl-C
        (in the main thread) stops the run with ``KeyboardInterrupt``."""
        import threading

        main = threading.current_thread() is threading.main_thread()
        return self.core.run(None if record is None else list(record), every, strict, main)

    def summary(self) -> Optional[Dict[str, float]]:
        """Counters of the last ``run``: steps, events, solver iterations, largest residual..."""
        return self.core.summary()


def load(path: str, plugin_dirs: Optional[Sequence[str]] = None):
    """Loads a Saltus model file (``.xml``) and builds its simulation, with the checks and
    located messages of ``saltus check`` (``ModelError``): a ``ModelSimulation`` for a kernel
    model (``<NSDS>``), a ``FileRunSimulation`` for a ``<Mechanics>``, ``<Control>`` or
    ``<NullSpace>`` model."""
    core = _saltus.load_model(os.fspath(path), None if plugin_dirs is None else [os.fspath(p) for p in plugin_dirs])
    if isinstance(core, _saltus.CoreSimulation):
        return ModelSimulation(core)
    return FileRunSimulation(core)



def _check_nsds_td(nsds, td) -> None:
    """The types of a simulation's NSDS and time discretisation, and that they start together."""
    if not isinstance(nsds, NonSmoothDynamicalSystem):
        raise TypeError(f"expected a NonSmoothDynamicalSystem, got {type(nsds).__name__}")
    if not isinstance(td, TimeDiscretisation):
        raise TypeError(f"expected a TimeDiscretisation, got {type(td).__name__}")
    if td.t0 != nsds.t0:
        raise ValueError(f"TimeDiscretisation starts at {td.t0}, the NSDS at {nsds.t0}")

class _Built(UserEvents, Simulation):
    """A simulation of a Python-built NSDS: generates the model file and builds it."""

    def __init__(self, nsds: NonSmoothDynamicalSystem, td: TimeDiscretisation, plugin_dirs=None):
        super().__init__()
        _check_nsds_td(nsds, td)
        self.nsds, self.td = nsds, td
        self.plugin_dirs = [os.fspath(p) for p in (plugin_dirs or [])]
        self.output_every: Optional[int] = None

    def _sim_element(self, root: ET.Element) -> None:
        raise NotImplementedError

    def _tree(self, host: _Host) -> ET.Element:
        root = ET.Element("Model", version="1.0")
        if self.nsds.title:
            root.set("title", self.nsds.title)
        self.nsds._element(root, host)
        self._sim_element(root)
        self._events_element(root, host)
        if self.output_every is not None:
            ET.SubElement(root, "Output", every=str(int(self.output_every)))
        return root

    def xml(self, host: Optional[_Host] = None) -> str:
        """The model file of this NSDS and simulation."""
        return _xml_text(self._tree(host if host is not None else _Host()))

    def _build(self):
        host = _Host()
        text = self.xml(host)
        core = _saltus.CoreSimulation.from_xml(
            text,
            os.path.join(os.getcwd(), "<python model>"),
            self.plugin_dirs,
            None if host.empty() else host.as_dict(),
            True,
        )
        for i, d in enumerate(self.nsds.systems):
            d._attach(self, core, i)
        for i, inter in enumerate(self.nsds.interactions):
            inter._attach(self, core, i)
        return core


class TimeStepping(_Built):
    """Time stepping (Siconos ``TimeStepping(nsds, td, osi, osnspb)``): Moreau–Jean or
    Euler–Moreau with one one-step problem; ``setNewtonTolerance`` / ``setNewtonMaxIteration``
    for nonlinear models. Step with ``compute_one_step`` or run to the end with ``run``."""

    #: Controllers of this run: an object writing a ``<ControlManager>`` element into the
    #: ``<Simulation>`` (``_element(parent)``; ``siconos.control.simulation.ControlManager``).
    control = None

    def __init__(self, nsds, td, osi: OneStepIntegrator, osnspb: OneStepNSProblem, plugin_dirs=None):
        super().__init__(nsds, td, plugin_dirs)
        if not isinstance(osi, _TS_INTEGRATORS):
            raise TypeError(
                "TimeStepping needs a MoreauJeanOSI, EulerMoreauOSI, SemiExplicitEuler, MoreauJeanBilbaoOSI or ZeroOrderHoldOSI, "
                f"got {type(osi).__name__}"
            )
        if not isinstance(osnspb, OneStepNSProblem):
            raise TypeError(f"expected a one-step nonsmooth problem, got {type(osnspb).__name__}")
        self.osi, self.osnspb = osi, osnspb
        self.newton: Dict[str, object] = {}
        self.projection: Optional[Dict[str, object]] = None
        self._associated: List[Tuple[OneStepIntegrator, object]] = []

    def associate(self, osi: OneStepIntegrator, ds) -> None:
        """Siconos ``simulation.associate(osi, ds)``: system ``ds`` (a system or its name) is
        integrated by ``osi`` instead of the simulation's integrator. Every integrator shares the
        one one-step problem: Moreau–Jean (any θ, γ) with the semi-explicit Euler, or
        Euler–Moreau schemes together (``<SemiExplicitEuler systems="...">`` in the model file)."""
        if not isinstance(osi, _TS_INTEGRATORS):
            raise TypeError(
                "associate needs a MoreauJeanOSI, EulerMoreauOSI, SemiExplicitEuler, MoreauJeanBilbaoOSI or ZeroOrderHoldOSI, "
                f"got {type(osi).__name__}"
            )
        if not isinstance(ds, str) and not hasattr(ds, "name"):
            raise TypeError(f"associate needs a dynamical system or its name, got {type(ds).__name__}")
        self._associated = [(o, d) for o, d in self._associated if d is not ds]
        self._associated.append((osi, ds))

    def _integrator_elements(self, parent) -> None:
        """The simulation's integrator, then one element per other associated integrator with
        the names of its systems."""
        self.osi._element(parent)
        groups: List[Tuple[OneStepIntegrator, List[str]]] = []
        for osi, ds in self._associated:
            name = ds if isinstance(ds, str) else ds.name
            if osi is self.osi:
                continue
            for o, names in groups:
                if o is osi:
                    names.append(name)
                    break
            else:
                groups.append((osi, [name]))
        for osi, names in groups:
            osi._element(parent).set("systems", " ".join(names))

    def setNewtonTolerance(self, tol: float) -> None:
        """Tolerance of the Newton loop (nonlinear models)."""
        self.newton["tol"] = float(tol)

    def setNewtonMaxIteration(self, n: int) -> None:
        """Iteration cap of the Newton loop."""
        self.newton["max_iter"] = int(n)

    def setComputeResiduY(self, flag: bool) -> None:
        """Siconos ``setComputeResiduY``: the Newton loop also requires the output residual of
        every nonlinear first-order relation, ``‖h(x, λ) − ŷ‖₂ ≤ tol`` (``ŷ`` its linearization
        at the previous iterate)."""
        self.newton["residu_y"] = bool(flag)

    def setComputeResiduR(self, flag: bool) -> None:
        """Siconos ``setComputeResiduR``: the Newton loop also requires the input residual
        ``‖g(x, λ) − r̂‖₂ ≤ tol`` (without it, a relay holding ``y = 0`` can stop the loop while
        ``λ`` still moves: the state no longer changes)."""
        self.newton["residu_r"] = bool(flag)

    def _sim_element(self, root):
        sim = ET.SubElement(root, "Simulation")
        ET.SubElement(sim, "TimeDiscretisation", h=_num(self.td.h))
        self._integrator_elements(ET.SubElement(sim, "OneStepIntegrator"))
        self.osnspb._element(ET.SubElement(sim, "OneStepNSProblem"))
        if self.newton:
            ET.SubElement(sim, "Newton", _attrs(self.newton))
        if self.projection is not None:
            ET.SubElement(sim, "Projection", _attrs(self.projection))
        if self.control is not None:
            self.control._element(sim)


class TimeSteppingDirectProjection(TimeStepping):
    """Time stepping with a projection of the positions onto the active constraints after each
    step (``tol``, ``max_iter`` of the projection)."""

    def __init__(self, nsds, td, osi, osnspb, tol: Optional[float] = None, max_iter: Optional[int] = None, plugin_dirs=None):
        super().__init__(nsds, td, osi, osnspb, plugin_dirs)
        self.projection = {"tol": tol, "max_iter": max_iter}


class EventDriven(_Built):
    """Event-driven simulation (Siconos ``EventDriven(nsds, td)`` with ``LsodarOSI``): impacts
    located by root finding, impact and acceleration LCPs. ``run`` gives one row per event with
    a ``kind`` column (0 TD event, 1 pre-impact, 2 post-impact)."""

    #: Controllers acting at the time-discretisation events on a first-order or Lagrangian plant: an object
    #: writing a ``<ControlManager>`` element into the ``<EventDriven>`` (``_element(parent)``).
    control = None

    def __init__(
        self,
        nsds,
        td,
        osi: Optional[LsodarOSI] = None,
        impact: Optional[OneStepNSProblem] = None,
        acceleration: Optional[OneStepNSProblem] = None,
        plugin_dirs=None,
        **attrs,
    ):
        super().__init__(nsds, td, plugin_dirs)
        self.osi = osi if osi is not None else LsodarOSI()
        self.impact, self.acceleration = impact, acceleration
        self.attrs = attrs

    def insertIntegrator(self, osi: LsodarOSI) -> None:
        self.osi = osi

    def insertNonSmoothProblem(self, problem: OneStepNSProblem, level: int) -> None:
        """Siconos: level 0 the impact problem, 1 the acceleration problem (both LCPs)."""
        if level == 0:
            self.impact = problem
        else:
            self.acceleration = problem

    def _sim_element(self, root):
        ed = ET.SubElement(root, "EventDriven", _attrs(self.attrs))
        ET.SubElement(ed, "TimeDiscretisation", h=_num(self.td.h))
        self.osi._element(ET.SubElement(ed, "OneStepIntegrator"))
        for tag, p in (("ImpactProblem", self.impact), ("AccelerationProblem", self.acceleration)):
            if p is not None:
                ET.SubElement(ET.SubElement(ed, tag), p.solver, _attrs(p.options))
        if self.control is not None:
            self.control._element(ed)


class NullSpaceBasis:
    """A generated null-space basis for ``NullSpace``: ``D(q)`` (``function``, a
    ``VectorFieldFn`` writing the n×r matrix column-major) and its derivative along the velocity
    ``Ḋ(q, v)`` (``derivative``, a ``LagrangianFn``), from a plugin library (e.g. one written by
    ``python/saltus/nullspace_codegen.py``). ``NullSpaceBasis.generated(library, prefix)`` names
    the generator's symbols ``PREFIX_basis`` and ``PREFIX_basis_dot``."""

    def __init__(self, library: str, function: str, derivative: str, params: Optional[Sequence[float]] = None):
        self.library, self.function, self.derivative = os.fspath(library), str(function), str(derivative)
        self.params = None if params is None else [float(p) for p in params]

    @classmethod
    def generated(cls, library: str, prefix: str, params: Optional[Sequence[float]] = None) -> "NullSpaceBasis":
        """The basis of a plugin generated by ``nullspace_codegen.py`` with symbol prefix ``prefix``."""
        return cls(library, f"{prefix}_basis", f"{prefix}_basis_dot", params)

    def _attrs(self):
        a = {"library": self.library, "function": self.function, "derivative": self.derivative}
        if self.params is not None:
            a["params"] = " ".join(_num(p) for p in self.params)
        return a


class NullSpace(UserEvents, FileRunSimulation):
    """The projection (null-space) method of Blajer (issue 32) for one Lagrangian system
    (``LagrangianDS`` or ``LagrangianLinearTIDS``) whose interactions are bilateral holonomic
    constraints (``EqualityConditionNSL`` with ``LagrangianLinearTIR``,
    ``LagrangianScleronomousR`` or ``LagrangianRheonomousR``): for ``M q̈ = F + C_Jᵀ λ``,
    ``C(t, q) = 0`` and a basis ``D(q)`` of the null space of ``C_J``, the motion is the ODE

        q̇ = D u,   DᵀMD u̇ = Dᵀ(F − M Ḋ u),   λ = −(C_J M⁻¹ C_Jᵀ)⁻¹ C_J (M⁻¹F − Ḋ u)

    in ``(q, u)`` (no multiplier in the state), integrated by the LSODA-class integrator at
    ``rtol``/``atol`` with outputs every ``td.h``. ``basis``: ``None`` for the numeric QR-chart
    basis, or a ``NullSpaceBasis`` (generated plugin). ``gamma``: ``γ = (d C_J/dt) v`` as a
    plugin ``"library:function"`` (default: from the relations' ``dot_jacobian_q`` when every
    one gives it, else central differences). ``drift_tol``: ``q`` is projected (mass weighted)
    onto ``C = 0`` after an output step whose ``max_i |C_i|`` exceeds it (0: never).

    ``run()`` returns ``{column: numpy array}`` as ``saltus run`` writes the CSV of the same
    model (``"t"``, ``"DS.q[i]"``, ``"DS.v[i]"``, ``"INTER.lambda[k]"`` with Siconos's sign,
    ``"violation"``); ``arrays(out)`` stacks them as ``t``, ``q``, ``v``, ``lambda``,
    ``violation``; ``summary()`` adds ``new_charts``, ``projections``, ``max_violation``,
    ``ode_steps`` and ``rhs_evals``. ``xml()`` is the model file (``saltus run`` runs it when it
    has no Python callables)."""

    def __init__(
        self,
        nsds: NonSmoothDynamicalSystem,
        td: TimeDiscretisation,
        rtol: Optional[float] = None,
        atol: Optional[float] = None,
        drift_tol: Optional[float] = None,
        max_distortion: Optional[float] = None,
        basis: Optional[NullSpaceBasis] = None,
        gamma: Optional[str] = None,
        gamma_params: Optional[Sequence[float]] = None,
        plugin_dirs=None,
    ):
        _check_nsds_td(nsds, td)
        if basis is not None and not isinstance(basis, NullSpaceBasis):
            raise TypeError(f"basis: None (numeric QR charts) or a NullSpaceBasis, got {type(basis).__name__}")
        self.nsds, self.td, self.basis = nsds, td, basis
        self.attrs = {"rtol": rtol, "atol": atol, "drift_tol": drift_tol, "max_distortion": max_distortion}
        self.attrs = {k: None if v is None else float(v) for k, v in self.attrs.items()}
        self.gamma = None if gamma is None else _siconos_plugin(gamma, "NullSpace gamma")
        self.gamma_params = None if gamma_params is None else [float(p) for p in gamma_params]
        self.plugin_dirs = [os.fspath(p) for p in (plugin_dirs or [])]
        self.output_every: Optional[int] = None
        self._core = None

    def _tree(self, host: _Host) -> ET.Element:
        root = ET.Element("Model", version="1.0")
        if self.nsds.title:
            root.set("title", self.nsds.title)
        self.nsds._element(root, host)
        el = ET.SubElement(root, "NullSpace", _attrs(self.attrs))
        ET.SubElement(el, "TimeDiscretisation", h=_num(self.td.h))
        if self.basis is not None:
            ET.SubElement(el, "Basis", self.basis._attrs())
        if self.gamma is not None:
            g = {"library": self.gamma[0], "function": self.gamma[1]}
            if self.gamma_params is not None:
                g["params"] = " ".join(_num(p) for p in self.gamma_params)
            ET.SubElement(el, "Gamma", g)
        self._events_element(root, host)
        if self.output_every is not None:
            ET.SubElement(root, "Output", every=str(int(self.output_every)))
        return root

    def xml(self, host: Optional[_Host] = None) -> str:
        """The model file of this NSDS run by the null-space method."""
        return _xml_text(self._tree(host if host is not None else _Host()))

    @property
    def core(self):
        """The compiled model (built on first access)."""
        if self._core is None:
            host = _Host()
            text = self.xml(host)
            self._core = _saltus.CoreModelRun.from_xml(
                text,
                os.path.join(os.getcwd(), "<python model>"),
                self.plugin_dirs,
                None if host.empty() else host.as_dict(),
            )
        return self._core

    @core.setter
    def core(self, value):
        self._core = value

    def arrays(self, out: Dict[str, np.ndarray]) -> Dict[str, np.ndarray]:
        """The columns of ``run()`` stacked: ``t`` (N), ``q`` and ``v`` (N×n), ``lambda`` (N×m,
        the interactions' rows in declaration order) and ``violation`` (N)."""
        names = self.core.columns()
        lam = [c for c in names if ".lambda[" in c]
        q = [c for c in names if ".q[" in c and c not in lam]
        v = [c for c in names if ".v[" in c and c not in lam]
        stack = lambda cols: np.column_stack([out[c] for c in cols])  # noqa: E731
        return {"t": out["t"], "q": stack(q), "v": stack(v), "lambda": stack(lam), "violation": out["violation"]}


def to_xml(nsds: NonSmoothDynamicalSystem, sim: Simulation, path: Optional[str] = None) -> str:
    """The Saltus model file of ``nsds`` simulated by ``sim`` (written to ``path`` if given);
    ``saltus run`` runs it. Models with Python callables cannot be written (use plugins)."""
    if not isinstance(sim, (_Built, NullSpace)) or sim.nsds is not nsds:
        raise SaltusError("to_xml(nsds, sim): sim must be a TimeStepping, EventDriven or NullSpace built on this nsds")
    host = _Host()
    text = sim.xml(host)
    if not host.empty():
        names = host.names()
        raise SaltusError(
            f"the model uses Python callables ({', '.join(names)}), which a model file cannot hold: "
            "use plugin libraries (setComputeFExtFunction(library, function), ...) to write it"
        )
    if path is not None:
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
    return text
