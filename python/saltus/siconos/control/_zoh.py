"""``siconos.control`` on Saltus: ``ControlZOHSimulation`` with its sensors, controllers and
observers, run by Saltus's control toolbox (the ``control`` crate): the scene the script
builds is written as a ``<Control>`` model file (``schemas/saltus-model.xsd``) and run by
``saltus.load`` at ``run()``; ``data()`` gives Siconos's data matrix (one row per plant step
from ``t0`` to ``T``: ``t``, the plant's state, then each actuator's input and each observer's
estimate, in the order they were added), ``dataLegend()`` its column names.

The plant is a ``FirstOrderLinearTIDS`` (or a ``FirstOrderLinearDS`` with constant ``A`` and
``b``), integrated exactly over each step (zero-order hold, as Siconos's
``ControlZOHSimulation``), its ``b`` possibly a function of time (``setComputebFunction`` or an
overridden ``computeb``), held at ``b(t_{k+1})`` over each step as Siconos's ``ZeroOrderHoldOSI``.
Controllers: ``LinearSMC`` (implicit), ``ExplicitLinearSMC``, ``PID``, ``ExplicitTwisting``,
``LinearSMCOT2``; observer: ``LuenbergerObserver``; sensor: ``LinearSensor``.
``ControlLsodarSimulation`` runs the same pieces on the event-driven engine (LSODAR), and
``ControlManager`` on a user-built ``TimeStepping`` or ``EventDriven`` (its plant integrated by
the simulation's integrator, with its interactions). Not provided (``SiconosFeatureNotSupported``):
the other controllers (``LinearSMCimproved``, ``Twisting``,
``RegularTwisting``, ...), an ``A(t)`` in ``ControlZOHSimulation``.
"""

from __future__ import annotations

import os
import tempfile
import xml.etree.ElementTree as ET
from typing import List, Optional

import numpy as np

from saltus.siconos._unsupported import raise_unsupported


def _fmt(a) -> str:
    return " ".join(repr(float(x)) for x in np.asarray(a, dtype=float).ravel())


def _mat(parent, tag: str, m) -> None:
    a = np.atleast_2d(np.asarray(m, dtype=float))
    el = ET.SubElement(parent, tag, rows=str(a.shape[0]), cols=str(a.shape[1]))
    el.text = _fmt(a)


class LinearSensor:
    """Siconos ``LinearSensor(ds, C[, D])``: ``y = C x`` (``D`` must be zero: no input feedthrough)."""

    def __init__(self, ds, C=None, D=None):
        if D is not None and np.any(np.asarray(D, dtype=float) != 0):
            raise_unsupported("LinearSensor with D != 0")
        self._ds = ds
        self._C = None if C is None else np.atleast_2d(np.asarray(C, dtype=float))
        self._name = None

    def _element(self, parent, name: str, period: float) -> None:
        el = ET.SubElement(parent, "LinearSensor", name=name, period=repr(float(period)))
        if self._C is not None:
            _mat(el, "C", self._C)


class _Actuator:
    _kind = ""

    def __init__(self, sensor, B=None):
        if not isinstance(sensor, LinearSensor):
            raise TypeError(f"{type(self).__name__}(sensor): a LinearSensor, got {type(sensor).__name__}")
        self._sensor = sensor
        self._B = None if B is None else np.atleast_2d(np.asarray(B, dtype=float))

    def setB(self, B) -> None:
        """Input matrix ``B`` (the plant gets ``B u``)."""
        self._B = np.atleast_2d(np.asarray(B, dtype=float))

    def _need_B(self):
        if self._B is None:
            raise ValueError(f"{type(self).__name__}: setB(B) before the simulation")
        return self._B


class _CommonSMC(_Actuator):
    def __init__(self, sensor, B=None):
        super().__init__(sensor, B)
        self._Cs = None
        self._D = None
        self._alpha = None
        self._theta = None

    def setCsurface(self, Csurface) -> None:
        """Sliding surface ``σ = Csurface x``."""
        self._Cs = np.atleast_2d(np.asarray(Csurface, dtype=float))

    def setSaturationMatrix(self, D) -> None:
        """Saturation matrix ``D`` (the boundary layer)."""
        self._D = np.atleast_2d(np.asarray(D, dtype=float))

    def setAlpha(self, alpha: float) -> None:
        """Gain ``α`` of the discontinuous part ``u_s ∈ −α Sgn(σ)`` (default 1)."""
        self._alpha = float(alpha)

    def setTheta(self, theta: float) -> None:
        """θ of the discretisation of the sliding variable's dynamics."""
        self._theta = float(theta)

    def _element(self, parent, name: str, sensor: str, period: float) -> None:
        if self._Cs is None:
            raise ValueError(f"{type(self).__name__}: setCsurface(C) before the simulation")
        el = ET.SubElement(parent, self._kind, name=name, sensor=sensor, period=repr(float(period)))
        if self._alpha is not None:
            el.set("alpha", repr(self._alpha))
        if self._theta is not None:
            el.set("theta", repr(self._theta))
        _mat(el, "Csurface", self._Cs)
        _mat(el, "B", self._need_B())
        if self._D is not None:
            _mat(el, "D", self._D)


