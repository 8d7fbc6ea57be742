//! Joint stops and joint friction against closed forms: a slider hitting a stop (Newton impact,
//! `v⁺ = −e v⁻`, never past the stop), a pendulum resting on a stop (static reaction torque), a
//! hinge spinning down under a friction torque (`ω(t) = ω₀ − T t / I`, stop at `t* = I ω₀ / T`),
//! and a pendulum held or slipping under friction (static balance; acceleration
//! `(τ_g − T)/I` and the energy balance `½ I ω² = m g l (cos α − cos α₀) − T (α₀ − α)`).

use nalgebra::{Matrix3, UnitQuaternion, Vector3};
use saltus_mechanics::joints::{JointFrictionR, JointStopR, PivotJointR, PrismaticJointR};
use saltus_mechanics::shape::{Cuboid, Sphere};
use saltus_mechanics::{
    BodyDesc, BodyId, BodyState, JointId, JointType, MechanicsModel, MechanicsSimulation, MoreauJeanOptions, ShapeDesc,
};
use saltus_numerics::gmp::GmpOptions;
use saltus_numerics::IterOptions;

const G: f64 = 9.81;

fn ball(m: f64, i: Matrix3<f64>, state: BodyState) -> BodyDesc {
    BodyDesc::dynamic("b").shape_at_origin(ShapeDesc::from(Sphere { radius: 0.05 })).mass(m, i).state(state)
}

fn tight() -> MoreauJeanOptions {
    MoreauJeanOptions { joint_solver: GmpOptions::with_iter(IterOptions::new(1e-12, 1000)), ..Default::default() }
}

/// A body off the slider's line (so the stop row couples with the joint's orientation rows)
/// slides at `v = 1` along a tilted axis towards a stop 0.1 ahead, without gravity: after the
/// impact its velocity along the axis is `−e v` (to the solver tolerance), it never passes the
/// stop by more than the projection tolerance, and it leaves (e > 0) or stays (e = 0).
#[test]
fn slider_hits_stop_with_newton_impact() {
    let axis = Vector3::new(1.0, 0.5, -0.3).normalize();
    for e in [0.0, 0.5] {
        let mut model = MechanicsModel::new(Vector3::zeros(), 0.01).unwrap();
        let q0 = UnitQuaternion::from_euler_angles(0.2, 0.4, -0.1);
        let s0 = BodyState { position: Vector3::new(0.0, 0.3, 0.2), orientation: q0, v: axis, ..Default::default() };
        let b = model.add_body(ball(2.0, Matrix3::from_diagonal(&Vector3::new(0.1, 0.2, 0.3)), s0)).unwrap();
        let j = model.add_joint("rail", b, None, JointType::Prismatic(PrismaticJointR::new(axis))).unwrap();
        model.add_joint_stop(JointStopR::new(j, 0, Some(-1.0), Some(0.1), e)).unwrap();
        let h = 1e-3;
        let mut sim = MechanicsSimulation::new(model, 0.0, h, tight()).unwrap();
        let (mut impact, mut max_s) = (None, f64::NEG_INFINITY);
        while sim.time() < 0.3 {
            sim.step().unwrap();
            let s = sim.joint_stop_coordinate(0).unwrap();
            max_s = max_s.max(s);
            let imp = sim.joint_stop_impulse(0).unwrap();
            if imp[1] > 0.0 && impact.is_none() {
                impact = Some(sim.time());
                let u = sim.model.body(b).state.v.dot(&axis);
                assert!((u + e).abs() < 1e-10, "e = {e}: velocity after impact {u}, expected {}", -e);
                // impulse = m (1 + e) v
                assert!((imp[1] - 2.0 * (1.0 + e)).abs() < 1e-9, "impulse {}", imp[1]);
            }
            assert!(imp[0] == 0.0, "the lower stop is never touched");
        }
        let t_imp = impact.expect("the slider hits the stop");
        assert!((t_imp - 0.1).abs() <= h + 1e-12, "impact at {t_imp}");
        assert!(max_s <= 0.1 + 1e-12, "e = {e}: passed the stop: s = {max_s}");
        let st = &sim.model.body(b).state;
        let (s, u) = (sim.joint_stop_coordinate(0).unwrap(), st.v.dot(&axis));
        if e == 0.0 {
            assert!((s - 0.1).abs() < 1e-10 && u.abs() < 1e-10, "rests on the stop: s = {s}, u = {u}");
        } else {
            // leaves at −e v from the stop at t ≈ 0.1
            assert!((u + e).abs() < 1e-10);
            assert!((s - (0.1 - e * (sim.time() - 0.1))).abs() < 2.0 * h, "s = {s}");
        }
        assert!(st.orientation.angle_to(&q0) < 1e-11 && st.v.cross(&axis).norm() < 1e-10);
    }
}

