"""Straight-line C code for the null-space (projection) method, generated from constraints written
with sympy (issue 32; Pham & Giesbrecht, "A Symbolic Approach to the Projection Method").

From ``C(q; z) = 0`` (m expressions in n coordinates ``q`` and parameters ``z``) it writes a Saltus
plugin (C ABI version 1, ``plugins/abi/include/saltus_plugin.h``) with

* ``NAME_h``        ``saltus_relation_fn``  C(q)                                (nout = m)
* ``NAME_jacobian`` ``saltus_relation_fn``  C_J = ∂C/∂q, column-major           (nout = m n)
* ``NAME_gamma``    ``saltus_lagrangian_fn`` γ(q, v) = (d C_J/dt) v             (nout = m)
* ``NAME_basis``    ``saltus_vector_field_fn`` D(q), C_J D = 0, column-major    (nout = n r)
* ``NAME_basis_dot````saltus_lagrangian_fn`` Ḋ(q, v) = Σ_k ∂D/∂q_k v_k         (nout = n r)

``D`` is the fraction-free null-space basis ``D = [−Ã; det A_d · I]`` of the partition
``C_J = [A_d | A_i]`` (dependent | independent coordinates), ``Ã = det(A_d) A_d⁻¹ A_i``, computed by
a fraction-free (Bareiss) Gauss–Jordan elimination *written out as straight-line code*: every
entry of ``C_J`` is one common-subexpression-eliminated temporary, every elimination step one
assignment, and entries that are structurally zero or constant are folded at generation time
(partial symbolic evaluation), so nothing swells. ``Ḋ`` is the forward-mode derivative of the same
program along ``v``. Parameters are fixed at generation (``params`` values) or kept free
(``free``: read from the plugin's ``params`` array in that order). Scleronomous constraints only.

Command (the spec is a Python file defining ``coords``, ``constraints`` and optionally ``params``,
``free``, ``independent``, ``nominal``, ``name``)::

    python3 python/saltus/nullspace_codegen.py SPEC.py -o NAME.c [--compile libNAME.so] [--report]

``--compile`` runs ``cc -O2 -shared -fPIC -I plugins/abi/include``; ``--report`` prints the code
size against naive symbolic Gaussian elimination. Needs sympy only (no compiled Saltus).
"""

from __future__ import annotations

import argparse
import os
import re
import runpy
import subprocess
import sys
from dataclasses import dataclass, field

import sympy as sp

ABI_INCLUDE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "plugins", "abi", "include")


@dataclass
class Program:
    """Straight-line code: assignments ``double name = expr;`` in order."""

    lines: list = field(default_factory=list)
    ops: int = 0
    counter: int = 0

    def emit(self, expr, prefix="t"):
        """A symbol or constant holding ``expr`` (constants and symbols are not assigned)."""
        if expr.is_Number or expr.is_Symbol or (-expr).is_Symbol:
            return expr
        name = sp.Symbol(f"{prefix}{self.counter}")
        self.counter += 1
        self.lines.append(f"    const double {name} = {sp.ccode(expr)};")
        self.ops += sp.count_ops(expr)
        return name


@dataclass
class Generated:
    """The C source and the size figures."""

    source: str
    n: int
    m: int
    dependent: list
    independent: list
    stats: dict


def _c_symbols(n, n_free):
    q = [sp.Symbol(f"q[{i}]") for i in range(n)]
    v = [sp.Symbol(f"v[{i}]") for i in range(n)]
    p = [sp.Symbol(f"params[{j}]") for j in range(n_free)]
    return q, v, p


def _pivots(jac_num, independent_idx):
    """Row order and dependent columns by complete pivoting on the numeric Jacobian (columns in
    ``independent_idx`` are never pivots)."""
    m, n = len(jac_num), len(jac_num[0])
    a = [row[:] for row in jac_num]
    rows, cols = list(range(m)), [j for j in range(n) if j not in independent_idx]
    order_r, order_c = [], []
    for _ in range(m):
        best = max(((abs(a[i][j]), i, j) for i in rows for j in cols), default=(0.0, -1, -1))
        if best[0] <= 1e-12:
            raise ValueError("the constraint Jacobian is rank deficient at the nominal point (or on the chosen dependent coordinates)")
        _, i, j = best
        for r in rows:
            if r != i:
                f = a[r][j] / a[i][j]
                a[r] = [x - f * y for x, y in zip(a[r], a[i])]
        rows.remove(i)
        cols.remove(j)
        order_r.append(i)
        order_c.append(j)
    return order_r, order_c


