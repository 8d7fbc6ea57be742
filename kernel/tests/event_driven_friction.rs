//! Event-driven runs with planar Coulomb friction (`NewtonImpactFrictionNSL`, dimension 2):
//! a block on a plane under `F(t) = F0 sin(ω t)` against the closed-form stick–slip motion
//! (event times, positions, velocities), time stepping (Moreau–Jean + 2D friction problem)
//! converging to it at first order, a disc dropped with spin (frictional impact, then sliding
//! until it rolls) against Coulomb's impulse and the rolling time, and the reversal of the
//! sliding direction without sticking.

use nalgebra::{dmatrix, dvector};
use saltus_kernel::solvers::fc::{FcSolver, NsgsOptions};
use saltus_kernel::{
    EventDriven, EventDrivenOptions, EventKind, InterId, LagrangianLinearTiDs, LagrangianLinearTiR,
    LagrangianScleronomousR, NonSmoothLaw, Nsds, Osi, Osnsp, Relation, TangentMode, TimeStepping, VecOp,
};
use saltus_numerics::IterOptions;
use std::sync::Arc;

mod stick_slip_closed_form;
use stick_slip_closed_form::{Reference, G};

const MU: f64 = 0.3;
const M: f64 = 1.0;

/// The block: `q = (x, z)`, `M = m I`, `F = (F0 sin ωt, −m g)`, resting on `z = 0`; the contact
/// has rows `y_N = z` (gap) and `y_T = x` (tangent).
fn block(f0: f64, omega: f64) -> Nsds {
    block_with(f0, omega, false, 0.0)
}

/// [`block`], with the relation as `LagrangianScleronomousR` closures (`h(q) = (z, x)`) if
/// `scleronomous`, launched at `ẋ = v0`.
fn block_with(f0: f64, omega: f64, scleronomous: bool, v0: f64) -> Nsds {
    let mut nsds = Nsds::new(0.0);
    let f = VecOp::Function(Arc::new(move |t, out: &mut [f64]| {
        out[0] = f0 * (omega * t).sin();
        out[1] = -M * G;
        Ok(())
    }));
    let ds = LagrangianLinearTiDs::new(dvector![0.0, 0.0], dvector![v0, 0.0], dmatrix![M, 0.0; 0.0, M]).with_f_ext(f);
    let id = nsds.add_ds("block", ds).unwrap();
    let law = NonSmoothLaw::NewtonImpactFriction { en: 0.0, et: 0.0, mu: MU, dim: 2 };
    let rel = if scleronomous {
        Relation::LagrangianScleronomous(LagrangianScleronomousR::new(
            2,
            |_, q, y| {
                y.copy_from_slice(&[q[1], q[0]]);
                Ok(())
            },
            |_, _, j| {
                j.copy_from(&dmatrix![0.0, 1.0; 1.0, 0.0]);
                Ok(())
            },
        ))
    } else {
        Relation::LagrangianLinearTi(LagrangianLinearTiR::new(dmatrix![0.0, 1.0; 1.0, 0.0]))
    };
    nsds.link("ground", id, None, rel, law).unwrap();
    nsds
}

/// Runs the event-driven block to `t_end`: the TD rows `(t, x, v)` and the nonsmooth events
/// `(t, tangential mode after)`, checking at every event that the block stays on the plane
/// with `λ_N = m g` and `|λ_T| ≤ μ λ_N`.
type EdRun = (Vec<(f64, f64, f64)>, Vec<(f64, Option<TangentMode>)>);
fn run_ed(f0: f64, omega: f64, h: f64, t_end: f64) -> EdRun {
    run_ed_on(block(f0, omega), h, t_end)
}

fn run_ed_on(mut nsds: Nsds, h: f64, t_end: f64) -> EdRun {
    let mut sim = EventDriven::new(&nsds, EventDrivenOptions { h, ..Default::default() }).unwrap();
    let (mut rows, mut events) = (Vec::new(), Vec::new());
    let total = (t_end / h).round() as u64;
    while sim.events().next_td_index() <= total {
        let rep = sim.advance(&mut nsds).unwrap();
        let d = &nsds.systems()[0];
        let (x, z, v, vz) = (d.state()[0], d.state()[1], d.velocity().unwrap()[0], d.velocity().unwrap()[1]);
        assert!(z.abs() < 1e-12 && vz.abs() < 1e-12, "the block stays on the plane, t = {}", rep.t);
        assert!(rep.impulses.iter().all(|(_, p)| *p == 0.0), "no impact, t = {}", rep.t);
        let l = nsds.interactions()[0].lambda(0).unwrap();
        assert!((l[0] - M * G).abs() < 1e-9, "λ_N = m g at t = {}: {l}", rep.t);
        assert!(l[1].abs() <= MU * l[0] * (1.0 + 1e-12), "|λ_T| ≤ μ λ_N at t = {}: {l}", rep.t);
        if rep.td_index.is_some() {
            rows.push((rep.t, x, v));
        }
        if rep.kind == EventKind::NonSmooth {
            events.push((rep.t, sim.tangent_mode(InterId::new(0, 0))));
        }
    }
    (rows, events)
}

