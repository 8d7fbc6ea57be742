//! Relations on a rigid body (a `LagrangianDs` with `q̇ = N(q) v`, `q ∈ R⁷`, `v ∈ R⁶`): the
//! relation gives `C = ∇_q h` and the one-step problem works with `H = C N(q)` (Siconos
//! `NewtonEulerR`'s `jachqT`). Checked against mechanics that do not depend on the scheme's
//! details: the angular momentum about the contact point of a sphere sliding into rolling (5/7 of
//! its speed, at `2 v₀ / (7 μ g)`), the exact impulse of an eccentric elastic impact on a
//! Lagrangian plate, and the momenta a frictionless floor cannot change.

use nalgebra::{dvector, DMatrix, DVector, Matrix3, Vector3};
use saltus_kernel::solvers::fc::{FcSolver, GfcSolver, NsgsOptions};
use saltus_kernel::solvers::lcp::LcpSolver;
use saltus_kernel::*;
use saltus_numerics::IterOptions;

mod common;
use common::rigid_body::{body, cross, point_row, pull_back, rotation};

/// A contact at the body point of world offset `offset(q)` from the centre, with the world
/// normal `n` and (3 rows) tangents `t1`, `t2`: `h = (gap(q), 0, 0)`, `∇_q h` pulled back from
/// the point's velocity rows.
fn point_contact(
    rows: Vec<[f64; 3]>,
    gap: impl Fn(&[f64]) -> f64 + Send + Sync + 'static,
    offset: impl Fn(&[f64]) -> [f64; 3] + Send + Sync + 'static,
) -> Relation {
    let m = rows.len();
    Relation::LagrangianScleronomous(LagrangianScleronomousR::new(
        m,
        move |_, q, y| {
            y.fill(0.0);
            y[0] = gap(q);
            Ok(())
        },
        move |_, q, c| {
            let o = offset(q);
            for (i, d) in rows.iter().enumerate() {
                let (a, b) = point_row(q, *d, o);
                let row = pull_back(q, a, b);
                for (j, x) in row.iter().enumerate() {
                    c[(i, j)] = *x;
                }
            }
            Ok(())
        },
    ))
}

/// A sphere (radius r, `I = 2/5 m r²`) launched at `v₀` without spin on a floor with friction μ:
/// the friction impulse `μ m g h` per step slows the centre and spins the ball up (`v_x = v₀ −
/// k μ g h`, `r ω_y = 5/2 k μ g h`) until the contact point sticks, after `2 v₀ / (7 μ g)`; the
/// angular momentum about the contact point `m r v_x + I ω_y` is the same at every step (only
/// the contact point's impulse and gravity act), so the ball rolls at `5/7 v₀`. The unit
/// quaternion stays on the sphere and the ball on the floor.
/// With either form of the body: a `LagrangianDs` with a user `N(q)` and `F_gyr`, or the rigid-body
/// family (`LagrangianDs::rigid_body`, the momentum form and exponential map shared with
/// `mechanics`), and with either formulation: local (`FrictionContact`) or global
/// (`MoreauJeanGOSI` + `GlobalFrictionContact`).
#[test]
fn sphere_slides_then_rolls_at_five_sevenths() {
    let (r, m, g, v0) = (0.1, 1.0, 9.81, 1.0);
    let inertia = 0.4 * m * r * r;
    let (q0, w0) = (dvector![0.0, 0.0, r, 1.0, 0.0, 0.0, 0.0], dvector![v0, 0.0, 0.0, 0.0, 0.0, 0.0]);
    let local = || {
        let solver = FcSolver::NsgsAc(NsgsOptions::with_iter(IterOptions::new(1e-14, 1000)));
        (Osi::moreau_jean(0.5), Osnsp::FrictionContact { dim: 3, solver })
    };
    let user = || body(m, [inertia; 3], q0.clone(), w0.clone(), g).with_unit_quaternion(3);
    let rigid = || {
        LagrangianDs::rigid_body(q0.clone(), w0.clone(), m, nalgebra::Matrix3::from_diagonal_element(inertia))
            .with_f_ext(dvector![0.0, 0.0, -m * g, 0.0, 0.0, 0.0])
    };
    slide_then_roll(user(), local(), (r, m, g, v0));
    slide_then_roll(rigid(), local(), (r, m, g, v0));
    // the global Moreau–Jean (M and H kept apart, MoreauJeanGOSI + GlobalFrictionContact)
    for ball in [user(), rigid()] {
        let solver = GfcSolver::Nsgs(NsgsOptions::with_iter(IterOptions::new(1e-13, 1000)));
        let global = (Osi::moreau_jean_gosi(0.5), Osnsp::GlobalFrictionContact { dim: 3, solver });
        slide_then_roll(ball, global, (r, m, g, v0));
    }
}