class LinearSMC(_CommonSMC):
    """Siconos ``LinearSMC(sensor[, B])``: implicit (equivalent + discontinuous) sliding-mode control."""

    _kind = "LinearSMC"


class ExplicitLinearSMC(_CommonSMC):
    """Siconos ``ExplicitLinearSMC(sensor[, B])``: the explicit discretisation (chattering)."""

    _kind = "ExplicitLinearSMC"


class LinearSMCOT2(_Actuator):
    """Siconos ``LinearSMCOT2(sensor[, B])``: sliding-mode control with a one-period disturbance
    predictor (``setCsurface``, ``setB``; the last entry of ``u`` in ``[−2, 2]``, as Siconos); see
    ``<LinearSMCOT2>`` in ``docs/model-format.md``."""

    _kind = "LinearSMCOT2"

    def __init__(self, sensor, B=None):
        super().__init__(sensor, B)
        self._Cs = None

    def setCsurface(self, Csurface) -> None:
        """Sliding surface ``σ = Csurface x`` (its first row is used)."""
        self._Cs = np.atleast_2d(np.asarray(Csurface, dtype=float))

    def _element(self, parent, name: str, sensor: str, period: float) -> None:
        if self._Cs is None:
            raise ValueError("LinearSMCOT2: setCsurface(C) before the simulation")
        el = ET.SubElement(parent, "LinearSMCOT2", name=name, sensor=sensor, period=repr(float(period)))
        _mat(el, "Csurface", self._Cs)
        _mat(el, "B", self._need_B())


class PID(_Actuator):
    """Siconos ``PID(sensor[, B])``: velocity-form PID on the first sensor output;
    ``setK([Kp, Ki, Kd])``, ``setRef(r)``, ``setDeltaT(dt)``."""

    _kind = "PID"

    def __init__(self, sensor, B=None):
        super().__init__(sensor, B)
        self._K = None
        self._ref = None
        self._dt = None

    def setK(self, K) -> None:
        k = [float(x) for x in np.asarray(K, dtype=float).ravel()]
        if len(k) != 3:
            raise ValueError(f"PID.setK: [Kp, Ki, Kd], got {len(k)} numbers")
        self._K = k

    def setRef(self, ref: float) -> None:
        self._ref = float(ref)

    def setDeltaT(self, dt: float) -> None:
        self._dt = float(dt)

    def _element(self, parent, name: str, sensor: str, period: float) -> None:
        if self._K is None:
            raise ValueError("PID: setK([Kp, Ki, Kd]) before the simulation")
        el = ET.SubElement(parent, "PID", name=name, sensor=sensor, period=repr(float(period)),
                           Kp=repr(self._K[0]), Ki=repr(self._K[1]), Kd=repr(self._K[2]))
        if self._ref is not None:
            el.set("reference", repr(self._ref))
        if self._dt is not None:
            el.set("delta_t", repr(self._dt))
        _mat(el, "B", self._need_B())


class ExplicitTwisting(_Actuator):
    """Siconos ``ExplicitTwisting(sensor, gain, beta)``: ``u = (sgn(−y₀), sgn(−y₁))`` on a double
    integrator, ``B = [[0, 0], [gain, gain β]]``."""

    _kind = "ExplicitTwisting"

    def __init__(self, sensor, gain: float = None, beta: float = None):
        super().__init__(sensor)
        if gain is None or beta is None:
            raise_unsupported("ExplicitTwisting(sensor) without gain and beta")
        self._gain, self._beta = float(gain), float(beta)

    def _element(self, parent, name: str, sensor: str, period: float) -> None:
        ET.SubElement(parent, "ExplicitTwisting", name=name, sensor=sensor, period=repr(float(period)),
                      gain=repr(self._gain), beta=repr(self._beta))