/// A hinged pendulum (axis y through the origin, bob at distance `l`, angle `α` from the
/// downward vertical) released at rest at `α₀ = 1` swings down onto a stop at coordinate
/// `0.4` (the coordinate is the rotation about +y, which decreases `α`), with `e = 0` (it stays)
/// and `e = 0.5` (it bounces, the bounces accumulate, it settles: no micro-bouncing for ever on
/// the stop): it rests on the stop, `α = 0.6`, and the stop's reaction torque (impulse / h)
/// balances gravity, `τ = m g l sin α_stop`.
#[test]
fn pendulum_rests_on_stop_with_static_reaction() {
    rest_on_stop(0.0);
    rest_on_stop(0.5);
}

fn rest_on_stop(e: f64) {
    let (m, l, ic, a0) = (1.5, 0.8, 0.02, 1.0f64);
    let mut model = MechanicsModel::new(Vector3::new(0.0, 0.0, -G), 0.01).unwrap();
    let x0 = Vector3::new(l * a0.sin(), 0.0, -l * a0.cos());
    let state = BodyState { position: x0, ..Default::default() };
    let b = model.add_body(ball(m, Matrix3::identity() * ic, state)).unwrap();
    let j =
        model.add_joint("hinge", b, None, JointType::Pivot(PivotJointR::new(Vector3::zeros(), Vector3::y()))).unwrap();
    model.add_joint_stop(JointStopR::new(j, 0, None, Some(0.4), e)).unwrap();
    let h = 1e-3;
    let mut sim = MechanicsSimulation::new(model, 0.0, h, tight()).unwrap();
    let mut first = None;
    while sim.time() < 2.0 {
        sim.step().unwrap();
        let s = sim.joint_stop_coordinate(0).unwrap();
        assert!(s <= 0.4 + 1e-12, "passed the stop: {s}");
        if first.is_none() && sim.joint_stop_impulse(0).unwrap()[1] > 0.0 {
            first = Some(sim.time());
        }
    }
    // Time to swing from α₀ to α₀ − 0.4 for the physical pendulum, by quadrature of
    // dt = dα / ω(α), ω² = 2 m g l (cos α − cos α₀) / I_p (substitution α = α₀ − φ² removes the
    // 1/√ singularity at the start).
    let ip = ic + m * l * l;
    let n = 20000;
    let phi_end = 0.4f64.sqrt();
    let mut t_exact = 0.0;
    for k in 0..n {
        let phi = (k as f64 + 0.5) / n as f64 * phi_end;
        let a = a0 - phi * phi;
        let w = (2.0 * m * G * l * (a.cos() - a0.cos()) / ip).sqrt();
        t_exact += 2.0 * phi / w * phi_end / n as f64;
    }
    let t1 = first.expect("the pendulum reaches the stop");
    assert!((t1 - t_exact).abs() < 3.0 * h, "impact at {t1}, exact {t_exact}");
    let st = &sim.model.body(b).state;
    let alpha = st.position.x.atan2(-st.position.z);
    // at rest: within the activation threshold δ = 1e-6 · margin of the stop for e = 0; after
    // bouncing (e > 0) the last micro-bounce ends O(g h²) short of the stop
    let tol = if e == 0.0 { 1e-8 } else { 1e-5 };
    assert!((alpha - 0.6).abs() < tol && st.omega.norm() < 1e-9, "e = {e}: α = {alpha}, Ω = {:?}", st.omega);
    let torque = sim.joint_stop_impulse(0).unwrap()[1] / h;
    let exact = m * G * l * alpha.sin();
    assert!((torque - exact).abs() < 1e-8 * exact, "reaction torque {torque}, expected {exact}");
}