fn slide_then_roll(ball: LagrangianDs, (osi, osnsp): (Osi, Osnsp), (r, m, g, v0): (f64, f64, f64, f64)) {
    let (mu, h) = (0.3, 1e-3);
    let inertia = 0.4 * m * r * r;
    let mut nsds = Nsds::new(0.0);
    let id = nsds.add_ds("ball", ball).unwrap();
    let contact = point_contact(
        vec![[0.0, 0.0, 1.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]],
        move |q| q[2] - r,
        move |_| [0.0, 0.0, -r],
    );
    nsds.link("floor", id, None, contact, NonSmoothLaw::NewtonImpactFriction { en: 0.0, et: 0.0, mu, dim: 3 }).unwrap();
    let mut ts = TimeStepping::new(&nsds, h, osi, osnsp).unwrap();
    let t_roll = 2.0 * v0 / (7.0 * mu * g);
    let l0 = m * r * v0;
    let mut rolled_at = None;
    for k in 1..=300 {
        let rep = ts.step(&mut nsds).unwrap();
        assert!(rep.osnsp.as_ref().unwrap().status.converged(), "step {k}: {:?}", rep.osnsp);
        let ds = &nsds.systems()[0];
        let (q, v) = (ds.state().as_slice(), ds.velocity().unwrap().as_slice());
        // ω in the world frame: the ball turns about y only
        let rot = rotation(q);
        let w_y = (0..3).map(|j| rot[1][j] * v[3 + j]).sum::<f64>();
        let lambda = nsds.interactions()[0].lambda(1).unwrap();
        assert!((lambda[0] - m * g * h).abs() <= 1e-12, "step {k}: normal impulse {} ≠ m g h", lambda[0]);
        assert!((q[2] - r).abs() <= 1e-14 && v[2].abs() <= 1e-13, "step {k}: the ball leaves the floor");
        let qn = (3..7).map(|i| q[i] * q[i]).sum::<f64>().sqrt();
        assert!((qn - 1.0).abs() <= 4e-16, "step {k}: |quaternion| = {qn}");
        let l = m * r * v[0] + inertia * w_y;
        assert!((l - l0).abs() <= 1e-13, "step {k}: angular momentum about the contact point {l} ≠ {l0}");
        let t = k as f64 * h;
        if t < t_roll - h {
            let vx = v0 - k as f64 * mu * g * h;
            assert!((v[0] - vx).abs() <= 1e-13, "step {k}: sliding v_x = {}, expected {vx}", v[0]);
            assert!((r * w_y - 2.5 * (v0 - vx)).abs() <= 1e-12, "step {k}: r ω_y = {}", r * w_y);
        } else if t >= t_roll + h {
            assert!((v[0] - r * w_y).abs() <= 1e-12, "step {k}: the contact point slips at {}", v[0] - r * w_y);
            assert!((v[0] - 5.0 / 7.0 * v0).abs() <= 1e-12, "step {k}: rolling speed {}", v[0]);
            rolled_at.get_or_insert(t);
        }
    }
    assert!(rolled_at.is_some());
}