class LuenbergerObserver:
    """Siconos ``LuenbergerObserver(sensor, xHat0[, C, L])`` (or ``setC``, ``setL``):
    ``x̂' = A x̂ + b + B u + L (C x̂ − y)``."""

    def __init__(self, sensor, xHat0, C=None, L=None):
        self._sensor = sensor
        self._x0 = np.asarray(xHat0, dtype=float).ravel()
        self._C = self._L = None
        if C is not None:
            self.setC(C)
        if L is not None:
            self.setL(L)

    def setC(self, C) -> None:
        self._C = np.atleast_2d(np.asarray(C, dtype=float))

    def setL(self, L) -> None:
        self._L = np.atleast_2d(np.asarray(L, dtype=float))

    def _element(self, parent, name: str, sensor: str, period: float) -> None:
        if self._C is None or self._L is None:
            raise ValueError("LuenbergerObserver: setC(C) and setL(L) before the simulation")
        el = ET.SubElement(parent, "LuenbergerObserver", name=name, sensor=sensor, period=repr(float(period)))
        _mat(el, "C", self._C)
        _mat(el, "L", self._L)
        ET.SubElement(el, "xhat0").text = _fmt(self._x0)


def _plant(ds, owner: str = "ControlZOHSimulation"):
    """``(x0, A, b)`` of a linear plant with a constant ``A``; ``b`` is a vector, ``None``, or a
    function ``b(t)``: from ``setComputebFunction`` (a callable or a Siconos C plugin) or an overridden
    ``computeb(time)`` that sets ``b`` (``setbPtr``), as the Siconos tutorials do."""
    from saltus.siconos import _kmodel as km

    if not isinstance(ds, (km.FirstOrderLinearTIDS, km.FirstOrderLinearDS)):
        raise_unsupported(f"{owner} with a {type(ds).__name__} plant", "a FirstOrderLinearTIDS")
    if getattr(ds, "_A_fn", None) is not None:
        raise_unsupported(f"{owner} with a time-dependent A(t)")
    if getattr(ds, "M", None) is not None:
        raise_unsupported(f"{owner} with a mass matrix M")
    ds._push_initial()
    b = getattr(ds, "_b", None)
    if getattr(type(ds), "computeb", None) is not None:
        def b_of_t(t, ds=ds):
            ds.computeb(t)
            return np.asarray(ds._b, dtype=float)

        b = b_of_t
    elif b is not None and not callable(b):
        b = np.asarray(b)
    return np.asarray(ds.x0, dtype=float), np.asarray(ds.A, dtype=float), b