/// Runs `nsds` event driven (rows every 0.01) to `t_end` and checks it against `reference`:
/// the events and the modes after them, event times to 1e-10, `x` and `v` to 1e-9. Returns the
/// largest errors of the event times, `x` and `v`.
fn check_closed_form(nsds: Nsds, reference: &Reference, t_end: f64) -> (f64, f64, f64) {
    let switches = reference.switches(t_end);
    let (rows, events) = run_ed_on(nsds, 0.01, t_end);
    assert_eq!(rows.len(), (t_end / 0.01).round() as usize);
    assert_eq!(events.len(), switches.len(), "events {events:?} vs closed form {switches:?}");
    let mut worst = (0.0f64, 0.0f64, 0.0f64);
    for ((t, mode), (t_ref, slip)) in events.iter().zip(&switches) {
        assert!((t - t_ref).abs() < 1e-10, "event at {t}, closed form {t_ref}");
        assert_eq!(*mode, mode_of(*slip), "mode after the event at {t}");
        worst.0 = worst.0.max((t - t_ref).abs());
    }
    for &(t, x, v) in &rows {
        let (xr, vr) = reference.state(t);
        assert!((x - xr).abs() < 1e-9 && (v - vr).abs() < 1e-9, "t = {t}: ({x}, {v}) vs ({xr}, {vr})");
        worst = (worst.0, worst.1.max((x - xr).abs()), worst.2.max((v - vr).abs()));
    }
    worst
}

fn mode_of(slip: Option<f64>) -> Option<TangentMode> {
    Some(match slip {
        None => TangentMode::Stick,
        Some(s) if s > 0.0 => TangentMode::SlipPositive,
        Some(_) => TangentMode::SlipNegative,
    })
}

#[test]
fn stick_slip_block_against_closed_form() {
    let (f0, omega, t_end) = (5.0, std::f64::consts::PI, 4.0);
    let reference = Reference::new(M, MU, f0, omega, t_end);
    // stick → slip → stick, twice per period of the force, each slip in the direction of F
    let switches = reference.switches(t_end);
    assert_eq!(switches.len(), 7, "{switches:?}");
    let (dt, dx, dv) = check_closed_form(block(f0, omega), &reference, t_end);
    println!("stick-slip: max |t_event − t_ref| = {dt:.2e}, max |x − x_ref| = {dx:.2e}, max |v − v_ref| = {dv:.2e}");
}

/// The same block with the contact's rows from closures (`LagrangianScleronomousR`, both rows
/// and the 2×2 Jacobian through the user functions) follows the same closed form.
#[test]
fn stick_slip_with_a_scleronomous_relation() {
    let (f0, omega, t_end) = (5.0, std::f64::consts::PI, 4.0);
    check_closed_form(block_with(f0, omega, true, 0.0), &Reference::new(M, MU, f0, omega, t_end), t_end);
}

/// With `F0 = 12` (four times `μ m g`) the block never sticks: each time its velocity returns
/// to 0, `|F| > μ m g` and the acceleration problem (Coulomb's cone) sends it the other way.
#[test]
fn slip_reversals_without_sticking() {
    let (f0, omega, t_end) = (12.0, std::f64::consts::PI, 4.0);
    let reference = Reference::new(M, MU, f0, omega, t_end);
    let switches = reference.switches(t_end);
    assert_eq!(switches.len(), 4, "{switches:?}");
    assert!(switches.iter().all(|(_, s)| s.is_some()), "slips only: {switches:?}");
    check_closed_form(block(f0, omega), &reference, t_end);
}