/// A spinning cube's corner hits a free plate (a 1-dof `LagrangianLinearTIDS`) without gravity,
/// e = 1, no friction: one interaction between a rigid body and a Lagrangian system. The impulse
/// is that of the eccentric elastic impact, `P = −(H v_k + e u⁻) / (1/m + |c × n|²/I + 1/M)`
/// with `H` the corner's velocity row at the Newton loop's `q_{k+1}` (lever arm `c`) and `u⁻`
/// its approach speed at the end of the previous step (Newton's law `H v_{k+1} = −e u⁻`); the
/// cube's inertia is isotropic, so no gyroscopic torque blurs the closed form. Every velocity
/// after the impact follows; the momentum `m v_z + M V` is kept to round-off and the kinetic
/// energy to the change of `H` over the step.
#[test]
fn box_corner_hits_a_lagrangian_plate() {
    let (m, big_m, h) = (2.0, 3.0, 1e-3);
    let half = [0.2; 3];
    let inertia = [0, 1, 2].map(|i| m / 3.0 * (0..3).filter(|&j| j != i).map(|j| half[j] * half[j]).sum::<f64>());
    // tilted by 0.4 rad about (1, 2, 0)/√5; moving down at 1 m/s and spinning
    let (s, c) = (0.2f64.sin(), 0.2f64.cos());
    let axis = [1.0 / 5f64.sqrt(), 2.0 / 5f64.sqrt(), 0.0];
    let q0 = dvector![0.1, -0.2, 0.5, c, s * axis[0], s * axis[1], s * axis[2]];
    let v0 = dvector![0.3, 0.0, -1.0, 0.5, -1.0, 2.0];
    let corner = [-half[0], -half[1], -half[2]];
    let offset = move |q: &[f64]| {
        let rot = rotation(q);
        [0, 1, 2].map(|i| (0..3).map(|j| rot[i][j] * corner[j]).sum::<f64>())
    };
    let mut nsds = Nsds::new(0.0);
    let b = nsds.add_ds("box", body(m, inertia, q0.clone(), v0.clone(), 0.0).with_unit_quaternion(3)).unwrap();
    let plate = LagrangianLinearTiDs::new(dvector![0.0], dvector![0.0], DMatrix::from_element(1, 1, big_m));
    let p = nsds.add_ds("plate", plate).unwrap();
    // h = z_corner − Z (8 columns: the box's 7 coordinates, then the plate's)
    let gap = move |q: &[f64]| q[2] + offset(q)[2] - q[7];
    let rel = LagrangianScleronomousR::new(
        1,
        move |_, q, y| {
            y[0] = gap(q);
            Ok(())
        },
        move |_, q, cm| {
            let (a, bb) = point_row(q, [0.0, 0.0, 1.0], offset(q));
            for (j, x) in pull_back(q, a, bb).iter().enumerate() {
                cm[(0, j)] = *x;
            }
            cm[(0, 7)] = -1.0;
            Ok(())
        },
    );
    nsds.link("corner", b, Some(p), Relation::LagrangianScleronomous(rel), NonSmoothLaw::NewtonImpact { e: 1.0 })
        .unwrap();
    let mut ts =
        TimeStepping::new(&nsds, h, Osi::moreau_jean(0.5), Osnsp::Lcp(LcpSolver::Lemke(Default::default()))).unwrap();
    let energy = |n: &Nsds| {
        let v = n.systems()[0].velocity().unwrap();
        let vp = n.systems()[1].velocity().unwrap()[0];
        0.5 * m * (v[0] * v[0] + v[1] * v[1] + v[2] * v[2])
            + 0.5 * (0..3).map(|i| inertia[i] * v[3 + i] * v[3 + i]).sum::<f64>()
            + 0.5 * big_m * vp * vp
    };
    let e0 = energy(&nsds);
    let mut impact = None;
    for k in 1..=1000 {
        let before: Vec<f64> = nsds.systems()[0].velocity().unwrap().iter().copied().collect();
        let u_minus = nsds.interactions()[0].y(1).unwrap()[0];
        ts.step(&mut nsds).unwrap();
        let lambda = nsds.interactions()[0].lambda(1).unwrap()[0];
        if lambda > 0.0 {
            assert!(impact.is_none(), "a second impact at step {k}");
            impact = Some(k);
            // the closed form of the impact, with the corner's lever arm at the Newton loop's
            // converged q_{k+1} (where the one-step problem takes H = C N)
            let q1: Vec<f64> = nsds.systems()[0].state().iter().copied().collect();
            let rot = rotation(&q1);
            let arm = offset(&q1);
            let cn = cross(arm, [0.0, 0.0, 1.0]);
            let cn_body = [0, 1, 2].map(|j| (0..3).map(|i| rot[i][j] * cn[i]).sum::<f64>());
            let inv = 1.0 / m + (0..3).map(|i| cn_body[i] * cn_body[i] / inertia[i]).sum::<f64>() + 1.0 / big_m;
            let hv = before[2] + (0..3).map(|i| cn_body[i] * before[3 + i]).sum::<f64>();
            let p_exact = -(hv + u_minus) / inv;
            assert!((lambda - p_exact).abs() <= 1e-12 * p_exact, "impulse {lambda}, closed form {p_exact}");
            let v = nsds.systems()[0].velocity().unwrap();
            assert!((v[2] - (before[2] + p_exact / m)).abs() <= 1e-12);
            for i in 0..3 {
                let w = before[3 + i] + p_exact * cn_body[i] / inertia[i];
                assert!((v[3 + i] - w).abs() <= 1e-12, "ω_{i} = {}, closed form {w}", v[3 + i]);
            }
            let vp = nsds.systems()[1].velocity().unwrap()[0];
            assert!((vp + p_exact / big_m).abs() <= 1e-12, "plate V = {vp}");
        }
        let v = nsds.systems()[0].velocity().unwrap();
        let vp = nsds.systems()[1].velocity().unwrap()[0];
        assert!((m * v[2] + big_m * vp - m * v0[2]).abs() <= 1e-12, "step {k}: momentum");
        assert_eq!((v[0], v[1]), (v0[0], v0[1]), "step {k}: the normal impulse moves z only");
    }
    let k = impact.expect("the corner reaches the plate");
    // gap(q0) / 1 m/s, give or take the spin
    assert!((100..500).contains(&k), "impact at step {k}");
    let e1 = energy(&nsds);
    // measured 3.3e-4: the law compares H(q_{k+1}) v_{k+1} with H(q_k) v_k
    assert!((e1 - e0).abs() <= 1e-3 * e0, "kinetic energy {e0} → {e1}");
}

