#!/usr/bin/python3
"""Siconos 4.4 side of the whole-process benchmark: runs a saltus model file with the Siconos
Python API, in process, and prints its time (run with /usr/bin/python3, which has python3-siconos).

    /usr/bin/python3 siconos_xml.py MODEL.xml [--runs 5] [--check SALTUS.csv]

The model file is read with xml.etree and rebuilt with the Siconos classes of the same names (the
linear models of the samples: LagrangianLinearTIDS, FirstOrderLinearTIDS, LagrangianLinearTIR,
FirstOrderLinearTIR, the Newton, friction, complementarity, relay and equality laws;
MoreauJeanOSI, MoreauJeanGOSI and EulerMoreauOSI time stepping with LCP, Relay, FrictionContact,
GlobalFrictionContact or GenericMechanical). A timed run is what the scripts of
../shared/reference time: model construction, the time loop (hasNextEvent / computeOneStep /
nextStep) and recording every state and multiplier into a numpy array each step (the columns
`saltus run` writes), after `import`. Prints `model,steps,median_s,min_s,runs[,max_abs_diff]`;
with --check, max_abs_diff is the largest difference between the last row of Siconos and of a
`saltus run` CSV on the state columns (a check that both ran the same model).
A model that uses anything else raises `Unsupported` (exit 2)."""
import argparse
import statistics
import sys
import time
import xml.etree.ElementTree as ET

import numpy as np
import siconos.kernel as sk
import siconos.numerics as sn


class Unsupported(Exception):
    pass


def vec(el):
    return np.array([float(x) for x in el.text.split()])


def mat(el):
    r, c = int(el.get("rows")), int(el.get("cols"))
    return vec(el).reshape(r, c)


def set_present(el, setters):
    """Calls `setter(convert(child))` for each `(tag, convert, setter)` whose child `tag` is present."""
    for tag, convert, setter in setters:
        if el.find(tag) is not None:
            setter(convert(el.find(tag)))


def build(root):
    t0 = float(root.find("Time").get("t0"))
    T = float(root.find("Time").get("T"))
    nsds = sk.NonSmoothDynamicalSystem(t0, T)
    nsds_el = root.find("NSDS")
    if nsds_el is None:
        raise Unsupported("not an <NSDS> model")
    systems, names = {}, []
    for el in nsds_el:
        if el.tag == "LagrangianLinearTIDS":
            ds = sk.LagrangianLinearTIDS(vec(el.find("q0")), vec(el.find("v0")), mat(el.find("Mass")))
            if el.find("FExt") is not None and el.find("FExt").get("library"):
                raise Unsupported("FExt plugin")
            set_present(el, [("K", mat, ds.setKPtr), ("C", mat, ds.setCPtr), ("FExt", vec, ds.setFExtPtr)])
            lag = True
        elif el.tag == "FirstOrderLinearTIDS":
            ds = sk.FirstOrderLinearTIDS(vec(el.find("x0")), mat(el.find("A")))
            set_present(el, [("b", vec, ds.setbPtr), ("Mass", mat, ds.setMPtr)])
            lag = False
        elif el.tag == "Interaction":
            continue
        else:
            raise Unsupported(el.tag)
        nsds.insertDynamicalSystem(ds)
        systems[el.get("name")] = (ds, lag)
        names.append(el.get("name"))
    inters = []
    for el in nsds_el.findall("Interaction"):
        rel_el = el.find("Relation")[0]
        if rel_el.tag == "LagrangianLinearTIR":
            b = rel_el.find("b")
            H = mat(rel_el.find("H"))
            rel = sk.LagrangianLinearTIR(H) if b is None else sk.LagrangianLinearTIR(H, vec(b))
        elif rel_el.tag == "FirstOrderLinearTIR":
            rel = sk.FirstOrderLinearTIR(mat(rel_el.find("C")), mat(rel_el.find("B")))
            set_present(rel_el, [("D", mat, rel.setDPtr), ("e", vec, rel.setePtr)])
        else:
            raise Unsupported(rel_el.tag)
        law = el.find("NonSmoothLaw")[0]
        if law.tag == "NewtonImpactNSL":
            nsl = sk.NewtonImpactNSL(float(law.get("e")))
        elif law.tag == "NewtonImpactFrictionNSL":
            nsl = sk.NewtonImpactFrictionNSL(float(law.get("en")), float(law.get("et")), float(law.get("mu")), int(law.get("dim", "3")))
        elif law.tag == "ComplementarityConditionNSL":
            nsl = sk.ComplementarityConditionNSL(int(law.get("size")))
        elif law.tag == "EqualityConditionNSL":
            nsl = sk.EqualityConditionNSL(int(law.get("size")))
        elif law.tag == "RelayNSL":
            lb, ub = vec(law.find("lb")), vec(law.find("ub"))
            if lb.min() != lb.max() or ub.min() != ub.max():
                raise Unsupported("RelayNSL with different bounds per row")
            nsl = sk.RelayNSL(len(lb), float(lb[0]), float(ub[0]))
        else:
            raise Unsupported(law.tag)
        inter = sk.Interaction(nsl, rel)
        ds_names = el.get("ds").split()
        nsds.link(inter, *[systems[n][0] for n in ds_names])
        inters.append(inter)
    return nsds, [systems[n] for n in names], inters, t0


