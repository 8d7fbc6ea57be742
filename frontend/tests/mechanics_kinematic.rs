//! A kinematic body (`kind="kinematic"`, constant twist + `<Oscillation>`): a conveyor plate
//! moving at u = 0.2 m/s and shaking vertically (1 mm at 5 Hz, under g) with a ball laid on it.
//! The plate's columns are the prescribed motion to round-off; friction brings the ball to
//! rolling without slipping on the belt, where its centre moves at 2/7 u (m v = F t,
//! I ω = F r t, v + ω r = u with I = 2/5 m r²).

mod mech_util;

use mech_util::run;

const MODEL: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<Model version="1.0">
  <Time t0="0" T="0.5"/>
  <Mechanics margin="0.01">
    <Box name="belt" half_extents="0.5 0.5 0.05"/>
    <Sphere name="ball" radius="0.05"/>
    <NewtonImpactFrictionNSL en="0" mu="0.5"/>
    <RigidBody name="plate" kind="kinematic" translation="0 0 -0.05" velocity="0.2 0 0">
      <Contactor shape="belt"/>
      <Oscillation amplitude="0 0 0.001" frequency="5" phase="0.3"/>
    </RigidBody>
    <RigidBody name="ball" density="1000" translation="0 0 0.05"><Contactor shape="ball"/></RigidBody>
  </Mechanics>
  <Simulation>
    <TimeDiscretisation h="0.001"/>
    <OneStepIntegrator><MoreauJeanOSI theta="0.5"/></OneStepIntegrator>
    <OneStepNSProblem><FrictionContact dim="3"><NsgsAc tol="1e-12" max_iter="1000"/></FrictionContact></OneStepNSProblem>
  </Simulation>
</Model>
"#;

#[test]
fn conveyor_plate_follows_its_motion_and_rolls_the_ball() {
    let tmp = tempfile::tempdir().unwrap();
    let model = tmp.path().join("conveyor.xml");
    std::fs::write(&model, MODEL).unwrap();
    let (b, _) = run(&model, tmp.path(), &[]);
    let (u, a, f, phase) = (0.2, 0.001, 5.0, 0.3);
    let w = 2.0 * std::f64::consts::PI * f;
    let (t, x, z, vz, qw) = (b.col("t"), b.col("plate.x"), b.col("plate.z"), b.col("plate.vz"), b.col("plate.qw"));
    for k in 0..t.len() {
        let s = a * ((w * t[k] + phase).sin() - phase.sin());
        assert!((x[k] - u * t[k]).abs() < 1e-12, "plate x at t = {}", t[k]);
        assert!((z[k] - (-0.05 + s)).abs() < 1e-12, "plate z at t = {}", t[k]);
        assert!((vz[k] - a * w * (w * t[k] + phase).cos()).abs() < 1e-12, "plate vz at t = {}", t[k]);
        assert_eq!(qw[k], 1.0);
    }
    // The ball rolls on the belt (after ≈ 2/7 u / (μ g) = 0.012 s of slipping) at 2/7 u.
    let vx = b.last("ball.vx");
    assert!((vx - 2.0 / 7.0 * u).abs() < 1e-6, "ball vx = {vx}, 2/7 u = {}", 2.0 / 7.0 * u);
    let (zb, zp) = (b.col("ball.z"), b.col("plate.z"));
    for k in 0..t.len() {
        let top = zp[k] + 0.05 + 0.05;
        assert!((zb[k] - top).abs() < 2e-4, "the ball leaves the plate at t = {}: {} vs {top}", t[k], zb[k]);
    }
}
