"""Siconos 4.4 timing of the column of beads of `benches/step.rs` (same model and solver settings).

Usage: /usr/bin/python3 siconos_beads.py N [N ...] [--runs 3] [--gap 0.0]
Prints CSV: case,n,steps,median_total_s,min_total_s,us_per_step
Model: N LagrangianLinearTIDS (1 dof, mass 1, F_ext = -9.81), radius 0.05, gap 0.01, contacts
ground-bead0 (H = [1], b = -r) and bead(i-1)-bead(i) (H = [-1, 1], b = -2r), NewtonImpactNSL(0.5),
MoreauJeanOSI(0.5) with activation threshold 1e-9, h = 1e-3, T = 1 s, LCP solved by SICONOS_LCP_PGS (tol 1e-8, max 50 sweeps).
"""
import argparse
import statistics
import time

import siconos.kernel as sk
import siconos.numerics as sn

R, M, G, E, H, T = 0.05, 1.0, 9.81, 0.5, 1e-3, 1.0
GAP = 0.0
TOL, MAX_ITER = 1e-8, 50


def simulate(n):
    nsds = sk.NonSmoothDynamicalSystem(0.0, T)
    beads = []
    for i in range(n):
        z0 = R + GAP + i * (2 * R + GAP)
        ds = sk.LagrangianLinearTIDS([z0], [0.0], [[M]])
        ds.setFExtPtr([-M * G])
        nsds.insertDynamicalSystem(ds)
        beads.append(ds)
    for i in range(n):
        law = sk.NewtonImpactNSL(E)
        if i == 0:
            rel = sk.LagrangianLinearTIR([[1.0]], [-R])
            nsds.link(sk.Interaction(law, rel), beads[0])
        else:
            rel = sk.LagrangianLinearTIR([[-1.0, 1.0]], [-2 * R])
            nsds.link(sk.Interaction(law, rel), beads[i - 1], beads[i])
    osi = sk.MoreauJeanOSI(0.5)
    osi.setConstraintActivationThreshold(1e-9)
    td = sk.TimeDiscretisation(0.0, H)
    lcp = sk.LCP(sn.SICONOS_LCP_PGS)
    opts = lcp.numericsSolverOptions()
    opts.iparam[sn.SICONOS_IPARAM_MAX_ITER] = MAX_ITER
    opts.dparam[sn.SICONOS_DPARAM_TOL] = TOL
    sim = sk.TimeStepping(nsds, td, osi, lcp)
    q = beads[0].q()
    acc = 0.0
    k = 0
    while sim.hasNextEvent():
        sim.computeOneStep()
        acc += q[0]
        sim.nextStep()
        k += 1
    return k, acc


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("n", type=int, nargs="+")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--gap", type=float, default=0.0)
    a = ap.parse_args()
    global GAP
    GAP = a.gap
    name = "siconos_beads_stack" if GAP == 0.0 else "siconos_beads_fall"
    print("case,n,steps,median_total_s,min_total_s,us_per_step")
    for n in a.n:
        totals = []
        steps = 0
        for _ in range(a.runs):
            tic = time.perf_counter()
            steps, _ = simulate(n)
            totals.append(time.perf_counter() - tic)
        med = statistics.median(totals)
        print(f"{name},{n},{steps},{med:.6e},{min(totals):.6e},{med / steps * 1e6:.4f}", flush=True)


if __name__ == "__main__":
    main()