/// The lowest corner of a tumbling cube falling on the floor (e = 0.5), declared with an
/// activation distance (`ProximityManager`) in one run and linked from the start in the other:
/// the same trajectory and, while the contact is dormant, the same gap and rate (`ẏ = C q̇`
/// with `q̇ = N(q) v` computed by the manager, `H v` by the time stepping).
#[test]
fn a_dormant_contact_on_a_rigid_body_reports_its_rate() {
    let (m, half, h) = (1.0, 0.1, 1e-3);
    let inertia = [m * (2.0 * half * half) / 3.0; 3];
    let (s, c) = (0.3f64.sin(), 0.3f64.cos());
    let q0 = dvector![0.0, 0.0, 0.4, c, s * 0.6, s * 0.8, 0.0];
    let v0 = dvector![0.0, 0.0, 0.0, 1.0, -2.0, 0.5];
    let corner = [-half, -half, -half];
    let offset = move |q: &[f64]| {
        let rot = rotation(q);
        [0, 1, 2].map(|i| (0..3).map(|j| rot[i][j] * corner[j]).sum::<f64>())
    };
    let relation = point_contact(vec![[0.0, 0.0, 1.0]], move |q| q[2] + offset(q)[2], offset);
    let law = NonSmoothLaw::NewtonImpact { e: 0.5 };
    let model = || {
        let mut nsds = Nsds::new(0.0);
        nsds.add_ds("cube", body(m, inertia, q0.clone(), v0.clone(), 9.81).with_unit_quaternion(3)).unwrap();
        nsds
    };
    let lemke = || Osnsp::Lcp(LcpSolver::Lemke(Default::default()));
    let mut a = model();
    a.link("corner", DsId(0), None, relation.clone(), law.clone()).unwrap();
    let mut sa = TimeStepping::new(&a, h, Osi::moreau_jean(0.5), lemke()).unwrap();
    let mut b = model();
    let template = Interaction::new("corner", DsId(0), None, relation, law);
    let manager = ProximityManager::new(vec![ProximityInteraction { template, distance: 0.01 }], &b).unwrap();
    let mut sb =
        TimeStepping::new(&b, h, Osi::moreau_jean(0.5), lemke()).unwrap().with_proximity(manager, &mut b).unwrap();
    let (mut dormant, mut impulses) = (0, 0);
    for k in 1..=400 {
        sa.step(&mut a).unwrap();
        sb.step(&mut b).unwrap();
        let (qa, qb) = (a.systems()[0].state(), b.systems()[0].state());
        assert!((qa - qb).amax() <= 1e-12, "step {k}: {qa} vs {qb}");
        let ia = &a.interactions()[0];
        let p = sb.proximity().unwrap();
        let o = p.outputs(0, &b, 1).unwrap();
        assert!((ia.y(0).unwrap()[0] - o.y[0][0]).abs() <= 1e-12, "step {k}: gap");
        assert!(
            (ia.y(1).unwrap()[0] - o.y[1][0]).abs() <= 1e-12,
            "step {k}: rate {} vs {}",
            ia.y(1).unwrap()[0],
            o.y[1][0]
        );
        dormant += usize::from(p.slot(0).is_none() && ia.y(1).unwrap()[0] != 0.0);
        impulses += usize::from(ia.lambda(1).unwrap()[0] > 0.0);
    }
    assert!(dormant > 100 && impulses > 0, "{dormant} dormant steps, {impulses} impulses");
}