def _bareiss_nullspace(prog, a, pcols, icols, dprog=None, da=None):
    """Fraction-free Gauss–Jordan on the m×n entries ``a[i][j]`` (symbols or constants), columns
    ``pcols`` then ``icols``; returns (D, Ḋ) as n×r lists of expressions (Ḋ when ``da`` given)."""
    m = len(a)
    cols = pcols + icols
    a = [[a[i][c] for c in cols] for i in range(m)]
    if da is not None:
        da = [[da[i][c] for c in cols] for i in range(m)]
    n = len(cols)
    p, dp = sp.Integer(1), sp.Integer(0)
    for k in range(m):
        akk = a[k][k]
        new = [row[:] for row in a]
        dnew = [row[:] for row in da] if da is not None else None
        for i in range(m):
            if i == k:
                continue
            for j in range(k, n):
                if j == k:
                    new[i][j] = sp.Integer(0)
                    if dnew is not None:
                        dnew[i][j] = sp.Integer(0)
                    continue
                expr = (akk * a[i][j] - a[i][k] * a[k][j]) / p
                new[i][j] = prog.emit(expr)
                if dnew is not None:
                    # forward mode: d[(a_kk a_ij − a_ik a_kj)/p] = (d(num) − new_ij dp)/p
                    dnum = da[k][k] * a[i][j] + akk * da[i][j] - da[i][k] * a[k][j] - a[i][k] * da[k][j]
                    dnew[i][j] = dprog.emit((dnum - new[i][j] * dp) / p, prefix="dt")
            # columns j < k of rows i ≠ k stay 0 (eliminated) or become the new pivot on i's diagonal
            if i < k:
                new[i][i] = akk
                if dnew is not None:
                    dnew[i][i] = da[k][k]
        a, p = new, akk
        if da is not None:
            da, dp = dnew, da[k][k]
    r = n - m
    d = [[sp.Integer(0)] * r for _ in range(n)]
    dd = [[sp.Integer(0)] * r for _ in range(n)]
    for i, c in enumerate(pcols):
        for j in range(r):
            d[c][j] = -a[i][m + j]
            if da is not None:
                dd[c][j] = -da[i][m + j]
    for j, c in enumerate(icols):
        d[c][j] = p
        dd[c][j] = dp
    return d, dd


_IDENT = re.compile(r"\b[A-Za-z_][A-Za-z_0-9]*\b")


def _dead_code(body, returns):
    """Drops the assignments whose value no later line reads (the value part of the Ḋ program)."""
    needed = set(_IDENT.findall(" ".join(returns)))
    kept = []
    for line in reversed(body):
        name, rhs = line.split("=", 1)
        if name.split()[-1] in needed:
            kept.append(line)
            needed |= set(_IDENT.findall(rhs))
    return kept[::-1]


def _function(kind, name, n, nout, n_free, body, returns):
    sig = {
        "relation": "double t, uint32_t n, const double *q, uint32_t m, const double *lambda, "
        "uint32_t nout, double *out, uint32_t np, const double *params",
        "lagrangian": "double t, uint32_t n, const double *q, const double *v, uint32_t nout, double *out, "
        "uint32_t np, const double *params",
        "vector_field": "double t, uint32_t n, const double *q, uint32_t nout, double *out, uint32_t np, "
        "const double *params",
    }[kind]
    unused = {"relation": "(void)t; (void)q; (void)m; (void)lambda; (void)params;",
              "lagrangian": "(void)t; (void)q; (void)v; (void)params;",
              "vector_field": "(void)t; (void)q; (void)params;"}[kind]
    body = _dead_code(body, returns)
    head = [
        f"SALTUS_EXPORT int32_t {name}({sig}) {{",
        f"    {unused}",
        f"    if (n != {n} || nout != {nout}) return 1;",
        f"    if (np < {n_free}) return 2;",
    ]
    return "\n".join(head + body + [f"    {r}" for r in returns] + ["    return 0;", "}"])


def _count_ops(body, returns):
    """Arithmetic operations and function calls of the emitted lines (sympy's count of each
    right-hand side, read back from the C text)."""
    total = 0
    for line in body + returns:
        rhs = line.split("=", 1)[1].strip().rstrip(";")
        rhs = re.sub(r"(q|v|params)\[(\d+)\]", r"\1_\2", rhs)
        total += sp.count_ops(sp.sympify(rhs, locals={"pow": sp.Pow}))
    return total


def _cse_block(exprs, prefix):
    """CSE over ``exprs``: (lines, reduced expressions, operation count)."""
    repl, red = sp.cse(exprs, symbols=sp.numbered_symbols(prefix))
    lines = [f"    const double {s} = {sp.ccode(e)};" for s, e in repl]
    ops = sum(sp.count_ops(e) for _, e in repl) + sum(sp.count_ops(e) for e in red)
    return lines, red, ops


