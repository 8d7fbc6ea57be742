//! The mechanisms of the null-space samples (issue 32), shared by the example runner and the
//! kernel tests: each gives its mass, forces, constraints and energy as plain closures, and
//! builds both a [`ConstrainedLagrangian`] (null-space path) and an [`Nsds`] with one
//! `EqualityConditionNSL` interaction per constraint row (the event-driven path).
//!
//! Constraint equations: the textbook absolute- and natural-coordinate forms (Haug,
//! *Computer-Aided Kinematics and Dynamics of Mechanical Systems*, 1989: revolute and
//! translational joints as point coincidences; de Jalón & Bayo, *Kinematic and Dynamic
//! Simulation of Multibody Systems*, 1994: rigid bars by natural coordinates).
#![allow(dead_code)]

use nalgebra::{DMatrix, DVector};
use saltus_kernel::simulation::nullspace::{ConstrainedLagrangian, HolonomicConstraints};
use saltus_kernel::{ForceFn, LagrangianDs, LagrangianScleronomousR, Mass, NonSmoothLaw, Nsds, Relation};
use std::sync::Arc;

type VecF = Arc<dyn Fn(&[f64], &mut [f64]) + Send + Sync>;
type MatF = Arc<dyn Fn(&[f64], &mut DMatrix<f64>) + Send + Sync>;
type PairF = Arc<dyn Fn(&[f64], &[f64], &mut [f64]) + Send + Sync>;
type EnergyF = Arc<dyn Fn(&[f64], &[f64]) -> f64 + Send + Sync>;

/// Gravity (m/s²).
pub const G: f64 = 9.81;

/// A mechanism: `M(q) q̈ = F(q, v) + C_Jᵀ λ`, `C(q) = 0`.
#[derive(Clone)]
pub struct Mechanism {
    pub name: &'static str,
    pub n: usize,
    pub m: usize,
    /// `Some` when `M` is constant.
    pub constant_mass: Option<DMatrix<f64>>,
    pub mass: MatF,
    pub force: PairF,
    pub c: VecF,
    pub jac: MatF,
    /// `γ = C̈ − C_J q̈` (analytic).
    pub gamma: PairF,
    pub energy: EnergyF,
    pub q0: Vec<f64>,
    pub v0: Vec<f64>,
}

impl Mechanism {
    /// The null-space model (analytic `γ` when `analytic_gamma`, else central differences).
    pub fn constrained(&self, analytic_gamma: bool) -> ConstrainedLagrangian {
        let (c, j, g) = (self.c.clone(), self.jac.clone(), self.gamma.clone());
        let mut hc = HolonomicConstraints::new(
            self.m,
            move |_, q, out| {
                c(q, out);
                Ok(())
            },
            move |_, q, out| {
                j(q, out);
                Ok(())
            },
        );
        if analytic_gamma {
            hc = hc.with_gamma(move |_, q, v, out| {
                g(q, v, out);
                Ok(())
            });
        }
        let mass = match &self.constant_mass {
            Some(m) => Mass::Constant(m.clone()),
            None => {
                let mf = self.mass.clone();
                Mass::Function(Arc::new(move |_, q, out: &mut DMatrix<f64>| {
                    mf(q, out);
                    Ok(())
                }))
            }
        };
        let f = self.force.clone();
        ConstrainedLagrangian::new(self.n, mass, hc).with_forces(move |_, q, v, out| {
            f(q, v, out);
            Ok(())
        })
    }

    /// One `LagrangianDS` (`F_int = −F`) and one `EqualityConditionNSL` interaction of size 1
    /// (`LagrangianScleronomousR`) per constraint row.
    pub fn nsds(&self) -> Nsds {
        let mass = match &self.constant_mass {
            Some(m) => Mass::Constant(m.clone()),
            None => {
                let mf = self.mass.clone();
                Mass::Function(Arc::new(move |_, q, out: &mut DMatrix<f64>| {
                    mf(q, out);
                    Ok(())
                }))
            }
        };
        let f = self.force.clone();
        let n = self.n;
        let fint = ForceFn::new(
            move |_, q, v, out| {
                f(q, v, out);
                out.iter_mut().for_each(|x| *x = -*x);
                Ok(())
            },
            |_, _, _, _| Err(saltus_kernel::UserFnError::new("Jacobian of F_int not provided")),
            |_, _, _, _| Err(saltus_kernel::UserFnError::new("Jacobian of F_int not provided")),
        );
        let ds = LagrangianDs::new(DVector::from_vec(self.q0.clone()), DVector::from_vec(self.v0.clone()), mass)
            .with_f_int(fint);
        let mut nsds = Nsds::new(0.0);
        let id = nsds.add_ds(self.name, ds).expect("a valid system");
        for i in 0..self.m {
            let (c, j, m) = (self.c.clone(), self.jac.clone(), self.m);
            let rel = LagrangianScleronomousR::new(
                1,
                move |_, q, y| {
                    let mut all = vec![0.0; m];
                    c(q, &mut all);
                    y[0] = all[i];
                    Ok(())
                },
                move |_, q, out: &mut DMatrix<f64>| {
                    let mut all = DMatrix::zeros(m, n);
                    j(q, &mut all);
                    out.row_mut(0).copy_from(&all.row(i));
                    Ok(())
                },
            );
            nsds.link(
                format!("c{i}"),
                id,
                None,
                Relation::LagrangianScleronomous(rel),
                NonSmoothLaw::EqualityCondition { size: 1 },
            )
            .expect("a valid interaction");
        }
        nsds
    }
}