/// Moreau–Jean (θ = 1/2) with the 2D friction problem converges to the event-driven motion:
/// on the grid `t = 0.04 k` the largest errors of `x` and `v` fall at least as fast as `h`
/// (first order; `x` is observed near second order, since the velocity is continuous here and
/// a transition misplaced by O(h) costs O(h²) in position).
#[test]
fn time_stepping_converges_to_event_driven() {
    let (f0, omega, t_end, grid) = (5.0, std::f64::consts::PI, 4.0, 0.04);
    let (ed, _) = run_ed(f0, omega, grid, t_end);
    let hs = [4e-3, 2e-3, 1e-3, 5e-4];
    let errors: Vec<(f64, f64)> = hs
        .iter()
        .map(|&h| {
            let mut nsds = block(f0, omega);
            let solver = FcSolver::Nsgs2d(NsgsOptions::with_iter(IterOptions::new(1e-14, 1000)));
            let mut sim =
                TimeStepping::new(&nsds, h, Osi::moreau_jean(0.5), Osnsp::FrictionContact { dim: 2, solver }).unwrap();
            let every = (grid / h).round() as u64;
            let mut err = (0.0f64, 0.0f64);
            sim.run(&mut nsds, t_end, &mut |n, rep| {
                assert!(rep.osnsp.as_ref().is_none_or(|r| r.status.converged()), "t = {}", rep.t);
                if rep.k % every == 0 {
                    let (t, x, v) = ed[(rep.k / every - 1) as usize];
                    assert!((t - rep.t).abs() < 1e-12);
                    let d = &n.systems()[0];
                    err.0 = err.0.max((d.state()[0] - x).abs());
                    err.1 = err.1.max((d.velocity().unwrap()[0] - v).abs());
                }
            })
            .unwrap();
            err
        })
        .collect();
    let shown: Vec<String> = errors.iter().map(|e| format!("({:.3e}, {:.3e})", e.0, e.1)).collect();
    println!("Moreau–Jean vs event driven, max (|x_h − x_ED|, |v_h − v_ED|) for h = {hs:?}: {shown:?}");
    for w in errors.windows(2) {
        assert!(w[0].0 / w[1].0 > 1.8 && w[0].1 / w[1].1 > 1.8, "at least first order: {shown:?}");
    }
    assert!(errors[3].0 < 1e-5 && errors[3].1 < 1e-2, "{shown:?}");
}

const R: f64 = 0.1;
const INERTIA: f64 = 0.5 * M * R * R;

/// A disc (radius `r`, `I = m r²/2`), `q = (x, z, θ)`, dropped from a height `d` above the
/// plane with horizontal velocity `vx` and spin `w`; contact rows `y_N = z − r`,
/// `y_T = x + r θ` (the contact point's sliding velocity is `v_T = ẋ + r θ̇`); `e = 0`.
fn disc(d: f64, vx: f64, w: f64) -> Nsds {
    let mut nsds = Nsds::new(0.0);
    let mass = dmatrix![M, 0.0, 0.0; 0.0, M, 0.0; 0.0, 0.0, INERTIA];
    let ds = LagrangianLinearTiDs::new(dvector![0.0, R + d, 0.0], dvector![vx, 0.0, w], mass)
        .with_f_ext(VecOp::Constant(dvector![0.0, -M * G, 0.0]));
    let id = nsds.add_ds("disc", ds).unwrap();
    let law = NonSmoothLaw::NewtonImpactFriction { en: 0.0, et: 0.0, mu: MU, dim: 2 };
    let rel = LagrangianLinearTiR::new(dmatrix![0.0, 1.0, 0.0; 1.0, 0.0, R]).with_b(dvector![-R, 0.0]);
    nsds.link("ground", id, None, Relation::LagrangianLinearTi(rel), law).unwrap();
    nsds
}

/// The nonsmooth events of a disc run to `t_end`: `(t, impulse (P_N, P_T), velocities after, mode after)`.
type DiscEvent = (f64, (f64, f64), Vec<f64>, Option<TangentMode>);
fn run_disc(d: f64, vx: f64, w: f64, t_end: f64) -> (Vec<DiscEvent>, Vec<f64>) {
    let mut nsds = disc(d, vx, w);
    let mut sim = EventDriven::new(&nsds, EventDrivenOptions { h: 0.01, ..Default::default() }).unwrap();
    let mut events = Vec::new();
    while sim.events().next_td_index() <= (t_end / 0.01).round() as u64 {
        let rep = sim.advance(&mut nsds).unwrap();
        if rep.kind == EventKind::NonSmooth {
            let p = nsds.interactions()[0].lambda(1).unwrap();
            let v = nsds.systems()[0].velocity().unwrap().iter().copied().collect();
            events.push((rep.t, (p[0], p[1]), v, sim.tangent_mode(InterId::new(0, 0))));
        }
    }
    (events, nsds.systems()[0].velocity().unwrap().iter().copied().collect())
}

/// Closed form of the impact: `P_N = m |v_N⁻|` (e = 0), the tangential mass
/// `m_T = (1/m + r²/I)⁻¹ = m/3`, the impulse that stops the sliding `−m_T v_T⁻`; if it is
/// within `μ P_N` the impact sticks (`v_T⁺ = 0`), else `P_T = −μ P_N sign v_T⁻`. Then
/// `ẋ⁺ = ẋ⁻ + P_T/m`, `θ̇⁺ = θ̇⁻ + r P_T/I`. A sliding disc then decelerates its contact point at
/// `3 μ g` and rolls from `t_r = t_i + |v_T⁺|/(3 μ g)`, at `ẋ = ẋ⁺ − μ g (t_r − t_i) sign v_T⁺`.
fn disc_closed_form(d: f64, vx: f64, w: f64) -> (f64, f64, f64, f64, f64) {
    let (ti, vn) = ((2.0 * d / G).sqrt(), (2.0 * G * d).sqrt());
    let pn = M * vn;
    let m_t = 1.0 / (1.0 / M + R * R / INERTIA);
    let vt = vx + R * w;
    let pt = (-m_t * vt).clamp(-MU * pn, MU * pn);
    (ti, pn, pt, vx + pt / M, w + R * pt / INERTIA)
}