def generate(coords, constraints, params=None, free=(), independent=None, nominal=None, name="model",
             velocities=None, mass=None, forces=None):
    """Generates the plugin source. ``params``: {symbol: value} (fixed unless in ``free``);
    ``independent``: the independent coordinates (default: chosen by complete pivoting at
    ``nominal``, a list of coordinate values, default all 0.1). With ``mass`` (n×n, in ``coords``)
    and ``forces`` (n expressions of ``coords`` and ``velocities``: ``M q̈ = F + C_Jᵀ λ``) the
    plugin also has the model's ``NAME_mass`` (``saltus_vector_field_fn``, for ``<Mass>``) and
    ``NAME_fint`` = −F with ``NAME_fint_jacobian_q``, ``NAME_fint_jacobian_v``
    (``saltus_lagrangian_fn``, for ``<FInt>``)."""
    params = dict(params or {})
    free = list(free)
    n, m = len(coords), len(constraints)
    if not 0 < m < n:
        raise ValueError(f"need 0 < m < n, got m = {m}, n = {n}")
    qs, vs, ps = _c_symbols(n, len(free))
    fixed = {s: sp.nsimplify(val) if isinstance(val, int) else sp.Float(val, 17) for s, val in params.items() if s not in free}
    to_c = dict(zip(coords, qs)) | dict(zip(free, ps))
    c = sp.Matrix([sp.sympify(e).subs(fixed).subs(to_c) for e in constraints])
    if any(s.name == "t" for e in c for s in e.free_symbols):
        raise ValueError("time-dependent constraints are not supported by the generated basis")
    jac = c.jacobian(qs)
    djac = sp.Matrix(m, n, lambda i, j: sum(sp.diff(jac[i, j], qs[k]) * vs[k] for k in range(n)))
    gamma = djac * sp.Matrix(vs)
    # pivots at the nominal point
    nominal = list(nominal) if nominal is not None else [0.1] * n
    at = dict(zip(qs, nominal)) | {ps[j]: float(params.get(s, 1.0)) for j, s in enumerate(free)}
    jnum = [[float(jac[i, j].subs(at)) for j in range(n)] for i in range(m)]
    ind_idx = [coords.index(s) for s in independent] if independent is not None else []
    if independent is not None and len(ind_idx) != n - m:
        raise ValueError(f"{len(ind_idx)} independent coordinates given, need n − m = {n - m}")
    rows, pcols = _pivots(jnum, ind_idx)
    icols = ind_idx if independent is not None else [j for j in range(n) if j not in pcols]

    stats = {"n": n, "m": m}
    fns = []
    # C and C_J
    lines, red, ops = _cse_block(list(c), "x")
    fns.append(_function("relation", f"{name}_h", n, m, len(free), lines, [f"out[{i}] = {sp.ccode(e)};" for i, e in enumerate(red)]))
    stats["h_ops"] = ops
    lines, red, ops = _cse_block(list(jac.T), "x")  # column-major
    fns.append(_function("relation", f"{name}_jacobian", n, m * n, len(free), lines,
                         [f"out[{k}] = {sp.ccode(e)};" for k, e in enumerate(red)]))
    stats["jacobian_ops"] = ops
    lines, red, ops = _cse_block(list(gamma), "x")
    fns.append(_function("lagrangian", f"{name}_gamma", n, m, len(free), lines,
                         [f"out[{i}] = {sp.ccode(e)};" for i, e in enumerate(red)]))
    stats["gamma_ops"] = ops

    # D and Ḋ: the Jacobian entries (CSE'd) as temporaries, then the elimination program
    for with_dot in (False, True):
        entries = [jac[rows[i], j] for i in range(m) for j in range(n)]
        dentries = [djac[rows[i], j] for i in range(m) for j in range(n)] if with_dot else []
        const = [e.is_Number for e in entries + dentries]
        nonconst = [e for e, k in zip(entries + dentries, const) if not k]
        lines, red, ops = _cse_block(nonconst, "x")
        prog = Program()
        it = iter(red)
        vals = [e if k else None for e, k in zip(entries + dentries, const)]
        for idx, k in enumerate(const):
            if not k:
                vals[idx] = prog.emit(next(it), prefix="j")
        a = [[vals[i * n + j] for j in range(n)] for i in range(m)]
        da = [[vals[m * n + i * n + j] for j in range(n)] for i in range(m)] if with_dot else None
        dprog = prog if with_dot else None
        d, dd = _bareiss_nullspace(prog, a, pcols, icols, dprog, da)
        out = dd if with_dot else d
        r = n - m
        body = lines + prog.lines
        rets = [f"out[{i + n * j}] = {sp.ccode(out[i][j])};" for j in range(r) for i in range(n)]
        key = "basis_dot_ops" if with_dot else "basis_ops"
        stats[key] = _count_ops(_dead_code(body, rets), rets)
        if with_dot:
            fns.append(_function("lagrangian", f"{name}_basis_dot", n, n * r, len(free), body, rets))
        else:
            fns.append(_function("vector_field", f"{name}_basis", n, n * r, len(free), body, rets))
    if mass is not None:
        mm = sp.Matrix(mass).subs(fixed).subs(to_c)
        lines, red, ops = _cse_block(list(mm.T), "x")
        fns.append(_function("vector_field", f"{name}_mass", n, n * n, len(free), lines,
                             [f"out[{k}] = {sp.ccode(e)};" for k, e in enumerate(red)]))
        stats["mass_ops"] = ops
    if forces is not None:
        if velocities is None:
            raise ValueError("forces need the velocity symbols (velocities)")
        to_cv = to_c | dict(zip(velocities, vs))
        fint = sp.Matrix([-sp.sympify(e) for e in forces]).subs(fixed).subs(to_cv)
        for suffix, expr in (("", fint), ("_jacobian_q", fint.jacobian(qs)), ("_jacobian_v", fint.jacobian(vs))):
            lines, red, ops = _cse_block(list(expr.T), "x")
            fns.append(_function("lagrangian", f"{name}_fint{suffix}", n, len(red), len(free), lines,
                                 [f"out[{k}] = {sp.ccode(e)};" for k, e in enumerate(red)]))
    dep = [coords[j] for j in pcols]
    ind = [coords[j] for j in icols]
    header = (
        f"/* Generated by saltus/nullspace_codegen.py: do not edit.\n"
        f" * {name}: n = {n} coordinates, m = {m} constraints, r = {n - m}.\n"
        f" * coordinates (q[i]): {', '.join(str(s) for s in coords)}\n"
        f" * free parameters (params[j]): {', '.join(str(s) for s in free) or 'none'}\n"
        f" * dependent coordinates: {', '.join(map(str, dep))}; independent: {', '.join(map(str, ind))}\n"
        f" * D = [-det(A_d) A_d^-1 A_i; det(A_d) I] by fraction-free Gauss-Jordan (straight-line).\n"
        f" * operations: {stats}\n */\n"
        f"#include <stdint.h>\n#include <math.h>\n#include \"saltus_plugin.h\"\n\nSALTUS_DEFINE_ABI_VERSION()\n\n"
    )
    src = header + "\n\n".join(fns) + "\n"
    stats["source_bytes"] = len(src)
    stats["source_lines"] = src.count("\n")
    return Generated(src, n, m, dep, ind, stats)