/// A compliant contact on a rigid body: a cube (side 0.2, m = 2) released flat, touching a floor
/// whose four corner contacts are springs, `y = gap + D λ` (Siconos `LagrangianCompliantLinearTIR`, `C`
/// over the 7 coordinates, `H = C N(q)`), settles at the static penetration of each corner
/// `D m g / 4` (the rigid gap `y₀ = −D m g/4` to 1e-9; Moreau–Jean θ = 1 damps the springs'
/// oscillation), without tilting; the nonlinear form
/// `LagrangianCompliantR` with the same affine `h(q, λ)` gives the bits of the linear one (its
/// linearization remainder is round-off), for a user `N(q)` and for the rigid-body family.
#[test]
fn a_rigid_body_settles_on_compliant_contacts() {
    let (m, a, g, d, h) = (2.0, 0.1, 9.81, 1e-4, 1e-3);
    let i = m * (2.0 * a) * (2.0 * a) / 6.0;
    let q0 = dvector![0.0, 0.0, 0.1, 1.0, 0.0, 0.0, 0.0];
    let corners = [[a, a], [a, -a], [-a, a], [-a, -a]];
    // gap of the corner (cx, cy, −a) of the body frame: z + (R (cx, cy, −a))_z, and its row of ∇_q h
    let corner = move |q: &[f64], k: usize| {
        let c = [corners[k][0], corners[k][1], -a];
        let r = rotation(q);
        let o = [0, 1, 2].map(|i| (0..3).map(|j| r[i][j] * c[j]).sum::<f64>());
        let (ra, rb) = point_row(q, [0.0, 0.0, 1.0], o);
        (q[2] + o[2], pull_back(q, ra, rb))
    };
    // at the flat pose C is the row (0, 0, 1, 0 …) plus the quaternion columns of the corner
    let linear = |k: usize| {
        let (gap0, row) = corner(q0.as_slice(), k);
        let c = DMatrix::from_row_slice(1, 7, &row);
        let e = gap0 - (c.clone() * &q0)[0];
        Relation::LagrangianCompliantLinearTi(LagrangianCompliantLinearTiR::new(c, dmatrix_1(d)).with_e(dvector![e]))
    };
    let affine = |k: usize| {
        let (gap0, row) = corner(q0.as_slice(), k);
        let e = gap0 - (0..7).map(|j| row[j] * q0[j]).sum::<f64>();
        Relation::LagrangianCompliant(LagrangianCompliantR::new(
            1,
            move |_, q, l, y| {
                y[0] = (0..7).map(|j| row[j] * q[j]).sum::<f64>() + e + d * l[0];
                Ok(())
            },
            move |_, _, _, c| {
                for j in 0..7 {
                    c[(0, j)] = row[j];
                }
                Ok(())
            },
            move |_, _, _, dd| {
                dd[(0, 0)] = d;
                Ok(())
            },
        ))
    };
    let rigid = LagrangianDs::rigid_body(q0.clone(), DVector::zeros(6), m, Matrix3::from_diagonal_element(i))
        .with_f_ext(dvector![0.0, 0.0, -m * g, 0.0, 0.0, 0.0]);
    let user = body(m, [i; 3], q0.clone(), DVector::zeros(6), g).with_unit_quaternion(3);
    for (form, ds) in [("user N(q)", user), ("rigid family", rigid)] {
        let mut runs = Vec::new();
        for rel in [&linear as &dyn Fn(usize) -> Relation, &affine] {
            let mut nsds = Nsds::new(0.0);
            let id = nsds.add_ds("cube", ds.clone()).unwrap();
            for k in 0..4 {
                nsds.link(format!("c{k}"), id, None, rel(k), NonSmoothLaw::NewtonImpact { e: 0.0 }).unwrap();
            }
            let lemke = Osnsp::Lcp(LcpSolver::Lemke(Default::default()));
            let mut ts = TimeStepping::new(&nsds, h, Osi::moreau_jean(1.0), lemke).unwrap();
            let mut trace = Vec::new();
            for _ in 0..3000 {
                ts.step(&mut nsds).unwrap();
                trace.extend(nsds.systems()[0].state().iter().map(|x| x.to_bits()));
            }
            let y0: Vec<f64> = (0..4).map(|k| nsds.interactions()[k].y(0).unwrap()[0]).collect();
            let q = nsds.systems()[0].state();
            for y in &y0 {
                assert!(
                    (y + d * m * g / 4.0).abs() < 1e-9,
                    "{form}: rigid gap {y:e}, −D m g/4 = {:e}",
                    -d * m * g / 4.0
                );
            }
            assert!((q[3] - 1.0).abs() < 1e-12 && q.rows(4, 3).amax() < 1e-12, "{form}: tilted: {q}");
            runs.push(trace);
        }
        assert!(runs[0] == runs[1], "{form}: the affine LagrangianCompliantR differs from the linear relation");
    }
}

