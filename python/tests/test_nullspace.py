"""The null-space (Blajer projection) method from Python (``saltus.NullSpace``), checked against
closed forms: a pendulum's rod tension, the planar slider–crank's slider position
``x₃ = l1 cos φ₁ + √(l2² − l1² sin² φ₁)``, energy conservation; the numeric QR-chart basis with
Python callables and the generated plugin of ``samples/nullspace_mechanisms``."""

import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

import saltus as sk

REPO = Path(__file__).resolve().parents[2]
SAMPLE = REPO / "samples" / "nullspace_mechanisms"
G = 9.81


def pendulum(m=1.5, l=0.8, dot_jacobian=False, t_end=2.0, h=0.01, **opts):
    """A point mass on a rod of length ``l`` in Cartesian coordinates ``q = (x, y)``, released
    at rest from the horizontal: ``C = (x² + y² − l²)/(2l)``, ``C_J = (x, y)/l``."""
    ds = sk.LagrangianLinearTIDS([l, 0.0], [0.0, 0.0], np.diag([m, m]), name="bob")
    ds.setFExtPtr([0.0, -m * G])
    rel = sk.LagrangianScleronomousR(
        lambda q: [(q[0] ** 2 + q[1] ** 2 - l * l) / (2 * l)],
        lambda q: [[q[0] / l, q[1] / l]],
        dot_jacobian_q=(lambda q, v: [[v[0] / l, v[1] / l]]) if dot_jacobian else None,
    )
    nsds = sk.NonSmoothDynamicalSystem(0.0, t_end)
    nsds.insert_dynamical_system(ds)
    nsds.link(sk.Interaction(sk.EqualityConditionNSL(1), rel, name="rod"), ds)
    return sk.NullSpace(nsds, sk.TimeDiscretisation(0.0, h), **opts)


@pytest.mark.parametrize("dot_jacobian", [False, True], ids=["central-difference gamma", "dot_jacobian_q"])
def test_pendulum_tension_and_energy(dot_jacobian):
    """Released at rest from the horizontal, energy gives ``|v|² = −2 g y`` and the rod tension
    ``T = m|v|²/l + m g (−y/l) = 3 m g (−y)/l``; Siconos's sign (``M q̈ = F + C_Jᵀλ``, ``C_J`` the
    outward unit vector) makes ``λ = −T = 3 m g y / l``."""
    m, l = 1.5, 0.8
    sim = pendulum(m, l, dot_jacobian, rtol=1e-11, atol=1e-13)
    out = sim.run()
    a = sim.arrays(out)
    assert a["q"].shape == (201, 2) and a["v"].shape == (201, 2) and a["lambda"].shape == (201, 1)
    x, y = a["q"][:, 0], a["q"][:, 1]
    lam = a["lambda"][:, 0]
    tension = 3 * m * G * y / l
    assert np.max(np.abs(lam - tension)) <= 1e-9 * 3 * m * G
    assert np.max(np.abs(np.hypot(x, y) - l)) <= 1e-10
    energy = 0.5 * m * np.sum(a["v"] ** 2, axis=1) + m * G * y
    assert np.max(np.abs(energy)) <= 1e-9 * m * G * l
    # it swings through the bottom: y reaches −l, the tension 3 m g
    assert y.min() < -0.999 * l
    rep = sim.summary()
    assert rep["steps"] == 200 and rep["new_charts"] >= 0 and rep["max_violation"] <= 1e-10
    assert rep["ode_steps"] > 0 and rep["rhs_evals"] >= rep["ode_steps"]


def test_pendulum_charts_and_drift_report():
    """Charts renew when the distortion passes ``max_distortion`` (the rod turns through 90° in
    the first quarter period), and loose integrator tolerances make the drift projection fire:
    both counts are in ``summary()``, and the violation stays below ``drift_tol`` at the outputs."""
    sim = pendulum(rtol=1e-5, atol=1e-7, drift_tol=1e-8, max_distortion=1.05)
    out = sim.run()
    rep = sim.summary()
    assert rep["new_charts"] > 0
    assert rep["projections"] > 0
    assert rep["max_violation"] <= 1e-8
    assert np.max(out["violation"]) == pytest.approx(rep["max_violation"], rel=0, abs=0)


# planar slider–crank: q = (φ₁, x₂, y₂, φ₂, x₃), the lengths and masses of the sample
L1, L2, M1, M2, M3 = 0.15, 0.4, 0.5, 1.0, 0.8
MASS = np.diag([M1 * L1**2 / 3, M2, M2, M2 * L2**2 / 12, M3])
Q0 = [0.0, L1 + L2 / 2, 0.0, 0.0, L1 + L2]
V0 = [30.0, 0.0, 2.25, -11.25, 0.0]


def slider_position(phi1):
    return L1 * np.cos(phi1) + np.sqrt(L2**2 - L1**2 * np.sin(phi1) ** 2)


def slider_crank_energy(q, v):
    return 0.5 * np.einsum("ij,jk,ik->i", v, MASS, v) + M1 * G * L1 / 2 * np.sin(q[:, 0]) + M2 * G * q[:, 2]


