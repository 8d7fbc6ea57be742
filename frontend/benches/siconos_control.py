#!/usr/bin/python3
"""Siconos 4.4 side of the whole-process benchmark for the `<Control>` samples (run with
/usr/bin/python3): the same setups as samples/smc_double_integrator/{model,model_explicit,
model_twisting}.xml and samples/dc_motor_pid_observer/model.xml (the parameters of those files;
the samples' siconos_compare.py / siconos_twisting.py hold the same setups and write the
reference CSVs), built and run with ControlZOHSimulation in process, after import.

    /usr/bin/python3 siconos_control.py CASE [--runs 5]
    CASE: smc_implicit | smc_explicit | smc_twisting | dc_motor

Prints `case,rows,median_s,min_s,runs,final_state` (a timed run: construction + run + the data
matrix as a numpy array)."""
import argparse
import statistics
import time

import numpy as np
from siconos.control.controller import PID, ExplicitLinearSMC, ExplicitTwisting, LinearSMC
from siconos.control.observer import LuenbergerObserver
from siconos.control.sensor import LinearSensor
from siconos.control.simulation import ControlZOHSimulation
from siconos.kernel import FirstOrderLinearTIDS

DOUBLE_INTEGRATOR = np.array([[0.0, 1.0], [0.0, 0.0]])


def zoh(T, h, main_only=True):
    sim = ControlZOHSimulation(0.0, T, h)
    sim.setSaveOnlyMainSimulation(main_only)
    sim.silent(True)
    return sim


def smc(cls):
    ds = FirstOrderLinearTIDS(np.array([1.0, 0.0]), DOUBLE_INTEGRATOR)
    sim = zoh(3.0, 1e-3)
    sim.addDynamicalSystem(ds)
    sensor = LinearSensor(ds, np.eye(2), np.zeros((2, 2)))
    sim.addSensor(sensor, 1e-2)
    act = cls(sensor)
    act.setCsurface(np.array([[1.0, 1.0]]))
    act.setB(np.array([[0.0], [1.0]]))
    act.setAlpha(2.0)
    sim.addActuator(act, 1e-2)
    sim.initialize()
    sim.run()
    return np.array(sim.data())


def twisting():
    ds = FirstOrderLinearTIDS(np.array([1.0, 0.0]), DOUBLE_INTEGRATOR)
    sim = zoh(8.0, 1e-3)
    sim.addDynamicalSystem(ds)
    sensor = LinearSensor(ds, np.eye(2), np.zeros((2, 2)))
    sim.addSensor(sensor, 1e-2)
    act = ExplicitTwisting(sensor, 2.0, 0.5)
    act.setCsurface(np.eye(2))  # needed by CommonSMC::initialize, unused by this law
    sim.addActuator(act, 1e-2)
    sim.initialize()
    sim.run()
    return np.array(sim.data())


def dc_motor():
    J, bf, K, R, L = 0.01, 0.1, 0.01, 1.0, 0.5
    A = np.array([[-bf / J, K / J], [-K / L, -R / L]])
    C = np.array([[1.0, 0.0]])
    ds = FirstOrderLinearTIDS(np.array([0.0, 0.0]), A)
    sim = zoh(2.0, 1e-3, main_only=False)
    sim.addDynamicalSystem(ds)
    sensor = LinearSensor(ds, C, np.zeros((1, 2)))
    sim.addSensor(sensor, 1e-2)
    pid = PID(sensor, np.array([[0.0], [1.0 / L]]))
    pid.setK(np.array([100.0, 200.0, 1.0]))
    pid.setRef(1.0)
    sim.addActuator(pid, 1e-2)
    sim.addObserver(LuenbergerObserver(sensor, np.array([0.5, -1.0]), C, np.array([[-38.0], [-503.98]])), 1e-2)
    sim.initialize()
    pid.setDeltaT(1e-2)  # PID::initialize sets the plant step; the controller period is meant
    sim.run()
    return np.array(sim.data())


CASES = {
    "smc_implicit": lambda: smc(LinearSMC),
    "smc_explicit": lambda: smc(ExplicitLinearSMC),
    "smc_twisting": twisting,
    "dc_motor": dc_motor,
}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("case", choices=sorted(CASES))
    ap.add_argument("--runs", type=int, default=5)
    args = ap.parse_args()
    times = []
    for _ in range(args.runs):
        tic = time.perf_counter()
        d = CASES[args.case]()
        times.append(time.perf_counter() - tic)
    final = " ".join(f"{v:.17g}" for v in d[-1, 1:3])
    print(f"{args.case},{len(d)},{statistics.median(times):.6f},{min(times):.6f},{len(times)},{final}")


if __name__ == "__main__":
    main()
