//! Event-driven first-order complementarity systems: the diode bridge and the relay oscillator
//! against their closed-form solutions, the time-stepping run converging to the event-driven
//! one as h → 0, and Siconos's time-stepping trajectory.
mod common;

use saltus_kernel::{
    solvers::lcp::LcpSolver, EventDriven, EventDrivenOptions, EventKind, InterId, KernelError, Osi, Osnsp, TimeStepping,
};

/// Diode bridge parameters.
const L: f64 = 1e-2;
const C: f64 = 1e-6;
const R: f64 = 1e3;
const V0: f64 = 10.0;
const T: f64 = 5e-3;

/// The closed form of the diode bridge. With ideal diodes the bridge puts the load across the
/// tank with the sign of vC, so the tank always delivers vC / R: the parallel RLC
/// `C vC' = −iL − vC/R`, `L iL' = vC`, `vC = e^{−αt} (V0 cos ωd t + β sin ωd t)` with
/// `α = 1/(2RC)`, `ωd = √(1/(LC) − α²)`, `β = (vC'(0) + α V0)/ωd`, `vC'(0) = −V0/(RC)`.
struct Rlc {
    alpha: f64,
    wd: f64,
    beta: f64,
}

impl Rlc {
    fn new() -> Self {
        let alpha = 1.0 / (2.0 * R * C);
        let wd = (1.0 / (L * C) - alpha * alpha).sqrt();
        Rlc { alpha, wd, beta: (-V0 / (R * C) + alpha * V0) / wd }
    }
    /// `(vC, iL)` at `t`, with `iL = −C vC' − vC/R`.
    fn state(&self, t: f64) -> (f64, f64) {
        let (s, c, e) = ((self.wd * t).sin(), (self.wd * t).cos(), (-self.alpha * t).exp());
        let v = e * (V0 * c + self.beta * s);
        let dv = e * ((-self.alpha * V0 + self.beta * self.wd) * c + (-self.alpha * self.beta - V0 * self.wd) * s);
        (v, -C * dv - v / R)
    }
    /// The zeros of vC in `(0, t_end]`: `tan ωd t = −V0/β`.
    fn switches(&self, t_end: f64) -> Vec<f64> {
        let th1 = (-V0 / self.beta).atan();
        (0..).map(|k| (th1 + k as f64 * std::f64::consts::PI) / self.wd).take_while(|&t| t <= t_end).collect()
    }
}

fn ed_opts(h: f64) -> EventDrivenOptions {
    EventDrivenOptions { h, ..Default::default() }
}

/// Switch times and TD-event states of the event-driven diode bridge against the closed form;
/// complementarity of every diode and the conducting pair at every TD event.
#[test]
fn diode_bridge_switches_and_state_match_closed_form() {
    let rlc = Rlc::new();
    let exact = rlc.switches(T);
    assert_eq!(exact.len(), 16, "{exact:?}");
    let mut nsds = common::diode_bridge();
    let mut sim = EventDriven::new(&nsds, ed_opts(1e-5)).unwrap();
    assert!(sim.is_first_order());
    let (mut switches, mut max_err, mut td) = (Vec::new(), 0.0f64, 0);
    sim.run(&mut nsds, T, &mut |nsds, rep| {
        if rep.kind == EventKind::NonSmooth {
            switches.push(rep.t);
            // before the switch the old pair conducted, after it the other one
            let pre = &rep.pre_lambda.as_ref().unwrap()[0];
            let post = nsds.interactions()[0].lambda(0).unwrap();
            assert!((pre[2] - pre[3]).abs() <= 1e-9 && (post[2] - post[3]).abs() <= 1e-9, "{pre} {post}");
        }
        if rep.td_index.is_some() && rep.kind == EventKind::TimeDiscretisation {
            td += 1;
            let x = nsds.systems()[0].state();
            let (v, i) = rlc.state(rep.t);
            max_err = max_err.max((x[0] - v).abs() / V0).max((x[1] - i).abs() * R / V0);
            let inter = &nsds.interactions()[0];
            let (y, lam) = (inter.y(0).unwrap(), inter.lambda(0).unwrap());
            for k in 0..4 {
                assert!(y[k] >= -1e-9 && lam[k] >= -1e-9 && (y[k] * lam[k]).abs() <= 1e-9, "t = {}: {y} {lam}", rep.t);
            }
            // the resistor current is |vC| / R (λ2 or λ3), the reverse voltage |vC| (λ0 or λ1)
            assert!((lam[2] + lam[3] - x[0].abs() / R).abs() <= 1e-12, "t = {}", rep.t);
            assert!((lam[0] + lam[1] - x[0].abs()).abs() <= 1e-9, "t = {}", rep.t);
        }
    })
    .unwrap();
    assert_eq!(switches.len(), exact.len(), "switches {switches:?}");
    let dt = switches.iter().zip(&exact).map(|(a, b)| (a - b).abs()).fold(0.0, f64::max);
    eprintln!(
        "diode bridge ED: {} switches, max |t − t_exact| = {dt:e} s, max state error {max_err:e}, {td} TD rows",
        switches.len()
    );
    assert!(dt <= 1e-11, "switch times off by {dt:e} s");
    assert!(max_err <= 1e-8, "state off by {max_err:e} (relative to V0)");
    assert_eq!(sim.n_nonsmooth(), 16);
}