def slider_crank_callables():
    """The slider–crank with Python callables (numeric basis)."""
    h2 = L2 / 2

    def c(q):
        p1, x2, y2, p2, x3 = q
        return [x2 - h2 * np.cos(p2) - L1 * np.cos(p1), y2 - h2 * np.sin(p2) - L1 * np.sin(p1),
                x2 + h2 * np.cos(p2) - x3, y2 + h2 * np.sin(p2)]

    def jac(q):
        p1, p2 = q[0], q[3]
        return [[L1 * np.sin(p1), 1, 0, h2 * np.sin(p2), 0], [-L1 * np.cos(p1), 0, 1, -h2 * np.cos(p2), 0],
                [0, 1, 0, -h2 * np.sin(p2), -1], [0, 0, 1, h2 * np.cos(p2), 0]]

    ds = sk.LagrangianDS(Q0, V0, MASS, name="crank")
    zero = lambda t, q, v: np.zeros((5, 5))  # noqa: E731

    def fint(t, q, v):  # F_int = −F: the crank's weight torque
        return [M1 * G * L1 / 2 * np.cos(q[0]), 0, 0, 0, 0]

    def fint_q(t, q, v):
        j = np.zeros((5, 5))
        j[0, 0] = -M1 * G * L1 / 2 * np.sin(q[0])
        return j

    ds.setComputeFIntFunction(fint, fint_q, zero)
    ds.setFExtPtr([0, 0, -M2 * G, 0, 0])
    nsds = sk.NonSmoothDynamicalSystem(0.0, 0.5)
    nsds.insert_dynamical_system(ds)
    nsds.link(sk.Interaction(sk.EqualityConditionNSL(4), sk.LagrangianScleronomousR(c, jac), name="joints"), ds)
    return nsds


def test_slider_crank_python_callables_closed_form_and_energy():
    nsds = slider_crank_callables()
    sim = sk.NullSpace(nsds, sk.TimeDiscretisation(0.0, 1e-3), rtol=1e-11, atol=1e-13)
    a = sim.arrays(sim.run())
    q, v = a["q"], a["v"]
    assert q.shape == (501, 5)
    assert q[-1, 0] > 2 * np.pi  # the crank turns more than once
    assert np.max(np.abs(q[:, 4] - slider_position(q[:, 0]))) <= 1e-9
    e = slider_crank_energy(q, v)
    assert np.max(np.abs(e - e[0])) <= 1e-8 * e[0]
    assert np.max(a["violation"]) <= 1e-10


@pytest.fixture(scope="module")
def generated_plugin(tmp_path_factory):
    """The committed generated plugin of the sample, compiled."""
    cc = shutil.which("cc")
    if cc is None:
        pytest.skip("no C compiler (cc): the generated plugin cannot be built")
    out = tmp_path_factory.mktemp("nullspace-plugin")
    subprocess.run(
        [cc, "-O2", "-shared", "-fPIC", "-I", str(REPO / "plugins/abi/include"),
         str(SAMPLE / "planar_slider_crank.c"), "-o", str(out / "libplanar_slider_crank.so"), "-lm"],
        check=True,
    )
    return out


def slider_crank_plugin(generated, gamma):
    lib, p = "planar_slider_crank", [L1, L2]
    ds = sk.LagrangianDS(Q0, V0, f"{lib}:{lib}_mass", name="crank")
    ds.setComputeMassFunction(lib, f"{lib}_mass", params=p)
    ds.setComputeFIntFunction(lib, jacobian_q=f"{lib}_fint_jacobian_q", jacobian_v=f"{lib}_fint_jacobian_v",
                              function=f"{lib}_fint", params=p)
    rel = sk.LagrangianScleronomousR.plugin(lib, f"{lib}_h", f"{lib}_jacobian", params=p)
    nsds = sk.NonSmoothDynamicalSystem(0.0, 1.0)
    nsds.insert_dynamical_system(ds)
    nsds.link(sk.Interaction(sk.EqualityConditionNSL(4), rel, name="joints"), ds)
    basis = sk.NullSpaceBasis.generated(lib, lib, params=p)
    return sk.NullSpace(nsds, sk.TimeDiscretisation(0.0, 1e-3), rtol=1e-12, atol=1e-14, drift_tol=1e-10,
                        basis=basis, gamma=f"{lib}:{lib}_gamma" if gamma else None,
                        gamma_params=p if gamma else None, plugin_dirs=[generated])


def test_slider_crank_generated_basis_matches_the_sample_file(generated_plugin, tmp_path):
    """The generated basis and γ from Python: closed form, energy, and the same numbers as
    ``saltus.load`` of the sample file (which the Python model reproduces element for element)."""
    sim = slider_crank_plugin(generated_plugin, gamma=True)
    out = sim.run()
    a = sim.arrays(out)
    q = a["q"]
    assert np.max(np.abs(q[:, 4] - slider_position(q[:, 0]))) <= 1e-9
    e = slider_crank_energy(q, a["v"])
    assert np.max(np.abs(e - e[0])) <= 1e-8 * e[0]
    assert sim.summary()["new_charts"] == 0  # a generated basis has no charts
    ref = sk.load(str(SAMPLE / "planar_slider_crank.xml"), plugin_dirs=[str(generated_plugin)]).run()
    assert list(ref) == list(out)
    for c in out:
        np.testing.assert_array_equal(out[c], ref[c], err_msg=c)


