"""``saltus.mechanics``: each step's report carries the step's energy and work and the active
contacts' relative velocities; at θ = 1/2 the kinetic energy changes by the forces' and the
contact impulses' work, and at a bounce each contact leaves at ``u⁺ = -e u⁻``."""

import numpy as np

from saltus import mechanics


def test_the_step_report_balances_the_kinetic_energy():
    scene = mechanics.Scene(gravity=(0, 0, -9.81), margin=0.01)
    scene.add_Newton_impact_friction_nsl("contact", e=0.7, mu=0.3)
    scene.add_object("ground", [mechanics.Plane()])
    scene.add_object("ball", [mechanics.Sphere(0.1)], translation=(0, 0, 0.5), velocity=(1.0, 0, 0, 0, 0, 5.0),
                     mass=1.0, inertia=[0.004] * 3)
    sim = scene.simulation(h=1e-3, theta=0.5, tol=1e-12, max_iter=10_000)
    k0, bounces = sim.kinetic_energy(), 0
    for _ in range(1500):
        r = sim.step()
        e = r["energy"]
        assert abs(e[0] - k0 - (e[1] + e[2] + e[3])) < 1e-12 * (1 + k0)
        assert e[0] == sim.kinetic_energy()
        for k in np.nonzero(r["contact_active"])[0]:
            u0, u1 = r["velocity_start"][k], r["velocity_end"][k]
            if u0[0] < -0.5:  # a bounce: Newton's law on the normal relative velocity
                bounces += 1
                assert abs(u1[0] + r["e"][k] * u0[0]) < 1e-9
        assert np.isnan(r["velocity_end"][~r["contact_active"]]).all()
        k0 = e[0]
    assert bounces >= 2


def test_a_model_file_with_output_energy_gives_the_same_columns_in_python(tmp_path):
    import saltus

    model = tmp_path / "e.xml"
    model.write_text("""<?xml version="1.0" encoding="UTF-8"?>
<Model version="1.0">
  <Time t0="0" T="0.5"/>
  <Mechanics gravity="0 0 -9.81" margin="0.005">
    <HalfSpace name="floor" normal="0 0 1"/>
    <Sphere name="ball" radius="0.05"/>
    <NewtonImpactFrictionNSL en="0.5" mu="0.3"/>
    <RigidBody name="ground" kind="static"><Contactor shape="floor"/></RigidBody>
    <RigidBody name="ball" mass="1" inertia="0.001 0.001 0.001" translation="0 0 0.2"><Contactor shape="ball"/></RigidBody>
  </Mechanics>
  <Simulation>
    <TimeDiscretisation h="0.001"/>
    <OneStepIntegrator><MoreauJeanOSI theta="0.5"/></OneStepIntegrator>
    <OneStepNSProblem><FrictionContact dim="3"><NsgsAc tol="1e-12" max_iter="1000"/></FrictionContact></OneStepNSProblem>
  </Simulation>
  <Output energy="true"/>
</Model>
""")
    out = saltus.load(str(model)).run()
    k = out["energy.kinetic"]
    work = out["energy.work_forces"] + out["energy.work_normal"] + out["energy.work_tangent"]
    assert len(k) == 501 and k[0] == 0.0
    assert np.abs(np.diff(k) - work[1:]).max() < 1e-10
    assert out["energy.work_normal"].min() < -0.1  # the bounce


def test_a_scene_run_with_energy_has_the_model_files_columns():
    scene = mechanics.Scene(gravity=(0, 0, -9.81), margin=0.01)
    scene.add_Newton_impact_friction_nsl("contact", e=0.5, mu=0.3)
    scene.add_object("ground", [mechanics.Plane()])
    scene.add_object("ball", [mechanics.Sphere(0.05)], translation=(0, 0, 0.2), mass=1.0, inertia=[0.001] * 3)
    sim = scene.simulation(h=1e-3, theta=0.5, tol=1e-12, max_iter=1000)
    out = sim.run(0.5, energy=True)
    k = out["energy.kinetic"]
    work = out["energy.work_forces"] + out["energy.work_normal"] + out["energy.work_tangent"]
    assert len(k) == 501 and np.abs(np.diff(k) - work[1:]).max() < 1e-10
    assert "energy.kinetic" not in sim.run(0.6)