#[test]
fn disc_with_spin_slides_after_the_impact_then_rolls() {
    let (d, vx, w) = (0.05, 0.0, 30.0);
    let (ti, pn, pt, vx1, w1) = disc_closed_form(d, vx, w);
    assert!((pt + MU * pn).abs() < 1e-15, "a sliding impact: P_T = −μ P_N");
    let (events, v_end) = run_disc(d, vx, w, 0.5);
    assert_eq!(events.len(), 2, "impact, then rolling: {events:?}");
    let (t, (p_n, p_t), v, mode) = &events[0];
    assert!((t - ti).abs() < 1e-10, "impact at {t} vs {ti}");
    assert!((p_n - pn).abs() < 1e-9 && (p_t - pt).abs() < 1e-9, "impulse ({p_n}, {p_t}) vs ({pn}, {pt})");
    assert!((v[0] - vx1).abs() < 1e-9 && v[1].abs() < 1e-9 && (v[2] - w1).abs() < 1e-8, "after the impact: {v:?}");
    assert_eq!(*mode, Some(TangentMode::SlipPositive));
    let vt1 = vx1 + R * w1;
    let tr = ti + vt1 / (3.0 * MU * G);
    let (t, _, v, mode) = &events[1];
    assert!((t - tr).abs() < 1e-10, "rolling from {t} vs {tr}");
    assert_eq!(*mode, Some(TangentMode::Stick));
    let x_roll = vx1 - MU * G * (tr - ti);
    for v in [v, &v_end] {
        assert!((v[0] - x_roll).abs() < 1e-9, "rolling at ẋ = {} vs {x_roll}", v[0]);
        assert!((v[0] + R * v[2]).abs() < 1e-12, "v_T = 0 while rolling: {v:?}");
    }
}

#[test]
fn disc_sticking_impact_rolls_at_once() {
    let (d, vx, w) = (0.05, 0.5, -3.0);
    let (ti, pn, pt, vx1, w1) = disc_closed_form(d, vx, w);
    assert!(pt.abs() < MU * pn, "a sticking impact");
    let (events, v_end) = run_disc(d, vx, w, 0.5);
    assert_eq!(events.len(), 1, "impact only: {events:?}");
    let (t, (p_n, p_t), v, mode) = &events[0];
    assert!((t - ti).abs() < 1e-10, "impact at {t} vs {ti}");
    assert!((p_n - pn).abs() < 1e-9 && (p_t - pt).abs() < 1e-9, "impulse ({p_n}, {p_t}) vs ({pn}, {pt})");
    assert_eq!(*mode, Some(TangentMode::Stick));
    for v in [v, &v_end] {
        assert!((v[0] - vx1).abs() < 1e-9 && (v[2] - w1).abs() < 1e-8, "rolling: {v:?} vs ({vx1}, {w1})");
        assert!((v[0] + R * v[2]).abs() < 1e-12, "v_T = 0: {v:?}");
    }
}

/// A block launched at `v0` on the plane without push slides from the start (the first event
/// finds `v_T ≠ 0`: slip) and decelerates at `μ g`; it sticks at `t* = v0/(μ g)`, at
/// `x* = v0²/(2 μ g)`, and stays there.
#[test]
fn launched_block_slides_to_rest() {
    let v0 = 1.0;
    let (rows, events) = run_ed_on(block_with(0.0, 1.0, false, v0), 0.01, 0.5);
    let (t_stop, x_stop) = (v0 / (MU * G), v0 * v0 / (2.0 * MU * G));
    assert_eq!(events.len(), 1, "{events:?}");
    assert!((events[0].0 - t_stop).abs() < 1e-10, "sticks at {} vs {t_stop}", events[0].0);
    assert_eq!(events[0].1, Some(TangentMode::Stick));
    for &(t, x, v) in &rows {
        let (xr, vr) = if t < t_stop { (v0 * t - 0.5 * MU * G * t * t, v0 - MU * G * t) } else { (x_stop, 0.0) };
        assert!((x - xr).abs() < 1e-9 && (v - vr).abs() < 1e-9, "t = {t}: ({x}, {v}) vs ({xr}, {vr})");
    }
}