/// A rotor hinged off its centre (axis z at distance d, no gravity) spinning at `ω₀` under a
/// friction torque bound `T`: `ω(t) = ω₀ − T t / I_p` with `I_p = I_c + m d²` until
/// `t* = I_p ω₀ / T` (to one step), then at rest. The friction impulse is exactly `−hT` while
/// sliding; `ω` follows the line to O(h²) (the position projection of the hinge moves the
/// centre by O(h³) per step, which changes `m x × v`), checked by halving h.
#[test]
fn hinge_friction_spins_down_linearly() {
    let errs: Vec<f64> = [1e-3, 5e-4].into_iter().map(spin_down).collect();
    assert!(errs[0] < 3e-6 && errs[0] / errs[1] > 3.5, "max |ω − line| = {errs:?}: not O(h²)");
}

/// Runs the rotor with step `h`; returns `max |ω(t) − (ω₀ − T t / I_p)|` before `t*`.
fn spin_down(h: f64) -> f64 {
    let (m, ic, d, w0, tq) = (2.0, 0.05, 0.3, 4.0, 0.5);
    let ip = ic + m * d * d;
    let mut model = MechanicsModel::new(Vector3::zeros(), 0.01).unwrap();
    let state = BodyState {
        position: Vector3::new(d, 0.0, 0.0),
        v: Vector3::new(0.0, w0 * d, 0.0),
        omega: Vector3::new(0.0, 0.0, w0),
        ..Default::default()
    };
    let b = model.add_body(ball(m, Matrix3::identity() * ic, state)).unwrap();
    let j =
        model.add_joint("hinge", b, None, JointType::Pivot(PivotJointR::new(Vector3::zeros(), Vector3::z()))).unwrap();
    model.add_joint_friction(JointFrictionR::new(j, 0, tq)).unwrap();
    let t_star = ip * w0 / tq;
    let mut sim = MechanicsSimulation::new(model, 0.0, h, tight()).unwrap();
    let (mut stopped, mut max_err) = (None, 0.0f64);
    while sim.time() < 1.5 * t_star {
        sim.step().unwrap();
        let t = sim.time();
        let w = sim.model.body(b).state.omega.z;
        let lam = sim.joint_friction_impulse(0).unwrap();
        if t < t_star - h {
            max_err = max_err.max((w - (w0 - tq * t / ip)).abs());
            assert!((lam + h * tq).abs() < 1e-12 * tq, "sliding friction impulse {lam}");
        } else if t > t_star + 1.5 * h {
            // (the step ending in (t*, t* + h] may still carry the last of the sliding impulse:
            // at h = 1e-3, t* = 1.84 is a step time, and exact step times put the stop there)
            assert!(w.abs() < 1e-12, "t = {t}: still turning at {w}");
            assert!(lam.abs() < 1e-12, "t = {t}: friction impulse {lam} at rest, ω = {w}");
        }
        if stopped.is_none() && w.abs() < 1e-12 {
            stopped = Some(t);
        }
    }
    let ts = stopped.expect("the rotor stops");
    assert!((ts - t_star).abs() <= h + 1e-9, "h = {h}: stopped at {ts}, t* = {t_star}");
    max_err
}

fn friction_pendulum(alpha0: f64, tq: f64) -> (MechanicsSimulation, BodyId, JointId, f64, f64) {
    let (m, l, ic) = (1.0, 0.5, 0.01);
    let mut model = MechanicsModel::new(Vector3::new(0.0, 0.0, -G), 0.01).unwrap();
    let x0 = Vector3::new(l * alpha0.sin(), 0.0, -l * alpha0.cos());
    let b =
        model.add_body(ball(m, Matrix3::identity() * ic, BodyState { position: x0, ..Default::default() })).unwrap();
    let j =
        model.add_joint("hinge", b, None, JointType::Pivot(PivotJointR::new(Vector3::zeros(), Vector3::y()))).unwrap();
    model.add_joint_friction(JointFrictionR::new(j, 0, tq)).unwrap();
    let sim = MechanicsSimulation::new(model, 0.0, 1e-3, tight()).unwrap();
    (sim, b, j, m * G * l, ic + m * l * l)
}