/// Planar slider–crank in absolute coordinates `q = (φ₁, x₂, y₂, φ₂, x₃)`: crank (length `l1`,
/// uniform bar pinned at the origin, angle φ₁), connecting rod (length `l2`, centre `(x₂, y₂)`,
/// angle φ₂), slider at `(x₃, 0)`. Four constraints: rod end A on the crank pin, rod end B on the
/// slider (`x`, `y`). Gravity along −y. Started at the dead centre φ₁ = 0 with crank speed `omega`.
pub fn planar_slider_crank(omega: f64) -> Mechanism {
    let (l1, l2, m1, m2, m3) = (0.15, 0.4, 0.5, 1.0, 0.8);
    let j1 = m1 * l1 * l1 / 3.0;
    let j2 = m2 * l2 * l2 / 12.0;
    let h2 = l2 / 2.0;
    let mass = DMatrix::from_diagonal(&DVector::from_vec(vec![j1, m2, m2, j2, m3]));
    let c: VecF = Arc::new(move |q, o| {
        let (p1, x2, y2, p2, x3) = (q[0], q[1], q[2], q[3], q[4]);
        o[0] = x2 - h2 * p2.cos() - l1 * p1.cos();
        o[1] = y2 - h2 * p2.sin() - l1 * p1.sin();
        o[2] = x2 + h2 * p2.cos() - x3;
        o[3] = y2 + h2 * p2.sin();
    });
    let jac: MatF = Arc::new(move |q, j| {
        let (p1, p2) = (q[0], q[3]);
        j.fill(0.0);
        j[(0, 0)] = l1 * p1.sin();
        j[(0, 1)] = 1.0;
        j[(0, 3)] = h2 * p2.sin();
        j[(1, 0)] = -l1 * p1.cos();
        j[(1, 2)] = 1.0;
        j[(1, 3)] = -h2 * p2.cos();
        j[(2, 1)] = 1.0;
        j[(2, 3)] = -h2 * p2.sin();
        j[(2, 4)] = -1.0;
        j[(3, 2)] = 1.0;
        j[(3, 3)] = h2 * p2.cos();
    });
    let gamma: PairF = Arc::new(move |q, v, g| {
        let (p1, p2, w1, w2) = (q[0], q[3], v[0], v[3]);
        g[0] = h2 * p2.cos() * w2 * w2 + l1 * p1.cos() * w1 * w1;
        g[1] = h2 * p2.sin() * w2 * w2 + l1 * p1.sin() * w1 * w1;
        g[2] = -h2 * p2.cos() * w2 * w2;
        g[3] = -h2 * p2.sin() * w2 * w2;
    });
    let force: PairF = Arc::new(move |q, _, f| {
        f.fill(0.0);
        f[0] = -m1 * G * 0.5 * l1 * q[0].cos();
        f[2] = -m2 * G;
    });
    let mc = mass.clone();
    let energy: EnergyF = Arc::new(move |q, v| {
        let vv = DVector::from_column_slice(v);
        0.5 * vv.dot(&(&mc * &vv)) + m1 * G * 0.5 * l1 * q[0].sin() + m2 * G * q[2]
    });
    let mm = mass.clone();
    Mechanism {
        name: "planar_slider_crank",
        n: 5,
        m: 4,
        constant_mass: Some(mass),
        mass: Arc::new(move |_, o| o.copy_from(&mm)),
        force,
        c,
        jac,
        gamma,
        energy,
        q0: vec![0.0, l1 + h2, 0.0, 0.0, l1 + l2],
        // at the dead centre: crank pin (0, l1 ω), slider at rest, so φ̇₂ = −l1 ω / l2, ẏ₂ = l1 ω / 2
        v0: vec![omega, 0.0, 0.5 * l1 * omega, -l1 * omega / l2, 0.0],
    }
}

/// The closed-form slider position of [`planar_slider_crank`]: `x₃ = l1 cos φ₁ + √(l2² − l1² sin² φ₁)`.
pub fn planar_slider_position(phi1: f64) -> f64 {
    let (l1, l2) = (0.15f64, 0.4f64);
    l1 * phi1.cos() + (l2 * l2 - l1 * l1 * phi1.sin().powi(2)).sqrt()
}