def solver_options(problem, opts_el):
    so = problem.numericsSolverOptions()
    if opts_el is not None:
        if opts_el.get("tol") is not None:
            so.dparam[sn.SICONOS_DPARAM_TOL] = float(opts_el.get("tol"))
        if opts_el.get("max_iter") is not None:
            so.iparam[sn.SICONOS_IPARAM_MAX_ITER] = int(opts_el.get("max_iter"))


def simulation(root, nsds, t0):
    sim_el = root.find("Simulation")
    if sim_el is None:
        raise Unsupported("no <Simulation> (event driven or other)")
    if sim_el.find("Newton") is not None or sim_el.find("Projection") is not None:
        raise Unsupported("Newton or projection options")
    h = float(sim_el.find("TimeDiscretisation").get("h"))
    osi_el = sim_el.find("OneStepIntegrator")[0]
    theta = float(osi_el.get("theta", "0.5"))
    if osi_el.tag == "MoreauJeanOSI":
        osi = sk.MoreauJeanOSI(theta, float(osi_el.get("gamma"))) if osi_el.get("gamma") else sk.MoreauJeanOSI(theta)
        level = 1
    elif osi_el.tag == "MoreauJeanGOSI":
        osi = sk.MoreauJeanGOSI(theta)
        level = 1
    elif osi_el.tag == "EulerMoreauOSI":
        osi = sk.EulerMoreauOSI(theta)
        level = 0
    else:
        raise Unsupported(osi_el.tag)
    p_el = sim_el.find("OneStepNSProblem")[0]
    s_el = p_el[0] if len(p_el) else None
    solver = None if s_el is None else s_el.tag
    if p_el.tag == "LCP" and solver in (None, "Lemke"):
        osnspb = sk.LCP(sn.SICONOS_LCP_LEMKE)
    elif p_el.tag == "Relay" and solver in (None, "Lemke"):
        osnspb = sk.Relay(sn.SICONOS_RELAY_LEMKE)
    elif p_el.tag == "FrictionContact" and solver in ("NsgsAc", "Nsgs2d", None):
        dim = int(p_el.get("dim", "3"))
        osnspb = sk.FrictionContact(dim, sn.SICONOS_FRICTION_2D_NSGS if dim == 2 else sn.SICONOS_FRICTION_3D_NSGS)
    elif p_el.tag == "GlobalFrictionContact" and solver in ("NsgsWr", None):
        osnspb = sk.GlobalFrictionContact(int(p_el.get("dim", "3")), sn.SICONOS_GLOBAL_FRICTION_3D_NSGS_WR)
    elif p_el.tag == "GenericMechanical":
        osnspb = sk.GenericMechanical(sn.SICONOS_FRICTION_3D_ONECONTACT_NSN)
    else:
        raise Unsupported(f"{p_el.tag}/{solver}")
    solver_options(osnspb, s_el)
    sim = sk.TimeStepping(nsds, sk.TimeDiscretisation(t0, h), osi, osnspb)
    return sim, level, h


def once(root):
    """One timed run; returns (seconds, rows)."""
    tic = time.perf_counter()
    nsds, systems, inters, t0 = build(root)
    sim, level, h = simulation(root, nsds, t0)
    T = float(root.find("Time").get("T"))
    n = int(round((T - t0) / h))
    views = []
    for ds, lag in systems:
        views += [ds.q(), ds.velocity()] if lag else [ds.x()]
    lambdas = [inter.lambda_(level) for inter in inters]
    width = 1 + sum(len(v) for v in views) + sum(len(v) for v in lambdas)
    out = np.zeros((n + 1, width))

    def record(k, t):
        row = out[k]
        row[0] = t
        j = 1
        for v in views:
            row[j:j + len(v)] = v
            j += len(v)
        for v in lambdas:
            row[j:j + len(v)] = v
            j += len(v)

    record(0, t0)
    k = 0
    while sim.hasNextEvent() and k < n:
        sim.computeOneStep()
        k += 1
        record(k, sim.nextTime())
        sim.nextStep()
    return time.perf_counter() - tic, out[: k + 1], sum(len(v) for v in views)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("model")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--check", help="a `saltus run` CSV of the same model: compare the last rows")
    args = ap.parse_args()
    root = ET.parse(args.model).getroot()
    try:
        runs = [once(root) for _ in range(args.runs)]
    except Unsupported as e:
        print(f"{args.model}: not supported by this translator: {e}", file=sys.stderr)
        sys.exit(2)
    times = [r[0] for r in runs]
    rows, n_state = runs[-1][1], runs[-1][2]
    line = f"{args.model},{len(rows) - 1},{statistics.median(times):.6f},{min(times):.6f},{len(times)}"
    if args.check:
        with open(args.check) as f:
            header = f.readline().strip().split(",")
        ours = np.loadtxt(args.check, delimiter=",", skiprows=1, ndmin=2)[-1]
        # the state columns (q, v or x) in model order, as the CSV names them
        cols = [i for i, c in enumerate(header) if any(c.split(".")[-1].startswith(p) for p in ("q[", "v[", "x["))]
        line += f",{np.max(np.abs(ours[cols][:n_state] - rows[-1][1:1 + n_state])):.3e}"
    print(line)


if __name__ == "__main__":
    main()