/// A pendulum at `α₀ = 1` whose gravity torque `m g l sin α₀` is below the friction bound stays
/// where it is, the friction torque balancing gravity.
#[test]
fn hinge_friction_holds_a_light_torque() {
    let a0 = 1.0f64;
    let tau_g = G * 0.5 * a0.sin();
    let (mut sim, b, _, _, _) = friction_pendulum(a0, 1.2 * tau_g);
    let x0 = sim.model.body(b).state.position;
    for _ in 0..1000 {
        sim.step().unwrap();
        let lam = sim.joint_friction_impulse(0).unwrap() / 1e-3;
        assert!((lam.abs() - tau_g).abs() < 1e-9 * tau_g, "friction torque {lam}, gravity torque {tau_g}");
    }
    let st = &sim.model.body(b).state;
    assert!((st.position - x0).norm() < 1e-12 && st.omega.norm() < 1e-12, "moved to {:?}", st.position);
}

/// A pendulum released at rest from the horizontal (`α₀ = π/2`) with a friction bound below its
/// gravity torque: it starts with `ω̇ = (τ_g − T)/I_p` and, while it swings down, follows
/// `½ I_p ω² = m g l (cos α − cos α₀) − T (α₀ − α)` (to O(h)).
#[test]
fn hinge_friction_slips_under_a_heavy_torque() {
    let a0 = std::f64::consts::FRAC_PI_2;
    let tq = 0.4 * G * 0.5;
    let (mut sim, b, _, mgl, ip) = friction_pendulum(a0, tq);
    let h = 1e-3;
    let mut checked = 0;
    while sim.time() < 0.6 {
        sim.step().unwrap();
        let t = sim.time();
        let st = &sim.model.body(b).state;
        let w = st.omega.y; // the coordinate rate (α decreases with rotation about +y: α̇ = −Ω_y)
        let alpha = st.position.x.atan2(-st.position.z);
        if t <= 0.02 + 1e-12 {
            // early: the gravity torque is still m g l (1 − O(α₀ − α)²)
            let acc = (mgl - tq) / ip;
            assert!((w - acc * t).abs() < 1e-4 * acc * t + 1e-12, "t = {t}: ω = {w}, expected {}", acc * t);
        }
        assert!(w > 0.0);
        let energy = 0.5 * ip * w * w;
        let exact = mgl * (alpha.cos() - a0.cos()) - tq * (a0 - alpha);
        assert!((energy - exact).abs() < 5.0 * h * mgl, "t = {t}: ½Iω² = {energy}, work balance {exact}");
        checked += 1;
    }
    assert!(checked >= 500);
}

/// Bad stops and frictions are refused with the joint's name.
#[test]
fn bad_limits_are_rejected() {
    let mut model = MechanicsModel::new(Vector3::zeros(), 0.01).unwrap();
    let b = model.add_body(ball(1.0, Matrix3::identity(), BodyState::default())).unwrap();
    let j =
        model.add_joint("hinge", b, None, JointType::Pivot(PivotJointR::new(Vector3::zeros(), Vector3::z()))).unwrap();
    let err = |r: saltus_mechanics::Result<usize>| r.unwrap_err().to_string();
    assert!(err(model.add_joint_stop(JointStopR::new(j, 1, Some(-1.0), None, 0.0))).contains("no coordinate 1"));
    assert!(err(model.add_joint_stop(JointStopR::new(j, 0, None, None, 0.0))).contains("lower or an upper"));
    assert!(err(model.add_joint_stop(JointStopR::new(j, 0, Some(1.0), Some(0.5), 0.0))).contains("below"));
    assert!(err(model.add_joint_stop(JointStopR::new(j, 0, Some(-1.0), None, 1.5))).contains("restitution"));
    assert!(err(model.add_joint_stop(JointStopR::new(j, 0, Some(0.1), None, 0.0))).contains("outside"));
    assert!(err(model.add_joint_stop(JointStopR::new(JointId(3), 0, Some(0.1), None, 0.0))).contains("no joint 3"));
    assert!(err(model.add_joint_friction(JointFrictionR::new(j, 0, -1.0))).contains("hinge"));
    assert!(err(model.add_joint_friction(JointFrictionR::new(j, 0, f64::NAN))).contains(">= 0"));
    assert_eq!(model.add_joint_stop(JointStopR::new(j, 0, Some(-0.1), Some(0.2), 0.3)).unwrap(), 0);
    assert_eq!(model.add_joint_friction(JointFrictionR::new(j, 0, 0.0)).unwrap(), 0);
}