/// A rigid body hung by a ball joint (the body point `c` fixed at the origin: `h(q) = x + R(q) c
/// = 0`, three equality rows) tumbling under gravity for 2 s. Moreau–Jean alone lets the joint
/// drift (the velocity-level constraint `H v = 0` holds, its integral does not); with the direct
/// projection the position correction `δv = M⁻¹ Hᵀ μ` (`H = C N`) is retracted onto the
/// coordinates — the exponential map of the rigid-body family, or `q + N(q) δv` with the
/// quaternion renormalized for a user `N(q)` — and `|h(q)| ≤ 1e-10` after every step, the
/// quaternion stays unit and `H v = 0`. The energy error is first order in `h` (the scheme's
/// order with constraints): halving `h` halves it, for both forms.
#[test]
fn the_direct_projection_holds_a_rigid_body_on_a_ball_joint() {
    let (m, inertia, g) = (1.0, [0.1, 0.2, 0.3], 9.81);
    let c = [0.0, 0.0, 0.5];
    let q0 = dvector![0.0, 0.0, -0.5, 1.0, 0.0, 0.0, 0.0];
    // v = −ω × c keeps the pivot at rest; ω = (2, 0, 0.5)
    let v0 = dvector![0.0, 1.0, 0.0, 2.0, 0.0, 0.5];
    let energy = |q: &[f64], v: &[f64]| {
        0.5 * m * (v[0] * v[0] + v[1] * v[1] + v[2] * v[2])
            + 0.5 * (0..3).map(|i| inertia[i] * v[3 + i] * v[3 + i]).sum::<f64>()
            + m * g * q[2]
    };
    let e0 = energy(q0.as_slice(), v0.as_slice());
    // (max |h(q)|, max |E − E0|) over 2 s, with or without the projection
    let run = |ds: &LagrangianDs, h: f64, projected: bool| -> (f64, f64) {
        let mut nsds = Nsds::new(0.0);
        let id = nsds.add_ds("b", ds.clone()).unwrap();
        nsds.link("joint", id, None, ball_joint(c), NonSmoothLaw::EqualityCondition { size: 3 }).unwrap();
        let mut plain = TimeStepping::new(&nsds, h, Osi::moreau_jean(0.5), Osnsp::Equality).unwrap();
        let opts = Default::default();
        let mut proj =
            TimeSteppingDirectProjection::new(&nsds, h, Osi::moreau_jean(0.5), Osnsp::Equality, opts).unwrap();
        let (mut worst, mut de) = (0.0f64, 0.0f64);
        for _ in 0..(2.0 / h).round() as usize {
            if projected {
                assert!(proj.step(&mut nsds).unwrap().projection.unwrap().converged);
                let hv = nsds.interactions()[0].y(1).unwrap().amax();
                assert!(hv < 1e-9, "H v = {hv:e}");
            } else {
                plain.step(&mut nsds).unwrap();
            }
            let sys = &nsds.systems()[0];
            let (q, v) = (sys.state().as_slice(), sys.velocity().unwrap().as_slice());
            let quat = (3..7).map(|i| q[i] * q[i]).sum::<f64>().sqrt();
            assert!((quat - 1.0).abs() < 1e-14, "|q| − 1 = {:e}", quat - 1.0);
            de = de.max((energy(q, v) - e0).abs());
            worst = worst.max(nsds.interactions()[0].y(0).unwrap().amax());
        }
        (worst, de)
    };
    let user = body(m, inertia, q0.clone(), v0.clone(), g).with_unit_quaternion(3);
    let rigid = LagrangianDs::rigid_body(q0.clone(), v0.clone(), m, Matrix3::from_diagonal(&Vector3::from(inertia)))
        .with_f_ext(dvector![0.0, 0.0, -m * g, 0.0, 0.0, 0.0]);
    for (form, ds) in [("user N(q)", user), ("rigid family", rigid)] {
        let (free, _) = run(&ds, 1e-3, false);
        let (held, de1) = run(&ds, 1e-3, true);
        let (_, de2) = run(&ds, 5e-4, true);
        println!("{form}: |h| {free:e} → {held:e}; energy error {de1:e} (h = 1e-3), {de2:e} (h/2)");
        assert!(free > 1e-7 && held <= 1e-10, "{form}: |h(q)| {free:e} without, {held:e} with the projection");
        assert!(de1 < 5e-3 * e0.abs() && (de1 / de2 - 2.0).abs() < 0.1, "{form}: energy errors {de1:e}, {de2:e}");
    }
}