def naive_swell(coords, constraints, params=None, free=(), independent=None, nominal=None, **_):
    """Operation counts of the naive symbolic basis ``[−A_d⁻¹ A_i; I]`` by sympy's Gaussian
    elimination (``LUsolve``), as a tree and after CSE, for the same partition as :func:`generate`."""
    g = generate(coords, constraints, params, free, independent, nominal, name="naive")
    params = dict(params or {})
    fixed = {s: sp.Float(v, 17) for s, v in params.items() if s not in free}
    c = sp.Matrix([sp.sympify(e).subs(fixed) for e in constraints])
    jac = c.jacobian(coords)
    ad = jac[:, [coords.index(s) for s in g.dependent]]
    ai = jac[:, [coords.index(s) for s in g.independent]]
    x = -ad.LUsolve(ai)
    tree = sum(sp.count_ops(e) for e in x)
    repl, red = sp.cse(list(x))
    shared = sum(sp.count_ops(e) for _, e in repl) + sum(sp.count_ops(e) for e in red)
    return {"naive_tree_ops": tree, "naive_cse_ops": shared, "straight_line_ops": g.stats["basis_ops"]}


def compile_plugin(source_path, lib_path, cc="cc"):
    """Compiles the generated source into a shared library (the plugin)."""
    cmd = [cc, "-O2", "-std=c99", "-Wall", "-shared", "-fPIC", "-I", os.path.normpath(ABI_INCLUDE), source_path, "-o", lib_path, "-lm"]
    subprocess.run(cmd, check=True)
    return cmd


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("spec", help="Python file defining coords, constraints (and params, free, independent, nominal, name)")
    ap.add_argument("-o", "--output", required=True, help="C file to write")
    ap.add_argument("--compile", metavar="LIB", help="also compile into this shared library")
    ap.add_argument("--report", action="store_true", help="print the code size against naive symbolic elimination")
    args = ap.parse_args(argv)
    spec = runpy.run_path(args.spec)
    keys = ("params", "free", "independent", "nominal", "velocities", "mass", "forces")
    kw = {k: spec[k] for k in keys if k in spec}
    g = generate(spec["coords"], spec["constraints"], name=spec.get("name", "model"), **kw)
    with open(args.output, "w") as f:
        f.write(g.source)
    if args.compile:
        compile_plugin(args.output, args.compile)
    if args.report:
        print({**g.stats, **naive_swell(spec["coords"], spec["constraints"], **kw)})
    return 0


if __name__ == "__main__":
    sys.exit(main())