/// Time stepping (Euler–Moreau) converges to the event-driven solution as h → 0: order 1 for
/// θ = 1 on the state at `T_CMP` = 1 ms (3 switches) and on the first switch time (the step where the conducting pair
/// changes, interpolated linearly in vC), and the Siconos 4.4 run (θ = ½, h = 1e-6) is within
/// its own discretisation error of the event-driven trajectory.
#[test]
fn time_stepping_converges_to_event_driven() {
    let rlc = Rlc::new();
    let t_switch = rlc.switches(T)[0];
    let mut nsds = common::diode_bridge();
    let mut ed = EventDriven::new(&nsds, ed_opts(1e-5)).unwrap();
    const T_CMP: f64 = 1e-3;
    ed.run(&mut nsds, T_CMP, &mut |_, _| {}).unwrap();
    let x_ed = nsds.systems()[0].state().clone();
    let (v, i) = rlc.state(T_CMP);
    assert!((x_ed[0] - v).abs() <= 1e-7 && (x_ed[1] - i).abs() <= 1e-10);
    let mut errs = Vec::new();
    for h in [1e-6, 5e-7, 2.5e-7, 1.25e-7] {
        let mut nsds = common::diode_bridge();
        let lemke = Osnsp::Lcp(LcpSolver::Lemke(Default::default()));
        let mut ts = TimeStepping::new(&nsds, h, Osi::euler_moreau(1.0), lemke).unwrap();
        let mut v_prev = (0.0, V0);
        let mut t_sw = None;
        ts.run(&mut nsds, T_CMP, &mut |nsds, _| {
            let v = nsds.systems()[0].state()[0];
            if t_sw.is_none() && v < 0.0 {
                t_sw = Some(v_prev.0 + h * v_prev.1 / (v_prev.1 - v));
            }
            v_prev = (nsds.t(), v);
        })
        .unwrap();
        let x = nsds.systems()[0].state();
        let e_state = ((x[0] - x_ed[0]) / V0).abs().max(((x[1] - x_ed[1]) * R / V0).abs());
        errs.push((h, e_state, (t_sw.unwrap() - t_switch).abs()));
    }
    for w in errs.windows(2) {
        let (p_state, p_switch) = ((w[0].1 / w[1].1).log2(), (w[0].2 / w[1].2).log2());
        eprintln!("h {:e} -> {:e}: state error {:e} -> {:e} (order {p_state:.2}), switch time error {:e} -> {:e} (order {p_switch:.2})", w[0].0, w[1].0, w[0].1, w[1].1, w[0].2, w[1].2);
        assert!((0.9..1.2).contains(&p_state), "state order {p_state}");
        assert!((0.8..1.3).contains(&p_switch), "switch time order {p_switch}");
    }
    // Siconos 4.4 (θ = ½, h = 1e-6): its rows at the TD times of the event-driven run
    let (_, rows) = common::read_csv("diode_bridge.csv");
    let mut nsds = common::diode_bridge();
    let mut ed = EventDriven::new(&nsds, ed_opts(1e-5)).unwrap();
    let mut max_d = 0.0f64;
    ed.run(&mut nsds, T, &mut |nsds, rep| {
        if let (EventKind::TimeDiscretisation, Some(k)) = (rep.kind, rep.td_index) {
            let row = &rows[10 * k as usize];
            assert!((row[0] - rep.t).abs() <= 1e-15);
            max_d = max_d.max((nsds.systems()[0].state()[0] - row[1]).abs() / V0);
        }
    })
    .unwrap();
    eprintln!("event driven vs Siconos time stepping (θ = ½, h = 1e-6): max |ΔvC| / V0 = {max_d:e}");
    // θ = ½ treats r = B λ fully implicitly: first order too; halving h halves the gap
    let half = ts_theta_half_gap(5e-7);
    eprintln!("our θ = ½ at h = 5e-7: max |ΔvC| / V0 = {half:e} (ratio {:.2})", max_d / half);
    assert!(max_d <= 3e-3 && (1.7..2.3).contains(&(max_d / half)), "{max_d:e} {half:e}");
}