/// The ball joint `h(q) = x + R(q) c = 0` of the body point `c` (body frame), with `C = ∇_q h`
/// pulled back from the point's velocity rows.
fn ball_joint(c: [f64; 3]) -> Relation {
    let world = move |q: &[f64]| {
        let r = rotation(q);
        [0, 1, 2].map(|i| (0..3).map(|j| r[i][j] * c[j]).sum::<f64>())
    };
    Relation::LagrangianScleronomous(LagrangianScleronomousR::new(
        3,
        move |_, q, y| {
            let o = world(q);
            for i in 0..3 {
                y[i] = q[i] + o[i];
            }
            Ok(())
        },
        move |_, q, cq| {
            let o = world(q);
            for i in 0..3 {
                let mut d = [0.0; 3];
                d[i] = 1.0;
                let (a, b) = point_row(q, d, o);
                for (j, x) in pull_back(q, a, b).iter().enumerate() {
                    cq[(i, j)] = *x;
                }
            }
            Ok(())
        },
    ))
}

fn dmatrix_1(x: f64) -> DMatrix<f64> {
    DMatrix::from_element(1, 1, x)
}

/// The rigid-body family is checked when added and when a simulation is built: 7 and 6 numbers,
/// no `F_gyr` (its gyroscopic term is the momentum form), Moreau–Jean only.
#[test]
fn a_rigid_body_is_checked() {
    let inertia = nalgebra::Matrix3::from_diagonal(&nalgebra::Vector3::new(1.0, 2.0, 3.0));
    let q0 = dvector![0.0, 0.0, 1.0, 1.0, 0.0, 0.0, 0.0];
    let mut nsds = Nsds::new(0.0);
    let short = LagrangianDs::rigid_body(q0.rows(0, 6).into(), DVector::zeros(6), 1.0, inertia);
    let err = nsds.add_ds("short", short).unwrap_err();
    assert!(err.to_string().contains("7 and v0 of 6"), "{err}");
    let gyr = LagrangianDs::rigid_body(q0.clone(), DVector::zeros(6), 1.0, inertia)
        .with_f_gyr(common::rigid_body::gyroscopic([1.0, 2.0, 3.0]));
    let err = nsds.add_ds("gyr", gyr).unwrap_err();
    assert!(err.to_string().contains("momentum form"), "{err}");
    let bad_inertia = LagrangianDs::rigid_body(q0.clone(), DVector::zeros(6), 1.0, -inertia);
    assert!(nsds.add_ds("bad", bad_inertia).is_err());
    nsds.add_ds("ok", LagrangianDs::rigid_body(q0, DVector::zeros(6), 1.0, inertia)).unwrap();
    let err = TimeStepping::new(&nsds, 1e-3, Osi::semi_explicit_euler(), Osnsp::Equality).err().unwrap();
    assert!(err.to_string().contains("momentum form"), "{err}");
    TimeStepping::new(&nsds, 1e-3, Osi::moreau_jean(0.5), Osnsp::Equality).unwrap();
}