class ControlZOHSimulation:
    """Siconos ``ControlZOHSimulation(t0, T, h)``: a linear plant integrated exactly by
    zero-order hold with step ``h``, sensors and actuators every their own period (a multiple
    of ``h``). Call ``addDynamicalSystem``, ``addSensor``, ``addActuator`` (``addObserver``),
    ``initialize()``, ``run()``, then read ``data()``."""

    def __init__(self, t0: float, T: float, h: float):
        self._t0, self._T, self._h = float(t0), float(T), float(h)
        self._ds = None
        self._sensors: List = []
        self._actuators: List = []
        self._observers: List = []
        self._data: Optional[np.ndarray] = None
        self._legend: List[str] = []
        self._only_main = False

    def setSaveOnlyMainSimulation(self, only: bool) -> None:
        """``True``: ``data()`` has the plant's columns only (``t``, ``x``, the inputs), as Siconos
        leaves out its observers' simulations; ``False`` (default): the observers' estimates
        follow (Siconos also writes each observer's copy of the input and its error ``e`` there:
        not written here)."""
        self._only_main = bool(only)

    def silent(self, flag: bool = True) -> None:
        """No progress output (there is none)."""

    def addDynamicalSystem(self, ds, name: str = "") -> None:
        if self._ds is not None:
            raise_unsupported("ControlZOHSimulation with several dynamical systems")
        self._ds = ds

    def addSensor(self, sensor, h: float) -> None:
        self._sensors.append((sensor, float(h)))

    def addActuator(self, actuator, h: float) -> None:
        self._actuators.append((actuator, float(h)))

    def addObserver(self, observer, h: float) -> None:
        self._observers.append((observer, float(h)))

    def initialize(self) -> None:
        if self._ds is None:
            raise ValueError("ControlZOHSimulation: addDynamicalSystem(ds) before initialize()")

    def _tree(self) -> ET.Element:
        """The ``<Control>`` model: the plant integrated exactly by zero-order hold."""
        root = self._model("siconos.control ControlZOHSimulation", self._T)
        periods = [p for _, p in self._sensors + self._actuators + self._observers] or [self._h]
        ctrl = ET.SubElement(root, "Control", ds="plant", h=repr(self._h), h_c=repr(min(periods)))
        self._pieces(ctrl)
        return root

    def _model(self, title: str, T: float):
        """``<Model>`` with ``<Time>`` (up to ``T``) and the plant's ``<NSDS>``."""
        x0, A, b = _plant(self._ds, type(self).__name__)
        root = ET.Element("Model", version="1.0", title=title)
        ET.SubElement(root, "Time", t0=repr(self._t0), T=repr(T))
        nsds = ET.SubElement(root, "NSDS")
        self._host = {}
        if callable(b):  # b(t): a FirstOrderLinearDS plant whose b is a host function
            ds = ET.SubElement(nsds, "FirstOrderLinearDS", name="plant")
            ET.SubElement(ds, "x0").text = _fmt(x0)
            _mat(ds, "A", A)
            self._host = {"time": {"plant.b": b}}
            ET.SubElement(ds, "b", size=str(len(x0)), library=":host", function="plant.b")
        else:
            ds = ET.SubElement(nsds, "FirstOrderLinearTIDS", name="plant")
            ET.SubElement(ds, "x0").text = _fmt(x0)
            _mat(ds, "A", A)
            if b is not None and np.any(b != 0):
                ET.SubElement(ds, "b").text = _fmt(b)
        self._legend = ["time"] + [f"x{i}" for i in range(len(x0))]
        return root

    def _pieces(self, ctrl) -> None:
        """The sensors, actuators and observers, each with its period, into ``ctrl``."""
        names = {}
        for k, (s, p) in enumerate(self._sensors):
            if s._ds is not self._ds:
                raise_unsupported("a sensor of another dynamical system than the plant")
            names[id(s)] = f"sensor{k}"
            s._element(ctrl, f"sensor{k}", p)
        for kind, items in (("actuator", self._actuators), ("observer", self._observers)):
            for k, (a, p) in enumerate(items):
                if id(a._sensor) not in names:
                    raise ValueError(f"{type(a).__name__}: its sensor was not added (addSensor)")
                a._element(ctrl, f"{kind}{k}", names[id(a._sensor)], p)

    def _run_tree(self, root):
        """Runs the model ``root``: ``(columns, {column: array})``."""
        import saltus

        fd, path = tempfile.mkstemp(suffix=".xml", prefix="saltus-control-")
        try:
            with os.fdopen(fd, "wb") as f:
                ET.ElementTree(root).write(f, encoding="UTF-8", xml_declaration=True)
            sim = saltus.simulation.FileRunSimulation(saltus._saltus.load_model(path, None, self._host or None))
            out = sim.run()
        finally:
            os.unlink(path)
        return sim.columns(), out

    def run(self) -> None:
        """Runs from t0 to T (Saltus's control toolbox, in Rust)."""
        cols, out = self._run_tree(self._tree())
        cols = self._kept(cols)
        self._data = np.column_stack([np.asarray(out[c], dtype=float) for c in cols])
        self._legend = ["time"] + cols[1:]

    def _kept(self, cols: List[str]) -> List[str]:
        """The columns of ``data()`` (see :meth:`setSaveOnlyMainSimulation`)."""
        if self._only_main:
            return [c for c in cols if not c.startswith("observer")]
        return cols

    def data(self) -> np.ndarray:
        """Siconos's data matrix: one row per plant step, ``t``, ``x``, the actuators' inputs,
        the observers' estimates."""
        if self._data is None:
            raise RuntimeError("ControlZOHSimulation.data(): run() first")
        return self._data

    def dataLegend(self) -> str:
        return " ".join(self._legend)