/// Max over the 1e-5 grid of |vC_TS − vC_exact| / V0 for Euler–Moreau θ = ½ with step `h`.
fn ts_theta_half_gap(h: f64) -> f64 {
    let rlc = Rlc::new();
    let mut nsds = common::diode_bridge();
    let lemke = Osnsp::Lcp(LcpSolver::Lemke(Default::default()));
    let mut ts = TimeStepping::new(&nsds, h, Osi::euler_moreau(0.5), lemke).unwrap();
    let (mut k, mut gap) = (0u64, 0.0f64);
    let every = (1e-5 / h).round() as u64;
    ts.run(&mut nsds, T, &mut |nsds, _| {
        k += 1;
        if k % every == 0 {
            gap = gap.max((nsds.systems()[0].state()[0] - rlc.state(nsds.t()).0).abs() / V0);
        }
    })
    .unwrap();
    gap
}

/// The relay oscillator: saturated half swings about x1 = ±1 turn at exactly π, 2π, 3π
/// (turning points −3.5, 1.5, 0.5), then the relay sticks (y = x2 = 0, λ = x1 = 0.5, free) and
/// no further event occurs.
#[test]
fn relay_oscillator_turns_and_sticks() {
    let mut nsds = common::relay_oscillator();
    let mut sim = EventDriven::new(&nsds, ed_opts(1e-2)).unwrap();
    let mut turns = Vec::new();
    let mut max_err = 0.0f64;
    sim.run(&mut nsds, 15.0, &mut |nsds, rep| {
        let x = nsds.systems()[0].state();
        if rep.kind == EventKind::NonSmooth {
            turns.push((rep.t, x[0]));
        } else {
            // closed form: half swing k about c_k = ±1 from the turning point a_k
            let pi = std::f64::consts::PI;
            let (a, c) = [(5.5, 1.0), (-3.5, -1.0), (1.5, 1.0), (0.5, 0.0)][((rep.t / pi) as usize).min(3)];
            let s = rep.t - pi * ((rep.t / pi).floor().min(3.0));
            let (x1, x2) = if c == 0.0 { (0.5, 0.0) } else { (c + (a - c) * s.cos(), -(a - c) * s.sin()) };
            max_err = max_err.max((x[0] - x1).abs()).max((x[1] - x2).abs());
        }
    })
    .unwrap();
    eprintln!("relay oscillator ED: turns {turns:?}, max state error {max_err:e}");
    assert_eq!(turns.len(), 3, "{turns:?}");
    for (k, ((t, x1), x1_exact)) in turns.iter().zip([-3.5, 1.5, 0.5]).enumerate() {
        assert!((t - (k + 1) as f64 * std::f64::consts::PI).abs() <= 1e-9, "turn {k} at {t}");
        assert!((x1 - x1_exact).abs() <= 1e-9, "turn {k} at x1 = {x1}");
    }
    assert!(max_err <= 1e-8, "{max_err:e}");
    assert!(sim.is_closed(InterId::new(0, 0)), "the relay sticks");
    assert!((sim.lambda(InterId::new(0, 0)).unwrap()[0] - 0.5).abs() <= 1e-9);
}