/// A control input term on a rigid body (`TimeStepping::set_control_input`, 6 entries: the size of
/// v, not of q) acts as that much more external force and torque, held over the step: the run
/// with `F_ext = f` and the input `g` has the bits of the run with `F_ext = f + g`.
#[test]
fn a_control_input_on_a_rigid_body_is_a_held_force_and_torque() {
    let inertia = nalgebra::Matrix3::from_diagonal(&nalgebra::Vector3::new(1.0, 2.0, 3.0));
    let (q0, v0) = (dvector![0.0, 0.0, 1.0, 1.0, 0.0, 0.0, 0.0], dvector![0.0, 0.0, 0.0, 0.1, 2.0, 0.1]);
    let run = |f: DVector<f64>, g: Option<[f64; 6]>| {
        let mut nsds = Nsds::new(0.0);
        let id =
            nsds.add_ds("b", LagrangianDs::rigid_body(q0.clone(), v0.clone(), 2.0, inertia).with_f_ext(f)).unwrap();
        let mut ts = TimeStepping::new(&nsds, 1e-3, Osi::moreau_jean(0.5), Osnsp::Equality).unwrap();
        if let Some(g) = g {
            assert!(ts.set_control_input(id, &g[..5]).is_err(), "5 entries for 6 velocities");
            ts.set_control_input(id, &g).unwrap();
        }
        for _ in 0..500 {
            ts.step(&mut nsds).unwrap();
        }
        let ds = &nsds.systems()[0];
        (ds.state().clone(), ds.velocity().unwrap().clone())
    };
    let with_input = run(dvector![0.0, 0.0, -19.62, 0.0, 0.0, 0.0], Some([1.0, 0.0, 0.5, 0.0, 0.25, 0.0]));
    let summed = run(dvector![1.0, 0.0, -19.12, 0.0, 0.25, 0.0], None);
    assert_eq!(with_input, summed);
    assert!(with_input.1[0] > 0.2, "the input pushes along x");
}
