//! The closed-form stick–slip motion of a block (mass `m`) on a horizontal plane with Coulomb
//! friction `μ` under `F(t) = F0 sin(ω t)`, from rest at `x = 0` (derived in
//! `samples/stick_slip_ed/README.md`). Shared by the kernel test `event_driven_friction` and the
//! frontend test `sample_stick_slip_ed` (included there by path).
#![allow(dead_code)]

/// Gravity.
pub const G: f64 = 9.81;

/// A phase of the closed-form motion: from `t0` at `(x0, v0)`, sticking or slipping in direction `s`.
#[derive(Debug, Clone, Copy)]
pub struct Phase {
    pub t0: f64,
    pub x0: f64,
    pub v0: f64,
    pub slip: Option<f64>,
}

/// The closed-form stick–slip motion (README of `samples/stick_slip_ed`): sticking while
/// `|F| ≤ μ m g`; slipping in direction `s`, `m ẍ = F0 sin ωt − s μ m g`, so
/// `v(t) = v0 + F0/(m ω) (cos ωt0 − cos ωt) − s μ g (t − t0)` and
/// `x(t) = x0 + v0 (t − t0) + F0/(m ω) (cos ωt0 (t − t0) − (sin ωt − sin ωt0)/ω) − s μ g (t − t0)²/2`.
/// A slip starts when `|F|` rises through `μ m g` (in direction `sign F`); it ends when `v`
/// returns to 0 (bisection on the closed form to round-off), in a stick if `|F| ≤ μ m g` there,
/// else in the opposite slip.
pub struct Reference {
    m: f64,
    mu: f64,
    f0: f64,
    omega: f64,
    pub phases: Vec<Phase>,
}

impl Reference {
    /// The phases from `t = 0` to past `t_end`.
    pub fn new(m: f64, mu: f64, f0: f64, omega: f64, t_end: f64) -> Self {
        let mut r = Reference { m, mu, f0, omega, phases: vec![Phase { t0: 0.0, x0: 0.0, v0: 0.0, slip: None }] };
        let c = (mu * m * G / f0).asin();
        while let Some(&p) = r.phases.last().filter(|p| p.t0 < t_end) {
            let next = match p.slip {
                None => {
                    // first t > t0 where |F| rises through μ m g: ωt = c + 2kπ (s = 1) or π + c + 2kπ (s = −1)
                    let mut best = (f64::INFINITY, 0.0);
                    for k in 0..100 {
                        for (phase, s) in [(c, 1.0), (std::f64::consts::PI + c, -1.0)] {
                            let t = (phase + 2.0 * std::f64::consts::PI * k as f64) / omega;
                            if t > p.t0 + 1e-12 && t < best.0 {
                                best = (t, s);
                            }
                        }
                    }
                    Phase { t0: best.0, x0: p.x0, v0: 0.0, slip: Some(best.1) }
                }
                Some(s) => {
                    let sv = |t: f64| s * r.velocity(&p, t);
                    let (mut lo, step) = (p.t0 + 1e-9, 1e-3);
                    while sv(lo + step) > 0.0 {
                        lo += step;
                    }
                    let mut hi = lo + step;
                    for _ in 0..200 {
                        let mid = 0.5 * (lo + hi);
                        if sv(mid) > 0.0 {
                            lo = mid
                        } else {
                            hi = mid
                        }
                    }
                    let t = hi;
                    let f = r.force(t);
                    let slip = if f.abs() <= r.mu * r.m * G { None } else { Some(f.signum()) };
                    Phase { t0: t, x0: r.position(&p, t), v0: 0.0, slip }
                }
            };
            r.phases.push(next);
        }
        r
    }
    pub fn force(&self, t: f64) -> f64 {
        self.f0 * (self.omega * t).sin()
    }
    pub fn velocity(&self, p: &Phase, t: f64) -> f64 {
        let Some(s) = p.slip else { return 0.0 };
        let w = self.omega;
        p.v0 + self.f0 / (self.m * w) * ((w * p.t0).cos() - (w * t).cos()) - s * self.mu * G * (t - p.t0)
    }
    pub fn position(&self, p: &Phase, t: f64) -> f64 {
        let Some(s) = p.slip else { return p.x0 };
        let (w, d) = (self.omega, t - p.t0);
        p.x0 + p.v0 * d + self.f0 / (self.m * w) * ((w * p.t0).cos() * d - ((w * t).sin() - (w * p.t0).sin()) / w)
            - 0.5 * s * self.mu * G * d * d
    }
    pub fn phase_at(&self, t: f64) -> &Phase {
        self.phases.iter().rev().find(|p| p.t0 <= t).unwrap_or(&self.phases[0])
    }
    /// `(x, v)` at `t`.
    pub fn state(&self, t: f64) -> (f64, f64) {
        let p = self.phase_at(t);
        (self.position(p, t), self.velocity(p, t))
    }
    /// Times of the mode changes in `(0, t_end]`.
    pub fn switches(&self, t_end: f64) -> Vec<(f64, Option<f64>)> {
        self.phases.iter().skip(1).filter(|p| p.t0 <= t_end).map(|p| (p.t0, p.slip)).collect()
    }
}