def test_generated_and_numeric_basis_agree(generated_plugin):
    """The numeric QR charts (γ by central differences) and the generated basis follow the same
    motion to the integration error; λ too."""
    gen = slider_crank_plugin(generated_plugin, gamma=True)
    num = sk.NullSpace(slider_crank_callables(), sk.TimeDiscretisation(0.0, 1e-3), rtol=1e-12, atol=1e-14)
    a, b = gen.arrays(gen.run()), num.arrays(num.run())
    n = len(b["t"])
    assert np.max(np.abs(a["q"][:n] - b["q"])) <= 1e-8
    lam = np.max(np.abs(b["lambda"]))
    assert np.max(np.abs(a["lambda"][:n] - b["lambda"])) <= 1e-7 * lam


def test_xml_and_errors(tmp_path):
    sim = pendulum()
    text = sim.xml()
    assert "<NullSpace" in text and 'library=":host"' in text
    # Siconos's constructor order: (pluginh, pluginJacobianhq, pluginDotJacobianhq)
    rel = sk.LagrangianScleronomousR("lib:h", "lib:jac", "lib:djac", params=[1.0])
    assert (rel.library, rel.h, rel.jacobian_q, rel.dot_jacobian_q) == ("lib", "h", "jac", "djac")
    with pytest.raises(TypeError, match="dot_jacobian_q"):
        sk.LagrangianScleronomousR("lib:h", "lib:jac", [1.0])
    with pytest.raises(TypeError):
        sk.NullSpace(sim.nsds, sk.TimeDiscretisation(0.0, 0.01), basis="numeric")
    # two coordinates and two constraints: no motion left
    ds = sk.LagrangianLinearTIDS([1.0, 0.0], [0.0, 0.0], np.eye(2), name="p")
    nsds = sk.NonSmoothDynamicalSystem(0.0, 1.0)
    nsds.insert_dynamical_system(ds)
    nsds.link(sk.Interaction(sk.EqualityConditionNSL(2), sk.LagrangianLinearTIR(np.eye(2), [-1.0, 0.0]), name="c"), ds)
    with pytest.raises(sk.ModelError, match="constraints"):
        sk.NullSpace(nsds, sk.TimeDiscretisation(0.0, 0.1)).run()
    # a Python exception in a constraint function is the cause of the error
    bad = sk.LagrangianScleronomousR(lambda q: 1 / 0, lambda q: [[1.0, 0.0]])
    ds2 = sk.LagrangianLinearTIDS([1.0, 0.0], [0.0, 0.0], np.eye(2), name="p")
    nsds2 = sk.NonSmoothDynamicalSystem(0.0, 1.0)
    nsds2.insert_dynamical_system(ds2)
    nsds2.link(sk.Interaction(sk.EqualityConditionNSL(1), bad, name="c"), ds2)
    with pytest.raises(sk.SaltusError) as e:
        sk.NullSpace(nsds2, sk.TimeDiscretisation(0.0, 0.1)).run()
    assert isinstance(e.value.__cause__, ZeroDivisionError)


def test_event_driven_takes_the_relations_dot_jacobian():
    """The same pendulum event driven: ``J̇ v`` comes from ``dot_jacobian_q`` (called), and the
    rod tension follows the closed form (measured 2.6e-10 relative, against 2.7e-9 with the
    forward difference); the two runs are the same motion to the difference's error."""
    m, l = 1.5, 0.8
    calls = []

    def dot_jac(q, v):
        calls.append(1)
        return [[v[0] / l, v[1] / l]]

    def run(dj):
        ds = sk.LagrangianLinearTIDS([l, 0.0], [0.0, 0.0], np.diag([m, m]), name="bob")
        ds.setFExtPtr([0.0, -m * G])
        rel = sk.LagrangianScleronomousR(
            lambda q: [(q[0] ** 2 + q[1] ** 2 - l * l) / (2 * l)], lambda q: [[q[0] / l, q[1] / l]], dot_jacobian_q=dj
        )
        nsds = sk.NonSmoothDynamicalSystem(0.0, 1.0)
        nsds.insert_dynamical_system(ds)
        nsds.link(sk.Interaction(sk.EqualityConditionNSL(1), rel, name="rod"), ds)
        return sk.EventDriven(nsds, sk.TimeDiscretisation(0.0, 0.01), sk.LsodarOSI(rtol=1e-11, atol=1e-13)).run()

    with_dj = run(dot_jac)
    assert len(calls) > 100
    plain = run(None)
    y = with_dj["bob.q[1]"]
    lam = with_dj["rod.lambda[0]"]
    assert np.max(np.abs(lam - 3 * m * G * y / l)) <= 1e-9 * 3 * m * G
    assert np.max(np.abs(with_dj["bob.q[0]"] - plain["bob.q[0]"])) <= 1e-8
