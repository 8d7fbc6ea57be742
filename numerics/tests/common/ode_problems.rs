//! The integrator test problems of `integrator-test-problems.md` (shared by the ode tests and
//! the `ivp_testset` example).
#![allow(dead_code, clippy::excessive_precision)]

use nalgebra::DMatrix;
use saltus_numerics::ode::{OdeSystem, UserFnError};

#[path = "ode_refs.rs"]
mod refs;
pub use refs::*;

/// Which problem.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Kind {
    Vdp(f64),
    Robertson,
    Hires,
    Pleiades,
    Arenstorf,
    Brusselator,
    Bruss1d,
    Orego,
    Pendulum,
}

/// A problem of the test set.
#[derive(Debug, Clone)]
pub struct Problem {
    pub name: &'static str,
    pub kind: Kind,
    pub y0: Vec<f64>,
    pub tf: f64,
    pub atol_ratio: f64,
    pub reference: Vec<f64>,
    /// Use the analytic Jacobian when there is one.
    pub analytic_jac: bool,
    /// Expose the pendulum invariants (position, velocity) as constraints.
    pub constraints: bool,
    pub stiff: bool,
}

pub const NAMES: [&str; 10] =
    ["vdp1", "vdp1000", "robertson", "hires", "pleiades", "arenstorf", "brusselator", "bruss1d", "orego", "pendulum"];

const BN: usize = 100;

pub fn problem(name: &str) -> Problem {
    let p = |name, kind, y0: Vec<f64>, tf, atol_ratio, reference: &[f64], stiff| Problem {
        name,
        kind,
        y0,
        tf,
        atol_ratio,
        reference: reference.to_vec(),
        analytic_jac: true,
        constraints: false,
        stiff,
    };
    match name {
        "vdp1" => p("vdp1", Kind::Vdp(1.0), vec![2.0, 0.0], 20.0, 1.0, &REF_VDP1, false),
        "vdp1000" => p("vdp1000", Kind::Vdp(1000.0), vec![2.0, 0.0], 3000.0, 1.0, &REF_VDP1000, true),
        "robertson" => p("robertson", Kind::Robertson, vec![1.0, 0.0, 0.0], 1e11, 1e-10, &REF_ROBERTSON, true),
        "hires" => {
            p("hires", Kind::Hires, vec![1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0057], 321.8122, 1e-4, &REF_HIRES, true)
        }
        "pleiades" => {
            let mut y0 = vec![3.0, 3.0, -1.0, -3.0, 2.0, -2.0, 2.0, 3.0, -3.0, 2.0, 0.0, 0.0, -4.0, 4.0];
            y0.extend([0.0, 0.0, 0.0, 0.0, 0.0, 1.75, -1.5, 0.0, 0.0, 0.0, -1.25, 1.0, 0.0, 0.0]);
            p("pleiades", Kind::Pleiades, y0, 3.0, 1.0, &REF_PLEIADES, false)
        }
        "arenstorf" => p(
            "arenstorf",
            Kind::Arenstorf,
            vec![0.994, 0.0, 0.0, -2.00158510637908252240537862224],
            17.0652165601579625588917206249,
            1.0,
            &REF_ARENSTORF,
            false,
        ),
        "brusselator" => p("brusselator", Kind::Brusselator, vec![1.5, 3.0], 20.0, 1.0, &REF_BRUSSELATOR, false),
        "bruss1d" => {
            let mut y0 = Vec::with_capacity(2 * BN);
            for i in 1..=BN {
                let x = i as f64 / (BN + 1) as f64;
                y0.push(1.0 + (2.0 * std::f64::consts::PI * x).sin());
                y0.push(3.0);
            }
            let mut pr = p("bruss1d", Kind::Bruss1d, y0, 10.0, 1.0, &REF_BRUSS1D, true);
            pr.analytic_jac = false;
            pr
        }
        "orego" => p("orego", Kind::Orego, vec![1.0, 2.0, 3.0], 360.0, 1e-6, &REF_OREGO, true),
        "pendulum" => {
            let mut pr = p("pendulum", Kind::Pendulum, vec![1.0, 0.0, 0.0, 0.0], 100.0, 1.0, &REF_PENDULUM, false);
            pr.analytic_jac = false;
            pr
        }
        _ => panic!("unknown problem {name}"),
    }
}