class ControlLsodarSimulation(ControlZOHSimulation):
    """Siconos ``ControlLsodarSimulation(t0, T, h)``: the plant integrated by the event-driven
    engine's LSODAR-class integrator (Saltus's ``<EventDriven>`` with ``<LsodarOSI/>`` and a
    ``<ControlManager>``), each actuator's ``B u`` held from its instant on (the integrator restarts
    there). Same calls and the same ``data()`` layout as :class:`ControlZOHSimulation`: one row
    per time-discretisation event from ``t0`` to ``T``."""

    def _lsodar_tree(self) -> ET.Element:
        root = self._model("siconos.control ControlLsodarSimulation", self._T)
        ed = ET.SubElement(root, "EventDriven")
        ET.SubElement(ed, "TimeDiscretisation", h=repr(self._h))
        ET.SubElement(ET.SubElement(ed, "OneStepIntegrator"), "LsodarOSI")
        self._pieces(ET.SubElement(ed, "ControlManager", ds="plant"))
        return root

    def run(self) -> None:
        """Runs from t0 to T (Saltus's event-driven engine and control toolbox, in Rust). The row
        of ``t0`` (the initial state and the inputs the actuators set there, before the first
        event) is the first row of the same plant and pieces under zero-order hold: the
        controllers' instants at ``t0`` see only ``x0``."""
        cols, out = self._run_tree(self._lsodar_tree())
        td = np.asarray(out["kind"], dtype=float) == 0.0
        keep = self._kept([c for c in cols if c != "kind"])
        events = np.column_stack([np.asarray(out[c], dtype=float)[td] for c in keep])
        _, first = self._run_tree(self._first_step_tree())
        start = np.array([[float(np.asarray(first[c], dtype=float)[0]) for c in keep]])
        self._data = np.vstack([start, events])
        self._legend = ["time"] + keep[1:]

    def _first_step_tree(self) -> ET.Element:
        T, self._T = self._T, self._t0 + self._h
        try:
            return self._tree()
        finally:
            self._T = T


def _period(td, what: str) -> float:
    h = getattr(td, "h", None)
    if h is None:
        if np.isscalar(td):
            return float(td)
        raise TypeError(f"{what}: a TimeDiscretisation (or a period), got {type(td).__name__}")
    return float(h)


class ControlManager:
    """Siconos ``ControlManager(sim)``: sensors, actuators and observers acting on a user's
    ``TimeStepping`` or ``EventDriven`` (Saltus's ``<ControlManager>`` inside ``<Simulation>`` or
    ``<EventDriven>``, run by the control toolbox in Rust). The plant is the system the sensors
    read: first order (each actuator's ``B u`` is added to its vector field) or Lagrangian with a constant mass (state ``(q, v)``, ``B u`` the acceleration of the velocity
    rows, applied as the force ``M (B u)_v``), held until the actuator's next instant (an
    event-driven run restarts its integrator there); every piece acts at its own period (a
    multiple of the step ``h``), sensors first, then observers, then actuators. Sliding-mode controllers and observers need a
    ``FirstOrderLinearTIDS`` or ``LagrangianLinearTIDS`` plant (its linear model)."""

    def __init__(self, sim):
        from saltus.siconos._ksim import EventDriven, TimeStepping

        if not isinstance(sim, (TimeStepping, EventDriven)):
            raise_unsupported(f"ControlManager on a {type(sim).__name__}", "a TimeStepping or an EventDriven")
        self._sim = sim
        self._sensors: List = []
        self._actuators: List = []
        self._observers: List = []
        sim.control = self

    def addSensorPtr(self, sensor, td) -> None:
        """Adds a sensor sampled every ``td.h``."""
        self._sensors.append((sensor, _period(td, "addSensorPtr")))

    def addActuatorPtr(self, actuator, td) -> None:
        """Adds an actuator acting every ``td.h``."""
        self._actuators.append((actuator, _period(td, "addActuatorPtr")))

    def addObserverPtr(self, observer, td) -> None:
        """Adds an observer processing every ``td.h``."""
        self._observers.append((observer, _period(td, "addObserverPtr")))

    def addSensor(self, *args, **kwargs):
        raise_unsupported("ControlManager.addSensor(type, td, ds) (a sensor made by type number)",
                          "build a LinearSensor and call addSensorPtr")

    addActuator = addSensor
    addObserver = addSensor

    def initialize(self, nsds=None) -> None:
        """Checks that the sensors read one system of the simulation's model."""
        self._plant()

    def _plant(self):
        plants = {id(s._ds): s._ds for s, _ in self._sensors}
        if len(plants) != 1:
            raise_unsupported("a ControlManager whose sensors read several systems (or none)",
                              "the sensors of one system")
        ds = next(iter(plants.values()))
        if not any(d is ds for d in self._sim.nsds.systems):
            raise ValueError("ControlManager: the sensors' system is not in the simulation's model")
        return ds

    def _element(self, parent) -> None:
        ds = self._plant()
        el = ET.SubElement(parent, "ControlManager", ds=ds.name)
        names = {}
        for k, (s, p) in enumerate(self._sensors):
            names[id(s)] = f"sensor{k}"
            s._element(el, f"sensor{k}", p)
        for kind, items in (("actuator", self._actuators), ("observer", self._observers)):
            for k, (a, p) in enumerate(items):
                if id(a._sensor) not in names:
                    raise ValueError(f"{type(a).__name__}: its sensor was not added (addSensorPtr)")
                a._element(el, f"{kind}{k}", names[id(a._sensor)], p)