/// Unsupported combinations are typed errors naming what does not fit.
#[test]
fn unsupported_first_order_combinations() {
    use nalgebra::{dmatrix, dvector};
    use saltus_kernel::{FirstOrderLinearTiR, NonSmoothLaw, Nsds, Relation};
    // an EqualityConditionNSL on a first-order system
    let mut nsds = common::relay_oscillator();
    let ds = saltus_kernel::DsId(0);
    let rel = FirstOrderLinearTiR::new(dmatrix![1.0, 0.0], dmatrix![0.0; 1.0]);
    nsds.link("eq", ds, None, Relation::FirstOrderLinearTi(rel), NonSmoothLaw::EqualityCondition { size: 1 }).unwrap();
    match EventDriven::new(&nsds, ed_opts(1e-2)) {
        Err(KernelError::InvalidCombination { name, id, .. }) => {
            assert_eq!((name.as_str(), id), ("eq", InterId::new(1, 0)))
        }
        other => panic!("{other:?}"),
    }
    // a mode of relative degree 2: y = x1 with B acting on x2 (a diode on a position)
    let mut nsds = Nsds::new(0.0);
    let id = nsds
        .add_ds("osc", saltus_kernel::FirstOrderLinearTiDs::new(dvector![1.0, -1.0], dmatrix![0.0, 1.0; -1.0, 0.0]))
        .unwrap();
    let rel = FirstOrderLinearTiR::new(dmatrix![1.0, 0.0], dmatrix![0.0; 1.0]);
    nsds.link("stop", id, None, Relation::FirstOrderLinearTi(rel), NonSmoothLaw::ComplementarityCondition { size: 1 })
        .unwrap();
    let mut sim = EventDriven::new(&nsds, ed_opts(1e-2)).unwrap();
    let err = sim.run(&mut nsds, 3.0, &mut |_, _| {}).unwrap_err();
    assert!(matches!(&err, KernelError::UnsupportedMode { free, .. } if free == &[0]), "{err}");
    assert!(err.to_string().contains("relative degree > 1"), "{err}");
    assert!(nsds.t() < 3.0);
}