impl Problem {
    /// digits = −log10(max_i |y_i − ref_i| / max(|ref_i|, floor)), floor = atol ratio.
    pub fn digits(&self, y: &[f64]) -> f64 {
        let e = y
            .iter()
            .zip(&self.reference)
            .map(|(a, r)| (a - r).abs() / r.abs().max(self.atol_ratio))
            .fold(0.0f64, f64::max);
        if e.is_nan() {
            return f64::NEG_INFINITY;
        }
        -e.max(1e-300).log10()
    }
}

const G: f64 = 9.81;

impl OdeSystem for Problem {
    fn dim(&self) -> usize {
        self.y0.len()
    }

    fn rhs(&self, _t: f64, y: &[f64], dy: &mut [f64]) -> Result<(), UserFnError> {
        match self.kind {
            Kind::Vdp(mu) => {
                dy[0] = y[1];
                dy[1] = mu * (1.0 - y[0] * y[0]) * y[1] - y[0];
            }
            Kind::Robertson => {
                dy[0] = -0.04 * y[0] + 1e4 * y[1] * y[2];
                dy[2] = 3e7 * y[1] * y[1];
                dy[1] = -dy[0] - dy[2];
            }
            Kind::Hires => {
                dy[0] = -1.71 * y[0] + 0.43 * y[1] + 8.32 * y[2] + 0.0007;
                dy[1] = 1.71 * y[0] - 8.75 * y[1];
                dy[2] = -10.03 * y[2] + 0.43 * y[3] + 0.035 * y[4];
                dy[3] = 8.32 * y[1] + 1.71 * y[2] - 1.12 * y[3];
                dy[4] = -1.745 * y[4] + 0.43 * y[5] + 0.43 * y[6];
                dy[5] = -280.0 * y[5] * y[7] + 0.69 * y[3] + 1.71 * y[4] - 0.43 * y[5] + 0.69 * y[6];
                dy[6] = 280.0 * y[5] * y[7] - 1.81 * y[6];
                dy[7] = -dy[6];
            }
            Kind::Pleiades => {
                let (x, rest) = y.split_at(7);
                let (yy, v) = rest.split_at(7);
                dy[..14].copy_from_slice(&v[..14]);
                for i in 0..7 {
                    let (mut ax, mut ay) = (0.0, 0.0);
                    for j in 0..7 {
                        if i != j {
                            let dx = x[j] - x[i];
                            let dyy = yy[j] - yy[i];
                            let r2 = dx * dx + dyy * dyy;
                            let r3 = r2 * r2.sqrt();
                            let m = (j + 1) as f64;
                            ax += m * dx / r3;
                            ay += m * dyy / r3;
                        }
                    }
                    dy[14 + i] = ax;
                    dy[21 + i] = ay;
                }
            }
            Kind::Arenstorf => {
                let mu = 0.012277471;
                let mup = 1.0 - mu;
                let d1 = ((y[0] + mu).powi(2) + y[1] * y[1]).powf(1.5);
                let d2 = ((y[0] - mup).powi(2) + y[1] * y[1]).powf(1.5);
                dy[0] = y[2];
                dy[1] = y[3];
                dy[2] = y[0] + 2.0 * y[3] - mup * (y[0] + mu) / d1 - mu * (y[0] - mup) / d2;
                dy[3] = y[1] - 2.0 * y[2] - mup * y[1] / d1 - mu * y[1] / d2;
            }
            Kind::Brusselator => {
                let (u, v) = (y[0], y[1]);
                dy[0] = 1.0 + u * u * v - 4.0 * u;
                dy[1] = 3.0 * u - u * u * v;
            }
            Kind::Bruss1d => {
                let c = (BN + 1) as f64 * (BN + 1) as f64 / 50.0;
                for i in 0..BN {
                    let (u, v) = (y[2 * i], y[2 * i + 1]);
                    let (ul, vl) = if i == 0 { (1.0, 3.0) } else { (y[2 * i - 2], y[2 * i - 1]) };
                    let (ur, vr) = if i == BN - 1 { (1.0, 3.0) } else { (y[2 * i + 2], y[2 * i + 3]) };
                    dy[2 * i] = 1.0 + u * u * v - 4.0 * u + c * (ul - 2.0 * u + ur);
                    dy[2 * i + 1] = 3.0 * u - u * u * v + c * (vl - 2.0 * v + vr);
                }
            }
            Kind::Orego => {
                let (s, w, q) = (77.27, 0.161, 8.375e-6);
                dy[0] = s * (y[1] - y[0] * y[1] + y[0] - q * y[0] * y[0]);
                dy[1] = (-y[1] - y[0] * y[1] + y[2]) / s;
                dy[2] = w * (y[0] - y[2]);
            }
            Kind::Pendulum => {
                let (x, yy, vx, vy) = (y[0], y[1], y[2], y[3]);
                let lam = (vx * vx + vy * vy - G * yy) / (x * x + yy * yy);
                dy[0] = vx;
                dy[1] = vy;
                dy[2] = -lam * x;
                dy[3] = -lam * yy - G;
            }
        }
        Ok(())
    }