/// Two unit boxes on a vertical slider (Siconos `add_joint(..., allow_self_collide=True)`):
/// the top one, released 0.5 m above the lower one (fixed to the world), falls onto it and rests
/// there, its centre 1 m above (to the margin), with its weight on the contact (impulse `m g h`
/// per step); without `allow_self_collide` jointed bodies do not collide and it falls through
/// down to the stop 1.5 m below its start.
#[test]
fn jointed_bodies_collide_when_allowed() {
    let cube = |name: &str, z: f64| {
        BodyDesc::dynamic(name)
            .shape_at_origin(ShapeDesc::from(Cuboid { half_extents: Vector3::new(0.5, 0.5, 0.5) }))
            .mass(1.0, Matrix3::identity() / 6.0)
            .state(BodyState { position: Vector3::new(0.0, 0.0, z), ..Default::default() })
    };
    for allow in [false, true] {
        let mut model = MechanicsModel::new(Vector3::new(0.0, 0.0, -G), 0.02).unwrap();
        model.set_law(0, 0, saltus_mechanics::ContactLaw::new(0.0, 0.5)).unwrap();
        let low = model.add_body(cube("low", 0.0)).unwrap();
        let top = model.add_body(cube("top", 1.5)).unwrap();
        model.add_joint("fix", low, None, JointType::Fixed(saltus_mechanics::joints::FixedJointR::new())).unwrap();
        let j =
            model.add_joint("slide", top, Some(low), JointType::Prismatic(PrismaticJointR::new(Vector3::z()))).unwrap();
        model.add_joint_stop(JointStopR::new(j, 0, Some(-1.5), None, 0.0)).unwrap();
        if allow {
            model.allow_self_collide(j).unwrap();
        }
        let mut sim = MechanicsSimulation::new(model, 0.0, 1e-3, tight()).unwrap();
        while sim.time() < 1.5 {
            sim.step().unwrap();
        }
        let dz = sim.model.body(top).state.position.z - sim.model.body(low).state.position.z;
        if allow {
            assert!((dz - 1.0).abs() < 0.02, "rests on the lower box: dz = {dz}");
        } else {
            assert!((dz - 0.0).abs() < 1e-6, "falls through to the stop: dz = {dz}");
        }
        assert!(sim.model.body(top).state.v.norm() < 1e-6, "at rest");
    }
    let mut model = MechanicsModel::new(Vector3::zeros(), 0.02).unwrap();
    assert!(model.allow_self_collide(JointId(3)).is_err(), "unknown joint");
}

/// A ball on a slider along `a = (0, 1, 1)/√2` thrown straight up at 20 m/s (Siconos's
/// `Joint_stops.py`): the velocity across the slider is removed at the start (as Siconos's first
/// step, `J v₁ = 0`), leaving `(v·a) a` with its kinetic energy, instead of being reflected from
/// step to step by the mid-step joint rows; after that the motion is the free fall along the
/// slider, `u(t) = v·a − g (a·ẑ) t`.
#[test]
fn inconsistent_initial_velocity_is_projected_onto_the_joint() {
    let a = Vector3::new(0.0, 1.0, 1.0).normalize();
    let mut model = MechanicsModel::new(Vector3::new(0.0, 0.0, -G), 0.01).unwrap();
    let s0 = BodyState { v: Vector3::new(0.0, 0.0, 20.0), ..Default::default() };
    let b = model.add_body(ball(1.0, Matrix3::identity() * 0.01, s0)).unwrap();
    model.add_joint("rail", b, None, JointType::Prismatic(PrismaticJointR::new(a))).unwrap();
    let h = 1e-3;
    let mut sim = MechanicsSimulation::new(model, 0.0, h, tight()).unwrap();
    let u0 = 20.0 * a.z;
    assert!((sim.model.body(b).state.v - a * u0).norm() < 1e-8, "projected at t0: {:?}", sim.model.body(b).state.v);
    for k in 1..=100 {
        sim.step().unwrap();
        let v = sim.model.body(b).state.v;
        let u = u0 - G * a.z * (k as f64) * h;
        assert!((v - a * u).norm() < 1e-8, "step {k}: v = {v:?}, expected {:?}", a * u);
    }
}