/// Block on a plane (persistent normal contact, `N = m g`) under `F(t) = F0 sin ωt`, Coulomb
/// friction `μ N` as a relay on the tangential velocity: `s' = v`, `m v' = F(t) + m λ`,
/// `y = v`, `λ ∈ [−μg, μg]`, `−y ∈ N(λ)`. Closed form, phase by phase (from rest at t = 0):
/// * stick (`|F| ≤ μ m g`, `λ = −F/m`) until `F` leaves the band: `sin ωt = ±μ m g / F0`;
/// * slip with sign σ from `t_b`: `v = F0/(mω) (cos ωt_b − cos ωt) − σ μ g (t − t_b)`,
///   `s = s_b + F0/(mω) ((t − t_b) cos ωt_b − (sin ωt − sin ωt_b)/ω) − σ μ g (t − t_b)²/2`,
///   until `v = 0`; then stick if `|F| ≤ μ m g`, else slip the other way.
struct StickSlip {
    f0: f64,
    w: f64,
    mug: f64,
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Phase {
    Stick,
    Slip(f64),
}

impl StickSlip {
    fn force(&self, t: f64) -> f64 {
        self.f0 * (self.w * t).sin()
    }
    fn slip(&self, sigma: f64, tb: f64, sb: f64, t: f64) -> (f64, f64) {
        let (w, k, d) = (self.w, self.f0 / self.w, t - tb);
        let v = k * ((w * tb).cos() - (w * t).cos()) - sigma * self.mug * d;
        let s = sb + k * (d * (w * tb).cos() - ((w * t).sin() - (w * tb).sin()) / w) - sigma * self.mug * d * d / 2.0;
        (s, v)
    }
    /// Transitions `(t, s, phase after)` up to `t_end`, and `s(t)` by phase.
    fn transitions(&self, t_end: f64) -> Vec<(f64, f64, Phase)> {
        let r = (self.mug / self.f0).asin();
        let period = 2.0 * std::f64::consts::PI / self.w;
        let (mut t, mut s, mut phase) = (0.0, 0.0, Phase::Stick);
        let mut out = Vec::new();
        while t < t_end {
            let (tn, sn, next) = match phase {
                Phase::Stick => {
                    let up = (0..).map(|k| (r + std::f64::consts::TAU * k as f64) / self.w).find(|&x| x > t + 1e-12);
                    let down = (0..)
                        .map(|k| (std::f64::consts::PI + r + std::f64::consts::TAU * k as f64) / self.w)
                        .find(|&x| x > t + 1e-12);
                    let (up, down) = (up.unwrap(), down.unwrap());
                    if up < down {
                        (up, s, Phase::Slip(1.0))
                    } else {
                        (down, s, Phase::Slip(-1.0))
                    }
                }
                Phase::Slip(sigma) => {
                    // first zero of v after t: scan, then bisect
                    let dt = period * 1e-4;
                    let mut a = t + dt;
                    while self.slip(sigma, t, s, a + dt).1 * sigma > 0.0 {
                        a += dt;
                    }
                    let mut b = a + dt;
                    for _ in 0..100 {
                        let m = 0.5 * (a + b);
                        if self.slip(sigma, t, s, m).1 * sigma > 0.0 {
                            a = m
                        } else {
                            b = m
                        }
                    }
                    let f = self.force(b);
                    let next = if f.abs() <= self.mug { Phase::Stick } else { Phase::Slip(f.signum()) };
                    (b, self.slip(sigma, t, s, b).0, next)
                }
            };
            if tn > t_end {
                break;
            }
            out.push((tn, sn, next));
            (t, s, phase) = (tn, sn, next);
        }
        out
    }
    /// `s(t)` from the transitions.
    fn position(&self, tr: &[(f64, f64, Phase)], t: f64) -> f64 {
        let (tb, sb, phase) = tr.iter().rev().find(|p| p.0 <= t).copied().unwrap_or((0.0, 0.0, Phase::Stick));
        match phase {
            Phase::Stick => sb,
            Phase::Slip(sigma) => self.slip(sigma, tb, sb, t).0,
        }
    }
}

/// Stick–slip transitions of the block as events (λ reaching ±μg: stick → slip; v through 0:
/// slip → stick or reversal) and the displacement, against the closed form.
#[test]
fn stick_slip_block_matches_closed_form() {
    use nalgebra::{dmatrix, dvector};
    use saltus_kernel::{FirstOrderLinearDs, FirstOrderLinearTiR, MatOp, NonSmoothLaw, Nsds, Relation, VecOp};
    let cs = StickSlip { f0: 5.0, w: std::f64::consts::TAU, mug: 0.3 * 9.81 };
    let exact = cs.transitions(3.0);
    assert!(exact.len() >= 8, "{exact:?}");
    assert!(exact.iter().any(|p| p.2 == Phase::Stick) && exact.iter().any(|p| p.2 == Phase::Slip(-1.0)));
    let mut nsds = Nsds::new(0.0);
    let (f0, w) = (cs.f0, cs.w);
    let ds = FirstOrderLinearDs::new(dvector![0.0, 0.0], MatOp::Constant(dmatrix![0.0, 1.0; 0.0, 0.0])).with_b(
        VecOp::function(move |t, out| {
            out[0] = 0.0;
            out[1] = f0 * (w * t).sin();
            Ok(())
        }),
    );
    let id = nsds.add_ds("block", ds).unwrap();
    let rel = FirstOrderLinearTiR::new(dmatrix![0.0, 1.0], dmatrix![0.0; 1.0]);
    let law = NonSmoothLaw::Relay { lb: dvector![-cs.mug], ub: dvector![cs.mug] };
    nsds.link("friction", id, None, Relation::FirstOrderLinearTi(rel), law).unwrap();
    let mut sim = EventDriven::new(&nsds, ed_opts(1e-2)).unwrap();
    let (mut events, mut max_ds) = (Vec::new(), 0.0f64);
    sim.run(&mut nsds, 3.0, &mut |nsds, rep| {
        let x = nsds.systems()[0].state();
        if rep.kind == EventKind::NonSmooth {
            events.push((rep.t, x[0], sim_phase(nsds)));
        } else {
            max_ds = max_ds.max((x[0] - cs.position(&exact, rep.t)).abs());
        }
    })
    .unwrap();
    eprintln!("stick-slip: {} transitions, closed form {:?}", events.len(), exact);
    assert_eq!(events.len(), exact.len(), "{events:?}");
    let mut max_dt = 0.0f64;
    for ((t, s, ph), (te, se, phe)) in events.iter().zip(&exact) {
        max_dt = max_dt.max((t - te).abs());
        assert!((s - se).abs() <= 1e-9, "s at {t}: {s} vs {se}");
        assert_eq!(*ph, *phe, "phase after {t}");
    }
    eprintln!("stick-slip: max |Δt| = {max_dt:e}, max |Δs| at TD events = {max_ds:e}");
    assert!(max_dt <= 1e-9 && max_ds <= 1e-9, "{max_dt:e} {max_ds:e}");
}

/// The phase after an event from the relay's multiplier.
fn sim_phase(nsds: &saltus_kernel::Nsds) -> Phase {
    let lam = nsds.interactions()[0].lambda(0).unwrap()[0];
    if lam.abs() < 0.3 * 9.81 - 1e-12 {
        Phase::Stick
    } else {
        // λ at a bound opposes the slip
        Phase::Slip(-lam.signum())
    }
}

/// A held control input on a first-order event-driven run (Siconos `ControlLsodarSimulation`):
/// a level `ẋ = g + λ` above a floor, `0 ≤ x ⊥ λ ≥ 0`. Under `g = −2` from `x0 = ½` it lands at
/// `t = ¼` (a root, then `λ = 2`); `g = 1` set at the event `t = 0.4` lifts it off there (the mode is
/// chosen again where the input changes: the conducting floor would give `λ = −1 < 0`), and
/// `x = t − 0.4` from then on, also after a system added at `t = 0.5` (the rebuilt engine keeps the
/// held input). A wrong input is refused by name and leaves the run as it was.
#[test]
fn a_held_control_input_drives_a_first_order_event_driven_run() {
    use nalgebra::{dmatrix, dvector};
    use saltus_kernel::{DsId, FirstOrderLinearTiDs, FirstOrderLinearTiR, NonSmoothLaw, Nsds, Relation};
    let mut nsds = Nsds::new(0.0);
    let id = nsds.add_ds("level", FirstOrderLinearTiDs::new(dvector![0.5], dmatrix![0.0])).unwrap();
    let rel = FirstOrderLinearTiR::new(dmatrix![1.0], dmatrix![1.0]);
    nsds.link("floor", id, None, Relation::FirstOrderLinearTi(rel), NonSmoothLaw::ComplementarityCondition { size: 1 })
        .unwrap();
    let mut sim = EventDriven::new(&nsds, ed_opts(0.05)).unwrap();
    for bad in [vec![1.0, 2.0], vec![f64::INFINITY]] {
        match sim.set_control_input(id, &bad) {
            Err(KernelError::UnsupportedSystem { ds, .. }) => assert_eq!(ds, id),
            other => panic!("{bad:?}: {other:?}"),
        }
    }
    assert!(sim.set_control_input(DsId(4), &[0.0]).is_err());
    sim.set_control_input(id, &[-2.0]).unwrap();
    let x = |n: &Nsds| n.systems()[0].state()[0];
    let lam = |n: &Nsds| n.interactions()[0].lambda(0).unwrap()[0];
    let mut landings = Vec::new();
    sim.run(&mut nsds, 0.4, &mut |n, rep| {
        if rep.kind == EventKind::NonSmooth {
            landings.push(rep.t);
        } else if rep.t < 0.25 {
            assert!((x(n) - (0.5 - 2.0 * rep.t)).abs() < 1e-12, "t = {}: x = {}", rep.t, x(n));
            assert_eq!(lam(n), 0.0);
        } else {
            assert!(x(n).abs() < 1e-12 && (lam(n) - 2.0).abs() < 1e-12, "t = {}: {} {}", rep.t, x(n), lam(n));
        }
    })
    .unwrap();
    assert_eq!(landings.len(), 1);
    assert!((landings[0] - 0.25).abs() < 1e-10, "landed at {}", landings[0]);
    sim.set_control_input(id, &[1.0]).unwrap();
    let lifted = |n: &Nsds, t: f64| {
        assert!((x(n) - (t - 0.4)).abs() < 1e-12 && lam(n) == 0.0, "t = {t}: x = {}, λ = {}", x(n), lam(n));
    };
    sim.run(&mut nsds, 0.5, &mut |n, rep| {
        assert_eq!(rep.kind, EventKind::TimeDiscretisation);
        lifted(n, rep.t);
    })
    .unwrap();
    nsds.add_ds("other", FirstOrderLinearTiDs::new(dvector![3.0], dmatrix![-1.0])).unwrap();
    sim.run(&mut nsds, 0.7, &mut |n, rep| lifted(n, rep.t)).unwrap();
    assert!((nsds.systems()[1].state()[0] - 3.0 * (-0.2f64).exp()).abs() < 1e-7);
}