    fn has_jacobian(&self) -> bool {
        self.analytic_jac && !matches!(self.kind, Kind::Pleiades | Kind::Arenstorf | Kind::Bruss1d | Kind::Pendulum)
    }

    fn jacobian(&self, _t: f64, y: &[f64], j: &mut DMatrix<f64>) -> Result<(), UserFnError> {
        match self.kind {
            Kind::Vdp(mu) => {
                j[(0, 1)] = 1.0;
                j[(1, 0)] = -2.0 * mu * y[0] * y[1] - 1.0;
                j[(1, 1)] = mu * (1.0 - y[0] * y[0]);
            }
            Kind::Robertson => {
                j[(0, 0)] = -0.04;
                j[(0, 1)] = 1e4 * y[2];
                j[(0, 2)] = 1e4 * y[1];
                j[(2, 1)] = 6e7 * y[1];
                j[(1, 0)] = 0.04;
                j[(1, 1)] = -1e4 * y[2] - 6e7 * y[1];
                j[(1, 2)] = -1e4 * y[1];
            }
            Kind::Hires => {
                j[(0, 0)] = -1.71;
                j[(0, 1)] = 0.43;
                j[(0, 2)] = 8.32;
                j[(1, 0)] = 1.71;
                j[(1, 1)] = -8.75;
                j[(2, 2)] = -10.03;
                j[(2, 3)] = 0.43;
                j[(2, 4)] = 0.035;
                j[(3, 1)] = 8.32;
                j[(3, 2)] = 1.71;
                j[(3, 3)] = -1.12;
                j[(4, 4)] = -1.745;
                j[(4, 5)] = 0.43;
                j[(4, 6)] = 0.43;
                j[(5, 3)] = 0.69;
                j[(5, 4)] = 1.71;
                j[(5, 5)] = -280.0 * y[7] - 0.43;
                j[(5, 6)] = 0.69;
                j[(5, 7)] = -280.0 * y[5];
                j[(6, 5)] = 280.0 * y[7];
                j[(6, 6)] = -1.81;
                j[(6, 7)] = 280.0 * y[5];
                j[(7, 5)] = -280.0 * y[7];
                j[(7, 6)] = 1.81;
                j[(7, 7)] = -280.0 * y[5];
            }
            Kind::Brusselator => {
                let (u, v) = (y[0], y[1]);
                j[(0, 0)] = 2.0 * u * v - 4.0;
                j[(0, 1)] = u * u;
                j[(1, 0)] = 3.0 - 2.0 * u * v;
                j[(1, 1)] = -u * u;
            }
            Kind::Orego => {
                let (s, w, q) = (77.27, 0.161, 8.375e-6);
                j[(0, 0)] = s * (-y[1] + 1.0 - 2.0 * q * y[0]);
                j[(0, 1)] = s * (1.0 - y[0]);
                j[(1, 0)] = -y[1] / s;
                j[(1, 1)] = (-1.0 - y[0]) / s;
                j[(1, 2)] = 1.0 / s;
                j[(2, 0)] = w;
                j[(2, 2)] = -w;
            }
            _ => return Err(UserFnError::NotProvided),
        }
        Ok(())
    }

    fn n_constraints(&self) -> usize {
        if self.constraints && self.kind == Kind::Pendulum {
            2
        } else {
            0
        }
    }

    fn constraints(&self, _t: f64, y: &[f64], c: &mut [f64]) -> Result<(), UserFnError> {
        c[0] = y[0] * y[0] + y[1] * y[1] - 1.0;
        c[1] = y[0] * y[2] + y[1] * y[3];
        Ok(())
    }

    fn constraint_jacobian(&self, _t: f64, y: &[f64], g: &mut DMatrix<f64>) -> Result<(), UserFnError> {
        g[(0, 0)] = 2.0 * y[0];
        g[(0, 1)] = 2.0 * y[1];
        g[(1, 0)] = y[2];
        g[(1, 1)] = y[3];
        g[(1, 2)] = y[0];
        g[(1, 3)] = y[1];
        Ok(())
    }
}
