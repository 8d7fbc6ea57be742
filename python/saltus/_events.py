"""User events of the Python-built kernel simulations (``add_event`` on ``TimeStepping``,
``EventDriven`` and ``NullSpace``): each becomes an ``<Event>`` of the model file's ``<Events>``,
Python callables as ``library=":host"`` functions, so a Python model runs its events exactly as
``saltus run`` runs the file."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from typing import Callable, Optional, Sequence, Union

import numpy as np

from ._xml import HOST, _Host, _num, _vec

_DIRECTIONS = ("rising", "falling", "both")
_ACTIONS = ("record", "stop", "reset")


class _Event:
    def __init__(self, name, ds, a, b, function, direction, action, reset, window):
        self.name, self.ds, self.a, self.b = name, ds, a, b
        self.function, self.direction, self.action, self.reset, self.window = function, direction, action, reset, window


class UserEvents:
    """``add_event`` for the simulations of a Python-built model (mixed into ``TimeStepping``,
    ``EventDriven`` and ``NullSpace``)."""

    _events: tuple = ()

    def add_event(
        self,
        name: str,
        ds,
        a: Optional[Sequence[float]] = None,
        b: float = 0.0,
        function: Optional[Callable] = None,
        direction: str = "both",
        action: str = "record",
        reset: Optional[Callable] = None,
        window: Optional[float] = None,
    ) -> None:
        """A user event (as ``<Events>`` in a model file) on the state ``s`` of the system ``ds``
        (the system or its name): ``x`` for a first-order system, ``(q, v)`` for a Lagrangian one.
        The trigger is linear, ``g = a·s + b``, or ``function(t, s) -> float``; ``direction``
        ``"rising"``, ``"falling"`` or ``"both"``; ``action`` ``"record"`` (a row with ``event`` =
        its number), ``"stop"`` (the run ends there) or ``"reset"`` with ``reset(t, s) -> s⁺``;
        ``window`` bounds the localization window. Event driven and null space locate the events on
        the integrator's dense output, time stepping on each step's linear interpolant
        (``docs/model-format.md``, User events). Add them before the first step."""
        if getattr(self, "_core_obj", None) is not None or getattr(self, "_core", None) is not None:
            raise RuntimeError(f"add_event({name!r}): add events before the simulation is built (its first step)")
        if (a is None) == (function is None):
            raise ValueError(f"add_event({name!r}): give the trigger as a (coefficients) or function, one of them")
        if function is not None and not callable(function):
            raise TypeError(f"add_event({name!r}): function must be callable (t, s) -> float")
        if direction not in _DIRECTIONS:
            raise ValueError(f"add_event({name!r}): direction is one of {_DIRECTIONS}, got {direction!r}")
        if action not in _ACTIONS:
            raise ValueError(f"add_event({name!r}): action is one of {_ACTIONS}, got {action!r}")
        if (action == "reset") != (reset is not None):
            raise ValueError(f"add_event({name!r}): a reset(t, s) goes with action='reset' and only with it")
        if reset is not None and not callable(reset):
            raise TypeError(f"add_event({name!r}): reset must be callable (t, s) -> s⁺")
        if window is not None and not (np.isfinite(window) and window > 0):
            raise ValueError(f"add_event({name!r}): window must be finite and > 0, got {window}")
        if any(e.name == name for e in self._events):
            raise ValueError(f"add_event: an event named {name!r} already exists")
        coeffs = None if a is None else _vec(a, f"event {name!r}: a")
        ev = _Event(str(name), ds, coeffs, float(b), function, direction, action, reset, window)
        self._events = (*self._events, ev)

    def _events_element(self, root: ET.Element, host: _Host) -> None:
        """Writes ``<Events>`` under ``root`` (nothing without events)."""
        if not self._events:
            return
        systems = self.nsds.systems
        el = ET.SubElement(root, "Events")
        for e in self._events:
            ds = _ds_name(e.ds, systems, e.name)
            attrs = {"name": e.name, "ds": ds, "direction": e.direction, "action": e.action}
            if e.window is not None:
                attrs["window"] = _num(e.window)
            ev = ET.SubElement(el, "Event", attrs)
            key = f"event.{e.name}"
            if e.a is not None:
                ET.SubElement(ev, "Linear", a=" ".join(_num(x) for x in e.a), b=_num(e.b))
            else:
                f = e.function
                host.state_vec[key] = lambda t, s, f=f: np.atleast_1d(np.asarray(f(t, s), dtype=np.float64))
                ET.SubElement(ev, "Function", library=HOST, function=key)
            if e.reset is not None:
                host.state_vec[key + ".reset"] = e.reset
                ET.SubElement(ev, "Reset", library=HOST, function=key + ".reset")


def _ds_name(ds: Union[str, object], systems, event: str) -> str:
    """The model-file name of ``ds`` (a system of the model, or its name)."""
    if isinstance(ds, str):
        if not any(d.name == ds for d in systems):
            known = ", ".join(str(d.name) for d in systems)
            raise ValueError(f"event {event!r}: no dynamical system {ds!r} in the model (known: {known})")
        return ds
    if not any(d is ds for d in systems):
        raise ValueError(f"event {event!r}: its dynamical system is not in the model")
    return ds.name
